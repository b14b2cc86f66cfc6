package table

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
)

// Write-sharded collections. A collection whose new items all land in one
// partition key (a topic's messages, a source's events) takes at most
// 1,000 write units per second there, however its sort keys grow
// (docs/performance.md, "Scale"). A write-sharded collection spreads its
// items over N partitions, PK#0 .. PK#{N-1} ([ShardPK]), and records N on
// the item that owns the collection (the topic, the source), so that N is
// chosen per owner and can change while the owner is live.
//
// The owner records a [Layout]: the history of its shard counts as epochs,
// each the count that applies from a position on (a sequence number, a
// time). Shards = 1 is the owner's own partition key byte for byte (the
// document's key), so a collection never sharded has the zero Layout and
// is stored exactly as before. An item is written once, under the epoch
// its position falls in, and never moves: a switch appends an epoch and
// leaves every stored item where it is.
//
// The contract:
//
//   - One place per item. An item's partition is a function of its
//     position (or ID) and the layout ([Layout.SeqPK], [Layout.IDPK]), so
//     a point read is one GetItem once the layout is known.
//   - No stale writer. A writer reads the owner (its layout with it) and
//     conditions its transaction on the layout it read ([TxOp.IfLayout],
//     [Table.LayoutCheckOp]); a switch committed in between fails that
//     condition inside the same transaction (nothing of the write is
//     applied) and the writer reads the owner again. A switch
//     ([Table.SwitchLayoutOp]) is conditioned on the layout it replaces,
//     so two switches never both apply.
//   - Complete lists. A list of the whole collection reads every partition
//     any epoch used ([Layout.Query]: the owner's own key if an epoch had 1
//     shard, and shards 0 .. max-1), merged in sort-key order with one
//     sealed cursor holding a position per partition ([Query.Shards],
//     [Query.ShardBase]); since every item lives in exactly one of them, a
//     list never misses an item and never returns one twice, before,
//     during and after a switch. Such a list costs one Query per partition
//     (it fans out).
//   - Faults. A transaction whose response is lost is resent by the SDK
//     with its idempotency token: applied once. A conflict or a throttle
//     cancels the whole transaction: nothing applied. A failed layout
//     condition is a lost race, the same as a failed version check: the
//     writer re-reads and retries.

// Epoch is one period of a [Layout]: the shard count (Shards: 1 is the
// owner's own partition key, N > 1 the keys PK#0 .. PK#{N-1}) that items
// at positions From and above are written with (until the next epoch).
type Epoch = keytmpl.Epoch

// Layout is the shard history of a write-sharded collection, stored on its
// owner item as text ("0:1,5001:8": From:Shards, oldest first). The zero
// Layout is a collection that was never sharded: every item in the owner's
// partition, as the document stores it.
type Layout struct{ l keytmpl.Layout }

// NewLayout returns the layout of a collection created with n shards.
func NewLayout(n int) (Layout, error) {
	l, err := keytmpl.NewLayout(n)
	return Layout{l}, err
}

// ParseLayout parses the stored text of a layout ("" is the zero Layout).
func ParseLayout(s string) (Layout, error) {
	l, err := keytmpl.ParseLayout(s)
	return Layout{l}, err
}

// String returns the layout's stored text ("" for the zero Layout).
func (l Layout) String() string { return l.l.String() }

// IsZero reports whether the collection was never sharded.
func (l Layout) IsZero() bool { return l.l.IsZero() }

// Epochs returns the layout's epochs, oldest first (none for the zero
// Layout: everything in the owner's partition).
func (l Layout) Epochs() []Epoch { return l.l.Epochs() }

// Shards returns the shard count new items are written with.
func (l Layout) Shards() int { return l.l.Shards() }

// ShardsAt returns the shard count of the epoch position pos falls in.
func (l Layout) ShardsAt(pos int64) int { return l.l.ShardsAt(pos) }

// Switch returns the layout with a new epoch: items at positions from
// and above are written with n shards. from must be at or above the last
// epoch's From, and at or above every position already written (the
// caller conditions the switch on that, see [Table.SwitchLayoutOp]).
// from equal to the last epoch's From is a switch made again before any
// item was written in that epoch (the caller's positions are all below
// from: for a sequence, the owner's last number plus one): the epoch
// takes n, or is removed when n is the count of the epoch before it.
func (l Layout) Switch(from int64, n int) (Layout, error) {
	next, err := l.l.Switch(from, n)
	return Layout{next}, err
}

// SeqPK returns the partition of the item at sequence number seq of the
// collection whose owner's partition key is pk: shard seq mod N of the
// epoch seq falls in, or pk itself when that epoch has 1 shard.
// Consecutive sequence numbers go to consecutive shards, so a range of
// them is spread evenly and each shard's part is computable.
func (l Layout) SeqPK(pk string, seq int64) string { return l.l.SeqPK(pk, seq) }

