package table

import (
	"context"
	"fmt"

	"github.com/singletable/singletable/internal/ddb"
)

// GetByIndex returns the one item that the index query q finds (its first
// match), confirmed by the table itself: the item is re-read with a
// strongly consistent GetItem and must still carry q's index partition
// key, both in the fields it derives from and in the stored index
// attribute. A GSI is eventually consistent, so a Query alone can return an item
// that was just deleted or moved to another index key (a revoked API key,
// a changed email); GetByIndex never does. Two requests. No match, or a
// match that no longer holds, gives [ErrNotFound]; so does an item revoked
// by its entity's Def.ValidWhileIndexed (not stored under one of those
// indexes with the key its fields derive). q must name a GSI.
func (e *Entity[T]) GetByIndex(ctx context.Context, q Query) (T, error) {
	item, _, err := e.getByIndex(ctx, q)
	return item, err
}

// getByIndex is GetByIndex, also returning the item as stored.
func (e *Entity[T]) getByIndex(ctx context.Context, q Query) (_ T, stored Item, _ error) {
	var zero T
	if q.Index == Primary {
		return zero, nil, opErr("get by index", e.def.Type, Key{}, &ValidationError{Field: "Index", Reason: "GetByIndex needs a GSI; use Get for the table"})
	}
	if len(e.decl.Indexes) == 0 {
		return zero, nil, opErr("get by index", e.def.Type, Key{}, fmt.Errorf("%w: %s has no indexes", ErrInvalidInput, e.def.Type))
	}
	q.Limit, q.Cursor = 1, ""
	raw, err := e.t.queryItems(ctx, q, e.def.Type)
	if err != nil {
		return zero, nil, opErr("get by index", e.def.Type, Key{}, err)
	}
	if len(raw.Items) == 0 {
		return zero, nil, opErr("get by index", e.def.Type, Key{}, ErrNotFound)
	}
	k := e.t.c.KeyOf(raw.Items[0])
	item, _, stored, err := e.getRaw(ctx, k, Consistent())
	if err != nil {
		return zero, nil, opErr("get by index", e.def.Type, k, err)
	}
	ix, err := e.indexKeys(&item)
	if err != nil {
		return zero, nil, opErr("get by index", e.def.Type, k, err)
	}
	pkAttr, _, _, err := e.t.schema.KeyAttrs(q.Index)
	if err != nil {
		return zero, nil, opErr("get by index", e.def.Type, k, err)
	}
	if ix[q.Index].PK != q.PK || !ddb.StringIs(stored, pkAttr, q.PK) {
		// The index entry was stale: the item has moved off that key, or
		// another writer removed its index attributes (a service that
		// revokes an item so).
		return zero, nil, opErr("get by index", e.def.Type, k, ErrNotFound)
	}
	if ixs := e.def.ValidWhileIndexed; len(ixs) > 0 {
		ok, err := e.storedUnder(stored, &item, ixs)
		if err == nil && !ok {
			err = ErrNotFound // revoked
		}
		if err != nil {
			return zero, nil, opErr("get by index", e.def.Type, k, err)
		}
	}
	return item, stored, nil
}

// FindOne returns the first item q finds, or [ErrNotFound]: one Query of
// one item, as eventually consistent as its index. Use it for lookups by
// an index key that names one item (an event by ID, a tag by ID); use
// [Entity.GetByIndex] where a stale index entry must never be believed
// (credentials, API keys, logins).
func (e *Entity[T]) FindOne(ctx context.Context, q Query) (T, error) {
	var zero T
	q.Limit, q.Cursor = 1, ""
	p, err := e.query(ctx, q)
	if err != nil {
		return zero, err
	}
	if len(p.Items) == 0 {
		return zero, opErr("find", e.def.Type, Key{}, ErrNotFound)
	}
	return p.Items[0], nil
}
