// Package tinodemeter registers a test-only store adapter for Tinode's
// server, "dynamodb_metered": the singletable DynamoDB adapter
// (adapters/tinode, built with [tinode.New]) whose DynamoDB client carries
// a [capacity.Meter] and a request counter, and which serves what they
// measured over HTTP. The load test (e2e/load_test.go) uses it to meter
// the adapter inside Tinode's own process, on the client the adapter
// sends its requests with, while Tinode's real server is driven over its
// websocket.
//
// Nothing of the library or of the adapter imports it: e2e/build.sh links
// it into a separate binary, bin/tinode-metered, only when TINODE_METERED=1
// (a blank import in a file built with the tag singletable_meter). Its
// block in tinode.conf takes the adapter's keys (table, endpoint, region,
// message_shards, coalesce_ms, ...) and meter_listen, the address its
// HTTP endpoint listens on (default 127.0.0.1:0, a free port, so that the
// nodes of a cluster can share one configuration); Open writes the
// address to the server's standard error as
// "dynamodb_metered: meter on http://HOST:PORT", for the test to read
// from the server's log:
//
//	GET  /meter  what was measured since the last reset, as [Report] (JSON)
//	POST /reset  forgets every charge and count
//
// The adapter is built as Open builds it, except that it reads no cursor
// keys (the key configuration): a load test needs none.
package tinodemeter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"
	adapter "github.com/singletable/singletable/adapters/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest/capacity"
	"github.com/tinode/chat/server/store"
)

// Name is the adapter's name in tinode.conf ("use_adapter").
const Name = "dynamodb_metered"

func init() { store.RegisterAdapter(&Metered{}) }

// Config is the adapter's block: the DynamoDB adapter's keys and where
// the meter's HTTP endpoint listens.
type Config struct {
	adapter.Config
	// MeterListen is the meter's HTTP address (host:port; default
	// 127.0.0.1:0).
	MeterListen string `json:"meter_listen"`
	// NoCapacity leaves the capacity.Meter off the client (it reads each
	// written item's before-image through a second client, a request
	// more per write): calls are still counted and timed.
	NoCapacity bool `json:"no_capacity"`
}

// Metered is the DynamoDB adapter with a meter on its client. Every
// method but Open, Close and GetName is the adapter's own.
type Metered struct {
	*adapter.Adapter
	meter      *capacity.Meter
	calls      *callCounter
	srv        *http.Server
	maxResults int
}

// GetName returns "dynamodb_metered".
func (m *Metered) GetName() string { return Name }

// IsOpen reports whether Open succeeded.
func (m *Metered) IsOpen() bool { return m.Adapter != nil && m.Adapter.IsOpen() }

// SetMaxResults is kept until Open (Tinode calls it first).
func (m *Metered) SetMaxResults(val int) error {
	if m.Adapter != nil {
		return m.Adapter.SetMaxResults(val)
	}
	m.maxResults = val
	return nil
}

// Open builds the adapter over a metered client and starts the meter's
// HTTP endpoint.
func (m *Metered) Open(raw json.RawMessage) error {
	if m.Adapter != nil {
		return errors.New("adapter dynamodb_metered is already open")
	}
	cfg := Config{Config: adapter.DefaultConfig()} // as Open: omitted keys take the defaults
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return fmt.Errorf("adapter dynamodb_metered: config: %w", err)
	}
	if cfg.Table == "" {
		return errors.New("adapter dynamodb_metered: table is required")
	}
	if cfg.MeterListen == "" {
		cfg.MeterListen = "127.0.0.1:0"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	region := cfg.Region
	if region == "" {
		region = "us-east-1"
	}
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(region))
	if err != nil {
		return fmt.Errorf("adapter dynamodb_metered: AWS config: %w", err)
	}
	endpoint := func(o *dynamodb.Options) {
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
	}
	m.meter = capacity.NewMeter(dynamodb.NewFromConfig(awsCfg, endpoint))
	m.calls = &callCounter{n: map[string]int{}, d: map[string]time.Duration{}}
	opts := []func(*dynamodb.Options){endpoint, m.calls.option()}
	if !cfg.NoCapacity {
		opts = append(opts, m.meter.Option())
	}
	client := dynamodb.NewFromConfig(awsCfg, opts...)
	tbl := table.New(client, table.NewSchema(cfg.Table))
	m.Adapter = adapter.New(tbl, cfg.Config)
	if err := m.Adapter.SetMaxResults(m.maxResults); err != nil {
		return err
	}
	m.meter.Learn(tbl)

	l, err := net.Listen("tcp", cfg.MeterListen)
	if err != nil {
		return fmt.Errorf("adapter dynamodb_metered: meter_listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /meter", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(m.report())
	})
	mux.HandleFunc("POST /reset", func(w http.ResponseWriter, r *http.Request) {
		m.meter.Reset()
		m.calls.reset()
		w.WriteHeader(http.StatusNoContent)
	})
	m.srv = &http.Server{Handler: mux}
	go func() { _ = m.srv.Serve(l) }()
	fmt.Fprintf(os.Stderr, "dynamodb_metered: meter on http://%s\n", l.Addr())
	return nil
}

