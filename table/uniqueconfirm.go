package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

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
	return e.fn.unique != nil && slices.Contains(e.fn.unique(&item), u), ver, nil
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

func (e *Entity[T]) matchesKey(k Key) bool { return e.fn.match != nil && e.fn.match(k) }

// readGuard is one GetItem of u's guard; a free value (no guard, or one
// past its TTL) is [ErrNotFound]. Its answer is the guard, not the owner:
// only confirmGuard may turn it into one.
func (t *Table) readGuard(ctx context.Context, u Unique) (Guard, error) {
	raw, err := t.getItem(ctx, GuardType, GuardKey(u), true)
	if err != nil {
		return Guard{}, err
	}
	g, ok := t.decodeGuard(raw)
	if raw == nil || !ok || t.c.Expired(raw) {
		return Guard{}, ErrNotFound
	}
	g.Unique = u
	return g, nil
}

// confirmGuard reads the owner guard g of u names (strongly consistent)
// and returns it with the entity that owns it when it is live and holds
// u. An orphan guard (owner missing, expired, or no longer holding u) is
// reported and, with drop, removed; it gives [ErrNotFound].
func (t *Table) confirmGuard(ctx context.Context, u Unique, g Guard, drop bool) (Item, guardHolder, error) {
	raw, err := t.getItem(ctx, t.typeOfKey(g.Owner), g.Owner, true)
	if err != nil {
		return nil, nil, err
	}
	h, err := t.confirmRaw(ctx, u, g, raw, drop)
	return raw, h, err
}

// confirmRaw is confirmGuard on an owner already read (nil when missing).
func (t *Table) confirmRaw(ctx context.Context, u Unique, g Guard, raw Item, drop bool) (guardHolder, error) {
	if raw == nil || t.c.Expired(raw) {
		t.dropOrphan(ctx, t.typeOfKey(g.Owner), u, g, true, 0, drop)
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
		t.dropOrphan(ctx, h.Type(), u, g, false, ver, drop)
		return nil, ErrNotFound
	}
	return h, nil
}
