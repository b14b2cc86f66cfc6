package table

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/singletable/singletable/internal/ddb"
)

// Batch limits of DynamoDB.
const (
	MaxBatchGet   = 100
	MaxBatchWrite = 25
)

// BatchError reports a batch that ended (retries exhausted, context done,
// or a request error) before every key was written or read. It matches
// [ErrUnprocessed]. For writes it sorts every key of the batch into
// exactly one of three sets, and never lists as not written a key that
// may have been written:
//
//   - Written: DynamoDB confirmed the write;
//   - Keys: certainly not written (returned unprocessed, or never sent);
//   - Unknown: in a request whose outcome was not seen (the connection
//     failed, the context ended while it was in flight, a server error):
//     it may or may not have been applied. Batch writes are unconditional
//     puts and deletes, so resending them is safe.
//
// For reads, Keys are the keys not read.
type BatchError struct {
	// Op is "BatchWriteItem" or "BatchGetItem".
	Op string
	// Keys are the keys not written (or not read).
	Keys []Key
	// Written are the keys whose write DynamoDB confirmed (writes only).
	Written []Key
	// Unknown are the keys whose write may or may not have been applied.
	Unknown []Key
	// Cause is why the batch stopped.
	Cause error
}

// Error implements error.
func (e *BatchError) Error() string {
	ks := make([]string, 0, min(len(e.Keys), 5))
	for i, k := range e.Keys {
		if i == 5 {
			ks = append(ks, "...")
			break
		}
		ks = append(ks, k.PK+"/"+k.SK)
	}
	if len(e.Unknown) > 0 {
		return fmt.Sprintf("singletable: %s: %d keys unprocessed [%s], %d with unknown outcome: %v", e.Op, len(e.Keys), strings.Join(ks, " "), len(e.Unknown), e.Cause)
	}
	return fmt.Sprintf("singletable: %s: %d keys unprocessed [%s]: %v", e.Op, len(e.Keys), strings.Join(ks, " "), e.Cause)
}

// Is matches ErrUnprocessed.
func (e *BatchError) Is(target error) bool { return target == ErrUnprocessed }

// Unwrap returns the cause.
func (e *BatchError) Unwrap() error { return e.Cause }

// BatchWrite writes ops (unconditional puts and deletes) with
// BatchWriteItem in chunks of 25, retrying unprocessed items with
// exponential backoff until all are written, Options.MaxBatchAttempts
// rounds pass, or ctx ends; then the *[BatchError] lists exactly the keys
// not written. Two ops on one key, or an op with a condition, are refused
// before sending.
func (t *Table) BatchWrite(ctx context.Context, ops ...TxOp) error {
	if len(ops) == 0 {
		return nil
	}
	if err := checkOps(ops, len(ops)); err != nil {
		return opErr("batch write", "", Key{}, err)
	}
	reqs := make([]types.WriteRequest, len(ops))
	for i, op := range ops {
		if tn := op.table(); tn != t.schema.Name {
			return opErr("batch write", op.what, op.key, &ValidationError{Field: fmt.Sprintf("action %d", i),
				Reason: fmt.Sprintf("writes table %s, not %s: batch each table through its own Table", tn, t.schema.Name)})
		}
		switch {
		case op.put != nil && op.put.ConditionExpression == nil:
			reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: op.put.Item}}
		case op.del != nil && op.del.ConditionExpression == nil:
			reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: op.del.Key}}
		default:
			return opErr("batch write", op.what, op.key, &ValidationError{Field: fmt.Sprintf("action %d", i),
				Reason: "batches take only unconditional puts and deletes (see TxOp.Unconditional)"})
		}
	}
	for start := 0; start < len(reqs); start += MaxBatchWrite {
		end := min(start+MaxBatchWrite, len(reqs))
		if err := t.batchWriteChunk(ctx, reqs[start:end]); err != nil {
			var be *BatchError
			if errors.As(err, &be) {
				// Keys of earlier chunks were all confirmed written.
				written := make([]Key, 0, start+len(be.Written))
				for _, r := range reqs[:start] {
					written = append(written, t.reqKey(r))
				}
				be.Written = append(written, be.Written...)
				for _, r := range reqs[end:] {
					be.Keys = append(be.Keys, t.reqKey(r))
				}
			}
			return opErr("batch write", "", Key{}, err)
		}
	}
	return nil
}

