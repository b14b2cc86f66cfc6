// Package table is the single-table engine: one generic physical schema
// shared by every application, and typed, safe operations on the entities
// stored in it.
//
// # The schema
//
// [NewSchema] returns the generic definition: string keys PK and SK,
// overloaded GSIs GSI1 ... GSIn (GSInPK/GSInSK, projection ALL), an
// entity-type attribute, a numeric TTL attribute (epoch seconds) and a
// version attribute, billed on demand. Attribute and index names are
// options ([WithLowercaseKeys], [WithTTLAttribute]) so that deployments
// written by other services open unchanged. [Table.Create] is idempotent,
// waits until the table is active and enables TTL; the same definition is
// exported as CreateTable JSON and as a CloudFormation resource
// ([Schema.CreateTableJSON], [Schema.CloudFormation]).
//
// # Entities
//
// An [Entity] binds a Go struct to the table through a [Def]: the entity
// type name, how its primary key and GSI keys derive from its fields, its
// validation, its unique values, its expiry and its timestamps. Keys are
// recomputed from the struct on every write, so an index entry can never be
// stale. [Timestamps] and [ExpireAfter] build the usual Touch and Expires.
//
//   - [Entity.Get] never returns a missing item or one past its TTL
//     ([ErrNotFound]).
//   - [Entity.Create] never overwrites ([ErrAlreadyExists]); unique values
//     are held by guard items written in the same transaction
//     ([ErrUniqueViolation]).
//   - [Entity.Update] is read, change, conditional write on the version
//     attribute, retried on a lost race: concurrent updates are never lost,
//     a missing item is [ErrNotFound] (never an upsert), and GSI keys and
//     guards move in the same write.
//   - [Entity.Replace] is explicit optimistic concurrency: a stale version
//     gives [ErrConflict].
//   - [Entity.Patch] and [Entity.Add] change chosen attributes or counters in
//     one UpdateItem, and refuse fields that keys derive from.
//   - [Entity.Query] and [Entity.All] read one page with an opaque cursor,
//     or iterate over all pages; [Entity.List] and [Entity.ListAll] do the
//     same with the caller's [ListOption]s ([Limit], [After], [Asc],
//     [Desc]), the one list mechanism every application package uses;
//     [Table.Collect] decodes an item collection that mixes types.
//   - [Entity.Take] consumes an item once (OAuth states, invitations): of
//     concurrent takers exactly one gets it, and never after its TTL.
//   - Def.Secrets fields (credentials, tokens, MFA secrets) are encrypted
//     with Options.Cipher ([NewAESGCM] or your KMS-backed [Cipher]) before
//     they reach DynamoDB, bound to their item and attribute.
//   - [Table.Transact] (up to 100 actions, idempotency tokens, a [TxError]
//     naming each failing action), [Table.BatchWrite] and [Entity.BatchGet]
//     (chunked, unprocessed items retried with backoff, a [BatchError]
//     listing exactly the keys left).
//
// Every error wraps a sentinel ([ErrNotFound], [ErrAlreadyExists],
// [ErrConflict], [ErrInvalidKey], [ErrInvalidInput], [ErrInvalidCursor],
// [ErrItemTooLarge], ...) matched with errors.Is, inside an [OpError] that
// names the operation, entity and key. Bad input is refused with a
// [ValidationError] naming the field, before any request is sent.
//
// # Observability
//
// Options.Logger (log/slog) and Options.Observer receive one [Event] per
// request: operation, entity, index, consumed capacity, duration, error.
// Lower-level hooks go in as aws-sdk-go-v2 middleware on the client.
package table