// SeqPKs returns every partition seq may be in: [Layout.SeqPK]'s first,
// then its place under each other shard count of the layout, for a point
// read that missed (an item numbered by its writer, not by the owner's
// sequence, and written under the layout before a switch whose first
// position was at or below it).
func (l Layout) SeqPKs(pk string, seq int64) []string { return l.l.SeqPKs(pk, seq) }

// IDPK returns the partition of the item with ID id written at position
// pos: shard [Shard](id, N) of the epoch pos falls in.
func (l Layout) IDPK(pk string, pos int64, id string) string { return l.l.IDPK(pk, pos, id) }

// Partitions returns every partition key the collection's items may be
// in: pk itself if an epoch had 1 shard (or the layout is zero), and
// pk#0 .. pk#{max-1} for the largest count N > 1 of its epochs.
func (l Layout) Partitions(pk string) []string { return l.l.Partitions(pk) }

// Query returns q (a query of the owner's partition q.PK) as a query of
// the whole collection: with Shards and ShardBase set to read every
// partition of [Layout.Partitions] merged in sort-key order, one Query per
// partition per page; unchanged for a collection never sharded (one Query).
func (l Layout) Query(q Query) Query {
	base, n := l.l.Span()
	if n > 1 {
		q.Shards, q.ShardBase, q.OnlyShards = n, base, nil
	}
	return q
}

// LayoutOf returns the layout stored in attribute attr of raw, an owner
// item (the zero Layout when the attribute is absent).
func LayoutOf(raw Item, attr string) (Layout, error) {
	v, ok := raw[attr]
	if !ok {
		return Layout{}, nil
	}
	s, ok := v.(*types.AttributeValueMemberS)
	if !ok {
		return Layout{}, &ValidationError{Field: attr, Reason: "a layout is stored as a string"}
	}
	return ParseLayout(s.Value)
}

// GetOwner reads the owner item with key k (the item whose attribute
// holds a collection's [Layout]) with one GetItem, strongly consistent
// when consistent is set. A missing or expired item gives [ErrNotFound].
// Given attrs, it fetches only those attributes (a ProjectionExpression)
// and what the table reads itself (the keys, the type, version and TTL
// attributes): for a read that checks a few of them. DynamoDB charges the
// read by the whole item's size all the same.
func (t *Table) GetOwner(ctx context.Context, k Key, consistent bool, attrs ...string) (Item, error) {
	if err := keytmpl.CheckKey(k); err != nil {
		return nil, err
	}
	raw, err := t.c.GetItemAttrs(ctx, "", k, consistent, attrs, nil)
	if err != nil {
		return nil, opErr("get", "", k, err)
	}
	if raw == nil || t.c.Expired(raw) {
		return nil, opErr("get", "", k, ErrNotFound)
	}
	return raw, nil
}

// GetOwners reads the owner items with keys ks, as [Table.GetOwner] does
// one, in one BatchGetItem (per 100 keys; unprocessed keys retried),
// strongly consistent when consistent is set. It returns the items found
// and live, by key: a missing or expired one is absent from the map.
// Given attrs, it fetches only those, as GetOwner does.
func (t *Table) GetOwners(ctx context.Context, ks []Key, consistent bool, attrs ...string) (map[Key]Item, error) {
	raws, err := t.c.BatchGetAttrs(ctx, "", ks, consistent, attrs)
	if err != nil {
		return nil, opErr("batch get", "", Key{}, err)
	}
	out := make(map[Key]Item, len(raws))
	for _, raw := range raws {
		out[t.c.KeyOf(raw)] = raw
	}
	return out, nil
}

// IfLayout returns the action (an update, put, delete or condition check
// of the owner item) also conditioned on the owner holding layout l in
// attribute attr: a writer that read l and writes under it is refused,
// inside its transaction, once a switch has changed it.
func (o TxOp) IfLayout(attr string, l Layout) TxOp { return TxOp{o.op.IfLayout(attr, l.String())} }

// LayoutCheckOp returns a transaction action that writes nothing but
// fails the transaction unless the owner item k exists, is live and holds
// layout l in attribute attr: the action a writer of the collection adds
// when its transaction does not otherwise write the owner.
func (t *Table) LayoutCheckOp(owner Key, attr string, l Layout) TxOp {
	return t.ConditionOp(owner).IfLayout(attr, l)
}

