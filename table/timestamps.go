package table

import (
	"fmt"
	"reflect"
	"time"

	"github.com/singletable/singletable/internal/codec"
)

// Timestamps declares an entity's creation and last-write times by
// attribute name, and the precision they are stored to. The engine keeps
// them through one code path for every write:
//
//   - A create ([Entity.Create], CreateOp, CreateIn, Import and the
//     creating branch of Upsert) sets Created when it is zero, and Updated
//     when it is zero to the Created value (a new item has not been
//     updated since it was created). A value the item already holds is
//     kept: an imported or migrated item keeps its times, and a create
//     retried with the same item (or retried by the SDK after a lost
//     response) stores the first attempt's times.
//   - Every other write sets Updated to now: [Entity.Update],
//     [Entity.Replace], the updating branch of Upsert, [Entity.Patch],
//     [Entity.Add], [Entity.Change] and their Op forms, unless
//     Patch.NoTouch (or the adoption job, which is not an update of the
//     item). No update writes Created: a create sets it, an update never
//     changes it. A Patch that sets Updated itself keeps its value; one on
//     an entity whose index key derives from Updated leaves it to Update.
//   - A whole-item write without a condition ([Entity.Put], PutOp,
//     BatchPut) may create the item: it sets Updated to now, and Created
//     to now when the item's is zero.
//
// Times are taken from the table's clock (Options.Now), in UTC, truncated
// to Precision: time.Millisecond for a JavaScript writer's toISOString,
// time.Second for epoch seconds (a `unixtime` field); zero (or
// time.Nanosecond) keeps the clock's full precision. The stored form is
// the field's own encoding: a time.Time is an RFC 3339 string (epoch
// seconds with `unixtime`), a type implementing [TimeField] encodes itself.
// Reading is tolerant: a time another writer stored with another precision
// is read as stored and written back unchanged unless a write stamps it.
//
// The fields must be time.Time, *time.Time or a [TimeField]; NewEntity
// panics on an attribute the type does not have or of another type.
// Def.Touch runs after the stamps, so a field it derives (an expiry from
// createdAt) sees them.
type Timestamps struct {
	// Created names the attribute holding when the item was created
	// ("createdAt"); empty for none.
	Created string
	// Updated names the attribute holding when the item was last written
	// ("updatedAt"); empty for none.
	Updated string
	// Precision is the unit the times are truncated to.
	Precision time.Duration
}

// TimeField is implemented, on its pointer, by a field type other than
// time.Time that a [Timestamps] attribute may have: a time stored in a
// layout of its own (ISO strings with three fractional digits, say).
type TimeField interface {
	// IsZero reports whether the field holds no time.
	IsZero() bool
	// SetTime sets the field to t (already truncated to the precision).
	SetTime(t time.Time)
}

var timeFieldType = reflect.TypeFor[TimeField]()

// stampField is one Timestamps attribute of T.
type stampField struct {
	name  string
	index []int
	typ   reflect.Type
}

// stamps is a Def's Timestamps, bound to T's fields.
type stamps struct {
	created, updated *stampField
	precision        time.Duration
}

// bindTimestamps binds ts to the fields of T (nil when nothing is
// declared); it panics on an attribute T does not have or of a type that
// cannot hold a time.
func bindTimestamps(entity string, t reflect.Type, ts Timestamps) *stamps {
	if ts.Created == "" && ts.Updated == "" {
		if ts.Precision != 0 {
			panic(fmt.Sprintf("table.NewEntity: %s: Timestamps.Precision without Created or Updated", entity))
		}
		return nil
	}
	if ts.Precision < 0 {
		panic(fmt.Sprintf("table.NewEntity: %s: Timestamps.Precision %v is negative", entity, ts.Precision))
	}
	bind := func(name string) *stampField {
		if name == "" {
			return nil
		}
		fi, ok := codec.FieldsOf(t)[name]
		if !ok {
			panic(fmt.Sprintf("table.NewEntity: %s: Timestamps names %q, not an attribute of the type", entity, name))
		}
		if fi.ViaPointer {
			panic(fmt.Sprintf("table.NewEntity: %s: Timestamps attribute %q is inside an embedded pointer", entity, name))
		}
		if fi.Typ != codec.TimeType && fi.Typ != reflect.PointerTo(codec.TimeType) && !reflect.PointerTo(fi.Typ).Implements(timeFieldType) {
			panic(fmt.Sprintf("table.NewEntity: %s: Timestamps attribute %q is a %v, not a time.Time, *time.Time or table.TimeField", entity, name, fi.Typ))
		}
		return &stampField{name: name, index: fi.Index, typ: fi.Typ}
	}
	s := &stamps{created: bind(ts.Created), updated: bind(ts.Updated), precision: ts.Precision}
	if s.created != nil && s.updated != nil && s.created.name == s.updated.name {
		panic(fmt.Sprintf("table.NewEntity: %s: Timestamps.Created and Updated are both %q", entity, ts.Created))
	}
	return s
}

