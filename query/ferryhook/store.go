package ferryhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/internal/group"
	"github.com/singletable/singletable/table"
)

// Default table names, as the document names them.
const (
	DefaultMainTable   = "ferryhook-main"
	DefaultEventsTable = "ferryhook-events"
)

// MainSchema is the schema of the main table: the generic schema with the
// three GSIs the document uses, changed by opts (for example
// [table.WithLowercaseKeys] for the existing service's tables).
func MainSchema(name string, opts ...table.SchemaOption) table.Schema {
	return table.NewSchema(name, append([]table.SchemaOption{table.WithIndexCount(3)}, opts...)...)
}

// EventsSchema is the schema of the events table: the generic schema with
// one GSI and the document's expiresAt as the TTL attribute, changed by
// opts.
func EventsSchema(name string, opts ...table.SchemaOption) table.Schema {
	base := []table.SchemaOption{table.WithIndexCount(1), table.WithTTLAttribute("expiresAt")}
	return table.NewSchema(name, append(base, opts...)...)
}

// Options configure a [Store].
type Options struct {
	// KeyHash hashes a plaintext API key into the stored keyHash, as
	// lower-case hex. Default: [SHA256Hex], as the document says.
	KeyHash func(plaintext string) string
	// KeyPrefixLen is how many leading characters of a plaintext key are
	// stored as keyPrefix. Default 8, as the document says.
	KeyPrefixLen int
	// EmailAsEntered stores a user's email as typed (trimmed, NFC), in
	// the attribute and in GSI1, as the running service does, so that the
	// service's own lookup finds users the library created. Uniqueness and
	// the library's lookups always compare the folded form
	// (keys.FoldEmail). Default false: stored folded.
	EmailAsEntered bool
	// SigningSecretsAsStored stores sources' and connections' signing
	// secrets in plaintext, as the running service reads them to sign its
	// deliveries ([SigningSecretsAsStored]). Default false: encrypted.
	SigningSecretsAsStored bool
	// AlwaysWrite names event attributes written even when empty (the
	// running service always writes body and contentType).
	AlwaysWrite []string
	// ServiceVocabulary writes and validates the running service's enum
	// values instead of the document's (fh.ServiceSigningAlgorithm maps
	// hmac-sha256 to generic-hmac-sha256, an unset algorithm is written
	// none; its extra providers and signature_failed are accepted), and
	// writes every attribute the service always writes, empty or not
	// ([ServiceAlwaysWrite]). Set by [ServiceProfile].
	ServiceVocabulary bool
	// APIKeyPrefix is the start of every plaintext API key the library
	// creates. Default [fh.SecretKeyPrefix] ("fh_"); the running service's
	// middleware only accepts "fh_live_" keys ([ServiceProfile]).
	APIKeyPrefix string
	// CounterShards, when positive, moves the counters every ingest adds
	// to (a source's eventCount and lastEventAt, its owner's
	// usageThisMonth) into that many shard items per source and per user,
	// with a copy of the source's status and the owner's plan: the scaled
	// profile ([ScaledProfile]). 0, the default, keeps them on the source
	// and user items, as the document and its service do.
	CounterShards int
	// EventShards, when positive, makes the store write-shard sources'
	// events: new sources are created with that many event partitions
	// (SRC#{sourceId}#0 .. #{N-1}; 1: the document's SRC#{sourceId}, but
	// switchable), [Sources.ShardEvents] and [EventReshardJob] switch
	// live ones, and [Events.ListBySource] reads every partition a
	// source's layout names. It needs CounterShards (the layout travels
	// in the source's counter shards, which ingest conditions on); [New]
	// panics without it. 0, the default, is the document's layout: no
	// source is sharded and lists read SRC#{sourceId} alone.
	EventShards int
	// StateCheck is, in the scaled profile, the longest an ingest trusts
	// the state it remembers of a source and its owner (the source
	// active, its event layout, the owner's plan) without reading the
	// items again. Another writer (the running service pausing a source,
	// its billing webhook changing a plan) changes the item but not the
	// counter shards' copies the ingest transaction checks: the first
	// ingest after StateCheck reads the source and the user (one
	// eventually consistent BatchGetItem, 0.5 read units per item, on
	// USER#{userId}) and, when either differs, rolls the item up
	// (table.Counters.Rollup), which copies its state into the shards,
	// so every store refuses (or re-plans) from then on. The reads are
	// per process and per source ingesting, not per event: 50 processes
	// ingesting into 20 sources of one user read 1,000 units a second
	// from its partition at the 1-second default, under the 2,400 target.
	// Default (0): 1 second; a negative value never reads again (the next
	// RollupJob run copies the state). In every profile it is also how
	// long a store trusts the usage it read of a user whose plan has a
	// limit (Options.PlanLimit, planlimit.go).
	StateCheck time.Duration
	// GroupCommit, when above 1, lets concurrent ingests into one source
	// share one transaction of up to that many events, with one count
	// delta on one source shard and one usage shard (group commit,
	// issue 44; [Store.IngestBatch] sends events that arrive together so).
	// It needs CounterShards. [ScaledProfile] sets [DefaultGroupCommit].
	GroupCommit int
	// EventsByKeyOnly leaves the events the store ingests out of GSI1:
	// their IDs are located (fh.NewLocatedEventID), so the library reads
	// them by key and never needs the index, and each saves its GSI1
	// entry (2 write units for an event of 1-2 KB). The running service
	// finds events only through GSI1 (its getById): it no longer finds
	// these. Events created otherwise (Events.Create, the service's) keep
	// their entry. [ScaledProfile] sets it.
	EventsByKeyOnly bool
	// StreamCounts makes Ingest write the event alone (one PutItem) and
	// leaves the counts to the events table's stream: a consumer running
	// [Store.CountsHandler] adds each batch's events to the source's and
	// the owner's counter shards exactly once (FH-16). It needs
	// CounterShards and excludes GroupCommit. [StreamCountedProfile] sets
	// it; what each guarantee becomes is in its doc.
	StreamCounts bool
	// PlanLimit returns the events a month a user on the plan may ingest
	// before Ingest refuses them with [ErrPlanLimit]; 0 for no limit.
	// Default [DefaultPlanLimit], the running service's rule: 5,000 on
	// free, none on paid plans (their overage is billed). How it holds
	// in each profile, and its bound across stores, is in planlimit.go.
	PlanLimit func(fh.Plan) int64
}

