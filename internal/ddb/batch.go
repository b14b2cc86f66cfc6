package ddb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
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
func (c *Conn) BatchWrite(ctx context.Context, ops []Op) error {
	if len(ops) == 0 {
		return nil
	}
	if err := CheckOps(ops, len(ops)); err != nil {
		return OpErr("batch write", "", Key{}, err)
	}
	reqs := make([]types.WriteRequest, len(ops))
	for i, op := range ops {
		if tn := op.Table(); tn != c.Schema.Name {
			return OpErr("batch write", op.What, op.Key, &codec.ValidationError{Field: fmt.Sprintf("action %d", i),
				Reason: fmt.Sprintf("writes table %s, not %s: batch each table through its own Table", tn, c.Schema.Name)})
		}
		switch {
		case op.Put != nil && op.Put.ConditionExpression == nil:
			reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: op.Put.Item}}
		case op.Delete != nil && op.Delete.ConditionExpression == nil:
			reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: op.Delete.Key}}
		default:
			return OpErr("batch write", op.What, op.Key, &codec.ValidationError{Field: fmt.Sprintf("action %d", i),
				Reason: "batches take only unconditional puts and deletes (see TxOp.Unconditional)"})
		}
	}
	for start := 0; start < len(reqs); start += MaxBatchWrite {
		end := min(start+MaxBatchWrite, len(reqs))
		if err := c.batchWriteChunk(ctx, reqs[start:end]); err != nil {
			var be *BatchError
			if errors.As(err, &be) {
				// Keys of earlier chunks were all confirmed written.
				written := make([]Key, 0, start+len(be.Written))
				for _, r := range reqs[:start] {
					written = append(written, c.reqKey(r))
				}
				be.Written = append(written, be.Written...)
				for _, r := range reqs[end:] {
					be.Keys = append(be.Keys, c.reqKey(r))
				}
			}
			return OpErr("batch write", "", Key{}, err)
		}
	}
	return nil
}

func (c *Conn) reqKey(r types.WriteRequest) Key {
	if r.PutRequest != nil {
		return c.KeyOf(r.PutRequest.Item)
	}
	return c.KeyOf(r.DeleteRequest.Key)
}

func (c *Conn) batchWriteChunk(ctx context.Context, chunk []types.WriteRequest) error {
	pending := chunk
	var lastErr error
	return c.rounds(ctx, func() int { return len(pending) }, func() error {
		start := time.Now()
		out, err := c.Client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
			RequestItems:           map[string][]types.WriteRequest{c.Schema.Name: pending},
			ReturnConsumedCapacity: c.WantCapacity(),
		})
		if err != nil {
			err = MapErr(err)
		}
		var cu float64
		if out != nil {
			cu = Capacity(out.ConsumedCapacity...)
		}
		c.Observe(ctx, Event{Op: "BatchWriteItem", Duration: time.Since(start), Err: err, Capacity: cu})
		if err == nil {
			pending = out.UnprocessedItems[c.Schema.Name]
		}
		lastErr = err
		return err
	}, func(cause error) error {
		be := &BatchError{Op: "BatchWriteItem", Cause: cause}
		left := make(map[Key]bool, len(pending))
		for _, r := range pending {
			k := c.reqKey(r)
			left[k] = true
			if lastErr != nil && outcomeUnknown(lastErr) {
				be.Unknown = append(be.Unknown, k)
			} else {
				be.Keys = append(be.Keys, k)
			}
		}
		for _, r := range chunk {
			if k := c.reqKey(r); !left[k] {
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
func (c *Conn) rounds(ctx context.Context, left func() int, round func() error, fail func(error) error) error {
	for attempt := 0; left() > 0; attempt++ {
		if attempt > 0 {
			if attempt >= c.MaxBatchAttempts {
				return fail(fmt.Errorf("gave up after %d rounds", attempt))
			}
			if err := Sleep(ctx, Backoff(attempt-1, c.BatchBackoff, time.Second)); err != nil {
				return fail(err)
			}
		}
		if err := round(); err != nil && !errors.Is(err, ErrThrottled) {
			return fail(err)
		}
	}
	return nil
}

// BatchGet reads ks with BatchGetItem in chunks of 100 (strongly
// consistent when consistent is set), retrying unprocessed keys, and
// returns the items found (expired ones dropped) in the order of ks.
// proj and names, when proj is set, are the projection every request
// sends.
func (c *Conn) BatchGet(ctx context.Context, entity string, ks []Key, consistent bool, proj *string, names map[string]string) ([]Item, error) {
	seen := make(map[Key]bool, len(ks))
	for i, k := range ks {
		if err := keytmpl.CheckKey(k); err != nil {
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
			pending = append(pending, c.KeyItem(k))
		}
		if err := c.batchGetChunk(ctx, entity, pending, found, consistent, proj, names); err != nil {
			var be *BatchError
			if errors.As(err, &be) {
				be.Keys = append(be.Keys, ks[end:]...)
			}
			return nil, err
		}
	}
	out := make([]Item, 0, len(found))
	for _, k := range ks {
		if it, ok := found[k]; ok && !c.Expired(it) {
			out = append(out, it)
		}
	}
	return out, nil
}

func (c *Conn) batchGetChunk(ctx context.Context, entity string, pending []Item, found map[Key]Item, consistent bool, proj *string, names map[string]string) error {
	return c.rounds(ctx, func() int { return len(pending) }, func() error {
		start := time.Now()
		out, err := c.Client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{
			RequestItems: map[string]types.KeysAndAttributes{c.Schema.Name: {Keys: pending, ConsistentRead: aws.Bool(consistent),
				ProjectionExpression: proj, ExpressionAttributeNames: names}},
			ReturnConsumedCapacity: c.WantCapacity(),
		})
		if err != nil {
			err = MapErr(err)
		}
		var cu float64
		if out != nil {
			cu = Capacity(out.ConsumedCapacity...)
		}
		c.Observe(ctx, Event{Op: "BatchGetItem", Entity: entity, Duration: time.Since(start), Err: err, Capacity: cu})
		if err != nil {
			return err
		}
		for _, it := range out.Responses[c.Schema.Name] {
			found[c.KeyOf(it)] = it
		}
		pending = out.UnprocessedKeys[c.Schema.Name].Keys
		return nil
	}, func(cause error) error {
		be := &BatchError{Op: "BatchGetItem", Cause: cause}
		for _, k := range pending {
			be.Keys = append(be.Keys, c.KeyOf(k))
		}
		return be
	})
}
