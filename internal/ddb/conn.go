package ddb

import (
	"context"
	"log/slog"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/expr"
	"github.com/singletable/singletable/internal/keytmpl"
)

// Key is an item's primary key (table.Key).
type Key = keytmpl.Key

// Item is a raw DynamoDB item (table.Item).
type Item = map[string]types.AttributeValue

// Conn is one table's connection: the client, the schema, the clock, the
// retry limits and the observation hooks every request of the table goes
// through. Its write conditions ([expr.Attrs]) are the schema's.
type Conn struct {
	expr.Attrs
	Client *dynamodb.Client
	Schema Schema
	// Logger and Observer receive every request (see [Event]).
	Logger   *slog.Logger
	Observer func(context.Context, Event)
	// MaxBatchAttempts bounds a batch's rounds; BatchBackoff is the first
	// wait between them (and between throttled transactions).
	MaxBatchAttempts int
	BatchBackoff     time.Duration
	// ConflictRetries bounds a transaction's resends after a conflict or
	// throttling.
	ConflictRetries int
	// Jobs counts running maintenance jobs: capacity is then measured.
	Jobs atomic.Int64
	// Sealer seals and opens the cursors of the table's queries.
	Sealer *Sealer
}

// NewConn returns the connection to the table of schema s through client,
// with clock now.
func NewConn(client *dynamodb.Client, s Schema, now func() time.Time) *Conn {
	return &Conn{Client: client, Schema: s,
		Attrs: expr.Attrs{PK: s.PK, Type: s.TypeAttr, TTL: s.TTLAttr, Token: s.TokenAttr, Now: now}}
}

// Event describes one request, for observability hooks.
type Event struct {
	Op       string        // DynamoDB operation: GetItem, Query, TransactWriteItems ...
	Entity   string        // entity type, when one entity is concerned
	Index    string        // index name for a Query on a GSI
	Capacity float64       // consumed capacity units, total
	Duration time.Duration // wall time of the request
	Err      error         // the request's error, if any
}

// Observe reports a finished request to the configured hooks and to the
// capacity meter of ctx ([WithMeter]).
func (c *Conn) Observe(ctx context.Context, ev Event) {
	if m, ok := ctx.Value(meterKey{}).(*Meter); ok {
		m.add(ev.Capacity)
	}
	if c.Logger != nil {
		c.Logger.LogAttrs(ctx, slog.LevelDebug, "dynamodb",
			slog.String("op", ev.Op), slog.String("table", c.Schema.Name),
			slog.String("entity", ev.Entity), slog.String("index", ev.Index),
			slog.Float64("capacity", ev.Capacity), slog.Duration("duration", ev.Duration),
			slog.Any("err", ev.Err))
	}
	if c.Observer != nil {
		c.Observer(ctx, ev)
	}
}

// Capacity returns the capacity units of cc, in total.
func Capacity(cc ...types.ConsumedCapacity) float64 {
	var n float64
	for _, c := range cc {
		if c.CapacityUnits != nil {
			n += *c.CapacityUnits
		}
	}
	return n
}

// CapacityOf is [Capacity] of one response's consumed capacity (nil: 0).
func CapacityOf(c *types.ConsumedCapacity) float64 {
	if c == nil {
		return 0
	}
	return Capacity(*c)
}

// WantCapacity is the ReturnConsumedCapacity a request sends: TOTAL when
// someone reads it (a hook, a running job), else left out.
func (c *Conn) WantCapacity() types.ReturnConsumedCapacity {
	if c.Logger != nil || c.Observer != nil || c.Jobs.Load() > 0 {
		return types.ReturnConsumedCapacityTotal
	}
	return "" // left out: DynamoDB's default, NONE, in fewer bytes
}

type meterKey struct{}

// Meter collects the capacity of the requests made under a context
// ([WithMeter]).
type Meter struct{ units atomic.Uint64 } // millicapacity units

func (m *Meter) add(u float64) { m.units.Add(uint64(u * 1000)) }

// Units returns the capacity units collected.
func (m *Meter) Units() float64 { return float64(m.units.Load()) / 1000 }

// WithMeter returns ctx whose requests add their capacity to m.
func WithMeter(ctx context.Context, m *Meter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

// KeyItem returns the key attributes of k.
func (c *Conn) KeyItem(k Key) Item {
	return Item{
		c.Schema.PK: &types.AttributeValueMemberS{Value: k.PK},
		c.Schema.SK: &types.AttributeValueMemberS{Value: k.SK},
	}
}

// KeyOf returns the primary key of raw.
func (c *Conn) KeyOf(raw Item) Key {
	var k Key
	if s, ok := raw[c.Schema.PK].(*types.AttributeValueMemberS); ok {
		k.PK = s.Value
	}
	if s, ok := raw[c.Schema.SK].(*types.AttributeValueMemberS); ok {
		k.SK = s.Value
	}
	return k
}

// Expired reports whether raw is past its TTL.
func (c *Conn) Expired(raw Item) bool {
	if c.TTL == "" {
		return false
	}
	n, ok := raw[c.TTL].(*types.AttributeValueMemberN)
	if !ok {
		return false
	}
	ttl, err := strconv.ParseFloat(n.Value, 64)
	if err != nil || ttl <= 0 {
		return false
	}
	return float64(c.Now().Unix()) >= ttl
}
