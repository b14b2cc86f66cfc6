package table

import (
	"context"
	"slices"

	"github.com/singletable/singletable/internal/decl"
)

// WriteDef declares one write of one entity, as [PatternDef] declares a
// read: the catalog ID, the store field's name and a one-line Doc, once.
// [Create], [Put], [Upsert], [BatchPut], [Update] (and [UpdateWith],
// [Apply], [Rewrite], [SoftDelete]), [PatchWith] and [Delete] register it
// ([Table.Ops]: the documents and cost records read it there) and return
// the typed function a store holds in that field: no method wraps the one
// request, and each call is one call of ID named Name for Options.Tracer.
//
// Its fields are [decl.Write]'s: ID, Name, Doc, Also; Before (the defaults
// of the items a Create, Put, Upsert or BatchPut stores); Live and
// LiveField (an Update's soft-deleted items, required by [SoftDelete]: a
// [PatchWith] or [Delete] declaring it panics); Check (the key fields'
// caller rules, before any request). Its Updating and Ending hold Live, as
// [Update] and [SoftDelete] do, for a method calling [Entity.Update] itself.
type WriteDef[T any] = decl.Write[T]

// Writer is an [Entity] or its view of one tenant ([Entity.In]), which a
// declared write writes through.
type Writer[T any] interface {
	Items[T]
	entity() *Entity[T]
}

func (e *Entity[T]) entity() *Entity[T] { return e }
func (s *Scoped[T]) entity() *Entity[T] { return s.e }

// writeKey is the checked key of fields ([Entity.CheckedKey], after d.Check).
func writeKey[T any](w Writer[T], d WriteDef[T], fields T) (Key, error) {
	return w.entity().CheckedKey(fields, decl.Checked(d.Check, &fields))
}

func writeOp[T any](w Writer[T], d WriteDef[T], kind string) Op {
	return w.entity().t.declareOp(OpInfo{ID: d.ID, Name: d.Name}, &WriteInfo{ID: d.ID, Name: d.Name, Doc: d.Doc, Kind: kind, Also: d.Also}, nil)
}

// WriteInfo describes a declared write for tools and documents ([Table.Writes]).
type WriteInfo = decl.WriteInfo

// Writes returns the declared writes ([WriteDef]), first declared first; each is in [Table.Ops].
func (t *Table) Writes() []WriteInfo {
	t.entMu.Lock()
	defer t.entMu.Unlock()
	return slices.Clone(t.writes)
}

// Create declares d as w's Create ([Entity.Create], [Scoped.Create]), after d.Before. Errors:
// *[ValidationError], [ErrAlreadyExists], [ErrUniqueViolation], [ErrNoCipher] (a secret, no cipher).
func Create[T any](w Writer[T], d WriteDef[T]) func(ctx context.Context, item *T) error {
	return store(w, d, "Create", w.Create)
}

// Put declares d as [Entity.Put] of e, after d.Before; on an entity with unique values it
// panics (a Create keeps their guards). Errors: *[ValidationError], [ErrNoCipher] (as Create).
func Put[T any](e *Entity[T], d WriteDef[T]) func(ctx context.Context, item *T) error {
	decl.NoUniques(d, "Put", e.hasUniques())
	return store(e, d, "Put", e.Put)
}

// Upsert declares d as [Entity.Upsert] of e (what differs from the stored item written,
// attributes other writers keep left), after d.Before. Errors: [Update]'s but [ErrNotFound].
func Upsert[T any](e *Entity[T], d WriteDef[T]) func(ctx context.Context, item *T) error {
	return store(e, d, "Upsert", e.Upsert)
}

// store declares d as a write of kind storing one item with write, after d.Before.
func store[T any](w Writer[T], d WriteDef[T], kind string, write func(context.Context, *T) error) func(context.Context, *T) error {
	op, before := writeOp(w, d, kind), d.Before
	return func(ctx context.Context, item *T) error {
		return op.Do(ctx, func(ctx context.Context) error { return decl.Before(ctx, before, item, write) })
	}
}

// BatchPut declares d as [Entity.BatchPut] of e (BatchWriteItem, 25 items
// a request, unprocessed ones retried), after d.Before on each item; it
// panics as [Put] does. Errors: *[ValidationError] (a nil or bad item,
// before any request), *[BatchError].
func BatchPut[T any](e *Entity[T], d WriteDef[T]) func(ctx context.Context, items ...*T) error {
	decl.NoUniques(d, "BatchPut", e.hasUniques())
	op, before := writeOp(e, d, "BatchPut"), d.Before
	return func(ctx context.Context, items ...*T) error {
		return op.Do(ctx, func(ctx context.Context) error { return decl.BeforeEach(ctx, before, items, e.BatchPut) })
	}
}

// Update declares d as w's Update ([Entity.Update], [Scoped.Update]) by the application's key
// type: key fills a T's key fields from a K (a small struct for a two-part key), checked by
// d.Check and [Entity.CheckedKey] (a bad key is a *[ValidationError], no request). With d.Live,
// a soft-deleted item is [ErrNotFound]. Errors: *[ValidationError], [ErrNotFound],
// [ErrUniqueViolation] (a unique value taken), [ErrConflict] (Options.ConflictRetries spent),
// [ErrNoCipher] (a secret, no cipher), and the error change returns.
func Update[T, K any](w Writer[T], d WriteDef[T], key func(K) T) func(ctx context.Context, id K, change func(*T) error) (T, error) {
	op := writeOp(w, d, "Update")
	return func(ctx context.Context, id K, change func(*T) error) (T, error) {
		return Run(ctx, op, func(ctx context.Context) (T, error) {
			return update(ctx, w, d.Check, key(id), nil, decl.Live(d.Live, d.LiveField, change))
		})
	}
}

