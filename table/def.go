package table

import "time"

// Def is one entity type's schema: how its items are stored in a single
// table, declared as data the engine, the tools and the documents all read
// (see [Template]), then the two behaviour hooks. Type and Keys are
// required; every other field is optional.
//
// # Declared
//
// Type, Keys, IndexKeys, UniqueOn (with UniqueFold), TTL, Timestamps,
// Secrets, Scope, Fixed, AlwaysWrite, AlwaysWriteNull and Version say what
// an item is and how it is stored. The engine derives from them, never from a hand-kept list, which
// fields move which index entry and unique guard (Patch, Change, Update
// and the adoption job alike) and what a tool shows before the table
// holds an item ([Entity.Sample], [Entity.Model]). CustomUniques states,
// in Go, unique values no declaration can state.
//
// # Behaviour
//
// Validate and Touch are code run on writes.
type Def[T any] struct {
	// Type is the value of the entity-type attribute ("User", "Source").
	Type string
	// Keys declares the primary key as templates bound to attribute names
	// ("USER#{userId}", "PROFILE"): see [Template].
	Keys Template
	// IndexKeys declares GSI keys as templates. An index whose referenced
	// attributes are empty, or whose When conditions fail, does not hold
	// the item (sparse). Keys are recomputed on every write, so a write
	// that changes a field an index derives from moves the index entry in
	// the same request.
	IndexKeys map[Index]Template
	// ValidWhileIndexed names indexes of IndexKeys that an item is valid
	// only while it is stored under: for a table shared with a writer that
	// revokes an item by removing its index key attributes and leaving it
	// (a service may revoke an API key so: REMOVE gsi2pk, gsi2sk).
	// An item whose stored attributes lack the partition or sort key of
	// one of these indexes is revoked, and stays so:
	//
	//   - no write of the library puts it back: Update, Replace, Upsert and
	//     the adoption job ([AdoptJob]) never write those index keys on a
	//     revoked item, nor claim its unique guards (other index keys, the
	//     TTL and secrets are brought in line as usual); every such write
	//     is conditioned on those index attributes as it read them, so a
	//     revocation between the read and the write is seen (the write is
	//     retried on the new state, or gives [ErrConflict]);
	//   - a lookup answers only for a valid item: [Entity.GetByUnique],
	//     [Entity.GetByIndex] and [Entity.Get] with [Valid] read the item
	//     itself, strongly consistent (Get: with [Consistent]), and give
	//     [ErrNotFound] unless it stores under each of these indexes the
	//     key its fields derive. A guard, an index entry or a key alone
	//     never answers; a guard of a revoked item is not an orphan (the
	//     item still holds the value): it is kept and answers nothing.
	//
	// Lists and a plain Get return revoked items as stored (tolerant reads).
	ValidWhileIndexed []Index
	// UniqueOn lists attributes whose values are unique among the entity's
	// items (emails, usernames, key hashes). Each is held by a guard item
	// written in the same transaction as the item; create, change and
	// delete keep guards exact. The guard is named by the attribute, or,
	// written "name=attribute" ("keyhash=keyHash"), by name.
	UniqueOn []string
	// UniqueFold folds the value of a UniqueOn guard (by its name) before
	// it is guarded, so values that differ only in form are one value: an
	// email stored as given, guarded as keys.FoldEmail folds it.
	UniqueFold map[string]func(string) string
	// TTL declares when the item expires (see [TTL]).
	TTL TTL
	// Timestamps declares the creation and last-write times the engine
	// keeps (createdAt on create, never on update; updatedAt on every
	// write) and the precision they are stored to (see [Timestamps]).
	Timestamps Timestamps
	// Secrets names the string attributes that hold secrets (credentials,
	// tokens, MFA secrets), by attribute path: "mfaSecret", or
	// "credentials.accessToken" for one inside a map. They are encrypted with
	// Options.Cipher before any write, bound to the item's key and the
	// attribute name, and decrypted on read; Patch refuses them. Without a
	// cipher, writing a non-empty secret fails with [ErrNoCipher]: a
	// plaintext secret never reaches DynamoDB. "credentials.*" names every
	// member of the credentials map that the nested [Extra] of its struct
	// keeps (the members no field models), of any type (see the package
	// documentation, Secrets at rest).
	Secrets []string
	// Scope names the attribute holding the tenant an item belongs to
	// (an account, a user, an organization): set, it enables [Entity.In],
	// the handle whose reads and writes cannot reach another tenant's
	// items.
	Scope string
	// Fixed names attributes set when the item is created that no later
	// write changes (an owner, a tenant, an identity field): Update,
	// Replace and Upsert return a *[ValidationError] naming the attribute
	// when a change would alter one, and Patch refuses them. The Scope
	// attribute is always fixed: an item never moves to another tenant.
	Fixed []string
	// Required names attributes ("config.url": nested) a write refuses when
	// zero (a string: blank), reason "required", after the field's own check;
	// Unchecked, fields whose types' own checks writes skip (Validate
	// checks them by the deployment's rules: a wider vocabulary).
	Required, Unchecked []string
	// AlwaysWrite names attributes written even when their value is empty
	// (the encoder otherwise omits empty strings, zero-length lists and
	// maps): for deployments whose other readers expect them, such as a
	// service that reads body as "" rather than undefined.
	AlwaysWrite []string
	// AlwaysWriteNull names attributes written as NULL when their value
	// is empty (instead of omitted, or the empty value AlwaysWrite
	// writes): for deployments whose other writers store null for an
	// unset value, as a JavaScript service writes `x ?? null`, so that an
	// item reads the same to them whoever wrote it.
	AlwaysWriteNull []string
	// Version, if set, returns a pointer to the field that mirrors the
	// item's version attribute: it is filled on read and advanced on write,
	// and [Entity.Replace] uses it as the expected version.
	Version func(*T) *int64
	// CustomUniques states in Go the unique values that follow a rule
	// beyond the item's fields (see [CustomUniques]), with the attributes
	// they read declared. State the reason where it is used.
	CustomUniques *CustomUniques[T]

	// Validate checks the item before any write, after the checks of its
	// fields (a typed ID or enumeration when set, a key field always,
	// Required), all joined; return a *[ValidationError] ([Invalid]). Left
	// nil, a type whose pointer has Validate() error is checked with it.
	Validate func(*T) error
	// Touch is called before every write with the current time, after the
	// Timestamps are set; created is true on create. Use it for fields
	// derived on write (an expiry from createdAt); declare createdAt and
	// updatedAt in Timestamps instead.
	Touch func(item *T, now time.Time, created bool)
}

// TTL declares when an item expires: at the time attribute From holds (an
// RFC 3339 string, or epoch seconds as a number), plus After. An item
// whose From is absent, zero or empty never expires. The engine writes it
// to the schema's TTL attribute as epoch seconds; reads never return an
// item past it.
type TTL struct {
	From  string
	After time.Duration
}

// CustomUniques are a [Def]'s unique values stated in Go: those no
// declaration ([Def.UniqueOn]) can state because they follow a rule beyond
// the item's fields (a store option may decide whether a tag is exclusive
// or shared). From names every attribute Uniques reads, and is required:
// the engine then knows which writes move the guards (Patch refuses those
// fields; Update and Change rewrite the guards). Use it only with the
// reason at its use.
type CustomUniques[T any] struct {
	From    []string
	Uniques func(*T) []Unique
}