// SwitchLayoutOp returns the transaction action that switches the owner
// item's layout (attribute attr) from old to next: an UpdateItem that sets
// the attribute, on condition that the owner is live and still holds old.
// ifEqual adds conditions on other attributes of the owner (the sequence
// number next's new epoch starts after, so that no item was written at or
// above it under old); a nil value requires the attribute to be absent. Old items stay where they are; run it with
// [Table.Transact].
func (t *Table) SwitchLayoutOp(owner Key, attr string, old, next Layout, ifEqual map[string]types.AttributeValue) TxOp {
	op := TxOp{op: t.c.SwitchLayout(owner, attr, next.String(), ifEqual)}
	return op.IfLayout(attr, old)
}

// InPartition returns the action moved to partition key pk (same sort
// key): how a writer puts an entity's item into the shard its layout
// chooses ([Layout.SeqPK]) when the entity's template names the owner's
// partition.
func (t *Table) InPartition(o TxOp, pk string) TxOp { return TxOp{o.op.InPartition(t.schema.PK, pk)} }

// ListLayout returns one page of a write-sharded collection through e: q
// is a query of the owner's partition with the caller's options applied
// ([ListOptions.Apply], its Cursor included). A first page (no cursor)
// asks layout for the owner's [Layout] and reads every partition it gives
// ([Layout.Query]; base also reads the owner's own partition whatever the
// layout, for a collection another writer still fills there); a later
// page reads the partitions its cursor names, so a page continued after a
// switch reads the partitions it started with: newest first it misses
// nothing of a collection whose new epochs hold only newer items; oldest
// first it ends before them. The page's cursor holds those partitions
// ("L8b:" then the engine's sealed cursor: 8 shards and the owner's
// partition; the sealed part is bound to them, so the prefix is
// authenticated with it, and a prefix alone is refused); a collection
// read as one partition keeps the engine's cursor as it is. A tampered,
// foreign or malformed cursor, its prefix included, gives
// [ErrInvalidCursor] before any request. Requests: layout's, then one Query per partition per
// page, sent at once.
func ListLayout[T any](ctx context.Context, e *Entity[T], q Query, base bool, layout func(context.Context) (Layout, error)) (Page[T], error) {
	if q.Cursor != "" {
		var err error
		if q.Cursor, err = resumeSpan(&q, q.Cursor); err != nil {
			return Page[T]{}, err
		}
	} else {
		l, err := layout(ctx)
		if err != nil {
			return Page[T]{}, err
		}
		q = l.Query(q)
		if base && q.Shards > 1 {
			q.ShardBase = true
		}
	}
	p, err := e.List(ctx, q)
	if err != nil {
		return p, err
	}
	p.Cursor = spanCursor(q, p.Cursor)
	return p, nil
}

// spanCursor wraps inner, the engine's cursor of a page of q, with the
// partitions q read.
func spanCursor(q Query, inner string) string { return ddb.SpanCursor(q.Shards, q.ShardBase, inner) }

// resumeSpan sets q's partitions from a cursor spanCursor made and
// returns the engine's cursor (see [ddb.ResumeSpan]).
func resumeSpan(q *Query, cursor string) (string, error) {
	n, base, inner, err := ddb.ResumeSpan(cursor)
	if err == nil {
		q.Shards, q.ShardBase, q.OnlyShards = n, base, nil
	}
	return inner, err
}

// ReshardJob returns the job that switches the write-sharded collections
// of e's items (the owners) to the shard count shards returns for each
// (0: leave it): layout reads an owner's stored layout, reshard switches
// it live (a transaction conditioned on the layout read, see
// [Table.SwitchLayoutOp]). Run it with [RunJob] (parallel, resumable,
// capacity-bounded) when a profile or an owner's load changes. An owner
// already at its count is Unchanged, so a second run changes nothing; an
// owner gone meanwhile ([ErrNotFound]) and other items are Skipped; an
// owner that does not decode, or whose layout does not parse, is
// Conflicted.
func ReshardJob[T any](name string, e *Entity[T], layout func(T) string, shards func(T) int, reshard func(context.Context, T, int) error) Job {
	return Job{Name: name, Visit: func(ctx context.Context, raw Item, dryRun bool) (JobOutcome, error) {
		if !e.Owns(raw) {
			return Skipped, nil
		}
		v, err := e.Decode(raw)
		if err != nil {
			return Conflicted, fmt.Errorf("%w: %v", ErrInvalidInput, err)
		}
		l, err := ParseLayout(layout(v))
		if err != nil {
			return Conflicted, fmt.Errorf("%w: %v", ErrInvalidInput, err)
		}
		n := shards(v)
		if n == 0 || l.Shards() == n {
			return Unchanged, nil
		}
		if dryRun {
			return Changed, nil
		}
		if err := reshard(ctx, v, n); err != nil {
			if errors.Is(err, ErrNotFound) {
				return Skipped, nil
			}
			return Unchanged, err
		}
		return Changed, nil
	}}
}
