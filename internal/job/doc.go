// Package job is the engine's maintenance job runner: one pass over every
// item of a table with a parallel Scan ([Run]), bounded in capacity,
// resumable from checkpoints kept in the table itself, idempotent, and
// honest in dry runs (which record the unique values and keys their
// writes would claim, [WithClaims], to predict conflicts). table.RunJob
// is the API; its documentation states the contract.
//
// It sits on the request layer (internal/ddb) and imports nothing of table.
package job
