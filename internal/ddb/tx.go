package ddb

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
	"github.com/singletable/singletable/internal/expr"
)

// MaxTxItems is DynamoDB's limit of actions in one transaction.
const MaxTxItems = 100

// MaxTxBytes is DynamoDB's limit on the total size of one transaction.
const MaxTxBytes = 4 * 1024 * 1024

// Unique is a unique value (or, Shared, a lookup entry) an item holds
// (table.Unique).
type Unique struct {
	Name   string
	Value  string
	Shared bool
}

// Op is one write action of a transaction or batch (what table.TxOp
// holds): exactly one of Put, Delete, Update and Check is set.
type Op struct {
	Put    *types.Put
	Delete *types.Delete
	Update *types.Update
	Check  *types.ConditionCheck
	Key    Key
	What   string // entity type
	Guard  Unique // set on guard actions
	Err    error  // set on an action refused when it was built
	// Absent marks a create sent on expr.CreateCond: when an item past its
	// TTL holds the key, the transaction is sent again with [Conn.FullCreate].
	Absent bool
	// Quiet: the action does not ask for the item that fails its
	// condition (table.TxOp.WithoutOldItem).
	Quiet bool
	// OnFail is the error the action's failed condition means ([Explain]).
	OnFail error
}

// WithoutOldItem returns the action made Quiet (a put never is: its
// second send over an expired item needs the item).
func (o Op) WithoutOldItem() Op {
	o.Quiet = o.Put == nil
	return o
}

// Unconditional returns the action without its condition.
func (o Op) Unconditional() Op {
	if o.Put != nil {
		p := *o.Put
		p.ConditionExpression, p.ExpressionAttributeNames, p.ExpressionAttributeValues = nil, nil, nil
		o.Put = &p
	}
	if o.Delete != nil {
		d := *o.Delete
		d.ConditionExpression, d.ExpressionAttributeNames, d.ExpressionAttributeValues = nil, nil, nil
		o.Delete = &d
	}
	return o
}

// ActionRef points into the one action an Op holds: its key (the whole
// item, for a put) and its condition with its placeholders.
type ActionRef struct {
	Key    *Item
	Cond   **string
	Names  *map[string]string
	Values *map[string]types.AttributeValue
}

// Edit returns the Op holding a copy of its action (an update, put,
// delete or condition check) changed by f; the original is untouched.
func (o Op) Edit(f func(a ActionRef)) Op {
	switch {
	case o.Update != nil:
		u := *o.Update
		f(ActionRef{&u.Key, &u.ConditionExpression, &u.ExpressionAttributeNames, &u.ExpressionAttributeValues})
		o.Update = &u
	case o.Put != nil:
		p := *o.Put
		f(ActionRef{&p.Item, &p.ConditionExpression, &p.ExpressionAttributeNames, &p.ExpressionAttributeValues})
		o.Put = &p
	case o.Delete != nil:
		d := *o.Delete
		f(ActionRef{&d.Key, &d.ConditionExpression, &d.ExpressionAttributeNames, &d.ExpressionAttributeValues})
		o.Delete = &d
	case o.Check != nil:
		k := *o.Check
		f(ActionRef{&k.Key, &k.ConditionExpression, &k.ExpressionAttributeNames, &k.ExpressionAttributeValues})
		o.Check = &k
	}
	return o
}

// And returns the action with cond ANDed onto its condition, on a copy
// of the action: cond binds its placeholders into x, which holds copies
// of the action's. An action without a condition gets cond alone.
func (o Op) And(cond func(x expr.Exprs) string) Op {
	return o.Edit(func(a ActionRef) {
		x := expr.Exprs{Names: maps.Clone(*a.Names), Values: maps.Clone(*a.Values)}
		if x.Names == nil {
			x.Names = map[string]string{}
		}
		if x.Values == nil {
			x.Values = map[string]types.AttributeValue{}
		}
		e := cond(x)
		if old := aws.ToString(*a.Cond); old != "" {
			e = "(" + old + ") AND " + e
		}
		*a.Cond, *a.Names, *a.Values = aws.String(e), x.Names, x.Vals()
	})
}

