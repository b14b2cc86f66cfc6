// Package tinode is a store adapter for the Tinode chat server
// (github.com/tinode/chat, adapter.Adapter at v0.25.3) that keeps all of
// Tinode's data in ONE DynamoDB table through the access patterns of
// github.com/singletable/singletable/query/tinode (TN-1..TN-38).
//
// Link it into Tinode's server and tinode-db with a blank import and
// select it in tinode.conf with "use_adapter": "dynamodb"; see README.md
// for the build recipe, the configuration block and licensing (this module
// links GPL-3.0 code).
package tinode

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/tinode/chat/server/store"
	t "github.com/tinode/chat/server/store/types"
)

// Name is the adapter's name in tinode.conf ("use_adapter").
const Name = "dynamodb"

// DataVersion is the version of the data layout this adapter writes
// (Tinode's database version; TN-36).
const DataVersion = 1

const (
	defaultMaxResults        = 1024
	defaultMaxMessageResults = 100
	defaultTimeout           = 30 * time.Second
)

func init() {
	store.RegisterAdapter(&Adapter{})
}

// Config is the adapter's block in tinode.conf's store_config.adapters.
type Config struct {
	// Table is the DynamoDB table's name (default "tinode").
	Table string `json:"table"`
	// Region is the AWS region (default: the SDK's, then us-east-1).
	Region string `json:"region"`
	// Endpoint overrides the service endpoint, such as
	// "http://localhost:8000" for DynamoDB Local.
	Endpoint string `json:"endpoint"`
	// CreateTable lets the adapter create the table (and, on a reset,
	// delete it first) when Tinode initialises the database (tinode-db).
	// Without it the table must exist (created by CloudFormation, for
	// example: see singletable's export).
	CreateTable bool `json:"create_table"`
	// Keys is where the 32-byte keys that seal pagination cursors (and
	// any secret attribute) come from.
	Keys KeyConfig `json:"keys"`
	// UniqueTagNamespaces are the tag namespaces whose tags have one
	// holder in the whole table ("*": every "ns:value" tag). The default,
	// none, is Tinode's SQL adapters' rule: any tag may be held by many
	// users and topics (Tinode's server checks what it wants unique, and
	// logins and validated credentials are unique by their own records).
	// With a unique namespace a taken tag makes the write fail with
	// types.ErrDuplicate, which Tinode's server answers on 'me' {set tags}
	// with 500. Decide before the first write: tags written under one
	// rule are not found under the other (their holders must be saved
	// again).
	UniqueTagNamespaces []string `json:"unique_tag_namespaces"`
	// TimeoutSeconds bounds each adapter call (default 30).
	TimeoutSeconds int `json:"timeout"`
	// MessageShards is the message layout of the topics this server
	// creates (tinode.Options.MessageShards): N >= 2 keeps a new topic's
	// messages in TOPIC#{name}#{seq mod N}, 0 or 1 in TOPIC#{name}. Every
	// server reads and writes each topic by the layout stored with it,
	// whatever its own MessageShards; topics created before keep theirs.
	// At most table.MaxShards. Open's default, when the configuration
	// omits it, is DefaultMessageShards; New takes the value as given.
	// See README "Scale".
	MessageShards int `json:"message_shards"`
	// CoalesceMillis, when above 0, is the longest the writes Tinode makes
	// for every message besides the message itself (the topic's SeqId and
	// TouchedAt, the sender's RecvSeqId and ReadSeqId) stay kept in the
	// server while a topic is hot, above WriteThroughPerSecond: they are
	// written at most once per CoalesceMillis per topic; a crash loses
	// nothing, the next TopicGet recovers them from the stored messages.
	// A quiet topic's are written through. 0 writes them with every
	// message, as before (two reads and two writes more a message). Open's
	// default, when the configuration omits it, is DefaultCoalesceMillis.
	// See README "Scale".
	CoalesceMillis int `json:"coalesce_ms"`
	// WriteThroughPerSecond is the write-through budget of one topic with
	// CoalesceMillis: while a topic's messages come at most this many a
	// second (a token bucket of one second), each message's SeqId and its
	// sender's marks are written before Tinode's calls return (one
	// conditional UpdateItem each, 2.4 to 2.9 WCU on TOPIC#{name} a
	// message), so every server of a cluster reads what Tinode's SQL
	// adapters would show; above it they are kept and flushed once per
	// CoalesceMillis.
	// 0 keeps them always (every topic coalesced). At most
	// MaxWriteThroughPerSecond. Open's default, when the configuration
	// omits it, is DefaultWriteThroughPerSecond.
	WriteThroughPerSecond int `json:"write_through_per_s"`
}

