package table

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/singletable/singletable/internal/ddb"
)

// Unique is one unique value of an item: Name says what kind ("email",
// "tag", "keyhash"), Value is the value itself (normalize it first, e.g.
// lower-case an email: the table keeps case).
//
// With Shared set the value is not unique but a lookup entry: every item
// holding it has an entry item of its own (PK SHARED#{name}#{value}, SK
// the holder's key), written and removed in the same transaction as the
// holder exactly like a guard, and [Table.LookupShared] lists the holders
// with one Query. Use it for multi-valued attributes that a GSI cannot
// index (a list of tags: a GSI takes one value per item); one item holds
// a value once.
type Unique = ddb.Unique

// GuardType is the entity-type attribute of guard items.
const GuardType = ddb.GuardType

// GuardKey returns the primary key of the guard item that holds u:
// PK = UNIQUE#{name}#{value}, SK = UNIQUE, with name and value escaped
// like key segments ([keys.Escape]: '%', '#', control characters and
// invalid UTF-8 become %XX), so that no two (name, value) pairs share a
// guard. Values holding none of those characters are stored as given.
func GuardKey(u Unique) Key { return ddb.GuardKey(u) }

// SharedPartition returns the partition key of a shared value's entries:
// SHARED#{name}#{value}, escaped like [GuardKey].
func SharedPartition(u Unique) string { return ddb.SharedPartition(u) }

// Guard is a guard item as stored: the unique value and the key of the
// item that holds it.
type Guard = ddb.Guard

// LookupUnique returns the key of the item holding u, or [ErrNotFound]:
// a strongly consistent GetItem on its guard, then one on the owner the
// guard names. The owner answers, never the guard: the entity bound to
// the table that owns the item decodes it, and a missing or expired owner,
// or one that no longer holds u (deleted or changed by a writer that does
// not know about guards), gives [ErrNotFound]; its orphan guard is
// reported to the Observer and removed ([OrphanGuardError]). An owner of
// no bound entity gives [ErrUnconfirmedGuard]. Two requests (a third, a
// transaction, only when an orphan is removed). To get the item, use
// [Entity.GetByUnique]: the same two reads.
func (t *Table) LookupUnique(ctx context.Context, u Unique) (Key, error) {
	if err := ddb.CheckLookup(u); err != nil {
		return Key{}, opErr("lookup unique", GuardType, Key{}, err)
	}
	g, err := t.c.ReadGuard(ctx, u)
	if err != nil {
		return Key{}, opErr("lookup unique", GuardType, GuardKey(u), err)
	}
	if _, _, err := t.confirmGuard(ctx, u, g, true); err != nil {
		return Key{}, opErr("lookup unique", GuardType, g.Owner, err)
	}
	return g.Owner, nil
}

// LookupUniques returns the guards of those values in us that are held,
// in the order of us, each confirmed by its owner like [Table.LookupUnique]:
// one BatchGetItem of the guards, one of the owners they name (each
// chunked and retried; eventually consistent: confirm with
// [Entity.GetByUnique] where the answer decides access). A guard whose
// owner is missing or no longer holds the value is left out, reported and
// removed (its removal is conditioned on the owner as read, so a value
// claimed since is kept); an owner of no bound entity gives
// [ErrUnconfirmedGuard].
func (t *Table) LookupUniques(ctx context.Context, us []Unique) ([]Guard, error) {
	guards, byKey, err := t.c.ReadGuards(ctx, us)
	if err != nil {
		return nil, opErr("lookup unique", GuardType, Key{}, err)
	}
	var out []Guard
	for _, g := range guards {
		_, err := t.confirmRaw(ctx, g.Unique, g, byKey[g.Owner], true)
		switch {
		case err == nil:
			out = append(out, g)
		case !errors.Is(err, ErrNotFound):
			return nil, opErr("lookup unique", GuardType, g.Owner, err)
		}
	}
	return out, nil
}

