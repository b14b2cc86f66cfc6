// Package ddb is the engine's layer of calls to DynamoDB: what a request
// needs that is not an entity's.
//
// Its contract, as far as it has moved below the engine so far:
//
//   - Cursor sealing ([Sealer]): a pagination cursor is encrypted and
//     authenticated with a key derived from the store's cursor key, bound
//     to the access pattern and partition it came from, and carries the id
//     of its key and the time it was issued; a tampered, foreign, retired
//     or expired cursor gives [ErrInvalidCursor].
//   - Retries: a jittered exponential delay ([Backoff]) and a sleep that
//     ends with its context ([Sleep]).
//
// It imports nothing of this module: the engine (package table) imports
// it, never the other way; table.ErrInvalidCursor is [ErrInvalidCursor].
package ddb

import "errors"

// ErrInvalidCursor: a pagination cursor is malformed, tampered with,
// sealed with a retired key, expired, or issued for another query
// (table.ErrInvalidCursor is this value).
var ErrInvalidCursor = errors.New("singletable: invalid cursor")