// UpdateWith declares d as w's Update keyed as [Update], whose change sets
// the call's argument (a status, a role, a device): its type's declared
// check ([NewEnum], [NewIDs]) naming field and its Validate() error method
// run first, then the key's (no request). Errors: as [Update].
func UpdateWith[T, K, A any](w Writer[T], d WriteDef[T], key func(K) T, field string, change func(*T, A) error) func(ctx context.Context, id K, arg A) (T, error) {
	check, op := decl.Arg[A](field), writeOp(w, d, "Update") // Arg may panic: before registering
	return func(ctx context.Context, id K, arg A) (T, error) {
		return Run(ctx, op, func(ctx context.Context) (T, error) {
			return update(ctx, w, d.Check, key(id), check(arg), decl.Live(d.Live, d.LiveField, func(item *T) error { return change(item, arg) }))
		})
	}
}

// Apply declares d as w's Update keyed as [Update] whose change is fixed
// at declaration (mark read, archive: the store's clock, no argument).
// Errors: as [Update].
func Apply[T, K any](w Writer[T], d WriteDef[T], key func(K) T, change func(*T) error) func(ctx context.Context, id K) (T, error) {
	update := Update(w, d, key)
	return func(ctx context.Context, id K) (T, error) { return update(ctx, id, change) }
}

// Rewrite declares d as w's [Apply] with no change: the item read and
// written back through the library (its index entries derived again,
// attributes other writers stored kept). Errors: as [Update].
func Rewrite[T, K any](w Writer[T], d WriteDef[T], key func(K) T) func(ctx context.Context, id K) (T, error) {
	return Apply(w, d, key, func(*T) error { return nil })
}

// SoftDelete declares d as w's soft delete, an Update keyed as [Update]
// whose change, fixed at declaration, ends a live item (a status, a
// deletedAt from the store's clock): d.Live is required (the declaration
// panics without it); an item it refuses is [ErrNotFound] with no write,
// and the changed item is not held to it. Errors: as [Update].
func SoftDelete[T, K any](w Writer[T], d WriteDef[T], key func(K) T, change func(*T) error) func(ctx context.Context, id K) error {
	op, ends := writeOp(w, decl.NeedLive(d), "SoftDelete"), decl.SoftDelete(d.Live, change) // Live tested before change only
	return func(ctx context.Context, id K) error {
		_, err := Run(ctx, op, func(ctx context.Context) (T, error) { return update(ctx, w, d.Check, key(id), nil, ends) })
		return err
	}
}

// update is a declared Update's call: argErr (the argument's check), the key of fields checked
// (check: WriteDef.Check), then change, wrapped by the caller in its rule for soft-deleted items.
func update[T any](ctx context.Context, w Writer[T], check func(*T) error, fields T, argErr error, change func(*T) error) (T, error) {
	k, err := w.entity().CheckedKey(fields, argErr, decl.Checked(check, &fields))
	if err != nil {
		return *new(T), err
	}
	return w.Update(ctx, k, change)
}

// Delete declares d as w's Delete ([Entity.Delete], [Scoped.Delete]), keyed as [Update].
// Errors: *[ValidationError], [ErrNotFound], [ErrConflict] (Options.ConflictRetries spent).
func Delete[T, K any](w Writer[T], d WriteDef[T], key func(K) T) func(ctx context.Context, id K) error {
	decl.NoLive(d, "Delete")
	op := writeOp(w, d, "Delete")
	return func(ctx context.Context, id K) error {
		return op.Do(ctx, func(ctx context.Context) error {
			k, err := writeKey(w, d, key(id))
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
	decl.NoLive(d, "PatchWith")
	op := writeOp(w, d, "Patch")
	return func(ctx context.Context, id K) (T, error) {
		return Run(ctx, op, func(ctx context.Context) (T, error) {
			k, err := writeKey(w, d, key(id))
			if err != nil {
				return *new(T), err
			}
			return w.Patch(ctx, k, change(id))
		})
	}
}

// UniqueDef declares a read by one unique value, as [WriteDef] a write.
type UniqueDef = decl.UniqueRead

// UniqueInfo describes a declared unique read for tools and documents ([Table.Uniques]).
type UniqueInfo = decl.UniqueInfo

// Uniques returns the declared unique reads ([ByUnique]), first declared first; each is in [Table.Ops].
func (t *Table) Uniques() []UniqueInfo {
	t.entMu.Lock()
	defer t.entMu.Unlock()
	return slices.Clone(t.uniques)
}

// ByUnique declares d as e's [Entity.GetByUnique] of unique d.Unique ([Table.Uniques]): the value
// checked (d.Check, before any request), normalized, looked up with opts. Errors:
// *[ValidationError], [ErrNotFound].
func ByUnique[T any](e *Entity[T], d UniqueDef, opts ...ReadOption) func(ctx context.Context, value string) (T, error) {
	op := e.t.declareOp(OpInfo{ID: d.ID, Name: d.Name}, nil, &UniqueInfo{ID: d.ID, Name: d.Name, Doc: d.Doc, Also: d.Also})
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
