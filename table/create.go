package table

import (
	"context"

	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/keys"
)

// Create writes item if no item with its key exists; otherwise it returns
// [ErrAlreadyExists] (or [ErrUniqueViolation] when a unique value is held
// by another item). Guard items for its unique values are written in the
// same transaction. The item's version starts at 1.
//
// Under faults: an item past its TTL that DynamoDB has not deleted yet
// counts as absent, so Create takes its key (in a second request: a
// create is sent first on attribute_not_exists alone, and again on the
// condition that also takes an expired item's key only when that failed
// on one), and a guard whose owner is missing or expired is taken over
// (conditioned on that owner staying absent, in the same transaction). A
// create whose response is lost after it was applied is retried by the
// SDK and returns success: the retry recognises its own write token (or
// the transaction's idempotency token), never [ErrAlreadyExists] for
// itself. Transaction conflicts are retried (see [Table.Transact]).
func (e *Entity[T]) Create(ctx context.Context, item *T) error {
	k, err := e.create(ctx, item, nil)
	return opErr("create", e.def.Type, k, err)
}

// CreateIn is [Entity.Create] with the item written to partition key pk
// (its own sort key): how a writer that knows a collection's layout puts
// an item into the shard the layout chooses ([Layout.SeqPK]) in ONE
// PutItem, with Create's guarantees (a key that holds a live item gives
// [ErrAlreadyExists]; a create whose response was lost after it was
// applied is recognised by its write token when the SDK retries it). An
// entity with unique values writes its guards in the same transaction,
// as Create does.
func (e *Entity[T]) CreateIn(ctx context.Context, item *T, pk string) error {
	k, err := e.createIn(ctx, item, nil, pk)
	return opErr("create", e.def.Type, k, err)
}

// create writes item and also (actions on other items) in one request: a
// PutItem when there is nothing else, else a transaction.
func (e *Entity[T]) create(ctx context.Context, item *T, also []TxOp) (Key, error) {
	return e.createIn(ctx, item, also, "")
}

// createIn is create with the item moved to partition pk ("": its own).
func (e *Entity[T]) createIn(ctx context.Context, item *T, also []TxOp, pk string) (Key, error) {
	ops, tok, err := e.newOps(item)
	if err != nil {
		return ops0Key(ops), err
	}
	if pk != "" {
		if err := keytmpl.CheckKeyValue("PK", pk, keys.MaxPKBytes); err != nil {
			return ops[0].op.Key, err
		}
		ops[0] = e.t.InPartition(ops[0], pk)
	}
	return e.createWith(ctx, item, ops, tok, also)
}

// createWith sends ops (item's create, from newOps or importOps, with the
// write token tok) and also.
func (e *Entity[T]) createWith(ctx context.Context, item *T, ops []TxOp, tok string, also []TxOp) (Key, error) {
	k := ops[0].op.Key
	if len(ops) == 1 && len(also) == 0 {
		if err := e.t.c.PutCreate(ctx, e.def.Type, ops[0].op, tok); err != nil {
			return k, err
		}
	} else if err := e.t.c.TransactGuarded(ctx, txActions(append(ops, also...)), tok); err != nil {
		return k, ddb.TxToCreateErr(err)
	}
	e.setVersion(item, 1)
	e.setRead(item, ops[0].op.Put.Item)
	return k, nil
}

// CreateAlso is [Entity.Create] with also, actions on other items, in the
// same transaction (the counter shards of a new owner,
// [Counters.NewShardOps]): all are written or none. Its faults are
// Create's for a transaction.
func (e *Entity[T]) CreateAlso(ctx context.Context, item *T, also []TxOp) error {
	k, err := e.create(ctx, item, also)
	return opErr("create", e.def.Type, k, err)
}

func ops0Key(ops []TxOp) Key {
	if len(ops) == 0 {
		return Key{}
	}
	return ops[0].op.Key
}

// newOps is createOps for a new item: Def.Timestamps and Def.Touch stamp
// it first.
func (e *Entity[T]) newOps(item *T) ([]TxOp, string, error) {
	e.Touch(item)
	return e.createOps(item, true, true)
}

// importOps is newOps for [Entity.Import]: the stamps, then Def.Validate
// as Import judges a copied item (importValidate: unknown enum values
// kept, returned), then the create.
func (e *Entity[T]) importOps(item *T) ([]TxOp, string, []KeptValue, error) {
	e.Touch(item)
	kept, err := e.importValidate(item)
	if err != nil {
		return []TxOp{{op: ddb.Op{}}}, "", nil, err
	}
	ops, tok, err := e.createOps(item, false, true)
	return ops, tok, kept, err
}

// createOps returns the conditional put that creates item (its key
// absent, or expired) and the puts of its guards, with the write token
// the put carries. validate runs Def.Validate first (without it,
// validation is left to the caller: Import's importValidate); without
// token the put carries no write token (tok is ""): see [Entity.CreateOp].
func (e *Entity[T]) createOps(item *T, validate, token bool) ([]TxOp, string, error) {
	w, err := e.prepare(item, 1, validate)
	if err == nil {
		err = e.keepReadForms(item, w.item)
	}
	if err != nil {
		return []TxOp{{op: ddb.Op{Key: w.key}}}, "", err
	}
	ops, tok := e.t.c.CreateOps(e.def.Type, w.item, w.key, w.uniques, w.expires, token)
	return txOps(ops), tok, nil
}

// CreateOp returns a transaction action that creates item (failing if its
// key holds a live item), plus the actions that write its unique guards.
//
// The item carries no write token ([Schema.TokenAttr]): nothing would
// read it. A write token lets a single-item write recognise itself in the
// item a retried request's failed condition returns; a transaction is
// made exactly-once by its idempotency token instead (the SDK gives every
// TransactWriteItems one and resends it with a retried request, and
// DynamoDB answers a repeat with success without applying it again), and
// the caller of [Table.Transact] never sees a token to look for.
func (e *Entity[T]) CreateOp(item *T) ([]TxOp, error) {
	e.Touch(item)
	ops, _, err := e.createOps(item, true, false)
	if err != nil {
		return nil, opErr("create", e.def.Type, ops0Key(ops), err)
	}
	e.setVersion(item, 1)
	return ops, nil
}
