package table

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
)

// Fields is a read-only view of some fields of one item of T, as
// [Entity.Peek] read them: read a field with [FieldValue], ask whether
// the item stored it with [Fields.Has], and its version with
// [Fields.Version]. It holds no T a caller can reach, and no write of the
// package takes a Fields: what was read only to check a few fields
// cannot be written back over the whole item. Write what changed with
// [Entity.Change] or [Entity.Patch], conditioned on the values read.
//
// Only the fields of the projection Peek was given can be read: reading
// another one panics (a programming error, found at the first run of the
// code that reads it, never a silent zero value). The zero Fields, such
// as Peek returns with an error, holds no field: reading one panics.
type Fields[T any] struct {
	item    T
	p       *projection
	present map[string]bool
	version int64
}

// Peek reads the item of T with key k only to check a few of its fields:
// one strongly consistent GetItem whose ProjectionExpression names p's
// fields and the attributes the engine reads itself (the table's keys,
// entity type, version and TTL attributes), the request
// [Table.GetOwner](ctx, k, true, p.Attrs()...) sends. The rest of the item
// is neither sent nor decoded (its secrets not decrypted).
//
// It returns a [Fields] view of p's fields, not a T: a T holding only
// some fields would be a partial item, and the view has nothing a write
// accepts. So Peek works for every type, with or without a [ReadState]
// field (the mark a projected [Entity.Get] needs).
//
// As [Entity.Get]: a missing item, one past its TTL, and one of another
// entity type (with a key of this type's shape) give [ErrNotFound]. An
// invalid key and the zero Projection (no field; declare projections
// with [Project]) are refused with [ErrInvalidInput] before any request.
func (e *Entity[T]) Peek(ctx context.Context, k Key, p Projection[T]) (Fields[T], error) {
	fail := func(err error) (Fields[T], error) { return Fields[T]{}, opErr("peek", e.def.Type, k, err) }
	if p.p == nil || len(p.p.attrs) == 0 {
		return fail(&ValidationError{Entity: e.def.Type, Field: "projection", Reason: "no field (declare the projection with table.Project)"})
	}
	if p.p.typ != reflect.TypeFor[T]() {
		return fail(&ValidationError{Entity: e.def.Type, Field: "projection", Reason: "a projection of " + p.p.typ.String() + " on an entity of " + reflect.TypeFor[T]().String()})
	}
	if err := keytmpl.CheckKey(k); err != nil {
		return fail(err)
	}
	raw, err := e.t.c.GetItemAttrs(ctx, e.def.Type, k, true, p.p.attrs, nil)
	if err != nil {
		return fail(err)
	}
	if raw == nil || e.t.c.Expired(raw) || !e.t.c.IsType(raw, e.def.Type) {
		return fail(ErrNotFound)
	}
	v, ver, err := e.decode(raw)
	if err != nil {
		return fail(err)
	}
	present := make(map[string]bool, len(p.p.attrs))
	for _, a := range p.p.attrs {
		_, present[a] = raw[a]
	}
	return Fields[T]{item: v, p: p.p, present: present, version: ver}, nil
}

// FieldValue returns field's value in the item f views: the zero V when
// the item does not store the attribute. It panics if field is not one of
// the projection f was read with (see [Fields]).
func FieldValue[T, V any](f Fields[T], field Field[T, V]) V {
	var zero V
	f.mustHold("FieldValue", field.name)
	fi := codec.FieldsOf(reflect.TypeFor[T]())[field.name]
	rv, err := reflect.ValueOf(&f.item).Elem().FieldByIndexErr(fi.Index)
	if err != nil { // under a nil embedded pointer: not stored
		return zero
	}
	vt := reflect.TypeFor[V]()
	if rv.Kind() == reflect.Pointer && vt.Kind() != reflect.Pointer {
		if rv.IsNil() {
			return zero
		}
		rv = rv.Elem()
	}
	if vt.Kind() == reflect.Interface || rv.Type() == vt {
		v, _ := rv.Interface().(V)
		return v
	}
	return rv.Convert(vt).Interface().(V) // MustField checked V converts
}

// Has reports whether the item f views stores field's attribute (a field
// FieldValue returns the zero value of may be absent or stored as zero).
// It panics if field is not one of the projection f was read with.
func (f Fields[T]) Has(field FieldOf[T]) bool {
	f.mustHold("Fields.Has", field.Name())
	return f.present[field.Name()]
}

// Version returns the item's version as stored in the table's version
// attribute (0 if the schema has none or the item carries none): the
// value to condition a write on the item being unchanged since the read.
func (f Fields[T]) Version() int64 { return f.version }

// mustHold panics unless attribute name is in f's projection.
func (f Fields[T]) mustHold(what, name string) {
	if f.p == nil {
		panic(fmt.Sprintf("table.%s(%q): an empty table.Fields (not returned by a successful Entity.Peek)", what, name))
	}
	for _, a := range f.p.attrs {
		if a == name {
			return
		}
	}
	panic(fmt.Sprintf("table.%s: field %q of %v is not in the projection read (%s): add it to the table.Project passed to Peek",
		what, name, f.p.typ, strings.Join(f.p.attrs, ", ")))
}