// GetByUnique returns the item holding unique value u, or [ErrNotFound]:
// a strongly consistent GetItem on the guard, then one on the owner it
// names. The owner answers, never the guard: a missing or expired owner,
// or one that no longer holds u (deleted or changed by a writer that does
// not know about guards), gives [ErrNotFound], and its orphan guard is
// reported to the Observer and removed ([OrphanGuardError]); so does a
// value held by an item of another entity (its guard is kept). A lookup
// racing a change of the value never returns the previous owner. Two
// requests: the guard is the only way from the value to the owner's key
// (a third, a transaction, only when an orphan is removed). Options:
// [Indexed] also requires the owner to be stored under a GSI. An owner
// revoked by its entity's Def.ValidWhileIndexed gives [ErrNotFound] (its
// guard is kept).
func (e *Entity[T]) GetByUnique(ctx context.Context, u Unique, opts ...ReadOption) (T, error) {
	var zero T
	ro := readOptsOf(opts)
	if err := ddb.CheckLookup(u); err != nil {
		return zero, opErr("get by unique", e.def.Type, Key{}, err)
	}
	g, err := e.t.c.ReadGuard(ctx, u)
	if err != nil {
		return zero, opErr("get by unique", GuardType, GuardKey(u), err)
	}
	return e.confirmOwner(ctx, u, g, ro)
}

// LookupShared lists the holders of shared value u (see [Unique]): one
// Query of SHARED#{name}#{value} per page, ordered by the holders' keys.
// Options: [Limit], [After], [Desc]. Entries of expired holders are left
// out. Like a GSI the answer reflects committed transactions only, but it
// is read strongly consistent: a holder whose write returned is listed.
func (t *Table) LookupShared(ctx context.Context, u Unique, opts ...ListOption) (Page[Guard], error) {
	if !u.Shared {
		return Page[Guard]{}, opErr("lookup shared", GuardType, Key{}, &ValidationError{Field: "unique " + u.Name, Reason: "not a shared value; use LookupUnique"})
	}
	if err := ddb.CheckUnique(u); err != nil {
		return Page[Guard]{}, opErr("lookup shared", GuardType, Key{}, err)
	}
	o, err := NewListOptions(opts...)
	if err != nil {
		return Page[Guard]{}, err
	}
	q := o.Apply(Query{PK: SharedPartition(u), SK: SKBeginsWith("HOLDER#")})
	q.Consistent = true
	p, err := t.queryItems(ctx, q, GuardType)
	if err != nil {
		return Page[Guard]{}, err
	}
	out := Page[Guard]{Cursor: p.Cursor, Items: make([]Guard, 0, len(p.Items))}
	for _, raw := range p.Items {
		if g, ok := ddb.DecodeGuard(raw); ok && !t.c.Expired(raw) {
			g.Shared = true
			out.Items = append(out.Items, g)
		}
	}
	return out, nil
}

// EnsureGuards makes sure the item with key k holds the guards of its
// unique values: those it lacks (an item written by another service, or
// one whose duplicate value was left unguarded by an update) are claimed
// now, in one transaction with a version-checked write of the item; a
// guard held by another item gives [ErrUniqueViolation] (a duplicate
// already in the data). An item holding all its guards costs one read of
// the item and one of each guard, and nothing is written.
func (e *Entity[T]) EnsureGuards(ctx context.Context, k Key) error {
	if !e.hasUniques() {
		return nil
	}
	for attempt := 0; ; attempt++ {
		orig, ver, raw, err := e.getRaw(ctx, k, Consistent())
		if err != nil {
			return opErr("ensure guards", e.def.Type, k, err)
		}
		cur, err := e.decodeCopy(raw)
		if err != nil {
			return opErr("ensure guards", e.def.Type, k, err)
		}
		if ver > 0 && e.t.c.HoldsGuards(ctx, k, e.uniques(&orig)) {
			return nil
		}
		err = e.writeDiff(ctx, k, &orig, raw, ver, &cur, diffWrite{ensureAll: true})
		if errors.Is(err, ErrConflict) && !errors.Is(err, ErrUniqueViolation) && attempt < e.t.opts.ConflictRetries {
			continue
		}
		return opErr("ensure guards", e.def.Type, k, err)
	}
}

// A lookup by unique value that is not typed ([Table.LookupUnique],
// [Table.LookupUniques]) is confirmed by the engine like a typed one: the
// owner a guard names is read, the entity bound to the table that owns the
// item (by its entity-type attribute, or Def.Match of its key) decodes it,
// and the guard answers only when that item still holds the guarded value.
// There is no unconfirmed way from a value to an owner's key.

