package table

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
)

// MaxTxItems is DynamoDB's limit of actions in one transaction.
const MaxTxItems = 100

// TxOp is one write action of a transaction (or, when unconditional, of a
// batch): build it with an entity's CreateOp, PutOp, DeleteOp or PatchOp.
type TxOp struct {
	put    *types.Put
	del    *types.Delete
	update *types.Update
	check  *types.ConditionCheck
	key    Key
	what   string // entity type
	guard  Unique // set on guard actions
	err    error  // set on an action refused when it was built
	// absent marks a create sent on createCond: when an item past its TTL
	// holds the key, the transaction is sent again with [Table.fullCreate].
	absent bool
	// quiet: the action does not ask for the item that fails its
	// condition ([TxOp.WithoutOldItem]).
	quiet bool
}

// WithoutOldItem returns the action without the request, which every
// conditional action of [Table.Transact] makes by default, that a failed
// condition return the item it failed on (ReturnValuesOnConditionCheckFailure):
// its TxReason.Item is then nil, and a caller that must explain the
// failure reads the item itself. For hot actions whose conditions rarely
// fail, and whose callers read the item on that path: a successful
// transaction costs DynamoDB Local less to evaluate without it (about 1-3%
// of Ferryhook's ingest, BenchmarkIngestAblation); DynamoDB charges
// nothing for it either way. A create keeps it whatever this says: its
// second send over an expired item needs the item.
func (o TxOp) WithoutOldItem() TxOp {
	o.quiet = o.put == nil
	return o
}

// Key returns the key of the item the action writes.
func (o TxOp) Key() Key { return o.key }

// Unconditional returns the action without its condition (for batches,
// which cannot carry conditions).
func (o TxOp) Unconditional() TxOp {
	if o.put != nil {
		p := *o.put
		p.ConditionExpression, p.ExpressionAttributeNames, p.ExpressionAttributeValues = nil, nil, nil
		o.put = &p
	}
	if o.del != nil {
		d := *o.del
		d.ConditionExpression, d.ExpressionAttributeNames, d.ExpressionAttributeValues = nil, nil, nil
		o.del = &d
	}
	return o
}

// actionRef points into the one action a TxOp holds: its key (the whole
// item, for a put) and its condition with its placeholders.
type actionRef struct {
	key    *Item
	cond   **string
	names  *map[string]string
	values *map[string]types.AttributeValue
}

// edit returns the TxOp holding a copy of its action (an update, put,
// delete or condition check) changed by f; the original is untouched.
func (o TxOp) edit(f func(a actionRef)) TxOp {
	switch {
	case o.update != nil:
		u := *o.update
		f(actionRef{&u.Key, &u.ConditionExpression, &u.ExpressionAttributeNames, &u.ExpressionAttributeValues})
		o.update = &u
	case o.put != nil:
		p := *o.put
		f(actionRef{&p.Item, &p.ConditionExpression, &p.ExpressionAttributeNames, &p.ExpressionAttributeValues})
		o.put = &p
	case o.del != nil:
		d := *o.del
		f(actionRef{&d.Key, &d.ConditionExpression, &d.ExpressionAttributeNames, &d.ExpressionAttributeValues})
		o.del = &d
	case o.check != nil:
		k := *o.check
		f(actionRef{&k.Key, &k.ConditionExpression, &k.ExpressionAttributeNames, &k.ExpressionAttributeValues})
		o.check = &k
	}
	return o
}

// and returns the action with cond ANDed onto its condition, on a copy
// of the action: cond binds its placeholders into x, which holds copies
// of the action's. An action without a condition gets cond alone.
func (o TxOp) and(cond func(x exprs) string) TxOp {
	return o.edit(func(a actionRef) {
		x := exprs{names: maps.Clone(*a.names), values: maps.Clone(*a.values)}
		if x.names == nil {
			x.names = map[string]string{}
		}
		if x.values == nil {
			x.values = map[string]types.AttributeValue{}
		}
		e := cond(x)
		if old := aws.ToString(*a.cond); old != "" {
			e = "(" + old + ") AND " + e
		}
		*a.cond, *a.names, *a.values = aws.String(e), x.names, x.vals()
	})
}

