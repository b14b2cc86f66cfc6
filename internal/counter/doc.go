// Package counter is the engine's sharded counters: a set of counters of
// one kind of owner spread over N shard items (one picked per write by the
// write's ID), each holding a copy of the owner's state the writes are
// conditioned on, summed back onto the owner by a rollup
// ([Counters.Rollup]) and read exactly with one BatchGetItem
// ([Counters.Read]). table.Counters is the API a store uses; its
// documentation states the contract under faults.
//
// It sits on the request layer (internal/ddb) and imports nothing of table.
package counter
