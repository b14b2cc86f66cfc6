package table

import (
	"context"

	"github.com/singletable/singletable/internal/counter"
	"github.com/singletable/singletable/internal/ddb"
)

// Sharded counters. One item takes at most 1,000 write units per second
// (docs/performance.md, "Scale"), so a counter every event adds to (a
// source's eventCount, an owner's usage) caps the whole event rate. A
// [Counters] set moves such counters off their owning item into N shard
// items, one picked per event by [Shard] of the event's ID, each under its
// own partition key (_CTR#{name}#{owner}#{i}, SK SHARD) and in no GSI, so
// each takes 1/N of the writes and no projected entry is rewritten.
//
// The state a counted write is conditioned on (a source's status, an
// owner's plan: CounterSpec.State) travels with the shards: every shard
// holds a copy, [Counters.AddOp] conditions on the copy in the shard it
// adds to, and whoever changes the state on the owner writes every shard
// in the same transaction ([Counters.StateOps], or [Entity.UpdateAlso]).
// So a changed state refuses the very next write, in the transaction,
// never through a cache.
//
// The owner keeps its documented attributes, kept current by a rollup
// ([Counters.Rollup], [Counters.Visit] in a [Job]): it adds to each of the
// owner's counters what the shards gained since the last rollup (recorded
// in a rollup item, _CTR#{name}#{owner}/ROLLUP), so increments written to
// the owner directly by another writer are kept. The exact figure, the
// owner's value plus what the shards hold beyond the rollup, is one
// strongly consistent BatchGetItem of the owner, the rollup item and the N
// shards ([Counters.Read]).
//
// What holds under faults:
//   - AddOp, StateOps, InitOps and ResetOps are actions of the caller's
//     transaction: all or nothing with the rest of it; a lost response is
//     resent with the transaction's idempotency token and counted once
//     ([Table.Transact]).
//   - A rollup is one transaction (owner, rollup item, and the state copies
//     when a shard's copy differs from the owner's) conditioned on the
//     rollup item and the owner's state as read: two rollups, or a rollup
//     and a reset, never both apply; the loser reads again. A rollup lost
//     in flight changes nothing (the next one adds what it would have).
//   - A state changed on the owner by a writer that does not know the
//     shards (another service) is not seen by AddOp until the next rollup
//     copies it to the shards.

// CounterType is the entity-type attribute of counter shards and rollup
// items (library bookkeeping, which jobs do not visit).
const CounterType = counter.Type

// MaxCounterShards is the largest shard count of a counter set: the
// owner, its rollup item and the shards are read in one BatchGetItem (at
// most 100 keys).
const MaxCounterShards = counter.MaxShards

// CounterSpec declares a set of sharded counters of one kind of owner:
// Name names the set in its shards' keys (a-z, 0-9, '-', '_'); Shards is
// N, 1..MaxCounterShards; Sums are the counters the shards add to and the
// rollup sums (the owner's eventCount); Latest are attributes set on the
// shard by each write, whose largest value (compared as strings: ISO
// times) the rollup sets on the owner when it is later than the owner's
// (lastEventAt); State are the owner's attributes copied into every
// shard, which AddOp conditions on (a status, a plan; string values, ""
// is absent).
type CounterSpec = counter.Spec

// CounterTotals is what a counter set holds for one owner.
type CounterTotals = counter.Totals

// Counters is a set of sharded counters on a table (see the section
// above). Build it with [Table.Counters].
type Counters struct{ c *counter.Counters }

// Counters returns the counter set spec on t, or a *ValidationError.
func (t *Table) Counters(spec CounterSpec) (*Counters, error) {
	c, err := counter.New(t.c, spec)
	if err != nil {
		return nil, err
	}
	return &Counters{c}, nil
}

// Spec returns the set's declaration.
func (c *Counters) Spec() CounterSpec { return c.c.Spec() }

// Pick returns the shard a write identified by id (an event ID) goes to:
// [Shard](id, N).
func (c *Counters) Pick(id string) int { return c.c.Pick(id) }

// ShardKey returns the key of owner's shard i: PK
// _CTR#{name}#{owner}#{i}, SK SHARD (owner escaped like a key segment).
func (c *Counters) ShardKey(owner string, i int) Key { return c.c.ShardKey(owner, i) }

// RollupKey returns the key of owner's rollup item: PK _CTR#{name}#{owner},
// SK ROLLUP. It holds, per counter, the shards' sum at the last rollup.
func (c *Counters) RollupKey(owner string) Key { return c.c.RollupKey(owner) }