// FullCreate returns op, a create sent on expr.CreateCond (perhaps with
// conditions ANDed on, [Op.And]), with CreateCond widened to
// [expr.Attrs.Absent]: the second send of a create whose key holds an
// expired item. op itself is untouched.
func (c *Conn) FullCreate(op Op) Op {
	if !op.Absent {
		return op
	}
	op = op.Edit(func(a ActionRef) {
		x := expr.Exprs{Names: maps.Clone(*a.Names), Values: maps.Clone(*a.Values)}
		if x.Values == nil {
			x.Values = map[string]types.AttributeValue{}
		}
		full := "(" + c.Absent(x) + ")"
		*a.Cond = aws.String(strings.Replace(aws.ToString(*a.Cond), expr.CreateCond, full, 1))
		*a.Names, *a.Values = x.Names, x.Vals()
	})
	op.Absent = false
	return op
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

// Transact runs ops as one TransactWriteItems with idempotency token
// token (none if empty), retrying conflicts and throttling and widening
// creates that met an expired item (the contract is table.Table.Transact's).
func (c *Conn) Transact(ctx context.Context, token string, ops []Op) error {
	if err := CheckOps(ops, MaxTxItems); err != nil {
		return OpErr("transact", "", Key{}, err)
	}
	if len(token) > 36 {
		return OpErr("transact", "", Key{}, &codec.ValidationError{Field: "idempotency token", Reason: fmt.Sprintf("%d characters, the limit is 36", len(token))})
	}
	if token != "" {
		// A caller's token must name one request: creates are sent on
		// their full condition from the start, never resent changed.
		ops = slices.Clone(ops)
		for i := range ops {
			ops[i] = c.FullCreate(ops[i])
		}
	}
	items, size := txItems(ops)
	if size > MaxTxBytes {
		return OpErr("transact", "", Key{}, fmt.Errorf("%w: the transaction writes %d bytes, the limit is %d", ErrItemTooLarge, size, MaxTxBytes))
	}
	in := &dynamodb.TransactWriteItemsInput{TransactItems: items, ReturnConsumedCapacity: c.WantCapacity()}
	if token != "" {
		in.ClientRequestToken = aws.String(token)
	}
	widened := false
	for attempt := 0; ; attempt++ {
		err := c.transactOnce(ctx, in, ops)
		if (isOnlyConflict(err) || isThrottledTx(err)) && attempt < c.ConflictRetries {
			base, most := 5*time.Millisecond, 200*time.Millisecond
			if isThrottledTx(err) {
				base, most = c.BatchBackoff, time.Second
			}
			if serr := Sleep(ctx, Backoff(attempt, base, most)); serr != nil {
				return OpErr("transact", "", Key{}, errors.Join(err, serr))
			}
			continue
		}
		if next, ok := c.widenCreates(ops, err); ok && !widened {
			// A create met an item past its TTL (see expr.CreateCond): send the
			// transaction again, a new request with a new idempotency token.
			widened, ops = true, next
			in.TransactItems, _ = txItems(ops)
			in.ClientRequestToken = nil
			continue
		}
		if err != nil {
			return OpErr("transact", "", Key{}, err)
		}
		return nil
	}
}

// txItems returns the transaction's actions and the bytes they write.
// Conditional actions return the item that failed their condition, so a
// cancellation can be explained (and a retried write recognised), unless
// made [Op.WithoutOldItem]: a quiet action is copied only when its
// request says otherwise (the caller's action is never changed to "").
func txItems(ops []Op) ([]types.TransactWriteItem, int) {
	size := 0
	items := make([]types.TransactWriteItem, len(ops))
	for i, op := range ops {
		rv := types.ReturnValuesOnConditionCheckFailureAllOld
		if op.Quiet {
			rv = ""
		}
		if p := op.returnValues(); p != nil && *p != rv {
			if op.Quiet {
				op = op.Edit(func(ActionRef) {}) // a copy: the caller's action is left as it was
				p = op.returnValues()
			}
			*p = rv
		}
		items[i] = types.TransactWriteItem{Put: op.Put, Delete: op.Delete, Update: op.Update, ConditionCheck: op.Check}
		switch {
		case op.Put != nil:
			size += codec.ItemSize(op.Put.Item)
		case op.Update != nil:
			for _, v := range op.Update.ExpressionAttributeValues {
				size += codec.Size(v)
			}
		}
	}
	return items, size
}

// returnValues points to what the action's failed condition returns, or
// is nil for an action with no condition.
func (o Op) returnValues() *types.ReturnValuesOnConditionCheckFailure {
	switch {
	case o.Put != nil && o.Put.ConditionExpression != nil:
		return &o.Put.ReturnValuesOnConditionCheckFailure
	case o.Delete != nil && o.Delete.ConditionExpression != nil:
		return &o.Delete.ReturnValuesOnConditionCheckFailure
	case o.Update != nil && o.Update.ConditionExpression != nil:
		return &o.Update.ReturnValuesOnConditionCheckFailure
	case o.Check != nil:
		return &o.Check.ReturnValuesOnConditionCheckFailure
	}
	return nil
}

// widenCreates returns ops with fullCreate applied to each create that
// failed its condition on an item past its TTL, and whether there was
// one: err is then that transaction's cancellation.
func (c *Conn) widenCreates(ops []Op, err error) ([]Op, bool) {
	te, ok := err.(*TxError)
	if !ok {
		return nil, false
	}
	var next []Op
	for i, r := range te.Reasons {
		if i >= len(ops) || !ops[i].Absent || r.Code != "ConditionalCheckFailed" || r.Item == nil || !c.Expired(r.Item) {
			continue
		}
		if next == nil {
			next = slices.Clone(ops)
		}
		next[i] = c.FullCreate(ops[i])
	}
	return next, next != nil
}

func (c *Conn) transactOnce(ctx context.Context, in *dynamodb.TransactWriteItemsInput, ops []Op) error {
	start := time.Now()
	out, err := c.Client.TransactWriteItems(ctx, in)
	if err != nil {
		err = MapErr(err)
		if te, ok := err.(*TxError); ok {
			for i := range te.Reasons {
				if i < len(ops) {
					te.Reasons[i].Entity, te.Reasons[i].Key = ops[i].What, ops[i].Key
					te.Reasons[i].Guard, te.Reasons[i].GuardValue = ops[i].Guard.Name, ops[i].Guard.Value
				}
			}
		}
	}
	var cu float64
	if out != nil {
		cu = Capacity(out.ConsumedCapacity...)
	}
	c.Observe(ctx, Event{Op: "TransactWriteItems", Duration: time.Since(start), Err: err, Capacity: cu})
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

// CheckOps refuses empty, over-limit and duplicate-key requests.
func CheckOps(ops []Op, limit int) error {
	if len(ops) == 0 {
		return &codec.ValidationError{Field: "actions", Reason: "none given"}
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
		if op.Err != nil {
			return fmt.Errorf("action %d: %w", i, op.Err)
		}
		if op.Put == nil && op.Delete == nil && op.Update == nil && op.Check == nil {
			return &codec.ValidationError{Field: fmt.Sprintf("action %d", i), Reason: "empty action"}
		}
		tk := tableKey{op.Table(), op.Key}
		if j, ok := seen[tk]; ok {
			return fmt.Errorf("%w: actions %d and %d both write %s/%s", ErrDuplicateItem, j, i, op.Key.PK, op.Key.SK)
		}
		seen[tk] = i
	}
	return nil
}

// Table returns the name of the table the action writes.
func (o Op) Table() string {
	switch {
	case o.Put != nil:
		return aws.ToString(o.Put.TableName)
	case o.Delete != nil:
		return aws.ToString(o.Delete.TableName)
	case o.Update != nil:
		return aws.ToString(o.Update.TableName)
	case o.Check != nil:
		return aws.ToString(o.Check.TableName)
	}
	return ""
}
