package codec

import (
	"fmt"
	"reflect"
	"time"
)

// Timestamps names an entity's creation and last-write time attributes
// and their precision (table.Timestamps).
type Timestamps struct {
	Created, Updated string
	Precision        time.Duration
}

// timeField is table.TimeField: a field type other than time.Time that
// holds a time in a layout of its own.
type timeField interface {
	IsZero() bool
	SetTime(t time.Time)
}

var timeFieldType = reflect.TypeFor[timeField]()

// StampField is one Timestamps attribute of an entity's type.
type StampField struct {
	Name  string
	index []int
	typ   reflect.Type
}

// Stamps is an entity's Timestamps, bound to its type's fields.
type Stamps struct {
	Created, Updated *StampField
	precision        time.Duration
}

// BindStamps binds ts to the fields of t (nil when nothing is
// declared); it panics on an attribute T does not have or of a type that
// cannot hold a time.
func BindStamps(entity string, t reflect.Type, ts Timestamps) *Stamps {
	if ts.Created == "" && ts.Updated == "" {
		if ts.Precision != 0 {
			panic(fmt.Sprintf("table.NewEntity: %s: Timestamps.Precision without Created or Updated", entity))
		}
		return nil
	}
	if ts.Precision < 0 {
		panic(fmt.Sprintf("table.NewEntity: %s: Timestamps.Precision %v is negative", entity, ts.Precision))
	}
	bind := func(name string) *StampField {
		if name == "" {
			return nil
		}
		fi, ok := FieldsOf(t)[name]
		if !ok {
			panic(fmt.Sprintf("table.NewEntity: %s: Timestamps names %q, not an attribute of the type", entity, name))
		}
		if fi.ViaPointer {
			panic(fmt.Sprintf("table.NewEntity: %s: Timestamps attribute %q is inside an embedded pointer", entity, name))
		}
		if fi.Typ != TimeType && fi.Typ != reflect.PointerTo(TimeType) && !reflect.PointerTo(fi.Typ).Implements(timeFieldType) {
			panic(fmt.Sprintf("table.NewEntity: %s: Timestamps attribute %q is a %v, not a time.Time, *time.Time or table.TimeField", entity, name, fi.Typ))
		}
		return &StampField{Name: name, index: fi.Index, typ: fi.Typ}
	}
	s := &Stamps{Created: bind(ts.Created), Updated: bind(ts.Updated), precision: ts.Precision}
	if s.Created != nil && s.Updated != nil && s.Created.Name == s.Updated.Name {
		panic(fmt.Sprintf("table.NewEntity: %s: Timestamps.Created and Updated are both %q", entity, ts.Created))
	}
	return s
}

// At is now as the stamps store it: UTC, truncated to the precision.
func (s *Stamps) At(now time.Time) time.Time {
	now = now.UTC()
	if s.precision > 1 {
		now = now.Truncate(s.precision)
	}
	return now
}

// field is f in the struct v points to.
func (f *StampField) field(v reflect.Value) reflect.Value { return v.FieldByIndex(f.index) }

// isZero reports whether f holds no time in v.
func (f *StampField) isZero(v reflect.Value) bool {
	fv := f.field(v)
	switch f.typ {
	case TimeType:
		return fv.Interface().(time.Time).IsZero()
	case reflect.PointerTo(TimeType):
		return fv.IsNil() || fv.Elem().Interface().(time.Time).IsZero()
	}
	return fv.Addr().Interface().(timeField).IsZero()
}

// Set sets f in v to t.
func (f *StampField) Set(v reflect.Value, t time.Time) {
	fv := f.field(v)
	switch f.typ {
	case TimeType:
		fv.Set(reflect.ValueOf(t))
	case reflect.PointerTo(TimeType):
		fv.Set(reflect.ValueOf(&t))
	default:
		fv.Addr().Interface().(timeField).SetTime(t)
	}
}

// copyCreated sets Updated to the time Created holds in v.
func (s *Stamps) copyCreated(v reflect.Value, now time.Time) {
	c, u := s.Created.field(v), s.Updated.field(v)
	switch {
	case s.Created.typ == s.Updated.typ && s.Created.typ != reflect.PointerTo(TimeType):
		u.Set(c)
	case s.Created.typ == TimeType:
		s.Updated.Set(v, c.Interface().(time.Time))
	case s.Created.typ == reflect.PointerTo(TimeType):
		s.Updated.Set(v, *c.Interface().(*time.Time))
	default: // a TimeField into another type: the time it was set to
		s.Updated.Set(v, now)
	}
}

// OnCreate stamps a new item: Created and Updated where zero, Updated
// then equal to Created.
func (s *Stamps) OnCreate(v reflect.Value, now time.Time) {
	now = s.At(now)
	if s.Created != nil && s.Created.isZero(v) {
		s.Created.Set(v, now)
	}
	if s.Updated != nil && s.Updated.isZero(v) {
		if s.Created != nil {
			s.copyCreated(v, now)
		} else {
			s.Updated.Set(v, now)
		}
	}
}

// OnWrite stamps an update: Updated set to now. whole (an unconditional
// Put, which may create) also sets a zero Created.
func (s *Stamps) OnWrite(v reflect.Value, now time.Time, whole bool) {
	now = s.At(now)
	if whole && s.Created != nil && s.Created.isZero(v) {
		s.Created.Set(v, now)
	}
	if s.Updated != nil {
		s.Updated.Set(v, now)
	}
}
