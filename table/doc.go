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
// waits until the table is active and enables TTL. What only deployment
// and review need lives in package table/tableschema: the same definition
// exported as CreateTable JSON, CloudFormation and Terraform, the plan of
// a live table's differences from its schema (and Apply), and the design
// as an Amazon NoSQL Workbench model.
//
// # Entities
//
// An [Entity] binds a Go struct to the table through a [Def], the entity's
// schema declared as data: its type name, its primary key and GSI keys as
// [Template]s bound to attribute names (a computation a key needs is a
// named transform of the template language, see [Transforms]), its unique
// values (UniqueOn, UniqueFold), its expiry ([TTL]), its secrets, tenant
// scope and fixed and always-written attributes; then its two
// behaviour hooks, Validate and Touch. Keys are recomputed from the struct
// on every write, so an index entry can never be stale, and the engine
// derives from the declarations which fields move which index entry and
// guard (Patch, Change, Update and the adoption job alike): there is no
// hand-kept list. [CustomUniques] states in Go the unique values that
// follow a rule beyond the item's fields; it names what it reads.
// [Entity.Sample] and [Entity.Model] give the design before the table
// holds an item. Def.Timestamps declares createdAt and updatedAt (see
// [Timestamps]): a create sets both, every other write only updatedAt,
// each at the precision declared. Def.ValidWhileIndexed
// declares that another writer revokes an item by taking it out of an
// index: no write (the adoption job included) puts it back or claims its
// guards, and lookups by value ([Entity.GetByUnique],
// [Entity.GetByIndex], [Entity.Get] with [Valid]) refuse it.
//
//	var notes = table.NewEntity(tbl, table.Def[Note]{
//		Type:      "Note",
//		Keys:      table.Template{PK: "NOTE#{id}", SK: "NOTE"},
//		IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "AUTHOR#{author}", SK: "AT#{at:ts}#{id}"}},
//		UniqueOn:  []string{"slug"},
//		TTL:       table.TTL{From: "createdAt", After: 90 * 24 * time.Hour},
//		Validate:  (*Note).Validate,
//	})
//
// Its operations keep these guarantees:
//
//   - [Entity.Get] never returns a missing item or one past its TTL
//     ([ErrNotFound]).
//   - [Entity.Create] never overwrites ([ErrAlreadyExists]); unique values
//     are held by guard items written in the same transaction
//     ([ErrUniqueViolation]).
//   - [Entity.Update] is read, change, and one UpdateItem of exactly the
//     attributes that changed, conditioned on their values as read and on
//     the version, retried on a lost race: concurrent updates (ours or
//     another service's) are never lost, attributes the Go type does not
//     know are kept, a missing item is [ErrNotFound] (never an upsert), and
//     GSI keys and guards move in the same write.
//   - [Entity.Replace] is explicit optimistic concurrency against every
//     writer: the item carries what it was read as ([ReadState]), and the
//     one UpdateItem requires the stored item to be still exactly that, so
//     a change by anyone since the read, another service's that never
//     touches the version included, gives [ErrConflict].
//   - [Entity.Patch] and [Entity.Add] change chosen attributes or counters in
//     one UpdateItem, and refuse fields that keys derive from.
//   - One page form and one iterator form: [Entity.List] reads one page
//     of an access pattern (a [Query]: key condition, index, filter,
//     default order) with the caller's [ListOption]s ([Limit], [After],
//     [Asc], [Desc]) and returns a [Page] with an opaque cursor;
//     [Entity.ListAll] iterates over every page as an iter.Seq2. Every
//     application package names its methods the same way (ListX for a
//     page, AllX for the iterator, built with [Pages]);
//     [Table.ReadCollection] decodes an item collection that mixes types.
//   - [Entity.Take] consumes an item once (OAuth states, invitations): of
//     concurrent takers exactly one gets it, and never after its TTL.
//   - Def.Secrets fields (credentials, tokens, MFA secrets) are encrypted
//     with Options.Cipher ([NewAESGCM] or your KMS-backed [Cipher]) before
//     they reach DynamoDB, bound to their item and attribute.
//   - [Table.Transact] (up to 100 actions, idempotency tokens, a [TxError]
//     naming each failing action, wrapped in the error the first failed
//     condition means: [TxOp.OnFail]), [Table.BatchWrite] and [Entity.BatchGet]
//     (chunked, unprocessed items retried with backoff, a [BatchError]
//     listing exactly the keys left).
//
// Every error wraps a sentinel ([ErrNotFound], [ErrAlreadyExists],
// [ErrConflict], [ErrInvalidKey], [ErrInvalidInput], [ErrInvalidCursor],
// [ErrItemTooLarge], ...) matched with errors.Is, inside an [OpError] that
// names the operation, entity and key. Bad input is refused with a
// [ValidationError] naming the field, before any request is sent.
//
// # Keys from the declaration
//
// A key's shape is written once, in its [Template], and everything else is
// built from it with the grammar the engine writes items by:
// [Template.Key] builds one item's key from attribute values and
// [Template.Parse] reads them back (Key(Parse(k)) is k), [Template.Partition]
// gives a Query's partition (without a trailing shard segment),
// [Template.SortKey] and [Template.SortPrefix] the bounds and begins_with
// prefixes of a range. An application declares its templates beside its
// entity types (entity/<app>: `var UserKeys = table.Template{PK:
// "USER#{userId}", SK: "PROFILE"}`), its Defs reference them (`Keys:
// fh.UserKeys`), and its key helpers (UserKey(id)) call the builder: no
// second pattern restates a template, no store concatenates a key by hand.
// A shard count a deployment picks is a modifier of the template
// ("USERS#{userId:shard}", given the profile's count by
// [Template.WithShards]), not a template built with fmt.Sprintf.
//
// # What survives a write
//
// Strict writes, tolerant reads: a write never drops what it did not
// understand.
//
//   - Update, Replace and Upsert write only the top-level attributes whose
//     encoded value the caller changed; every other stored attribute
//     (unmodelled, NULL, of another type than the field) keeps its bytes.
//   - Inside maps, at any depth, a read gives back every stored entry (""
//     as "", NULL as nil, empty lists and maps as such) and a write stores
//     every entry of the Go value as it holds it; guregu's omission of
//     empty values applies to top-level fields only (sparse GSI keys;
//     Def.AlwaysWrite writes them). An Update or Replace that changes an
//     attribute writes it from the stored value: a nested part the caller
//     did not change keeps its stored form (a set read into `any` stays a
//     set, an empty string a struct field cannot tell from absent stays).
//   - Declare a field of type [Extra] tagged `dynamo:"-"` (by convention
//     named Extra) and the entity opts in to the catch-all: every read
//     fills it with the stored attributes no field models, as raw
//     attribute values (sets stay sets, NULLs stay NULL), and every write
//     of the whole item (Create, Put, BatchPut, Replace, Update, Upsert,
//     transaction ops) writes them back; an entry the caller changes,
//     adds or deletes is written, a nil Extra leaves them as stored. The
//     keys, entity-type, version and write-token attributes and the index
//     keys and TTL the entity derives are never in it.
//   - A nested struct (a map attribute, at any depth through struct
//     fields, pointers, slices and arrays) may declare its own [Extra]
//     field, tagged the same way: every read fills it with the members of
//     that map no field of the struct models (after secrets are opened),
//     and every write of the item puts them back in the map (a member a
//     field models wins), so a provider's token response stored whole
//     keeps every member. It is part of its struct's value: a struct
//     assigned whole writes the Extra it holds, and a nil one has no
//     members (unlike the item's own Extra, it does not keep the stored
//     ones: new credentials drop the old response's members).
//
// # Under faults
//
// Assume another writer is always there and that any response can be lost
// after DynamoDB applied the write. Every write path inherits these rules
// from one place (the write-condition builder and the write tokens):
//
//   - Existence and type: every write on an existing key is conditioned on
//     the item existing, not being past its TTL, and being of the entity's
//     type (or untyped: written by another service). An expired item that
//     DynamoDB has not deleted yet is absent for writes as for reads: Create
//     takes its key, the others give [ErrNotFound]. A create is sent on
//     attribute_not_exists alone, and again on the condition that also
//     takes an expired item's key only when the first failed on one (the
//     failure returns it): the shortest request on a fresh key, two over an
//     expired item, the same result either way.
//   - Lost responses: a non-idempotent single-item write stamps a random
//     token into the item's token set ([Schema.TokenAttr]) in the same
//     request; when the SDK's retry fails its condition, the item returned
//     with the failure is checked for the token, and a match means the write
//     was this one: success, never [ErrAlreadyExists] or a second increment.
//     Transactions rely on the SDK's idempotency token instead.
//   - Conflicts: a transaction canceled only by TransactionConflict is
//     retried with jittered backoff (Options.ConflictRetries); Update also
//     retries a lost optimistic race by re-reading.
//   - Unique guards carry their owner's TTL and are taken over from an owner
//     that is gone or expired, conditioned on it staying absent.
//   - Batches report every key as written, not written, or unknown.
//   - Input is refused before any request: key and guard grammar and byte
//     limits, invalid UTF-8, counters that would overflow, transactions over
//     4 MB, expiries more than 100 years ahead.
//
// The table "what happens if the response is lost" in docs/guarantees.md
// lists each operation's guarantee with the test that proves it.
//
// # Secrets at rest
//
// Contract, for every attribute path named in Def.Secrets:
//
//   - Writes: a non-empty value is encrypted before the item leaves the
//     process, whatever the plaintext looks like, and stored as a BINARY
//     attribute holding an envelope: the marker "STS1" then the cipher's
//     output. The attribute's type is the marker: no string, however it
//     starts, is taken for ciphertext. Without Options.Cipher the write
//     fails with [ErrNoCipher] before any request.
//   - Binding: the cipher's associated data is Options.SecretContext (a
//     logical table identity, such as "orders-prod"; it survives a
//     point-in-time restore into a table of another name, which the
//     physical name would not), the item's primary key and the attribute
//     path. A ciphertext copied to another item, attribute or deployment
//     does not decrypt.
//   - Reads: a binary envelope is decrypted (a [Keyring] finds the key
//     named in its output, so values sealed under older keys still
//     read). A string is a plaintext secret written by someone else: the
//     read fails with [ErrPlaintextSecret], unless
//     Options.AcceptPlaintextSecrets is set to adopt legacy data; then the
//     value is returned and every write of the item seals it.
//   - Rotation and adoption: [AdoptJob] (and [Entity.Adopt]) rewrite items
//     whose secrets are plaintext, in the previous format, or sealed
//     under a key the cipher reports stale ([StaleChecker]), reading them
//     leniently, through the job runner ([Table.RunJob]).
//   - Patch refuses any attribute path that holds a secret or contains
//     one ([Entity.Patch]): only whole-item writes encrypt.
//   - A path "m.*" (m a struct attribute whose struct has a nested
//     [Extra]) makes secrets of the members that Extra keeps, whatever
//     their names: each non-empty one is sealed under its own path
//     ("m.id_token"), a string exactly as a named secret (marker "STS1"),
//     any other value (number, boolean, map, list, set) as its typed
//     encoding (marker "STV1"), and read back as the value it was; a NULL
//     or "" member holds no secret and is stored as it is. The rules
//     above (binding, plaintext refused or adopted, rotation, Patch)
//     apply to each member. The members the struct's fields model are not
//     covered: name the secret ones.
//
// # Cursors
//
// List cursors are sealed with AES-256-GCM under a key derived from
// Options.CursorKey and bound to the query, its partition and, for a
// [Scoped] handle, the tenant: they reveal no key values and a tampered or
// foreign cursor is [ErrInvalidCursor]. They name their key
// (Options.CursorKeyID; Options.OldCursorKeys keeps retired keys readable
// during a rotation) and carry their issue time (Options.CursorMaxAge).
// Every part of a cursor is held to this: the layout prefix of a
// write-sharded list ("L8b:", see [ListLayout]) names the partitions its
// sealed part was bound to, so a prefix changed, inflated, swapped with
// another list's or removed fails to open, and a prefix without its sealed
// part is refused; a refused cursor sends no request.
// [Pages] turns a list method into an iter.Seq2 over every page (the error
// yielded once, no request after the loop stops), and [Collect] drains one
// into a slice.
//
// # Past one partition's limits
//
// One partition key value takes at most 1,000 write and 3,000 read units
// per second. A partition every item of a kind joins is declared sharded
// in its template ("{id:shardN}", see [Shard]): N keys, read together by
// [Query.Shards] with one merged page and one cursor. A collection owned
// by one item (a topic's messages, a source's events) is write-sharded
// per owner: the owner records a [Layout] (its shard counts as epochs, 1
// being its own key byte for byte), writers condition their transaction
// on it ([TxOp.IfLayout]), a switch appends an epoch while the owner is
// live ([Table.SwitchLayoutOp]) and leaves every item where it is, and
// lists read every partition any epoch used ([Layout.Query]).
//
// # Observability
//
// Options.Logger (log/slog) and Options.Observer receive one [Event] per
// request: operation, entity, index, consumed capacity, duration, error.
// Lower-level hooks go in as aws-sdk-go-v2 middleware on the client.
package table