// outcomeUnknown reports whether a failed request may have been applied:
// anything but an error DynamoDB answered as the client's fault (a
// validation error, a missing table) or throttling.
func outcomeUnknown(err error) bool {
	if errors.Is(err, ErrThrottled) {
		return false
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorFault() != smithy.FaultClient
	}
	return true
}

func (t *Table) reqKey(r types.WriteRequest) Key {
	if r.PutRequest != nil {
		return t.keyFromItem(r.PutRequest.Item)
	}
	return t.keyFromItem(r.DeleteRequest.Key)
}

func (t *Table) batchWriteChunk(ctx context.Context, chunk []types.WriteRequest) error {
	pending := chunk
	var lastErr error
	return t.rounds(ctx, func() int { return len(pending) }, func() error {
		start := time.Now()
		out, err := t.client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems:           map[string][]types.WriteRequest{t.schema.Name: pending},
			ReturnConsumedCapacity: t.wantCapacity(),
		})
		if err != nil {
			err = mapErr(err)
		}
		var c float64
		if out != nil {
			c = capacity(out.ConsumedCapacity...)
		}
		t.observe(ctx, Event{Op: "BatchWriteItem", Duration: time.Since(start), Err: err, Capacity: c})
		if err == nil {
			pending = out.UnprocessedItems[t.schema.Name]
		}
		lastErr = err
		return err
	}, func(cause error) error {
		be := &BatchError{Op: "BatchWriteItem", Cause: cause}
		left := make(map[Key]bool, len(pending))
		for _, r := range pending {
			k := t.reqKey(r)
			left[k] = true
			if lastErr != nil && outcomeUnknown(lastErr) {
				be.Unknown = append(be.Unknown, k)
			} else {
				be.Keys = append(be.Keys, k)
			}
		}
		for _, r := range chunk {
			if k := t.reqKey(r); !left[k] {
				be.Written = append(be.Written, k)
			}
		}
		return be
	})
}

// rounds runs round until left reports nothing pending. Throttled rounds
// and leftovers are retried after a jittered exponential backoff; after
// Options.MaxBatchAttempts rounds, a round's other error, or the end of
// ctx, it returns fail(cause), which lists what is still pending.
func (t *Table) rounds(ctx context.Context, left func() int, round func() error, fail func(error) error) error {
	for attempt := 0; left() > 0; attempt++ {
		if attempt > 0 {
			if attempt >= t.opts.MaxBatchAttempts {
				return fail(fmt.Errorf("gave up after %d rounds", attempt))
			}
			if err := ddb.Sleep(ctx, ddb.Backoff(attempt-1, t.opts.BatchBackoff, time.Second)); err != nil {
				return fail(err)
			}
		}
		if err := round(); err != nil && !errors.Is(err, ErrThrottled) {
			return fail(err)
		}
	}
	return nil
}

// batchGet reads ks with BatchGetItem in chunks of 100 (strongly
// consistent when consistent is set), retrying unprocessed keys, and
// returns the items found (expired ones dropped) in the order of ks.
func (t *Table) batchGet(ctx context.Context, entity string, ks []Key, consistent bool) ([]Item, error) {
	return t.batchGetAttrs(ctx, entity, ks, consistent, nil)
}

// batchGetAttrs is batchGet fetching only attrs (with what the table reads
// itself: see [Table.projectionExpr]) when attrs is not empty.
func (t *Table) batchGetAttrs(ctx context.Context, entity string, ks []Key, consistent bool, attrs []string) ([]Item, error) {
	seen := make(map[Key]bool, len(ks))
	for i, k := range ks {
		if err := checkKey(k); err != nil {
			return nil, err
		}
		if seen[k] {
			return nil, fmt.Errorf("%w: key %d (%s/%s) given twice", ErrDuplicateItem, i, k.PK, k.SK)
		}
		seen[k] = true
	}
	found := make(map[Key]Item, len(ks))
	for start := 0; start < len(ks); start += MaxBatchGet {
		end := min(start+MaxBatchGet, len(ks))
		pending := make([]Item, 0, end-start)
		for _, k := range ks[start:end] {
			pending = append(pending, t.keyItem(k))
		}
		if err := t.batchGetChunk(ctx, entity, pending, found, consistent, attrs); err != nil {
			var be *BatchError
			if errors.As(err, &be) {
				be.Keys = append(be.Keys, ks[end:]...)
			}
			return nil, err
		}
	}
	out := make([]Item, 0, len(found))
	for _, k := range ks {
		if it, ok := found[k]; ok && !t.expired(it) {
			out = append(out, it)
		}
	}
	return out, nil
}

