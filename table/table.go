package table

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/ddb"
)

// Table is a handle on one physical single-table-design table. It is safe
// for concurrent use.
type Table struct {
	client   *dynamodb.Client
	schema   Schema
	c        *ddb.Conn // the requests' layer: observation, batches, transactions
	opts     Options
	entMu    sync.RWMutex
	entities []AnyEntity          // every entity bound to the table, in NewEntity order
	byType   map[string]AnyEntity // the first entity bound of each type (Classify)
	patterns []PatternInfo        // every pattern declared with NewPattern, in order
	writes   []WriteInfo          // the declared writes ([WriteDef]), in order
	uniques  []UniqueInfo         // the declared unique reads ([UniqueDef]), in order
	ops      []OpInfo             // every operation declared with NewOp, in order
	opSeen   map[OpInfo]bool      // ops as a set: a store view declared per request registers nothing twice in O(1)
}

// Entities returns the entities bound to the table with [NewEntity], in
// the order they were bound: what an application store declares, for
// tools such as adoption ([AdoptJob]).
func (t *Table) Entities() []AnyEntity {
	t.entMu.Lock()
	defer t.entMu.Unlock()
	return append([]AnyEntity(nil), t.entities...)
}

// Options configure a [Table].
type Options struct {
	// Logger, if set, receives one debug record per request with the
	// operation, entity, index and consumed capacity.
	Logger *slog.Logger
	// Observer, if set, is called after every request (see [Event]).
	Observer func(context.Context, Event)
	// Tracer, if set, receives every store method's call ([Table.Call]);
	// see package table/oteltable. Nil, the default, costs nothing.
	Tracer Tracer
	// ClientOptions, if any, are applied to a copy of the client New is
	// given, which the table then uses: middleware that only this table's
	// requests go through (table/oteltable installs its own here).
	ClientOptions []func(*dynamodb.Options)
	// CursorKey seals pagination cursors: they are encrypted and
	// authenticated with AES-256-GCM under a key derived from it
	// (HMAC-SHA256), bound to their query and partition. Use 32 random
	// bytes shared by every instance of a service. If empty, a random key
	// is generated per Table: cursors then break across instances and
	// restarts, and the first such Table of a process logs a warning.
	CursorKey []byte
	// CursorKeyID names CursorKey inside each cursor, so that keys can be
	// rotated: move the old key to OldCursorKeys under its id, set the new
	// one here; cursors of the old key keep opening until it is dropped,
	// then they fail cleanly with ErrInvalidCursor.
	CursorKeyID string
	// OldCursorKeys are retired cursor keys by id, still accepted on read.
	OldCursorKeys map[string][]byte
	// CursorMaxAge, if positive, refuses cursors issued longer ago than it
	// (ErrInvalidCursor), by the table's clock.
	CursorMaxAge time.Duration
	// Cipher encrypts the secret fields of entities (Def.Secrets). Use
	// NewAESGCM with a 32-byte key from your secret store, a Keyring of
	// such keys to rotate them, or kmscipher.New for AWS KMS envelope
	// encryption (package table/kmscipher). See [ErrPlaintextSecret] and
	// the "Secrets at rest" contract in the package documentation.
	Cipher Cipher
	// SecretContext is the logical table identity every secret's
	// ciphertext is bound to (with the item's key and the attribute), such
	// as "orders-prod". Unlike the physical table name it survives a
	// point-in-time restore into a table of another name. Default empty:
	// bound to the item and attribute only.
	SecretContext string
	// AcceptPlaintextSecrets reads a secret attribute that holds a
	// plaintext string (another service's data) instead of failing with
	// ErrPlaintextSecret; every write then seals it, and AdoptJob seals
	// all of them. Meant for adopting legacy data, then turned off.
	AcceptPlaintextSecrets bool
	// RedactSecrets reads every secret attribute as the string
	// "[redacted]" (a catch-all member holding a typed value: left out),
	// without a cipher and without opening it: a table opened to inspect
	// data (singletable query) never shows a secret. Writes of an entity
	// with secrets fail with ErrNoCipher unless a Cipher is set too.
	RedactSecrets bool
	// Now returns the current time; tests may fix it. Defaults to time.Now.
	Now func() time.Time
	// MaxBatchAttempts bounds how many rounds a batch retries unprocessed
	// items before it gives up with a *BatchError (default 10; the context
	// deadline also ends it).
	MaxBatchAttempts int
	// BatchBackoff is the first wait between batch retry rounds; it doubles
	// each round up to one second (default 25ms).
	BatchBackoff time.Duration
	// ConflictRetries is how many times [Entity.Update] re-reads and
	// re-applies its change after losing an optimistic-concurrency race
	// (default 16).
	ConflictRetries int
}