// ServiceProfile opens tables written by the document's running service
// with its conventions: its API-key hashing ([ServiceKeyHashing]), keys
// that start with "fh_live_" (the only ones its middleware accepts), and
// emails stored as entered. Open its tables with table.WithLowercaseKeys.
//
// API keys are live by the service's own rule in this profile as in the
// default one: [APIKeys.Authenticate] reads the key's item (one strongly
// consistent GetItem for a key the library minted, whose plaintext names
// the item; the guard, then the item, for a key the service minted), and
// refuses a key whose item is gone, holds another hash or is no longer
// stored under GSI2 (the service's apiKeys.delete removes gsi2pk and
// gsi2sk and leaves the item). It is stricter than the service, which
// queries GSI2 and may accept a key for as long as the index lags behind
// a revocation; it never reads a copy the service cannot update, so
// lastUsedAt and every other attribute the service writes come back as
// stored. The default profile costs the same: its one-request path reads
// the item too, so it assumes nothing about who writes API keys.
// Signing secrets stay encrypted (the library's rule); see the package
// doc, "Existing deployments", for the service-side change that implies.
func ServiceProfile() func(*Options) {
	return func(o *Options) {
		ServiceKeyHashing()(o)
		o.EmailAsEntered = true
		o.APIKeyPrefix = "fh_live_"
		o.AlwaysWrite = []string{"body", "contentType"}
		o.ServiceVocabulary = true
	}
}

// ServiceAlwaysWrite names, per entity, the attributes the running
// service's db/*.ts writes on every create with a value even when it has
// none (0 for a counter, its input's headers, sourceIp and method, the
// signing algorithm "none"), beyond the keys and the attributes that are
// never empty: under [ServiceProfile] the library writes them too (0, an
// empty map or string), so an item reads the same to the service whoever
// created it. The attributes it writes as null are [ServiceWritesNull].
var ServiceAlwaysWrite = map[string][]string{
	"User":            {"usageThisMonth", "usagePeriodStart"},
	"Source":          {"signingAlgorithm", "eventCount"},
	"Connection":      {"deliveryCount", "failureCount"},
	"Event":           {"headers", "sourceIp", "method"},
	"DeliveryAttempt": {"statusCode", "latencyMs"},
}