// ConditionOp returns an action that writes nothing but fails the
// transaction unless the item with key k exists and is live: an item past
// its TTL, not yet deleted, is absent for reads and so for this check.
func (t *Table) ConditionOp(k Key) TxOp {
	x := newExprs()
	c := t.liveCond(x, "")
	return TxOp{check: &types.ConditionCheck{
		TableName:                 aws.String(t.schema.Name),
		Key:                       t.keyItem(k),
		ConditionExpression:       aws.String(c),
		ExpressionAttributeNames:  x.names,
		ExpressionAttributeValues: x.vals(),
	}, key: k, what: "check"}
}

// TxReason is why one action of a canceled transaction failed.
type TxReason struct {
	// Index is the action's position in the transaction.
	Index int
	// Entity and Key name the item the action wrote.
	Entity string
	Key    Key
	// Code is DynamoDB's reason: "None" (this action was fine),
	// "ConditionalCheckFailed", "TransactionConflict", "ThrottlingError",
	// "ValidationError", ...
	Code    string
	Message string
	// Item is the item as stored when the action's condition failed
	// (DynamoDB returns it with the cancellation), or nil.
	Item Item
	// Guard and GuardValue are set when the action wrote a unique guard.
	Guard      string
	GuardValue string
}

// TxError is a canceled transaction with a reason per action. It matches
// [ErrTransactionCanceled].
type TxError struct {
	Reasons []TxReason
	cause   error
}

// Error implements error, naming the failing actions.
func (e *TxError) Error() string {
	var parts []string
	for _, r := range e.Reasons {
		if r.Code == "" || r.Code == "None" {
			continue
		}
		s := fmt.Sprintf("action %d (%s %s/%s): %s", r.Index, r.Entity, r.Key.PK, r.Key.SK, r.Code)
		if r.Guard != "" {
			s += fmt.Sprintf(" (unique %s %q taken)", r.Guard, r.GuardValue)
		}
		parts = append(parts, s)
	}
	return "singletable: transaction canceled: " + strings.Join(parts, "; ")
}

// Is matches ErrTransactionCanceled, and [ErrThrottled] when an action
// was throttled (reason ThrottlingError).
func (e *TxError) Is(target error) bool {
	return target == ErrTransactionCanceled || (target == ErrThrottled && e.throttled())
}

func (e *TxError) throttled() bool {
	for _, r := range e.Reasons {
		if r.Code == "ThrottlingError" {
			return true
		}
	}
	return false
}

// Unwrap returns the SDK's error.
func (e *TxError) Unwrap() error { return e.cause }

// Failed returns the reasons of the actions that failed.
func (e *TxError) Failed() []TxReason {
	var out []TxReason
	for _, r := range e.Reasons {
		if r.Code != "" && r.Code != "None" {
			out = append(out, r)
		}
	}
	return out
}

func newTxError(tce *types.TransactionCanceledException) *TxError {
	e := &TxError{cause: tce}
	for i, r := range tce.CancellationReasons {
		e.Reasons = append(e.Reasons, TxReason{Index: i, Code: aws.ToString(r.Code), Message: aws.ToString(r.Message), Item: r.Item})
	}
	return e
}

// TxOption changes a transaction.
type TxOption func(*txOpts)

type txOpts struct{ token string }

// IdempotencyToken makes the transaction idempotent for ten minutes:
// repeating it with the same token and actions has no further effect.
func IdempotencyToken(token string) TxOption { return func(o *txOpts) { o.token = token } }

// MaxTxBytes is DynamoDB's limit on the total size of one transaction.
const MaxTxBytes = 4 * 1024 * 1024

