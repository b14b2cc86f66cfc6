// Package ddb is the engine's layer of requests to DynamoDB: what a request
// needs that is not an entity's. A [Conn] is one table's connection: its
// [Schema], client, clock, retry limits and observation hooks.
//
// Its contract:
//
//   - The physical table: [Schema] (the generic single-table definition,
//     its CreateTable request and validation), create, describe, delete and
//     TTL ([Conn.CreateTable], [Conn.EnableTTL]).
//   - Errors: the engine's sentinels and [OpError]; [MapErr] turns the
//     SDK's errors into them, keeping the cause.
//   - Observation: every request reports an [Event] to the logger, the
//     observer and a context's capacity [Meter]; a store method's [Call]
//     is started with [StartCall] for a [Tracer].
//   - Transactions ([Conn.Transact]): actions ([Op]) checked before
//     sending (count, size, duplicates), conflicts and throttling retried
//     with backoff, a create that met an expired item sent again on its
//     wider condition ([Conn.FullCreate]), cancellations explained per
//     action ([TxError]).
//   - Batches ([Conn.BatchWrite], [Conn.BatchGet]): chunked, unprocessed
//     items retried with backoff, and on giving up a [BatchError] that
//     sorts every key into written, not written and unknown.
//   - Unique guards: the actions that put, take over, move and delete the
//     guard items of unique values ([Conn.GuardPut], [Conn.GuardDiff]).
//   - Single-item writes ([Conn.PutItem], [Conn.PutCreate],
//     [Conn.UpdateItem], [Conn.DeleteItem], [Conn.Take]), a patch's
//     UpdateItem ([Conn.BuildPatch], [Conn.SendPatch]) and a whole-item
//     update with its guard moves ([Conn.BuildDiff], [Conn.WriteDiff]): a
//     failed condition explained from the item DynamoDB returns with it
//     (this write's own token after a lost response, a missing or foreign
//     item, a lost race). An item's own attributes are stamped by
//     [Conn.Stamp].
//   - Snapshot reads ([Conn.TransactGet]).
//   - Queries ([Conn.Query]): the key condition, filters and projection
//     of one Query request; a sharded partition read as one Query per
//     shard merged in sort-key order; the page's cursor sealed.
//   - Guard reads and repairs: guards and their owners read in batches
//     ([Conn.ReadGuards]); a write that met the guard of a gone item
//     takes it over ([Conn.TransactGuarded]); an orphan guard a lookup
//     found is reported and removed ([Conn.DropOrphan]).
//   - Write-sharded collections: the switch of an owner's layout
//     ([Conn.SwitchLayout]) and the cursor of a page over its partitions
//     ([SpanCursor]).
//   - Cursor sealing ([Sealer]): a pagination cursor is encrypted and
//     authenticated with a key derived from the store's cursor key, bound
//     to the access pattern and partition it came from, and carries the id
//     of its key and the time it was issued; a tampered, foreign, retired
//     or expired cursor gives [ErrInvalidCursor].
//   - Retries: a jittered exponential delay ([Backoff]) and a sleep that
//     ends with its context ([Sleep]).
//
// It imports the codec, key template and expression layers and keys,
// nothing of table: the engine (package table) imports it, never the other
// way; table's names for these types and errors are aliases of them.
package ddb

import "errors"

// ErrInvalidCursor: a pagination cursor is malformed, tampered with,
// sealed with a retired key, expired, or issued for another query
// (table.ErrInvalidCursor is this value).
var ErrInvalidCursor = errors.New("singletable: invalid cursor")
