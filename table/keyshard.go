package table

import (
	"github.com/singletable/singletable/internal/keytmpl"
)

// Sharded partitions. One partition key value takes at most 1,000 write
// and 3,000 read units per second, on the table and on each GSI alike
// (docs/performance.md, "Scale"), and DynamoDB never splits a key whose items
// all change. A partition every item of a kind joins (all users, all due
// schedules, every run of a status) is therefore split in N shards: the
// template segment "{id:shardN}" (last in a partition-key template, such
// as "SCHED#DUE#{scheduleId:shard8}") writes the item to shard
// [Shard](id, N), so the partition key is SCHED#DUE#0 .. SCHED#DUE#7 and
// each shard takes 1/N of the writes. With N = 1 the segment is left out:
// the key is the unsharded one, byte for byte.
//
// A read of the whole partition ([Query.Shards], set by [Entity.List] from
// the template) sends one Query per shard at once and merges them in sort
// key order, so a page costs N requests (more when one shard holds far
// more of the range than the others: the shards that bound the page are
// read again), and its cursor holds a position per shard. A worker that
// owns some shards reads only those ([Query.OnlyShards]), or one shard by
// its full key.

// ShardPK returns the partition key of shard i of the sharded partition
// pk: pk#i, or pk itself when n is 1.
func ShardPK(pk string, i, n int) string { return keytmpl.ShardPK(pk, i, n) }

// Shards returns the shard count of the entity's partition key on index
// ix (Primary for the table), as its template declares: 0 when it is not
// sharded. Readers of a partition that several entity types share
// ([Table.ReadCollection]) pass it as [Query.Shards].
func (e *Entity[T]) Shards(ix Index) int {
	if e.decl == nil {
		return 0
	}
	if n := e.decl.Partition(ix).Shards(); n > 1 {
		return n
	}
	return 0
}

// withShards sets q.Shards from the entity's template when q names the
// partition without its shard segment.
func (e *Entity[T]) withShards(q Query) Query {
	if q.Shards != 0 || e.decl == nil {
		return q
	}
	if t := e.decl.Partition(q.Index); t.Unsharded(q.PK) {
		q.Shards = t.Shards()
	}
	return q
}

// relayout returns the index partition-key attributes of raw stored under
// another shard count of the entity's sharded templates, which a write
// moves to derived's ([decl.Decl.Relayout]): the adoption job ([AdoptJob])
// moves the items of a partition that a new release or profile shards,
// and any later write of an item does too.
func (e *Entity[T]) relayout(raw, derived Item) map[string]bool {
	if e.decl == nil {
		return nil
	}
	return e.decl.Relayout(e.t.schema, raw, derived)
}

// MaxShards is the largest shard count a template or a query accepts.
const MaxShards = keytmpl.MaxShards

// Shard returns the shard of id among n (0 when n <= 1): the 32-bit
// FNV-1a hash of id's bytes, mod n. It is stable across processes,
// releases and languages, so every writer and reader of an ID agrees.
func Shard(id string, n int) int { return keytmpl.Shard(id, n) }