// The defaults Open applies to keys the configuration omits (an explicit
// 0 stays 0): the scaled per-message path (README "Scale").
const (
	DefaultMessageShards         = 4
	DefaultCoalesceMillis        = 1000
	DefaultWriteThroughPerSecond = 100
)

// MaxWriteThroughPerSecond bounds WriteThroughPerSecond: a message
// written through puts up to 2.9 WCU on its topic's partition and the
// owner's GSI1 partition (measured by TestScale_OneTopic: the topic item
// and the sender's subscription, each a little over 1 KB with the write
// tokens its patches carry), so 250 a second stays under the 800 WCU/s a
// partition key may take (the target of docs/performance.md).
const MaxWriteThroughPerSecond = 250

// DefaultConfig returns the configuration Open starts from before it
// reads tinode.conf's block: table "tinode" and the scaled per-message
// path (DefaultMessageShards, DefaultCoalesceMillis,
// DefaultWriteThroughPerSecond). New takes a Config as given, so
// programs that build one should start from DefaultConfig too.
func DefaultConfig() Config {
	return Config{
		Table:                 "tinode",
		MessageShards:         DefaultMessageShards,
		CoalesceMillis:        DefaultCoalesceMillis,
		WriteThroughPerSecond: DefaultWriteThroughPerSecond,
	}
}

// KeyConfig names the key source and rotation: Current is the id of the
// key used for new values, Env maps key ids to environment variables
// holding 64 hex digits. Retired ids stay in Env so that values sealed
// under them keep opening. With no key at all, a random key is made at
// start (cursors then do not survive a restart).
type KeyConfig struct {
	Current string            `json:"current"`
	Env     map[string]string `json:"env"`
}

// Adapter implements Tinode's adapter.Adapter over query/tinode.
type Adapter struct {
	mu         sync.Mutex
	cfg        Config
	client     *dynamodb.Client
	tbl        *table.Table
	st         *tinode.Store
	maxResults int
	maxMsgs    int
	timeout    time.Duration
	version    int
	coal       *coalescer // nil when CoalesceMillis is 0
	layouts    sync.Map   // tn.TopicName -> knownLayout
	// layoutEvery is how long a topic's layout read for MessageSave is
	// used before it is read again (layoutRefresh; tests shorten it).
	layoutEvery time.Duration
}

// New returns an open adapter over tbl, for tests and programs that build
// their own table handle; Tinode itself goes through Open. cfg is taken as
// given (a zero field is 0, not Open's default: start from DefaultConfig
// for those). A configuration Open would refuse (message_shards,
// coalesce_ms, write_through_per_s out of range) panics.
func New(tbl *table.Table, cfg Config) *Adapter {
	if err := cfg.check(); err != nil {
		panic(err)
	}
	a := &Adapter{cfg: cfg}
	a.use(tbl)
	return a
}

// check validates the scale settings.
func (c Config) check() error {
	if c.MessageShards < 0 || c.MessageShards > table.MaxShards {
		return fmt.Errorf("adapter dynamodb: message_shards %d is outside 0..%d", c.MessageShards, table.MaxShards)
	}
	if c.CoalesceMillis < 0 {
		return fmt.Errorf("adapter dynamodb: coalesce_ms %d is negative", c.CoalesceMillis)
	}
	if c.WriteThroughPerSecond < 0 || c.WriteThroughPerSecond > MaxWriteThroughPerSecond {
		return fmt.Errorf("adapter dynamodb: write_through_per_s %d is outside 0..%d", c.WriteThroughPerSecond, MaxWriteThroughPerSecond)
	}
	return nil
}

func (a *Adapter) use(tbl *table.Table) {
	ns := a.cfg.UniqueTagNamespaces
	a.tbl = tbl
	a.st = tinode.New(tbl, func(o *tinode.Options) {
		o.SharedTags = true
		o.UniqueTagNamespaces = ns
		// Every server obeys the layout stored with each topic, whatever
		// its own message_shards (which only decides new topics' layout):
		// the store's sharded profile, with 1 for message_shards 0 (new
		// topics unsharded, byte for byte tinode.md's), and switches that
		// never hide what a server wrote under the layout it last read.
		o.MessageShards = max(a.cfg.MessageShards, 1)
		o.ServerNumbered = true
	})
	a.layoutEvery = layoutRefresh
	if a.cfg.CoalesceMillis > 0 {
		a.coal = newCoalescer(a, time.Duration(a.cfg.CoalesceMillis)*time.Millisecond, a.cfg.WriteThroughPerSecond)
	}
	if a.maxResults == 0 {
		a.maxResults = defaultMaxResults
	}
	a.maxMsgs = defaultMaxMessageResults
	a.timeout = defaultTimeout
	if a.cfg.TimeoutSeconds > 0 {
		a.timeout = time.Duration(a.cfg.TimeoutSeconds) * time.Second
	}
}