// ServiceWritesNull names, per entity, the attributes the running
// service's db/*.ts writes as null when it has no value (`x ?? null`, or
// a literal null): under [ServiceProfile] the library writes NULL for
// them too (table.Def.AlwaysWriteNull), never an empty string (a user's
// passwordHash is typed string | null in its CreateUserInput).
var ServiceWritesNull = map[string][]string{
	"User":            {"passwordHash", "stripeCustomerId", "stripeSubId", "githubId", "googleId"},
	"Source":          {"signingSecret", "lastEventAt"},
	"Connection":      {"filters", "transform", "retryConfig"},
	"APIKey":          {"lastUsedAt"},
	"Event":           {"processedAt", "deliveredAt"},
	"DeliveryAttempt": {"responseBody", "error"},
}

// SigningSecretsAsStored is the explicit compatibility choice for signing
// secrets next to the running service, which signs deliveries with the
// secret it reads from the item: the library then stores them in plaintext
// too. The trade-off: anyone who can read the table (a backup, an export,
// a leaked IAM role) can forge webhooks in the users' names. The default,
// encryption (table.Def.Secrets), needs the service changed to decrypt
// with the same key (AES-GCM, the item's key and attribute as associated
// data, see table.NewAESGCM) before it can sign; run `singletable adopt`
// afterwards to seal the secrets it wrote. Choose this option only until
// that change ships.
func SigningSecretsAsStored() func(*Options) {
	return func(o *Options) { o.SigningSecretsAsStored = true }
}