// ErrUnconfirmedGuard is returned by a lookup whose guard names an item
// that no entity bound to the table (with [NewEntity]) owns: the engine
// cannot tell whether it still holds the value, so it does not answer.
var ErrUnconfirmedGuard = errors.New("unique guard names an item of no bound entity")

// guardHolder is what the engine asks an entity of an owner it read.
type guardHolder interface {
	Type() string
	Owns(raw Item) bool
	// holdsRaw reports whether raw (an item of this entity) holds u, and
	// its version.
	holdsRaw(raw Item, u Unique) (bool, int64, error)
}

func (e *Entity[T]) holdsRaw(raw Item, u Unique) (bool, int64, error) {
	item, ver, err := e.decodeWith(raw, true)
	if err != nil {
		return false, 0, err
	}
	return e.hasUniques() && slices.Contains(e.uniques(&item), u), ver, nil
}

// holderOf returns the bound entity that owns raw, or nil.
func (t *Table) holderOf(raw Item) guardHolder {
	for _, e := range t.Entities() {
		if h, ok := e.(guardHolder); ok && h.Owns(raw) {
			return h
		}
	}
	return nil
}

// typeOfKey names the bound entity whose Def.Match recognises k (for
// reports about an owner that is gone), or GuardType.
func (t *Table) typeOfKey(k Key) string {
	for _, e := range t.Entities() {
		if m, ok := e.(interface{ matchesKey(Key) bool }); ok && m.matchesKey(k) {
			return e.Type()
		}
	}
	return GuardType
}

func (e *Entity[T]) matchesKey(k Key) bool { return e.decl.Match(k) }

