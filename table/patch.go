package table

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/internal/secret"
)

// Patch is an in-place change of chosen attributes, sent as one UpdateItem
// (or one transaction action): no read first. It never creates an item (a
// missing item gives [ErrNotFound]), always advances the version, and may
// not touch attributes that the primary key, a unique guard or the TTL
// derives from, nor part of an index key's fields (a patch that sets all
// of them moves the index key), nor the table's own attributes: change
// those with [Entity.Update]. The engine knows these fields from the
// declarations ([Def]).
type Patch struct {
	// Set assigns attributes. Each value is stored exactly as Create
	// stores that field (the one encoder, with the field's tags: a
	// `unixtime` time is epoch seconds, a `set` slice a set), and a GSI key
	// the patch moves is derived from that encoding; a value of another
	// type is read into the field first. A value Create stores nothing for
	// (an empty string, an empty set, nil) removes the attribute.
	Set map[string]any
	// SetIfAbsent assigns attributes only where they are absent
	// (if_not_exists), in the same UpdateItem: a first-time stamp such as
	// processedAt, with no read first.
	SetIfAbsent map[string]any
	// Add adds to numeric attributes atomically (counters); a missing
	// attribute counts as 0.
	Add map[string]int64
	// Remove deletes attributes.
	Remove []string
	// IfEqual makes the patch conditional: each attribute must hold the
	// value (a failed condition gives [ErrConditionFailed]).
	IfEqual map[string]any
	// IfNotEqual makes the patch conditional: each attribute must be
	// absent or hold another value (e.g. status <> "deleted").
	IfNotEqual map[string]any
	// IfAbsent makes the patch conditional: each attribute must not exist
	// (e.g. "not rotated yet").
	IfAbsent []string
	// IfVersion, when non-nil, requires the stored version to equal it
	// (a stale version gives [ErrConflict]).
	IfVersion *int64
	// NoTouch leaves Def.Timestamps' Updated attribute and the attributes
	// Def.Touch keeps alone; by default a patch sets them like every other
	// write (bookkeeping such as recording a login may opt out).
	NoTouch bool
}

// builtPatch is a patch's UpdateItem (see [ddb.Patch]).
type builtPatch = ddb.Patch

func (e *Entity[T]) buildPatch(k Key, p Patch, withToken bool) (builtPatch, error) {
	// Values are encoded as Create stores them (one encoder: fieldenc.go).
	enc, err := e.patchAttrs(p.Set)
	if err != nil {
		return builtPatch{}, err
	}
	// Index keys declared as templates move with a patch that sets all
	// their fields, derived from those encoded values.
	moves, movable, err := e.decl.MovableIndexes(p.Set, enc, k)
	if err != nil {
		return builtPatch{}, &ValidationError{Entity: e.def.Type, Field: "Set", Reason: err.Error()}
	}
	for _, f := range e.def.UniqueOn {
		delete(movable, f)
	}
	return e.t.c.BuildPatch(ddb.PatchSpec{Entity: e.def.Type,
		Set: p.Set, SetIfAbsent: p.SetIfAbsent, IfEqual: p.IfEqual, IfNotEqual: p.IfNotEqual,
		Add: p.Add, Remove: p.Remove, IfAbsent: p.IfAbsent, IfVersion: p.IfVersion,
		Enc: enc, Moves: moves, Touched: e.touched(p), Token: withToken, Encode: e.patchAttrs,
		CheckName: func(field string) error {
			for _, path := range e.def.Secrets {
				if path == field || secret.Top(path) == field {
					return &ValidationError{Entity: e.def.Type, Field: field, Reason: fmt.Sprintf("holds the secret %s; use Update so it is encrypted", path)}
				}
			}
			if slices.Contains(e.fixedAttrs(), field) {
				return &ValidationError{Entity: e.def.Type, Field: field, Reason: "fixed at creation (Def.Fixed or Def.Scope)"}
			}
			if slices.Contains(e.decl.Indexed, field) && !movable[field] {
				return &ValidationError{Entity: e.def.Type, Field: field, Reason: "an index or unique value derives from it; use Update so keys and guards move with it"}
			}
			return e.checkAttr("Patch", field)
		},
		CheckValue: func(field string, v any) error {
			return codec.CheckFieldValue(reflect.TypeFor[T](), e.def.Type, field, v)
		},
		CheckCond: func(field string) error { return e.checkAttr("Patch condition", field) },
	})
}

// Patch applies p to the item with key k in one UpdateItem and returns the
// item as stored afterwards. See [Patch] for the rules.
func (e *Entity[T]) Patch(ctx context.Context, k Key, p Patch) (T, error) {
	return e.patch(ctx, "patch", k, p, nil)
}

// patch is Patch, its errors naming op, the method the caller called, on
// scope's tenant when scope is set.
func (e *Entity[T]) patch(ctx context.Context, op string, k Key, p Patch, scope *ddb.Scope) (T, error) {
	var zero T
	raw, err := e.update(ctx, k, p, types.ReturnValueAllNew, scope)
	if err != nil {
		return zero, opErr(op, e.def.Type, k, err)
	}
	v, _, err := e.decode(raw)
	if err != nil {
		return zero, opErr(op, e.def.Type, k, err)
	}
	return v, nil
}

// update sends p as one UpdateItem and returns the attributes ret asks for.
// A failed condition on a missing or expired item is ErrNotFound, on a
// stale IfVersion ErrConflict, otherwise ErrConditionFailed. scope, when
// set, is the tenant p's condition names (a failed condition on another
// tenant's item is ErrNotFound).
func (e *Entity[T]) update(ctx context.Context, k Key, p Patch, ret types.ReturnValue, scope *ddb.Scope) (Item, error) {
	if err := keytmpl.CheckKey(k); err != nil {
		return nil, err
	}
	b, err := e.buildPatch(k, p, true)
	if err != nil {
		return nil, err
	}
	return e.t.c.SendPatch(ctx, e.def.Type, k, b, ret, p.IfVersion, scope.Holds)
}

// PatchOp returns p as a transaction action on the item with key k.
func (e *Entity[T]) PatchOp(k Key, p Patch) (TxOp, error) {
	if err := keytmpl.CheckKey(k); err != nil {
		return TxOp{}, opErr("patch", e.def.Type, k, err)
	}
	// No write token: the SDK resends a transaction with its idempotency
	// token, so a retried transaction is never applied twice.
	b, err := e.buildPatch(k, p, false)
	if err != nil {
		return TxOp{}, opErr("patch", e.def.Type, k, err)
	}
	return e.patchTxOp(k, b), nil
}

// patchTxOp is the transaction action of the built patch b on k.
func (e *Entity[T]) patchTxOp(k Key, b builtPatch) TxOp {
	return TxOp{op: e.t.c.PatchOp(e.def.Type, k, b)}
}

// Add adds delta to the numeric attribute field of the item with key k,
// atomically, and returns the new value. A missing or expired item, or one
// of another entity type, gives [ErrNotFound]; concurrent increments are
// never lost; an add that would overflow int64 fails its condition
// ([ErrConditionFailed]) and writes nothing. If the response is lost after
// DynamoDB applied it, the SDK's retry is recognised by its write token:
// the counter moves once.
func (e *Entity[T]) Add(ctx context.Context, k Key, field string, delta int64) (int64, error) {
	raw, err := e.update(ctx, k, Patch{Add: map[string]int64{field: delta}}, types.ReturnValueUpdatedNew, nil)
	if err != nil {
		return 0, opErr("add", e.def.Type, k, err)
	}
	return ddb.AddResult(raw, field, e.def.Type, k)
}