// Store returns the query/tinode store the adapter uses.
func (a *Adapter) Store() *tinode.Store { return a.st }

func (a *Adapter) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), a.timeout)
}

// Open reads the configuration and makes the DynamoDB client. Keys the
// configuration omits keep DefaultConfig's values (an explicit 0 is 0). It
// sends no request: whether the table exists is CheckDbVersion's question.
func (a *Adapter) Open(raw json.RawMessage) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.st != nil {
		return errors.New("adapter dynamodb is already open")
	}
	cfg := DefaultConfig()
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &cfg); err != nil {
			return fmt.Errorf("adapter dynamodb: config: %w", err)
		}
	}
	if cfg.Table == "" {
		cfg.Table = "tinode"
	}
	if err := cfg.check(); err != nil {
		return err
	}
	var loadOpts []func(*awsconfig.LoadOptions) error
	if cfg.Region != "" {
		loadOpts = append(loadOpts, awsconfig.WithRegion(cfg.Region))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return fmt.Errorf("adapter dynamodb: AWS config: %w", err)
	}
	if awsCfg.Region == "" {
		awsCfg.Region = "us-east-1"
	}
	a.client = dynamodb.NewFromConfig(awsCfg, func(o *dynamodb.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
	})
	tableOpts, err := cfg.Keys.options()
	if err != nil {
		return fmt.Errorf("adapter dynamodb: %w", err)
	}
	a.cfg = cfg
	a.use(table.New(a.client, table.NewSchema(cfg.Table), tableOpts...))
	return nil
}

// options turns the key configuration into the table's cursor keys and
// cipher.
func (k KeyConfig) options() ([]func(*table.Options), error) {
	if len(k.Env) == 0 {
		return nil, nil
	}
	if k.Current == "" {
		return nil, errors.New("keys.current is not set")
	}
	raw := map[string][]byte{}
	ciphers := map[string]table.Cipher{}
	for id, env := range k.Env {
		v := strings.TrimSpace(os.Getenv(env))
		key, err := hex.DecodeString(v)
		if err != nil || len(key) != 32 {
			return nil, fmt.Errorf("key %q: %s does not hold 64 hex digits", id, env)
		}
		c, err := table.NewAESGCM(key)
		if err != nil {
			return nil, err
		}
		raw[id], ciphers[id] = key, c
	}
	if _, ok := raw[k.Current]; !ok {
		return nil, fmt.Errorf("keys.current %q is not in keys.env", k.Current)
	}
	ring, err := table.NewKeyring(k.Current, ciphers)
	if err != nil {
		return nil, err
	}
	return []func(*table.Options){func(o *table.Options) {
		o.Cipher = ring
		o.CursorKey, o.CursorKeyID = raw[k.Current], k.Current
		o.OldCursorKeys = map[string][]byte{}
		for id, key := range raw {
			if id != k.Current {
				o.OldCursorKeys[id] = key
			}
		}
	}}, nil
}

// Close writes what coalesce_ms keeps (Flush) and forgets the client; the
// SDK holds no connection to close.
func (a *Adapter) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	var err error
	if a.coal != nil {
		err = terr(a.coal.close())
		a.coal = nil
	}
	a.st, a.tbl, a.client = nil, nil, nil
	return err
}

// IsOpen reports whether Open succeeded.
func (a *Adapter) IsOpen() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.st != nil
}

// GetName returns "dynamodb".
func (a *Adapter) GetName() string { return Name }

// SetMaxResults sets the most results one call returns (default 1024).
func (a *Adapter) SetMaxResults(val int) error {
	if val <= 0 {
		val = defaultMaxResults
	}
	a.maxResults = val
	return nil
}

// Version returns the data layout version this adapter writes.
func (a *Adapter) Version() int { return DataVersion }