// at is now as the stamps store it: UTC, truncated to the precision.
func (s *stamps) at(now time.Time) time.Time {
	now = now.UTC()
	if s.precision > 1 {
		now = now.Truncate(s.precision)
	}
	return now
}

// field is f in the struct v points to.
func (f *stampField) field(v reflect.Value) reflect.Value { return v.FieldByIndex(f.index) }

// isZero reports whether f holds no time in v.
func (f *stampField) isZero(v reflect.Value) bool {
	fv := f.field(v)
	switch f.typ {
	case codec.TimeType:
		return fv.Interface().(time.Time).IsZero()
	case reflect.PointerTo(codec.TimeType):
		return fv.IsNil() || fv.Elem().Interface().(time.Time).IsZero()
	}
	return fv.Addr().Interface().(TimeField).IsZero()
}

// set sets f in v to t.
func (f *stampField) set(v reflect.Value, t time.Time) {
	fv := f.field(v)
	switch f.typ {
	case codec.TimeType:
		fv.Set(reflect.ValueOf(t))
	case reflect.PointerTo(codec.TimeType):
		fv.Set(reflect.ValueOf(&t))
	default:
		fv.Addr().Interface().(TimeField).SetTime(t)
	}
}

// copyCreated sets Updated to the time Created holds in v.
func (s *stamps) copyCreated(v reflect.Value, now time.Time) {
	c, u := s.created.field(v), s.updated.field(v)
	switch {
	case s.created.typ == s.updated.typ && s.created.typ != reflect.PointerTo(codec.TimeType):
		u.Set(c)
	case s.created.typ == codec.TimeType:
		s.updated.set(v, c.Interface().(time.Time))
	case s.created.typ == reflect.PointerTo(codec.TimeType):
		s.updated.set(v, *c.Interface().(*time.Time))
	default: // a TimeField into another type: the time it was set to
		s.updated.set(v, now)
	}
}

// onCreate stamps a new item: Created and Updated where zero, Updated
// then equal to Created.
func (s *stamps) onCreate(v reflect.Value, now time.Time) {
	now = s.at(now)
	if s.created != nil && s.created.isZero(v) {
		s.created.set(v, now)
	}
	if s.updated != nil && s.updated.isZero(v) {
		if s.created != nil {
			s.copyCreated(v, now)
		} else {
			s.updated.set(v, now)
		}
	}
}

// onWrite stamps an update: Updated set to now. whole (an unconditional
// Put, which may create) also sets a zero Created.
func (s *stamps) onWrite(v reflect.Value, now time.Time, whole bool) {
	now = s.at(now)
	if whole && s.created != nil && s.created.isZero(v) {
		s.created.set(v, now)
	}
	if s.updated != nil {
		s.updated.set(v, now)
	}
}

// stampCreate applies the Timestamps and then Def.Touch to item as a
// create does.
func (e *Entity[T]) stampCreate(item *T, now time.Time) {
	if e.stamps != nil {
		e.stamps.onCreate(reflect.ValueOf(item).Elem(), now)
	}
	if e.def.Touch != nil {
		e.def.Touch(item, now, true)
	}
}

// stampWrite applies the Timestamps and then Def.Touch to item as every
// other write does; whole is an unconditional whole-item write (Put).
func (e *Entity[T]) stampWrite(item *T, now time.Time, whole bool) {
	if e.stamps != nil {
		e.stamps.onWrite(reflect.ValueOf(item).Elem(), now, whole)
	}
	if e.def.Touch != nil {
		e.def.Touch(item, now, false)
	}
}

// stampedUpdated returns the Updated attribute as a patch sets it (now,
// encoded as the field is), or false when none is declared.
func (e *Entity[T]) stampedUpdated(now time.Time) (touchedAttr, bool) {
	if e.stamps == nil || e.stamps.updated == nil {
		return touchedAttr{}, false
	}
	var v T
	e.stamps.updated.set(reflect.ValueOf(&v).Elem(), e.stamps.at(now))
	av, err := e.encodeItem(&v)
	if err != nil {
		return touchedAttr{}, false
	}
	val, ok := av[e.stamps.updated.name]
	return touchedAttr{name: e.stamps.updated.name, value: val}, ok
}
