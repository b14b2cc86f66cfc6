package table

import (
	"context"
	"errors"

	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
)

// Delete deletes the item with key k and its unique guards. A missing or
// expired item, or one of another entity type, gives [ErrNotFound].
//
// Under faults: a delete whose response was lost after it was applied may
// report [ErrNotFound] when the SDK's retry finds the item gone; the item
// is deleted either way.
func (e *Entity[T]) Delete(ctx context.Context, k Key) error {
	return opErr("delete", e.def.Type, k, e.delete(ctx, k))
}

func (e *Entity[T]) delete(ctx context.Context, k Key) error {
	if err := keytmpl.CheckKey(k); err != nil {
		return err
	}
	if !e.hasUniques() {
		return e.t.c.DeleteItem(ctx, e.def.Type, k)
	}
	for attempt := 0; ; attempt++ {
		ops, err := e.DeleteOps(ctx, k)
		if err != nil {
			return err
		}
		err = ddb.TxToUpdateErr(e.t.Transact(ctx, ops...))
		if errors.Is(err, ErrConflict) && attempt < e.t.opts.ConflictRetries {
			continue
		}
		return err
	}
}

// DeleteOps reads the item with key k (strongly consistent) and returns
// the transaction actions that delete it and release its unique guards,
// conditioned on the version read: add them to a transaction of your own.
// A missing or expired item gives [ErrNotFound].
func (e *Entity[T]) DeleteOps(ctx context.Context, k Key) ([]TxOp, error) {
	cur, ver, _, err := e.getRaw(ctx, k, Consistent())
	if err != nil {
		return nil, err
	}
	ops := []TxOp{{op: e.t.c.DeleteOp(e.def.Type, k, &ver)}}
	if e.hasUniques() {
		ops = append(ops, txOps(e.t.c.GuardDiff(e.uniques(&cur), nil, k, 0, false))...)
	}
	return ops, nil
}

// DeleteOp returns a transaction action that deletes the item with key k
// if it exists, is live and is of this entity type. Entities with unique
// values cannot be deleted without their guards: for them the action fails
// validation when the transaction is sent; use [Entity.DeleteOps].
func (e *Entity[T]) DeleteOp(k Key) TxOp {
	if e.hasUniques() {
		return TxOp{op: ddb.Op{Key: k, What: e.def.Type, Err: &ValidationError{Entity: e.def.Type, Field: "entity",
			Reason: "has unique values; use DeleteOps so its guards are released in the same transaction"}}}
	}
	return TxOp{op: e.t.c.DeleteOp(e.def.Type, k, nil)}
}

// DeleteVersionOp is [Entity.DeleteOp] that also requires the stored
// version to equal version: it deletes exactly the item the caller read,
// so a transaction can act on what it saw (a counter decremented only for
// a live item, say). A stale version fails the transaction's condition.
func (e *Entity[T]) DeleteVersionOp(k Key, version int64) TxOp {
	if op := e.DeleteOp(k); op.op.Err != nil {
		return op
	}
	return TxOp{op: e.t.c.DeleteOp(e.def.Type, k, &version)}
}
