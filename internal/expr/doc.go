// Package expr is the engine's expression grammar: placeholders
// ([Exprs]), the write conditions every write on an existing key shares,
// and write tokens.
//
// One place builds the conditions, so each write path (Update, Replace,
// Patch, Add, Delete, Take, and their transaction forms) inherits the same
// three guarantees:
//
//   - existence: the item exists and is not past its TTL (an item DynamoDB
//     has not deleted yet counts as missing): [Attrs.Live];
//   - type binding: the item is of this entity type, or carries no type
//     attribute (written by another service), so an entity never changes
//     or deletes an item of another entity type;
//   - write tokens: a write whose response is lost after DynamoDB applied
//     it recognises itself when the SDK retries it ([Attrs.NewToken],
//     [Attrs.HasToken]).
//
// A create is sent on [CreateCond] first and, when an item past its TTL
// holds the key, on [Attrs.Absent].
//
// It imports the codec layer, nothing of table: the engine (package table)
// and the request layer (internal/ddb) build their conditions with it.
package expr
