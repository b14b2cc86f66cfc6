package table

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/ddb"
)

// Put writes item whether or not it exists (an upsert), replacing any
// previous item. Entities with unique values cannot be Put: use Create and
// Update, which keep their guards exact.
func (e *Entity[T]) Put(ctx context.Context, item *T) error {
	w, ver, err := e.preparePut(item)
	if err != nil {
		return opErr("put", e.def.Type, w.key, err)
	}
	err = e.t.c.PutItem(ctx, e.def.Type, &types.Put{TableName: aws.String(e.t.schema.Name), Item: w.item}, "", nil)
	if err == nil {
		e.setVersion(item, ver)
		e.setRead(item, w.item)
	}
	return opErr("put", e.def.Type, w.key, err)
}

// Replace writes item, the caller's whole intended state of an item it
// read, only if the stored item is still exactly what the caller read: in
// the same request, the write is conditioned on every attribute of the
// read image (carried with item in its [ReadState] field, like its
// version), not only on the version. A change by any writer since the
// read gives [ErrConflict]: another library write (which advances the
// version), and another service's PutItem or UpdateItem that never touches
// the version (a script rewriting settings, a service
// removing an index key). Re-read and retry, or use
// [Entity.Update], which re-applies a change to what is stored.
//
// The write is one UpdateItem (a transaction when unique guards move)
// and sets only the attributes on which item differs from what was read,
// so attributes the Go type does not know are kept; an attribute another
// writer added since the read (absent from the image) is kept too, unless
// item sets it. A missing or expired item (or one of another entity
// type) gives [ErrNotFound]. On success the version field and the read
// state are advanced, so item can be replaced again.
//
// item must come from a read or a write of this entity (Get, List, a
// query, BatchGet, Create, Update, Patch, Replace): a T without a
// ReadState field, or an item built by hand, is refused with
// [ErrInvalidInput] before any request; the primary key cannot change. An
// item with more than 150 attributes is conditioned by a strongly
// consistent GetItem compared with the read image, then the write
// conditioned on the attributes it changes (DynamoDB's 4 KB expression
// limit): two requests.
//
// Under faults: a replace whose response was lost and that the SDK
// retried returns success (the retry meets its own write token). When the
// call itself fails after DynamoDB applied the write (every attempt's
// response lost, a deadline), item's read state is not advanced, so the
// caller's own retry of the same item gets [ErrConflict] on its own write:
// the stored item no longer matches the image item carries. Callers tell
// it from another writer's change by re-reading: if the stored item equals
// the one they meant to write (its version aside), their write landed;
// otherwise someone else wrote. Update does not need this: it re-reads
// and re-applies its change. (TestLostResponseReplace.)
func (e *Entity[T]) Replace(ctx context.Context, item *T) error {
	if e.readIdx == nil {
		return opErr("replace", e.def.Type, Key{}, fmt.Errorf("%w: %s has no table.ReadState field: Replace must know what the caller read", ErrInvalidInput, e.def.Type))
	}
	if err := e.refusePartial("replace", item); err != nil {
		return err
	}
	k, err := e.KeyOf(item)
	if err != nil {
		return opErr("replace", e.def.Type, k, err)
	}
	if err := e.def.Validate(item); err != nil {
		return opErr("replace", e.def.Type, k, err)
	}
	image := e.readOf(item)
	if image == nil {
		return opErr("replace", e.def.Type, k, fmt.Errorf("%w: the %s carries no read state: pass an item from a read (Get, List) or write it with Update or Upsert", ErrInvalidInput, e.def.Type))
	}
	orig, ver, err := e.decode(image)
	if err != nil {
		return opErr("replace", e.def.Type, k, err)
	}
	if e.t.c.KeyOf(image) != k {
		return opErr("replace", e.def.Type, k, e.decl.KeyChange(e.def.Type, "replace", &orig, item))
	}
	whole := true
	if len(e.t.c.ImageAttrs(image)) > ddb.MaxImageConds {
		if image, err = e.t.c.CheckImage(ctx, e.def.Type, k, image); err != nil {
			return opErr("replace", e.def.Type, k, err)
		}
		whole = false
	}
	err = e.writeDiff(ctx, k, &orig, image, ver, item, diffWrite{whole: whole})
	return opErr("replace", e.def.Type, k, err)
}

// preparePut stamps item and encodes it for an unconditional write.
func (e *Entity[T]) preparePut(item *T) (written, int64, error) {
	if e.hasUniques() {
		return written{}, 0, fmt.Errorf("%w: %s has unique values; use Create or Update (CreateOp in a transaction)", ErrInvalidInput, e.def.Type)
	}
	e.stampWrite(item, e.t.now(), true)
	ver := e.putVersion(item)
	w, err := e.prepare(item, ver, true)
	if err == nil {
		err = e.keepReadForms(item, w.item)
	}
	return w, ver, err
}

// PutOp returns a transaction (or batch) action that writes item
// unconditionally. Entities with unique values are refused.
func (e *Entity[T]) PutOp(item *T) (TxOp, error) {
	w, ver, err := e.preparePut(item)
	if err != nil {
		return TxOp{}, opErr("put", e.def.Type, w.key, err)
	}
	e.setVersion(item, ver)
	return TxOp{op: ddb.Op{Put: &types.Put{TableName: aws.String(e.t.schema.Name), Item: w.item}, Key: w.key, What: e.def.Type}}, nil
}

// putVersion is the version an unconditional put stamps: never one an
// optimistic writer may have read before it (a put writing back version 1
// over version 1 would let a stale Update or Replace through). It is the
// item's version plus one, or the clock in microseconds if that is larger.
func (e *Entity[T]) putVersion(item *T) int64 {
	return max(e.versionOf(item)+1, e.t.now().UnixMicro())
}

func (e *Entity[T]) versionOf(item *T) int64 {
	if e.def.Version == nil {
		return 0
	}
	return *e.def.Version(item)
}

func (e *Entity[T]) setVersion(item *T, v int64) {
	if e.def.Version != nil {
		*e.def.Version(item) = v
	}
}
