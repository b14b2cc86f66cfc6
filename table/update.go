package table

import (
	"context"
	"errors"
	"time"

	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
)

// Update reads the item with key k, applies change to it, and writes back
// what change changed, only if nobody wrote it in between. It is one
// strongly consistent GetItem and one UpdateItem (a transaction when
// unique guards move), and the write:
//
//   - sets and removes only the attributes whose value change changed;
//     attributes the Go type does not know, NULLs, and the stored form of
//     unchanged fields are kept byte for byte;
//   - is conditioned on the item being live and of this type, on the
//     stored values of exactly the attributes it changes, and on the
//     version attribute (items written by other services have none and
//     count as version 0): a concurrent change to the same attributes, or
//     by another library writer, is a lost race: Update re-reads and
//     re-applies change, up to Options.ConflictRetries times, so concurrent
//     updates are never lost; another service's change to other attributes
//     is kept;
//   - moves GSI keys and unique guards whose source fields changed, in the
//     same request; index keys of unchanged fields stay as stored.
//
// A missing or expired item gives [ErrNotFound]; the primary key cannot
// change. It returns the item as written.
//
// Under faults: a write whose response was lost and that the SDK retried
// is recognised by its write token and counts as done, so change is never
// applied twice for one call; a transaction conflict is a lost race.
func (e *Entity[T]) Update(ctx context.Context, k Key, change func(*T) error) (T, error) {
	return e.updateScoped(ctx, k, nil, nil, change)
}

// UpdateRequiring is [Entity.Update] whose write also requires each item
// of require (keys in the same table) to exist, checked by a
// ConditionCheck in the same transaction: no read before it, so an item
// deleted in between is noticed (a user moved to an organization that is
// being deleted). A missing required item gives [ErrNotFound] naming its
// key. The write is then a transaction: one request, as an UpdateItem.
func (e *Entity[T]) UpdateRequiring(ctx context.Context, k Key, require []Key, change func(*T) error) (T, error) {
	var ops []TxOp
	for _, rk := range require {
		if err := keytmpl.CheckKey(rk); err != nil {
			var zero T
			return zero, opErr("update", e.def.Type, k, err)
		}
		ops = append(ops, e.t.ConditionOp(rk))
	}
	return e.updateScoped(ctx, k, nil, ops, change)
}

// updateScoped is Update, restricted to scope's tenant when scope is set,
// its write sending also in the same transaction.
func (e *Entity[T]) updateScoped(ctx context.Context, k Key, scope *Scoped[T], also []TxOp, change func(*T) error) (T, error) {
	var zero T
	for attempt := 0; ; attempt++ {
		orig, ver, raw, err := e.getRaw(ctx, k, Consistent())
		if err == nil && scope != nil && !scope.scopeCond().Holds(raw) {
			err = ErrNotFound
		}
		if err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		cur, err := e.decodeCopy(raw)
		if err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		if err := change(&cur); err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		if scope != nil {
			if got, err := scope.scopeOf(&cur); err != nil || got != scope.scope {
				return zero, opErr("update", e.def.Type, k, &ValidationError{Entity: e.def.Type, Field: e.def.Scope, Reason: "the tenant of an item cannot change"})
			}
		}
		nk, err := e.KeyOf(&cur)
		if err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		if nk != k {
			return zero, opErr("update", e.def.Type, k, e.decl.KeyChange(e.def.Type, "update", &orig, &cur))
		}
		o := diffWrite{also: also}
		if scope != nil {
			o.scope = scope.scopeCond()
		}
		err = e.writeDiff(ctx, k, &orig, raw, ver, &cur, o)
		if errors.Is(err, ErrConflict) && attempt < e.t.opts.ConflictRetries {
			if err := ddb.Sleep(ctx, ddb.Backoff(attempt, 5*time.Millisecond, 200*time.Millisecond)); err != nil {
				return zero, opErr("update", e.def.Type, k, err)
			}
			continue
		}
		if err != nil {
			return zero, opErr("update", e.def.Type, k, err)
		}
		return cur, nil
	}
}

// decodeCopy decodes raw again: a copy change may modify without touching
// the original (slices and maps are not shared).
func (e *Entity[T]) decodeCopy(raw Item) (T, error) {
	v, _, err := e.decode(raw)
	return v, err
}

// UpdateAlso is [Entity.Update] whose write also carries also (actions on
// other items, such as [Counters.StateOps] copying a field the change
// sets) in the same transaction: one request, all or nothing.
func (e *Entity[T]) UpdateAlso(ctx context.Context, k Key, also []TxOp, change func(*T) error) (T, error) {
	return e.updateScoped(ctx, k, nil, also, change)
}