// confirmGuard reads the owner guard g of u names (strongly consistent)
// and returns it with the entity that owns it when it is live and holds
// u. An orphan guard (owner missing, expired, or no longer holding u) is
// reported and, with drop, removed; it gives [ErrNotFound].
func (t *Table) confirmGuard(ctx context.Context, u Unique, g Guard, drop bool) (Item, guardHolder, error) {
	raw, err := t.c.GetItem(ctx, t.typeOfKey(g.Owner), g.Owner, true, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	h, err := t.confirmRaw(ctx, u, g, raw, drop)
	return raw, h, err
}

// confirmRaw is confirmGuard on an owner already read (nil when missing).
func (t *Table) confirmRaw(ctx context.Context, u Unique, g Guard, raw Item, drop bool) (guardHolder, error) {
	if raw == nil || t.c.Expired(raw) {
		t.c.DropOrphan(ctx, t.typeOfKey(g.Owner), u, g, true, 0, drop)
		return nil, ErrNotFound
	}
	h := t.holderOf(raw)
	if h == nil {
		return nil, fmt.Errorf("%w: %s/%s (bind its entity with NewEntity)", ErrUnconfirmedGuard, g.Owner.PK, g.Owner.SK)
	}
	holds, ver, err := h.holdsRaw(raw, u)
	if err != nil {
		return nil, err
	}
	if !holds {
		t.c.DropOrphan(ctx, h.Type(), u, g, false, ver, drop)
		return nil, ErrNotFound
	}
	return h, nil
}

// A guard is an index, never the truth. A lookup by a unique value reads
// the guard to learn the owner's key, then the owner itself (strongly
// consistent), and answers from the owner only: a guard whose owner is
// missing or expired, or whose owner no longer holds the guarded value
// (another writer deleted it, or changed the value without knowing about
// guards), answers nothing. Such an orphan guard is reported to
// Options.Observer (an [Event] with Op [OpOrphanGuard] and an
// [*OrphanGuardError]) and removed by a conditional delete that never
// removes a guard re-claimed concurrently (see [OrphanGuardError]).

// OpOrphanGuard is the Op of the [Event] that reports an orphan guard
// found by a read. It is a report, not a DynamoDB request: the delete that
// removes the guard is reported on its own, as a TransactWriteItems.
const OpOrphanGuard = ddb.OpOrphanGuard

// ErrOrphanGuard matches every [*OrphanGuardError].
var ErrOrphanGuard = ddb.ErrOrphanGuard

// OrphanGuardError describes a guard found holding a value for an item that
// is gone or no longer holds it. The guard is removed by one transaction:
// a delete conditioned on the guard still naming Guard.Owner, and a
// condition check on the owner: still absent (or expired) when it was
// missing, still at Version when it no longer held the value. A concurrent
// re-claim writes the owner (or another owner) in the guard's own
// transaction, so it fails that condition and the re-claimed guard stays.
// OwnerMissing is true when the owner was missing or expired, false when
// it exists but no longer holds the value; Version is the owner's version
// as read; Removed reports whether the conditional delete removed the
// guard, and DeleteErr why it did not.
type OrphanGuardError = ddb.OrphanGuardError

// Indexed is a read option of [Entity.GetByUnique] and [Entity.Get]: the
// item found must also be stored under
// each named GSI with the key its fields derive, as its stored index
// attributes say (not only the fields they derive from). On a table shared
// with a writer that takes an item out of an index by removing its index
// attributes (a service may revoke an API key so, leaving the item),
// such an item is not found. Its guard is not an orphan (the item still
// holds the value) and is kept.
func Indexed(ix ...Index) ReadOption {
	return func(o *readOpts) { o.indexed = append(o.indexed, ix...) }
}

// confirmOwner reads the owner named by guard g of u (strongly consistent)
// and returns it if it is an item of this entity, live, holds u and is
// indexed as ro asks. An orphan guard is reported and removed; every
// refusal is [ErrNotFound] (a value held by an item of another entity
// too: its guard is not an orphan and is kept).
func (e *Entity[T]) confirmOwner(ctx context.Context, u Unique, g Guard, ro readOpts) (T, error) {
	var zero T
	owner := e.def.Type // the entity the read is observed under
	if !e.matchesKey(g.Owner) {
		owner = e.t.typeOfKey(g.Owner)
	}
	raw, err := e.t.c.GetItem(ctx, owner, g.Owner, true, nil, nil)
	if err != nil {
		return zero, opErr("get by unique", e.def.Type, g.Owner, err)
	}
	// The common case, an owner of this entity that holds u, decodes the
	// owner once: the item checked is the item returned. That it holds u
	// is read from the stored attributes when the declarations allow
	// (uniqueRaw), else from the decoded item encoded again. Anything else
	// (gone, another entity's, no longer holding u, not decoding) takes
	// confirmRaw, which reports and removes an orphan guard.
	if raw != nil && !e.t.c.Expired(raw) && e.hasUniques() {
		if h := e.t.holderOf(raw); h != nil && h.Type() == e.def.Type {
			if item, _, err := e.decode(raw); err == nil && (e.decl.UniqueRaw && slices.Contains(e.decl.Uniques(raw), u) || slices.Contains(e.uniques(&item), u)) {
				return e.indexedOwner(raw, item, g, ro)
			}
		}
	}
	h, err := e.t.confirmRaw(ctx, u, g, raw, true)
	if errors.Is(err, ErrUnconfirmedGuard) {
		err = ErrNotFound // not an item of this entity
	}
	if err != nil {
		return zero, opErr("get by unique", e.def.Type, g.Owner, err)
	}
	if h.Type() != e.def.Type {
		return zero, opErr("get by unique", e.def.Type, g.Owner, ErrNotFound)
	}
	item, _, err := e.decode(raw)
	if err != nil {
		return zero, opErr("get by unique", e.def.Type, g.Owner, err)
	}
	return e.indexedOwner(raw, item, g, ro)
}

// indexedOwner returns item, the confirmed owner read as raw, when it is
// stored under the GSIs ro requires ([Indexed], [Valid]), else
// [ErrNotFound].
func (e *Entity[T]) indexedOwner(raw Item, item T, g Guard, ro readOpts) (T, error) {
	var zero T
	if ixs := e.checkIndexes(ro, true); len(ixs) > 0 {
		ok, err := e.storedUnder(raw, &item, ixs)
		if err != nil {
			return zero, opErr("get by unique", e.def.Type, g.Owner, err)
		}
		if !ok {
			return zero, opErr("get by unique", e.def.Type, g.Owner, ErrNotFound)
		}
	}
	return item, nil
}

// storedUnder reports whether raw holds, for each index of ixs, the index
// key item's fields derive (an index the item derives no key for fails).
func (e *Entity[T]) storedUnder(raw Item, item *T, ixs []Index) (bool, error) {
	if len(e.decl.Indexes) == 0 {
		return false, nil
	}
	want, err := e.indexKeys(item)
	if err != nil {
		return false, err
	}
	return e.t.c.StoredUnder(raw, want, ixs)
}