// AddOp returns the action that counts one write identified by id (an
// event ID) for owner: on shard [Counters.Pick](id), ADD each of add, SET
// each of latest, on condition that the shard exists and its state copy
// holds want (attributes of CounterSpec.State; "" absent). Put it in the
// transaction of the write it counts. When the condition fails, the
// cancellation reason's Item is the shard as stored (nil: the owner has no
// shards yet, see [Counters.InitOps]).
func (c *Counters) AddOp(owner, id string, add map[string]int64, latest, want map[string]string) TxOp {
	return TxOp{c.c.AddOp(owner, id, add, latest, want)}
}

// StateOps returns the N actions that copy state (attributes of
// CounterSpec.State; "" removes one) into every shard of owner, creating
// the shards that do not exist: put them in the transaction that changes
// the state on the owner.
func (c *Counters) StateOps(owner string, state map[string]string) []TxOp {
	return txOps(c.c.StateOps(owner, state))
}

// InitOps returns the actions that create owner's N shards, each with the
// state copy and no counts, on condition that none exists yet, and check
// that the owner (ownerKey) exists and holds state: one transaction gives
// an owner written before its counters were sharded its shards.
func (c *Counters) InitOps(owner string, ownerKey Key, state map[string]string) []TxOp {
	return txOps(c.c.InitOps(owner, ownerKey, state))
}

// NewShardOps returns the N puts that create owner's shards, each with
// the state copy and no counts, on condition that none exists: put them
// in the transaction that creates the owner (which [Counters.InitOps]
// cannot check, the owner being written in the same transaction), so its
// first counted write needs no shard creation.
func (c *Counters) NewShardOps(owner string, state map[string]string) []TxOp {
	return txOps(c.c.NewShardOps(owner, state))
}

// CheckOp returns a ConditionCheck that the owner (ownerKey) exists and
// holds state.
func (c *Counters) CheckOp(ownerKey Key, state map[string]string) TxOp {
	return TxOp{c.c.CheckOp(ownerKey, state)}
}

// ResetOps returns the N+1 actions that set sums (attributes of
// CounterSpec.Sums) to 0 in every shard of owner and in its rollup item,
// and write state into every shard (creating missing shards): put them in
// the transaction that sets the owner's sums to 0 (a new billing period).
func (c *Counters) ResetOps(owner string, sums []string, state map[string]string) []TxOp {
	return txOps(c.c.ResetOps(owner, sums, state))
}

// Read returns owner's exact counts (ownerKey: the owning item), in one
// strongly consistent BatchGetItem of the owner, its rollup item and its N
// shards. A missing owner gives [ErrNotFound].
func (c *Counters) Read(ctx context.Context, owner string, ownerKey Key) (CounterTotals, error) {
	return c.c.Read(ctx, owner, ownerKey)
}

// Rollup brings owner's documented attributes up to date (ownerKey: the
// owning item): one consistent BatchGetItem, then, unless the owner is
// current, one transaction that adds to each of the owner's sums what the
// shards gained since the last rollup, sets each Latest attribute to the
// largest value, records the shards' sums in the rollup item, and copies
// the owner's state into shards whose copy differs; it is conditioned on
// the rollup item and the owner's state as read, and read again and
// retried when another rollup, a reset or a state change came first.
// changed reports whether it wrote. A missing owner gives [ErrNotFound].
func (c *Counters) Rollup(ctx context.Context, owner string, ownerKey Key) (tot CounterTotals, changed bool, err error) {
	return c.c.Rollup(ctx, owner, ownerKey)
}

// Visit is a [Job] visit that rolls up the owner raw when owner names it
// (its ID, ok), and skips every other item: a rollup job is
// Job{Name: ..., Visit: func(ctx, raw, dry) { return c.Visit(ctx, raw, dry, owner) }},
// run with [Table.RunJob]. A dry run reads and reports without writing.
func (c *Counters) Visit(ctx context.Context, raw Item, dryRun bool, owner func(raw Item) (string, bool)) (JobOutcome, error) {
	o, err := c.c.Visit(ctx, raw, dryRun, owner)
	return JobOutcome(o), err
}

// txOps wraps actions built below the engine.
func txOps(ops []ddb.Op) []TxOp {
	out := make([]TxOp, len(ops))
	for i, o := range ops {
		out[i] = TxOp{o}
	}
	return out
}