// Transact runs ops as one TransactWriteItems: all succeed or none. Over
// 100 actions, over 4 MB, or two actions on one item are refused before
// sending. A canceled transaction gives a *[TxError] naming each failing
// action.
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
	if err := checkOps(ops, MaxTxItems); err != nil {
		return opErr("transact", "", Key{}, err)
	}
	if len(o.token) > 36 {
		return opErr("transact", "", Key{}, &ValidationError{Field: "idempotency token", Reason: fmt.Sprintf("%d characters, the limit is 36", len(o.token))})
	}
	if o.token != "" {
		// A caller's token must name one request: creates are sent on
		// their full condition from the start, never resent changed.
		ops = slices.Clone(ops)
		for i := range ops {
			ops[i] = t.fullCreate(ops[i])
		}
	}
	items, size := txItems(ops)
	if size > MaxTxBytes {
		return opErr("transact", "", Key{}, fmt.Errorf("%w: the transaction writes %d bytes, the limit is %d", ErrItemTooLarge, size, MaxTxBytes))
	}
	in := &dynamodb.TransactWriteItemsInput{TransactItems: items, ReturnConsumedCapacity: t.wantCapacity()}
	if o.token != "" {
		in.ClientRequestToken = aws.String(o.token)
	}
	widened := false
	for attempt := 0; ; attempt++ {
		err := t.transactOnce(ctx, in, ops)
		if (isOnlyConflict(err) || isThrottledTx(err)) && attempt < t.opts.ConflictRetries {
			base, most := 5*time.Millisecond, 200*time.Millisecond
			if isThrottledTx(err) {
				base, most = t.opts.BatchBackoff, time.Second
			}
			if serr := ddb.Sleep(ctx, ddb.Backoff(attempt, base, most)); serr != nil {
				return opErr("transact", "", Key{}, errors.Join(err, serr))
			}
			continue
		}
		if next, ok := t.widenCreates(ops, err); ok && !widened {
			// A create met an item past its TTL (see createCond): send the
			// transaction again, a new request with a new idempotency token.
			widened, ops = true, next
			in.TransactItems, _ = txItems(ops)
			in.ClientRequestToken = nil
			continue
		}
		if err != nil {
			return opErr("transact", "", Key{}, err)
		}
		return nil
	}
}

// txItems returns the transaction's actions and the bytes they write.
// Conditional actions return the item that failed their condition, so a
// cancellation can be explained (and a retried write recognised), unless
// made [TxOp.WithoutOldItem].
func txItems(ops []TxOp) ([]types.TransactWriteItem, int) {
	size := 0
	items := make([]types.TransactWriteItem, len(ops))
	for i, op := range ops {
		rv := types.ReturnValuesOnConditionCheckFailureAllOld
		if op.quiet {
			op = op.edit(func(actionRef) {}) // a copy: the caller's action is left as it was
			rv = ""
		}
		items[i] = types.TransactWriteItem{Put: op.put, Delete: op.del, Update: op.update, ConditionCheck: op.check}
		switch {
		case op.put != nil:
			if op.put.ConditionExpression != nil {
				op.put.ReturnValuesOnConditionCheckFailure = rv
			}
			size += ItemSize(op.put.Item)
		case op.del != nil:
			if op.del.ConditionExpression != nil {
				op.del.ReturnValuesOnConditionCheckFailure = rv
			}
		case op.update != nil:
			if op.update.ConditionExpression != nil {
				op.update.ReturnValuesOnConditionCheckFailure = rv
			}
			for _, v := range op.update.ExpressionAttributeValues {
				size += codec.Size(v)
			}
		case op.check != nil:
			op.check.ReturnValuesOnConditionCheckFailure = rv
		}
	}
	return items, size
}

