// Package query holds what every list access pattern shares: [Page] with
// an opaque cursor, the [Sealer] that makes cursors tamper-proof and bound
// to their query, and [All], which turns pages into an iter.Seq2.
//
// The access patterns of each application live in its subpackage:
// query/ferryhook, query/podcastflow, query/tinode.
//
// # Cursors
//
// A cursor is DynamoDB's LastEvaluatedKey, encrypted and authenticated with
// AES-256-GCM under a key derived from the store's cursor key, with the
// access pattern and partition as additional data. It therefore reveals no
// key values, and a cursor that was altered, or issued for another query,
// partition or key, is refused with [ErrInvalidCursor] before any request.
//
// # Iterators
//
// [All] yields every item of every page; the error, if any, is yielded
// once and iteration stops, and no request is sent after the consumer's
// loop breaks.
package query
