// Package feed hears a table's writes: its DynamoDB stream, typed.
//
// A [Router] routes each stream record to the typed handler of its entity
// ([Handle]), as http.ServeMux routes requests: the record is classified
// by the table's declarations ([table.Table.Classify]), decoded into a
// [table.ItemChange] exactly as reads decode items, and handed to the
// handler. The engine's own items (unique guards, counter shards, job and
// feed checkpoints) never reach an entity's handler; a record of no
// declared entity is reported, never dropped silently.
//
// Records come from the Streams API ([FromStreams], [ReadAll], and a
// [Consumer] that follows a table's stream with checkpoints kept in the
// table) or from an AWS Lambda stream event (package
// table/feed/lambdafeed, which alone imports aws-lambda-go).
//
// Delivery is at least once: a record may reach a handler again after a
// fault (a crash before its checkpoint, a lost response), always with the
// same [table.Record.ID] and in the same order per key. Handlers are
// idempotent by design: key their effects by the record's ID, or make them
// conditional on what they change.
package feed
