package table

import (
	"context"
	"slices"

	"github.com/singletable/singletable/internal/decl"
)

// WriteDef declares one write of one entity, as [PatternDef] declares a
// read: the catalog ID, the store field's name and a one-line Doc, once.
// [Create], [Put], [Update] and [Delete] register it ([Table.Ops]: the
// documents and cost records read it there) and return the typed
// function a store holds in that field: no method wraps the one request,
// and each call is one call of ID named Name for Options.Tracer.
type WriteDef[T any] struct {
	// ID is the catalog ID the write serves ("LB-73"); Name is
	// "package.Type.Field" of the store field holding the write
	// ("listbackup.Labels.Create"), the call's and cost record's name;
	// Doc says in one sentence what it does, for the documents.
	ID, Name, Doc string
	// Also lists further catalog IDs the write serves, for the documents
	// (LB-2 of the unique email a user's Create guards); calls are ID's.
	Also []string
	// Before, if set, runs on the item a Create or Put stores, inside the
	// call, before the request: the application's defaults (a new ID, a
	// first status). Its error is the write's, with no request.
	Before func(item *T) error
	// Live, if set, tells a stored item the application still has (not
	// soft-deleted): an Update of another is [ErrNotFound] with no write,
	// and a change that ends it is a *[ValidationError] naming LiveField
	// ("deletedAt": set by the entity's own soft delete only).
	Live      func(item *T) bool
	LiveField string
	// Check, if set, holds the caller's rules on an [Update]'s, [PatchWith]'s
	// or [Delete]'s key fields beyond their own: its error first, no request.
	Check func(key *T) error
}

// Writer is an [Entity] or its view of one tenant ([Entity.In]), which a
// declared write writes through.
type Writer[T any] interface {
	Items[T]
	entity() *Entity[T]
}

func (e *Entity[T]) entity() *Entity[T] { return e }
func (s *Scoped[T]) entity() *Entity[T] { return s.e }

// key is the checked key of fields ([Entity.CheckedKey], after d.Check).
func (d WriteDef[T]) key(w Writer[T], fields T) (Key, error) {
	return w.entity().CheckedKey(fields, decl.Checked(d.Check, &fields))
}

func (d WriteDef[T]) op(w Writer[T], kind string) Op {
	return w.entity().t.declareOp(OpInfo{ID: d.ID, Name: d.Name}, &WriteInfo{ID: d.ID, Name: d.Name, Doc: d.Doc, Kind: kind, Also: d.Also})
}

// WriteInfo describes a declared write for tools and documents
// ([Table.Writes]).
type WriteInfo = decl.WriteInfo

// Writes returns the writes declared on the table ([WriteDef]), and its
// declared unique reads ([ByUnique], Kind "GetByUnique"), in the order
// they were first declared; each is one of [Table.Ops] too.
func (t *Table) Writes() []WriteInfo {
	t.entMu.Lock()
	defer t.entMu.Unlock()
	return slices.Clone(t.writes)
}

// Create declares d as w's Create ([Entity.Create], [Scoped.Create]),
// after d.Before. Errors: *[ValidationError], [ErrAlreadyExists].
func Create[T any](w Writer[T], d WriteDef[T]) func(ctx context.Context, item *T) error {
	op, write := d.op(w, "Create"), decl.Before(d.Before, w.Create)
	return func(ctx context.Context, item *T) error {
		return op.Do(ctx, func(ctx context.Context) error { return write(ctx, item) })
	}
}

// Put declares d as [Entity.Put] of e, after d.Before. Errors:
// *[ValidationError].
func Put[T any](e *Entity[T], d WriteDef[T]) func(ctx context.Context, item *T) error {
	op, write := d.op(e, "Put"), decl.Before(d.Before, e.Put)
	return func(ctx context.Context, item *T) error {
		return op.Do(ctx, func(ctx context.Context) error { return write(ctx, item) })
	}
}

// Update declares d as w's Update ([Entity.Update], [Scoped.Update]) by
// the application's key type: key fills a T's key fields from a K (a
// small struct for a two-part key), checked by d.Check and
// [Entity.CheckedKey] (a bad key is a *[ValidationError], no request).
// With d.Live, a soft-deleted item is [ErrNotFound]. Errors:
// *[ValidationError], [ErrNotFound].
func Update[T, K any](w Writer[T], d WriteDef[T], key func(K) T) func(ctx context.Context, id K, change func(*T) error) (T, error) {
	op := d.op(w, "Update")
	return func(ctx context.Context, id K, change func(*T) error) (T, error) {
		return Run(ctx, op, func(ctx context.Context) (T, error) {
			k, err := d.key(w, key(id))
			if err != nil {
				return *new(T), err
			}
			return w.Update(ctx, k, decl.Live(d.Live, d.LiveField, change))
		})
	}
}

// Delete declares d as w's Delete ([Entity.Delete], [Scoped.Delete]),
// keyed as [Update]. Errors: *[ValidationError], [ErrNotFound].
func Delete[T, K any](w Writer[T], d WriteDef[T], key func(K) T) func(ctx context.Context, id K) error {
	op := d.op(w, "Delete")
	return func(ctx context.Context, id K) error {
		return op.Do(ctx, func(ctx context.Context) error {
			k, err := d.key(w, key(id))
			if err != nil {
				return err
			}
			return w.Delete(ctx, k)
		})
	}
}

// PatchWith declares d as w's Patch ([Entity.Patch], [Scoped.Patch]), keyed as [Update]: change
// builds the one UpdateItem's [Patch] from the call's key and the store's clock (a status, a
// lastUsedAt stamp), with no read. Errors: *[ValidationError], [ErrNotFound].
func PatchWith[T, K any](w Writer[T], d WriteDef[T], key func(K) T, change func(K) Patch) func(ctx context.Context, id K) (T, error) {
	op := d.op(w, "Patch")
	return func(ctx context.Context, id K) (T, error) {
		return Run(ctx, op, func(ctx context.Context) (T, error) {
			k, err := d.key(w, key(id))
			if err != nil {
				return *new(T), err
			}
			return w.Patch(ctx, k, change(id))
		})
	}
}

// UniqueDef declares a read by one unique value, as [WriteDef] a write.
type UniqueDef = decl.UniqueRead

// ByUnique declares d as e's [Entity.GetByUnique] of unique d.Unique ([Table.Writes] kind
// "GetByUnique"): the value checked (d.Check, before any request), normalized, looked up with
// opts. Errors: *[ValidationError], [ErrNotFound].
func ByUnique[T any](e *Entity[T], d UniqueDef, opts ...ReadOption) func(ctx context.Context, value string) (T, error) {
	op := e.t.declareOp(OpInfo{ID: d.ID, Name: d.Name}, &WriteInfo{ID: d.ID, Name: d.Name, Doc: d.Doc, Kind: "GetByUnique", Also: d.Also})
	return func(ctx context.Context, value string) (T, error) {
		return Run(ctx, op, func(ctx context.Context) (T, error) {
			v, err := d.Value(value)
			if err != nil {
				return *new(T), err
			}
			return e.GetByUnique(ctx, Unique{Name: d.Unique, Value: v}, opts...)
		})
	}
}