// GetDbVersion returns the version recorded in the table (TN-36). A
// missing table or record gives an error saying "Database not
// initialized", which tinode-db recognises.
func (a *Adapter) GetDbVersion() (int, error) {
	if a.version > 0 {
		return a.version, nil
	}
	ctx, cancel := a.ctx()
	defer cancel()
	rec, err := a.st.Meta.Version.Get(ctx, tn.DBVersion{})
	v := rec.Version
	if err != nil {
		var rnf *types.ResourceNotFoundException
		if errors.Is(err, table.ErrNotFound) || errors.As(err, &rnf) {
			//lint:ignore ST1005 tinode-db recognises this exact text
			return -1, errors.New("Database not initialized")
		}
		return -1, err
	}
	a.version = v
	return v, nil
}

// CheckDbVersion compares the recorded version with DataVersion (TN-36);
// a difference gives "Invalid database version ...", as tinode-db
// expects.
func (a *Adapter) CheckDbVersion() error {
	v, err := a.GetDbVersion()
	if err != nil {
		return err
	}
	if v != DataVersion {
		//lint:ignore ST1005 tinode-db recognises this exact text
		return fmt.Errorf("Invalid database version %d. Expected %d", v, DataVersion)
	}
	return nil
}

// CreateDb records the data version in the table (TN-36), creating the
// table first when the configuration allows it. With reset the table is
// deleted and created again (only with create_table: otherwise reset is
// refused, since the adapter may not delete what it did not create). An
// initialised table without reset gives "Database already initialized".
func (a *Adapter) CreateDb(reset bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	a.version = 0
	if reset {
		if !a.cfg.CreateTable {
			return errors.New("adapter dynamodb: reset needs create_table: the adapter does not delete a table it may not create")
		}
		var rnf *types.ResourceNotFoundException
		if err := a.tbl.Delete(ctx); err != nil && !errors.As(err, &rnf) && !errors.Is(err, table.ErrNotFound) {
			return err
		}
	}
	if a.cfg.CreateTable {
		if _, err := a.tbl.Describe(ctx); err != nil {
			var rnf *types.ResourceNotFoundException
			if !errors.As(err, &rnf) && !errors.Is(err, table.ErrNotFound) {
				return err
			}
			if err := a.tbl.Create(ctx); err != nil {
				return err
			}
		}
	}
	if err := a.st.Meta.Init(ctx, DataVersion); err != nil {
		if errors.Is(err, table.ErrAlreadyExists) {
			//lint:ignore ST1005 Tinode's adapters say so in these words
			return errors.New("Database already initialized")
		}
		return err
	}
	return nil
}

// UpgradeDb moves the recorded version to DataVersion (TN-36). Version 1
// is the only layout so far, so there is nothing to convert; an older
// record is moved forward, a newer one refused.
func (a *Adapter) UpgradeDb() error {
	ctx, cancel := a.ctx()
	defer cancel()
	a.version = 0
	rec, err := a.st.Meta.Version.Get(ctx, tn.DBVersion{})
	if err != nil {
		return err
	}
	v := rec.Version
	if v == DataVersion {
		return nil
	}
	if v > DataVersion {
		return fmt.Errorf("adapter dynamodb: database version %d is newer than the adapter's %d", v, DataVersion)
	}
	return a.st.Meta.Upgrade(ctx, v, DataVersion)
}

// Stats returns the table's name and size as DescribeTable reports them
// (item count and bytes, refreshed by DynamoDB about every six hours).
func (a *Adapter) Stats() any {
	if a.tbl == nil {
		return nil
	}
	ctx, cancel := a.ctx()
	defer cancel()
	d, err := a.tbl.Describe(ctx)
	if err != nil {
		return nil
	}
	return map[string]any{"table": aws.ToString(d.TableName), "items": aws.ToInt64(d.ItemCount), "bytes": aws.ToInt64(d.TableSizeBytes)}
}

// GetTestDB returns the *table.Table the adapter uses.
func (a *Adapter) GetTestDB() any { return a.tbl }

// terr turns the library's errors into Tinode's.
func terr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, table.ErrUniqueViolation), errors.Is(err, table.ErrAlreadyExists):
		return t.ErrDuplicate
	case errors.Is(err, table.ErrNotFound):
		return t.ErrNotFound
	case errors.Is(err, table.ErrInvalidInput), errors.Is(err, table.ErrInvalidKey),
		errors.Is(err, table.ErrItemTooLarge), errors.Is(err, table.ErrTooManyItems):
		// What the user sent does not fit an item (400 KB) or a
		// transaction: Tinode's server answers ErrMalformed with 400;
		// any other error would be its 500.
		return t.ErrMalformed
	}
	return err
}

// notFoundNil is terr with a missing item as no error.
func notFoundNil(err error) error {
	if errors.Is(err, table.ErrNotFound) {
		return nil
	}
	return terr(err)
}