func (t *Table) batchGetChunk(ctx context.Context, entity string, pending []Item, found map[Key]Item, consistent bool, attrs []string) error {
	var names map[string]string
	var proj *string
	if len(attrs) > 0 {
		names = map[string]string{}
		proj = aws.String(t.projectionExpr(&projection{attrs: attrs}, nil, names))
	}
	return t.rounds(ctx, func() int { return len(pending) }, func() error {
		start := time.Now()
		out, err := t.client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
			RequestItems: map[string]types.KeysAndAttributes{t.schema.Name: {Keys: pending, ConsistentRead: aws.Bool(consistent),
				ProjectionExpression: proj, ExpressionAttributeNames: names}},
			ReturnConsumedCapacity: t.wantCapacity(),
		})
		if err != nil {
			err = mapErr(err)
		}
		var c float64
		if out != nil {
			c = capacity(out.ConsumedCapacity...)
		}
		t.observe(ctx, Event{Op: "BatchGetItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: c})
		if err != nil {
			return err
		}
		for _, it := range out.Responses[t.schema.Name] {
			found[t.keyFromItem(it)] = it
		}
		pending = out.UnprocessedKeys[t.schema.Name].Keys
		return nil
	}, func(cause error) error {
		be := &BatchError{Op: "BatchGetItem", Cause: cause}
		for _, k := range pending {
			be.Keys = append(be.Keys, t.keyFromItem(k))
		}
		return be
	})
}

// BatchGet returns the items with keys ks that exist (and are not past
// their TTL), in the order of ks, with BatchGetItem in chunks of 100;
// unprocessed keys are retried. Duplicate keys are refused before sending.
func (e *Entity[T]) BatchGet(ctx context.Context, ks []Key) ([]T, error) {
	raws, err := e.t.batchGet(ctx, e.def.Type, ks, false)
	if err != nil {
		return nil, opErr("batch get", e.def.Type, Key{}, err)
	}
	out := make([]T, 0, len(raws))
	for _, raw := range raws {
		v, _, err := e.decode(raw)
		if err != nil {
			return nil, opErr("batch get", e.def.Type, e.t.keyFromItem(raw), err)
		}
		out = append(out, v)
	}
	return out, nil
}

// BatchPut writes items unconditionally (see [Table.BatchWrite]).
// Entities with unique values are refused.
func (e *Entity[T]) BatchPut(ctx context.Context, items []*T) error {
	ops := make([]TxOp, 0, len(items))
	for _, it := range items {
		op, err := e.PutOp(it)
		if err != nil {
			return err
		}
		ops = append(ops, op)
	}
	return e.t.BatchWrite(ctx, ops...)
}

// BatchDelete deletes the items with keys ks, whether or not they exist
// (see [Table.BatchWrite]). Entities with unique values are refused: their
// guards must go with them (use Delete).
func (e *Entity[T]) BatchDelete(ctx context.Context, ks []Key) error {
	if e.fn.unique != nil {
		return opErr("batch delete", e.def.Type, Key{}, fmt.Errorf("%w: %s has unique values; use Delete", ErrInvalidInput, e.def.Type))
	}
	ops := make([]TxOp, 0, len(ks))
	for _, k := range ks {
		if err := checkKey(k); err != nil {
			return opErr("batch delete", e.def.Type, k, err)
		}
		ops = append(ops, e.DeleteOp(k).Unconditional())
	}
	return e.t.BatchWrite(ctx, ops...)
}