// widenCreates returns ops with fullCreate applied to each create that
// failed its condition on an item past its TTL, and whether there was
// one: err is then that transaction's cancellation.
func (t *Table) widenCreates(ops []TxOp, err error) ([]TxOp, bool) {
	te, ok := err.(*TxError)
	if !ok {
		return nil, false
	}
	var next []TxOp
	for i, r := range te.Reasons {
		if i >= len(ops) || !ops[i].absent || r.Code != "ConditionalCheckFailed" || r.Item == nil || !t.expired(r.Item) {
			continue
		}
		if next == nil {
			next = slices.Clone(ops)
		}
		next[i] = t.fullCreate(ops[i])
	}
	return next, next != nil
}

func (t *Table) transactOnce(ctx context.Context, in *dynamodb.TransactWriteItemsInput, ops []TxOp) error {
	start := time.Now()
	out, err := t.client.TransactWriteItems(ctx, in)
	if err != nil {
		err = mapErr(err)
		if te, ok := err.(*TxError); ok {
			for i := range te.Reasons {
				if i < len(ops) {
					te.Reasons[i].Entity, te.Reasons[i].Key = ops[i].what, ops[i].key
					te.Reasons[i].Guard, te.Reasons[i].GuardValue = ops[i].guard.Name, ops[i].guard.Value
				}
			}
		}
	}
	var c float64
	if out != nil {
		c = capacity(out.ConsumedCapacity...)
	}
	t.observe(ctx, Event{Op: "TransactWriteItems", Duration: time.Since(start), Err: err, Capacity: c})
	return err
}

// isOnlyConflict reports whether err is a canceled transaction whose every
// failing action failed with TransactionConflict.
func isOnlyConflict(err error) bool {
	_, ok := failedOnlyWith(err, "TransactionConflict")
	return ok
}

// isThrottledTx reports whether err is a canceled transaction that failed
// only because DynamoDB throttled some of its actions (ThrottlingError; a
// hot partition key), which a later attempt may pass.
func isThrottledTx(err error) bool {
	te, ok := failedOnlyWith(err, "ThrottlingError", "TransactionConflict")
	return ok && te.throttled()
}

// failedOnlyWith reports whether err is a canceled transaction with at
// least one failing action, each failed with one of codes.
func failedOnlyWith(err error, codes ...string) (*TxError, bool) {
	te, ok := err.(*TxError)
	if !ok {
		return nil, false
	}
	failed := te.Failed()
	if len(failed) == 0 {
		return nil, false
	}
	for _, r := range failed {
		if !slices.Contains(codes, r.Code) {
			return nil, false
		}
	}
	return te, true
}

// checkOps refuses empty, over-limit and duplicate-key requests.
func checkOps(ops []TxOp, limit int) error {
	if len(ops) == 0 {
		return &ValidationError{Field: "actions", Reason: "none given"}
	}
	if len(ops) > limit {
		return fmt.Errorf("%w: %d actions, the limit is %d", ErrTooManyItems, len(ops), limit)
	}
	type tableKey struct {
		table string
		key   Key
	}
	seen := make(map[tableKey]int, len(ops))
	for i, op := range ops {
		if op.err != nil {
			return fmt.Errorf("action %d: %w", i, op.err)
		}
		if op.put == nil && op.del == nil && op.update == nil && op.check == nil {
			return &ValidationError{Field: fmt.Sprintf("action %d", i), Reason: "empty action"}
		}
		tk := tableKey{op.table(), op.key}
		if j, ok := seen[tk]; ok {
			return fmt.Errorf("%w: actions %d and %d both write %s/%s", ErrDuplicateItem, j, i, op.key.PK, op.key.SK)
		}
		seen[tk] = i
	}
	return nil
}

// table returns the name of the table the action writes.
func (o TxOp) table() string {
	switch {
	case o.put != nil:
		return aws.ToString(o.put.TableName)
	case o.del != nil:
		return aws.ToString(o.del.TableName)
	case o.update != nil:
		return aws.ToString(o.update.TableName)
	case o.check != nil:
		return aws.ToString(o.check.TableName)
	}
	return ""
}
