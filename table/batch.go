package table

import (
	"context"
	"fmt"

	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
)

// Batch limits of DynamoDB.
const (
	MaxBatchGet   = ddb.MaxBatchGet
	MaxBatchWrite = ddb.MaxBatchWrite
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
// For reads, Keys are the keys not read. Op is "BatchWriteItem" or
// "BatchGetItem"; Cause is why the batch stopped.
type BatchError = ddb.BatchError

// BatchWrite writes ops (unconditional puts and deletes) with
// BatchWriteItem in chunks of 25, retrying unprocessed items with
// exponential backoff until all are written, Options.MaxBatchAttempts
// rounds pass, or ctx ends; then the *[BatchError] lists exactly the keys
// not written. Two ops on one key, or an op with a condition, are refused
// before sending.
func (t *Table) BatchWrite(ctx context.Context, ops ...TxOp) error {
	return t.c.BatchWrite(ctx, txActions(ops))
}

// BatchGet returns the items with keys ks that exist (and are not past
// their TTL), in the order of ks, with BatchGetItem in chunks of 100;
// unprocessed keys are retried. Duplicate keys are refused before sending.
func (e *Entity[T]) BatchGet(ctx context.Context, ks []Key) ([]T, error) {
	raws, err := e.t.c.BatchGet(ctx, e.def.Type, ks, false, nil, nil)
	if err != nil {
		return nil, opErr("batch get", e.def.Type, Key{}, err)
	}
	out := make([]T, 0, len(raws))
	for _, raw := range raws {
		v, _, err := e.decode(raw)
		if err != nil {
			return nil, opErr("batch get", e.def.Type, e.t.c.KeyOf(raw), err)
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
	if e.hasUniques() {
		return opErr("batch delete", e.def.Type, Key{}, fmt.Errorf("%w: %s has unique values; use Delete", ErrInvalidInput, e.def.Type))
	}
	ops := make([]TxOp, 0, len(ks))
	for _, k := range ks {
		if err := keytmpl.CheckKey(k); err != nil {
			return opErr("batch delete", e.def.Type, k, err)
		}
		ops = append(ops, e.DeleteOp(k).Unconditional())
	}
	return e.t.BatchWrite(ctx, ops...)
}