// SHA256Hex returns the SHA-256 of key as lower-case hex: the document's
// keyHash.
func SHA256Hex(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// HMACSHA256Hex returns a hash function computing HMAC-SHA256 under secret,
// as lower-case hex.
func HMACSHA256Hex(secret []byte) func(string) string {
	return func(key string) string {
		m := hmac.New(sha256.New, secret)
		m.Write([]byte(key))
		return hex.EncodeToString(m.Sum(nil))
	}
}

// ServiceKeyHashing sets the API-key hashing of the document's running
// service: HMAC-SHA256 under an empty key, and a 16-character keyPrefix.
func ServiceKeyHashing() func(*Options) {
	return func(o *Options) {
		o.KeyHash = HMACSHA256Hex(nil)
		o.KeyPrefixLen = 16
	}
}

// Store is Ferryhook's data-access layer: one field per collection of the
// document's interface (FH-11). It is safe for concurrent use.
type Store struct {
	// Users serves FH-1, FH-2 and users.*.
	Users *Users
	// Sources serves FH-3, FH-4 and sources.*.
	Sources *Sources
	// Connections serves FH-5 and connections.*.
	Connections *Connections
	// APIKeys serves FH-6, FH-10 and apiKeys.*.
	APIKeys *APIKeys
	// Events serves FH-7, FH-8, FH-12 and events.*.
	Events *Events
	// Attempts serves FH-9 and attempts.*.
	Attempts *Attempts

	main, events        *table.Table
	ingest, ingestBatch table.Op
	opts                Options
	owners              sync.Map                                        // fh.SourceID -> ownerInfo, for Ingest
	grouper             *group.Grouper[fh.SourceID, fh.Event, fh.Event] // Ingest's group commit (group.go)
	gates               sync.Map                                        // fh.UserID -> *usageGate, the plan limit (planlimit.go)
	user                *table.Entity[fh.User]
	source              *table.Entity[fh.Source]
	conn                *table.Entity[fh.Connection]
	apiKey              *table.Entity[fh.APIKey]
	event               *table.Entity[fh.Event]
	attempt             *table.Entity[fh.DeliveryAttempt]

	// The scaled profile's counters (nil by default): a source's events
	// and a user's usage (scaled.go).
	srcCounters, usageCounters *table.Counters
	// acceptEventID, set by tests only, makes newEvent mint event IDs
	// until one is accepted (to spread a small sample over the shards).
	acceptEventID func(fh.EventID) bool
}

// New returns a Store on the main and events tables (create them with
// [MainSchema] and [EventsSchema]). Both must be reached through the same
// client for [Store.Ingest]'s transaction to span them.
func New(main, events *table.Table, opts ...func(*Options)) *Store {
	o := Options{KeyHash: SHA256Hex, KeyPrefixLen: 8, APIKeyPrefix: fh.SecretKeyPrefix}
	for _, f := range opts {
		f(&o)
	}
	s := &Store{main: main, events: events, opts: o}
	srcDef, cDef, evDef := sourceDef, connectionDef, eventDef
	if o.SigningSecretsAsStored {
		srcDef.Secrets, cDef.Secrets = nil, nil
	}
	evDef.AlwaysWrite = o.AlwaysWrite
	if o.EventsByKeyOnly {
		// An event marked byKey (ingested with a located ID) is in no
		// index: GSI1 holds the others, as the document says.
		ix := fh.EventIDIndex
		ix.When = []string{"!byKey"}
		evDef.IndexKeys = map[table.Index]table.Template{table.GSI1: ix}
	}
	uDef, kDef, aDef := userDef, apiKeyDef, attemptDef
	if o.ServiceVocabulary {
		srcDef.Validate = func(s *fh.Source) error { return s.ValidateService() }
		srcDef.Unchecked = []string{"provider", "signingAlgorithm"} // ValidateService's vocabulary
		uDef.AlwaysWrite = ServiceAlwaysWrite["User"]
		srcDef.AlwaysWrite = ServiceAlwaysWrite["Source"]
		cDef.AlwaysWrite = ServiceAlwaysWrite["Connection"]
		kDef.AlwaysWrite = ServiceAlwaysWrite["APIKey"]
		evDef.AlwaysWrite = append(slices.Clone(o.AlwaysWrite), ServiceAlwaysWrite["Event"]...)
		aDef.AlwaysWrite = ServiceAlwaysWrite["DeliveryAttempt"]
		uDef.AlwaysWriteNull = ServiceWritesNull["User"]
		srcDef.AlwaysWriteNull = ServiceWritesNull["Source"]
		cDef.AlwaysWriteNull = ServiceWritesNull["Connection"]
		kDef.AlwaysWriteNull = ServiceWritesNull["APIKey"]
		evDef.AlwaysWriteNull = ServiceWritesNull["Event"]
		aDef.AlwaysWriteNull = ServiceWritesNull["DeliveryAttempt"]
	}
	s.user = table.NewEntity(main, uDef)
	s.source = table.NewEntity(main, srcDef)
	s.conn = table.NewEntity(main, cDef)
	s.apiKey = table.NewEntity(main, kDef)
	s.event = table.NewEntity(events, evDef)
	s.attempt = table.NewEntity(events, aDef)
	if o.CounterShards > 0 {
		s.srcCounters, s.usageCounters = counterSets(main, o.CounterShards)
	}
	if o.EventShards > 0 && (o.CounterShards <= 0 || o.EventShards > table.MaxShards) {
		panic(fmt.Sprintf("ferryhook: Options.EventShards %d needs Options.CounterShards and at most %d shards", o.EventShards, table.MaxShards))
	}
	if (o.GroupCommit > 1 || o.StreamCounts) && o.CounterShards <= 0 || o.GroupCommit > 1 && o.StreamCounts {
		panic(fmt.Sprintf("ferryhook: Options.GroupCommit %d and StreamCounts %v need Options.CounterShards and exclude each other", o.GroupCommit, o.StreamCounts))
	}
	s.Users = newUsers(s)
	s.Sources = newSources(s)
	s.Connections = newConnections(s)
	s.APIKeys = newAPIKeys(s)
	s.Events = newEvents(s)
	s.Attempts = newAttempts(s)
	s.ingest = table.NewOp(main, "FH-12", "ferryhook.Store.Ingest")
	s.grouper = s.newGrouper()
	s.ingestBatch = table.NewOp(main, "FH-12", "ferryhook.Store.IngestBatch")
	return s
}

// now is the main table's clock (table.Options.Now): receivedAt,
// lastEventAt and lastUsedAt move with the TTL checks in tests.
func (s *Store) now() time.Time { return s.main.Now() }

// connKey is the key of user's connection id under source: the owner's
// ID is checked first, though the key does not hold it.
func (s *Store) connKey(user fh.UserID, source fh.SourceID, id fh.ConnectionID) (table.Key, error) {
	return s.conn.CheckedKey(fh.Connection{SourceID: source, ConnectionID: id}, fh.UserIDs.Check(user))
}

// ownerKeys returns the keys of source's item and of its owner's.
func (s *Store) ownerKeys(o ownerInfo, source fh.SourceID) (sk, uk table.Key, err error) {
	sk, uk = s.source.Key(fh.Source{UserID: o.user, SourceID: source}), s.user.Key(fh.User{UserID: o.user})
	if err = sk.Err(); err == nil {
		err = uk.Err()
	}
	return sk, uk, err
}

// eventPartition is the partition of source's events, SRC#{sourceId}
// (the first of a write-sharded source's, table.ShardPK).
func (s *Store) eventPartition(source fh.SourceID) string {
	return s.event.Partition(table.Primary, fh.Event{SourceID: source}).PK
}
