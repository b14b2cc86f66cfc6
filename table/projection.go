package table

import (
	"context"
	"errors"
	"fmt"
	"reflect"
)

// ErrPartialItem is returned, before any request, by a write that would
// store an item read with a [Projection] (Put, Replace, Create, PutOp,
// BatchPut): a partial item never overwrites the whole.
var ErrPartialItem = errors.New("singletable: partial item (read with a projection) cannot be written back")

// FieldOf is a typed field of T whatever its value type: a [Field][T, V]
// built with [MustField], which checked its name when it was declared.
type FieldOf[T any] interface {
	Name() string
	fieldOf(*T)
}

func (Field[T, V]) fieldOf(*T) {}

// Projection names the attributes of T a read fetches (a
// ProjectionExpression), for reads that need a few of them: the fields,
// and what the engine itself reads (the keys, the entity type, the
// version, the TTL attribute and, with [Indexed], the index keys). Declare
// it once from typed fields:
//
//	var sourceState = table.Project(SourceStatus, SourceOwner)
//	src, err := sources.Get(ctx, k, sourceState.Read())
//	page, err := sources.List(ctx, q, sourceState.List())
//	cur, err := tbl.ReadCollection(ctx, q, sourceState.Into(sources, fn), ...)
//
// An item read so is partial: its [ReadState] says so, and a write of
// the whole item (Create, Put, Replace, PutOp, BatchPut) refuses it with
// [ErrPartialItem] before any request. Write what changed with
// [Entity.Change] or [Entity.Patch] instead. A type without a ReadState
// field cannot carry the mark: [Entity.Get], [Entity.List] and
// [Table.ReadCollection] refuse a projection for it ([ErrInvalidInput]),
// before any request. To read an item only to check a few fields, of any
// type, use [Entity.Peek]: it returns a read-only [Fields] view, no T.
type Projection[T any] struct{ p *projection }

type projection struct {
	typ   reflect.Type
	attrs []string
}

// Project returns the projection of fields (at least one).
func Project[T any](fields ...FieldOf[T]) Projection[T] {
	if len(fields) == 0 {
		panic("table.Project: no field")
	}
	p := &projection{typ: reflect.TypeFor[T]()}
	for _, f := range fields {
		p.attrs = append(p.attrs, f.Name())
	}
	return Projection[T]{p: p}
}

// Attrs returns the attribute names of the projection's fields.
func (p Projection[T]) Attrs() []string { return append([]string(nil), p.p.attrs...) }

// Read is the projection as an option of [Entity.Get].
func (p Projection[T]) Read() ReadOption { return func(o *readOpts) { o.project = p.p } }

// List is the projection as an option of [Entity.List] and
// [Entity.ListAll].
func (p Projection[T]) List() ListOption { return func(o *ListOptions) { o.project = p.p } }

// projectionFor returns p with the attributes the entity's primary key
// (and the indexes ixs) derive from, so that a partial item still knows
// its key; it refuses a projection of another type, or for a type that
// cannot mark an item partial.
func (e *Entity[T]) projectionFor(p *projection, ixs []Index) (*projection, error) {
	if p == nil {
		return nil, nil
	}
	if p.typ != reflect.TypeFor[T]() {
		return nil, &ValidationError{Entity: e.def.Type, Field: "projection", Reason: "a projection of " + p.typ.String() + " on an entity of " + reflect.TypeFor[T]().String()}
	}
	if e.readIdx == nil {
		return nil, &ValidationError{Entity: e.def.Type, Field: "projection", Reason: "the type has no table.ReadState field to mark a projected item partial"}
	}
	out := &projection{typ: p.typ, attrs: append(append(e.decl.pk.Attrs(), e.decl.sk.Attrs()...), p.attrs...)}
	for _, ix := range ixs {
		if _, ok := e.decl.indexes[ix]; ok {
			out.attrs = append(out.attrs, e.decl.Fields(ix)...)
		}
	}
	return out, nil
}

// getProjected is getRaw for a read with a projection: one GetItem
// fetching only its attributes; the item is marked partial.
func (e *Entity[T]) getProjected(ctx context.Context, k Key, ro readOpts) (T, int64, Item, error) {
	var zero T
	proj, err := e.projectionFor(ro.project, ro.indexed)
	if err != nil {
		return zero, 0, nil, err
	}
	t := e.t
	raw, err := t.c.GetItemAttrs(ctx, e.def.Type, k, ro.consistent, proj.attrs, ro.indexed)
	if err != nil {
		return zero, 0, nil, err
	}
	if raw == nil || t.c.Expired(raw) {
		return zero, 0, nil, ErrNotFound
	}
	v, ver, err := e.decode(raw)
	if err == nil {
		e.markPartial(&v)
	}
	return v, ver, raw, err
}

// markPartial marks item as read with a projection.
func (e *Entity[T]) markPartial(item *T) {
	if e.readIdx == nil || item == nil {
		return
	}
	f := reflect.ValueOf(item).Elem().FieldByIndex(e.readIdx)
	rs := f.Interface().(ReadState)
	img := &readImage{partial: true}
	if rs.r != nil {
		img.item = rs.r.item
	}
	f.Set(reflect.ValueOf(ReadState{r: img}))
}

// Partial reports whether the item was read with a projection: it holds
// only some attributes and cannot be written back whole.
func (s ReadState) Partial() bool { return s.r != nil && s.r.partial }

// isPartial reports whether item was read with a projection.
func (e *Entity[T]) isPartial(item *T) bool {
	return e.readIdx != nil && item != nil &&
		reflect.ValueOf(item).Elem().FieldByIndex(e.readIdx).Interface().(ReadState).Partial()
}

var errPartial = fmt.Errorf("%w: write what changed with Change or Patch, or read the whole item", ErrPartialItem)

// refusePartial returns ErrPartialItem for an item read with a projection.
func (e *Entity[T]) refusePartial(op string, item *T) error {
	if e.isPartial(item) {
		k, _ := e.KeyOf(item)
		return opErr(op, e.def.Type, k, errPartial)
	}
	return nil
}
