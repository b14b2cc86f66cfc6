package table

import (
	"context"

	"github.com/singletable/singletable/internal/ddb"
)

// MaxTxItems is DynamoDB's limit of actions in one transaction.
const MaxTxItems = ddb.MaxTxItems

// MaxTxBytes is DynamoDB's limit on the total size of one transaction.
const MaxTxBytes = ddb.MaxTxBytes

// TxOp is one write action of a transaction (or, when unconditional, of a
// batch): build it with an entity's CreateOp, PutOp, DeleteOp or PatchOp.
type TxOp struct{ op ddb.Op }

// WithoutOldItem returns the action without the request, which every
// conditional action of [Table.Transact] makes by default, that a failed
// condition return the item it failed on (ReturnValuesOnConditionCheckFailure):
// its TxReason.Item is then nil, and a caller that must explain the
// failure reads the item itself. For hot actions whose conditions rarely
// fail, and whose callers read the item on that path: a successful
// transaction costs DynamoDB Local less to evaluate without it (about 1-3%
// of an event ingest, BenchmarkIngestAblation); DynamoDB charges
// nothing for it either way. A create keeps it whatever this says: its
// second send over an expired item needs the item.
func (o TxOp) WithoutOldItem() TxOp { return TxOp{o.op.WithoutOldItem()} }

// OnFail returns the action carrying err, what its failed condition
// means: tbl.ConditionOp(k).OnFail(fmt.Errorf("user %s: %w", id, ErrNotFound)).
// When [Table.Transact] is canceled, the first action in request order
// whose condition failed (ConditionalCheckFailed) decides: its err if it
// carries one; for a unique guard, [ErrUniqueViolation] naming the value
// (a guard's OnFail replaces it); otherwise none, even if a later failing
// action carries one. The error returned wraps that error and the
// *[TxError]: errors.Is and errors.As both hold. A create's own item has
// no default (OnFail(ErrAlreadyExists) where that is what it means). A
// cancellation with no failed condition (conflicts or throttling past the
// retries) or a request refused before sending keeps its error; a
// transaction that committed with its response lost succeeds (the SDK's
// retry, same idempotency token). The request sent is the same with or
// without OnFail; a nil err removes the action's error.
func (o TxOp) OnFail(err error) TxOp {
	o.op.OnFail = err
	return o
}

// Key returns the key of the item the action writes.
func (o TxOp) Key() Key { return o.op.Key }

// Unconditional returns the action without its condition (for batches,
// which cannot carry conditions).
func (o TxOp) Unconditional() TxOp { return TxOp{o.op.Unconditional()} }

// and returns the action with cond ANDed onto its condition, on a copy.
func (o TxOp) and(cond func(x exprs) string) TxOp { return TxOp{o.op.And(cond)} }

// ConditionOp returns an action that writes nothing but fails the
// transaction unless the item with key k exists and is live: an item past
// its TTL, not yet deleted, is absent for reads and so for this check.
func (t *Table) ConditionOp(k Key) TxOp { return TxOp{op: t.c.ConditionCheck(k)} }

// TxReason is why one action of a canceled transaction failed: its
// Index, the Entity and Key it wrote, DynamoDB's Code ("None" for an
// action that was fine, "ConditionalCheckFailed", "TransactionConflict",
// "ThrottlingError", ...) and Message, the Item as stored when the
// action's condition failed (or nil), and, for a unique guard, its Guard
// name and GuardValue.
type TxReason = ddb.TxReason

// TxError is a canceled transaction with a reason per action. It matches
// [ErrTransactionCanceled], and [ErrThrottled] when an action was
// throttled; Failed returns the reasons of the actions that failed (what a
// failed condition means is said on the action: [TxOp.OnFail]).
type TxError = ddb.TxError

// TxOption changes a transaction.
type TxOption func(*txOpts)

type txOpts struct{ token string }

// IdempotencyToken makes the transaction idempotent for ten minutes:
// repeating it with the same token and actions has no further effect.
func IdempotencyToken(token string) TxOption { return func(o *txOpts) { o.token = token } }

// Transact runs ops as one TransactWriteItems: all succeed or none. Over
// 100 actions, over 4 MB, or two actions on one item are refused before
// sending. A canceled transaction gives a *[TxError] naming each failing
// action, wrapped in the error its first failed condition means (see
// [TxOp.OnFail]: an action's own error, or a guard's [ErrUniqueViolation]).
//
// Under faults: the SDK gives every call an idempotency token and resends
// it on a retried request, so a transaction whose response was lost after
// it committed is not applied twice and reports success. A cancellation
// caused only by TransactionConflict (another transaction on the same
// items) is retried up to Options.ConflictRetries times with jittered
// backoff; so is one throttled on a hot partition (ThrottlingError, with
// a longer backoff from Options.BatchBackoff), and when throttling
// persists the error matches [ErrThrottled]. A condition failure is never
// retried, with one exception: a create ([Entity.CreateOp]) is sent on
// attribute_not_exists alone, and when that condition failed on an item
// past its TTL, the transaction is sent once more (a new
// request, with a new idempotency token) with that create's condition
// also taking an expired item's key. With [IdempotencyToken], creates are
// sent on that wider condition from the start. Repeating a token with
// other content gives [ErrIdempotencyMismatch].
func (t *Table) Transact(ctx context.Context, ops ...TxOp) error {
	return t.TransactWith(ctx, nil, ops...)
}

// TransactWith is [Table.Transact] with options (see [IdempotencyToken]).
func (t *Table) TransactWith(ctx context.Context, opts []TxOption, ops ...TxOp) error {
	var o txOpts
	for _, f := range opts {
		f(&o)
	}
	actions := txActions(ops)
	return ddb.Explain(t.c.Transact(ctx, o.token, actions), actions)
}

// txActions returns the actions ops hold.
func txActions(ops []TxOp) []ddb.Op {
	out := make([]ddb.Op, len(ops))
	for i, o := range ops {
		out[i] = o.op
	}
	return out
}
