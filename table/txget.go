package table

import (
	"context"

	"github.com/singletable/singletable/internal/ddb"
)

// TxGet is one read of a [Table.TransactGet]; make it with [Entity.GetOp].
type TxGet struct {
	key    Key
	what   string
	decode func(Item) error
	found  *bool
}

// Found reports, after TransactGet returned, whether the item existed (and
// was not past its TTL).
func (g TxGet) Found() bool { return g.found != nil && *g.found }

// GetOp returns a transactional read of the item with key k into dst.
func (e *Entity[T]) GetOp(k Key, dst *T) TxGet {
	return TxGet{key: k, what: e.def.Type, found: new(bool), decode: func(raw Item) error {
		v, _, err := e.decode(raw)
		if err == nil {
			*dst = v
		}
		return err
	}}
}

// TransactGet reads up to 100 items as one serializable snapshot
// (TransactGetItems). Each TxGet reports whether its item was found; a
// missing item is not an error. Over 100 reads or the same key twice are
// refused before sending.
func (t *Table) TransactGet(ctx context.Context, gets ...TxGet) error {
	refs := make([]ddb.GetRef, len(gets))
	for i, g := range gets {
		refs[i] = ddb.GetRef{Key: g.key, What: g.what}
	}
	items, err := t.c.TransactGet(ctx, refs)
	if err != nil {
		return err
	}
	for i, it := range items {
		if it == nil {
			continue
		}
		if err := gets[i].decode(it); err != nil {
			return opErr("transact get", gets[i].what, gets[i].key, err)
		}
		*gets[i].found = true
	}
	return nil
}