// Close flushes and closes the adapter and stops the meter's endpoint.
func (m *Metered) Close() error {
	if m.srv != nil {
		_ = m.srv.Close()
	}
	if m.Adapter == nil {
		return nil
	}
	return m.Adapter.Close()
}

// Report is what the meter measured since the last reset.
type Report struct {
	// Requests is how many metered requests succeeded
	// ([capacity.Meter.Requests]).
	Requests int `json:"requests"`
	// Calls counts the client's operations by name (each SDK call once,
	// whatever its retries), and CallTime is the time they took in all
	// (with the meter's before-image reads, when it is on).
	Calls    map[string]int           `json:"calls"`
	CallTime map[string]time.Duration `json:"callTime"`
	// Keys are the units charged to each partition key.
	Keys []KeyUsage `json:"keys"`
	// Items are the units charged to each item, the highest load first.
	Items []ItemUsage `json:"items"`
}

// KeyUsage is one partition key's units and shape (as
// [capacity.Meter.Shape] names it).
type KeyUsage struct {
	Partition capacity.Partition `json:"partition"`
	Shape     string             `json:"shape"`
	Usage     capacity.Usage     `json:"usage"`
}

// ItemUsage is one item's units.
type ItemUsage struct {
	Item  capacity.ItemRef `json:"item"`
	Usage capacity.Usage   `json:"usage"`
}

func (m *Metered) report() Report {
	r := Report{Requests: m.meter.Requests()}
	r.Calls, r.CallTime = m.calls.snapshot()
	for p, u := range m.meter.Keys() {
		r.Keys = append(r.Keys, KeyUsage{Partition: p, Shape: m.meter.Shape(p), Usage: u})
	}
	slices.SortFunc(r.Keys, func(a, b KeyUsage) int { return cmpLoad(a.Usage, b.Usage) })
	for it, u := range m.meter.Items() {
		r.Items = append(r.Items, ItemUsage{Item: it, Usage: u})
	}
	slices.SortFunc(r.Items, func(a, b ItemUsage) int { return cmpLoad(a.Usage, b.Usage) })
	return r
}

// cmpLoad orders the higher load first.
func cmpLoad(a, b capacity.Usage) int {
	switch la, lb := a.Load(), b.Load(); {
	case la > lb:
		return -1
	case la < lb:
		return 1
	}
	return 0
}

// callCounter counts and times a client's operations by name.
type callCounter struct {
	mu sync.Mutex
	n  map[string]int
	d  map[string]time.Duration
}

func (c *callCounter) option() func(*dynamodb.Options) {
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
			return st.Initialize.Add(middleware.InitializeMiddlewareFunc("singletableCallCounter",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					t0 := time.Now()
					out, md, err := next.HandleInitialize(ctx, in)
					op := middleware.GetOperationName(ctx)
					c.mu.Lock()
					c.n[op]++
					c.d[op] += time.Since(t0)
					c.mu.Unlock()
					return out, md, err
				}), middleware.After)
		})
	}
}

func (c *callCounter) snapshot() (map[string]int, map[string]time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, d := make(map[string]int, len(c.n)), make(map[string]time.Duration, len(c.d))
	for k, v := range c.n {
		n[k], d[k] = v, c.d[k]
	}
	return n, d
}

func (c *callCounter) reset() {
	c.mu.Lock()
	c.n, c.d = map[string]int{}, map[string]time.Duration{}
	c.mu.Unlock()
}