// Event describes one request, for observability hooks: the DynamoDB
// operation (GetItem, Query, TransactWriteItems ...), the entity type and
// index name when one is concerned, the consumed capacity units in total,
// the request's wall time and its error.
type Event = ddb.Event

// warnRandomCursorKey logs once per process that cursors use a random key.
var warnRandomCursorKey sync.Once

// New returns a handle on the table described by schema, reached through client.
func New(client *dynamodb.Client, schema Schema, opts ...func(*Options)) *Table {
	o := Options{Now: time.Now, MaxBatchAttempts: 10, BatchBackoff: 25 * time.Millisecond, ConflictRetries: 16}
	for _, f := range opts {
		f(&o)
	}
	if len(o.CursorKey) == 0 {
		o.CursorKey = ddb.RandomKey()
		warnRandomCursorKey.Do(func() {
			l := o.Logger
			if l == nil {
				l = slog.Default()
			}
			l.Warn("singletable: no Options.CursorKey: cursors are sealed with a random key of this process, so a cursor from another instance or before a restart is refused (ErrInvalidCursor); set a shared 32-byte key", "table", schema.Name)
		})
	}
	client = ddb.ClientFor(client, o.ClientOptions)
	c := ddb.NewConn(client, schema, o.Now)
	c.Logger, c.Observer = o.Logger, o.Observer
	c.MaxBatchAttempts, c.BatchBackoff, c.ConflictRetries = o.MaxBatchAttempts, o.BatchBackoff, o.ConflictRetries
	c.Sealer = ddb.CursorSealer(o.CursorKeyID, o.CursorKey, o.OldCursorKeys, o.CursorMaxAge, o.Now)
	return &Table{client: client, schema: schema, opts: o, c: c}
}

// Schema returns the table's schema.
func (t *Table) Schema() Schema { return t.schema }

// Name returns the table name.
func (t *Table) Name() string { return t.schema.Name }

// Client returns the underlying DynamoDB client.
func (t *Table) Client() *dynamodb.Client { return t.client }

func (t *Table) now() time.Time { return t.opts.Now() }

// Now returns the table's clock (Options.Now): the time TTL checks, Touch
// and expiries use. Stores that stamp times themselves should use it so
// that a test clock moves them all.
func (t *Table) Now() time.Time { return t.opts.Now() }

// Create creates the table if it does not exist, waits until it is
// active, and enables TTL on the schema's TTL attribute. An existing table
// is never changed (not even its TTL setting): compare it with the schema
// with tableschema.Compare, and make the in-place changes with
// tableschema.Apply. It is idempotent.
func (t *Table) Create(ctx context.Context) error { return t.c.CreateTable(ctx, false) }

// CreateNew is [Table.Create] for a table that must not exist yet: a table
// of that name already there is an error, not left as it is. It is what
// tableschema.Apply runs for a missing table.
func (t *Table) CreateNew(ctx context.Context) error { return t.c.CreateTable(ctx, true) }

// EnableTTL enables TTL on the schema's TTL attribute, unless the schema
// has none or it is enabled (or being enabled) already. [Table.Create]
// does it for a table it creates; tableschema.Apply for a live table.
func (t *Table) EnableTTL(ctx context.Context) error { return t.c.EnableTTL(ctx) }

// Describe returns the table's description as DynamoDB reports it.
func (t *Table) Describe(ctx context.Context) (*types.TableDescription, error) {
	return t.c.Describe(ctx)
}

// Delete deletes the table and waits until it is gone. Deleting a table that
// does not exist is not an error.
func (t *Table) Delete(ctx context.Context) error { return t.c.DeleteTable(ctx) }
