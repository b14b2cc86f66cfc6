package table

import (
	"github.com/singletable/singletable/internal/ddb"
	"reflect"
	"time"
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

// stampCreate applies the Timestamps and then Def.Touch to item as a
// create does.
func (e *Entity[T]) stampCreate(item *T, now time.Time) {
	if e.stamps != nil {
		e.stamps.OnCreate(reflect.ValueOf(item).Elem(), now)
	}
	if e.def.Touch != nil {
		e.def.Touch(item, now, true)
	}
}

// stampWrite applies the Timestamps and then Def.Touch to item as every
// other write does; whole is an unconditional whole-item write (Put).
func (e *Entity[T]) stampWrite(item *T, now time.Time, whole bool) {
	if e.stamps != nil {
		e.stamps.OnWrite(reflect.ValueOf(item).Elem(), now, whole)
	}
	if e.def.Touch != nil {
		e.def.Touch(item, now, false)
	}
}

// stampedUpdated returns the Updated attribute as a patch sets it (now,
// encoded as the field is), or false when none is declared.
func (e *Entity[T]) stampedUpdated(now time.Time) (ddb.Touched, bool) {
	if e.stamps == nil || e.stamps.Updated == nil {
		return ddb.Touched{}, false
	}
	var v T
	e.stamps.Updated.Set(reflect.ValueOf(&v).Elem(), e.stamps.At(now))
	av, err := e.encodeItem(&v)
	if err != nil {
		return ddb.Touched{}, false
	}
	val, ok := av[e.stamps.Updated.Name]
	return ddb.Touched{Name: e.stamps.Updated.Name, Value: val}, ok
}
