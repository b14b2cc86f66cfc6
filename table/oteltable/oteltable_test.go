package oteltable_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/oteltable"
	"github.com/singletable/singletable/table/tabletest"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

// note is the entity of the tests: one item per note.
type note struct {
	ID   string `dynamo:"id"`
	Body string `dynamo:"body"`
}

var noteDef = table.Def[note]{Type: "Note", Keys: table.Template{PK: "NOTE#{id}", SK: "NOTE"}}

// notes is a store of two access patterns, instrumented as store methods
// are: EX-1 gets a note, EX-2 creates one.
type notes struct {
	t *table.Table
	e *table.Entity[note]
}

func newNotes(tbl *table.Table) *notes { return &notes{t: tbl, e: table.NewEntity(tbl, noteDef)} }

// Get returns the note id (EX-1).
func (s *notes) Get(ctx context.Context, id string) (_ note, err error) {
	ctx, call := s.t.Call(ctx, "EX-1", "notes.Get")
	defer func() { call.End(err) }()
	k, err := s.e.KeyOf(&note{ID: id})
	if err != nil {
		return note{}, err
	}
	return s.e.Get(ctx, k)
}

// Create creates n (EX-2); an existing note is table.ErrAlreadyExists.
func (s *notes) Create(ctx context.Context, n note) (err error) {
	ctx, call := s.t.Call(ctx, "EX-2", "notes.Create")
	defer func() { call.End(err) }()
	return s.e.Create(ctx, &n)
}

// otelFixture is a store whose table is traced into spans and measured
// into reader; faults go on its client.
type otelFixture struct {
	store  *notes
	spans  *tracetest.InMemoryExporter
	reader *sdkmetric.ManualReader
}

func newOtelFixture(t *testing.T, faults ...func(*dynamodb.Options)) *otelFixture {
	t.Helper()
	base := tabletest.NewTable(t, table.NewSchema("otel"))
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
	tbl := table.New(tabletest.NewClient(t, faults...), base.Schema(), oteltable.Option(tp, mp), withKey)
	return &otelFixture{store: newNotes(tbl), spans: spans, reader: reader}
}

// withKey sets a cursor key (a table without one logs a warning).
func withKey(o *table.Options) { o.CursorKey = []byte("oteltable test cursor key, 32 b!") }

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func attrOf(attrs []attribute.KeyValue, k attribute.Key) (attribute.Value, bool) {
	for _, a := range attrs {
		if a.Key == k {
			return a.Value, true
		}
	}
	return attribute.Value{}, false
}

// spansNamed returns the finished spans called name.
func (f *otelFixture) spansNamed(name string) tracetest.SpanStubs {
	var out tracetest.SpanStubs
	for _, s := range f.spans.GetSpans() {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// childrenOf returns the spans whose parent is s.
func (f *otelFixture) childrenOf(s tracetest.SpanStub) tracetest.SpanStubs {
	var out tracetest.SpanStubs
	for _, c := range f.spans.GetSpans() {
		if c.Parent.SpanID() == s.SpanContext.SpanID() {
			out = append(out, c)
		}
	}
	return out
}

// TestOtelSpans: a store call is one span named by its method with its
// catalog ID, its DynamoDB requests are child spans with their operation,
// table and the consumed capacity DynamoDB reported; a duplicate create's
// request is flagged as a conditional failure and its call as
// already_exists.
func TestOtelSpans(t *testing.T) {
	t.Parallel()
	f := newOtelFixture(t)
	c := ctx(t)
	if err := f.store.Create(c, note{ID: "n1", Body: "hello"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Get(c, "n1"); err != nil {
		t.Fatal(err)
	}
	if err := f.store.Create(c, note{ID: "n1", Body: "again"}); !errors.Is(err, table.ErrAlreadyExists) {
		t.Fatalf("duplicate create: %v, want ErrAlreadyExists", err)
	}

	gets := f.spansNamed("notes.Get")
	if len(gets) != 1 {
		t.Fatalf("%d notes.Get spans, want 1", len(gets))
	}
	get := gets[0]
	if v, _ := attrOf(get.Attributes, oteltable.AttrPattern); v.AsString() != "EX-1" {
		t.Errorf("notes.Get pattern = %q, want EX-1", v.AsString())
	}
	if v, _ := attrOf(get.Attributes, oteltable.AttrRequests); v.AsInt64() != 1 {
		t.Errorf("notes.Get requests = %d, want 1", v.AsInt64())
	}
	if v, _ := attrOf(get.Attributes, oteltable.AttrCapacity); v.AsFloat64() <= 0 {
		t.Errorf("notes.Get capacity = %v, want > 0", v.AsFloat64())
	}
	kids := f.childrenOf(get)
	if len(kids) != 1 || kids[0].Name != "DynamoDB.GetItem" {
		t.Fatalf("notes.Get children = %v, want one DynamoDB.GetItem", names(kids))
	}
	req := kids[0]
	if v, _ := attrOf(req.Attributes, oteltable.AttrOperation); v.AsString() != "GetItem" {
		t.Errorf("request operation = %q", v.AsString())
	}
	if v, _ := attrOf(req.Attributes, oteltable.AttrTableNames); len(v.AsStringSlice()) != 1 || v.AsStringSlice()[0] != f.store.t.Name() {
		t.Errorf("request tables = %v, want [%s]", v.AsStringSlice(), f.store.t.Name())
	}
	if v, _ := attrOf(req.Attributes, oteltable.AttrCapacity); v.AsFloat64() != 0.5 {
		t.Errorf("GetItem capacity = %v, want 0.5 (an eventually consistent read of a small item)", v.AsFloat64())
	}
	if v, _ := attrOf(req.Attributes, oteltable.AttrRetries); v.AsInt64() != 0 {
		t.Errorf("GetItem retries = %d, want 0", v.AsInt64())
	}

	creates := f.spansNamed("notes.Create")
	if len(creates) != 2 {
		t.Fatalf("%d notes.Create spans, want 2", len(creates))
	}
	dup := creates[1]
	if v, _ := attrOf(dup.Attributes, oteltable.AttrErrorKind); v.AsString() != oteltable.KindAlreadyExists {
		t.Errorf("duplicate create error kind = %q, want already_exists", v.AsString())
	}
	var flagged bool
	for _, r := range f.childrenOf(dup) {
		if v, ok := attrOf(r.Attributes, oteltable.AttrCondFailed); ok && v.AsBool() {
			flagged = true
		}
	}
	if !flagged {
		t.Errorf("duplicate create: no request flagged %s (children %v)", oteltable.AttrCondFailed, names(f.childrenOf(dup)))
	}
	for _, r := range f.childrenOf(creates[0]) {
		if v, _ := attrOf(r.Attributes, oteltable.AttrCapacity); v.AsFloat64() <= 0 {
			t.Errorf("first create's %s capacity = %v, want > 0", r.Name, v.AsFloat64())
		}
	}
}

func names(s tracetest.SpanStubs) []string {
	var out []string
	for _, x := range s {
		out = append(out, x.Name)
	}
	return out
}

// TestOtelRetries: two throttled attempts injected in front of DynamoDB
// Local show as retries=2 and three attempt events on the request span,
// and in the retries metric.
func TestOtelRetries(t *testing.T) {
	t.Parallel()
	throttle := &tabletest.Errors{Op: "GetItem", Code: "ProvisionedThroughputExceededException", Times: 2}
	f := newOtelFixture(t, throttle.Option())
	c := ctx(t)
	if err := f.store.Create(c, note{ID: "n1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Get(c, "n1"); err != nil {
		t.Fatalf("get after 2 throttles: %v", err)
	}
	get := f.spansNamed("notes.Get")[0]
	if v, _ := attrOf(get.Attributes, oteltable.AttrRetries); v.AsInt64() != 2 {
		t.Errorf("notes.Get retries = %d, want 2", v.AsInt64())
	}
	req := f.childrenOf(get)[0]
	if len(req.Events) != 3 {
		t.Fatalf("GetItem span has %d events, want 3 attempts", len(req.Events))
	}
	if v, _ := attrOf(req.Events[0].Attributes, oteltable.AttrErrorKind); v.AsString() != oteltable.KindThrottled {
		t.Errorf("first attempt error kind = %q, want throttled", v.AsString())
	}
	if _, ok := attrOf(req.Events[2].Attributes, oteltable.AttrErrorKind); ok {
		t.Errorf("third attempt has an error kind, want success")
	}
	if got := sumInt(t, f.reader, "singletable.request.retries", "EX-1"); got != 2 {
		t.Errorf("singletable.request.retries{EX-1} = %d, want 2", got)
	}
}

// TestOtelMetrics: calls, errors by kind, requests and capacity per
// access pattern.
func TestOtelMetrics(t *testing.T) {
	t.Parallel()
	f := newOtelFixture(t)
	c := ctx(t)
	if err := f.store.Create(c, note{ID: "n1"}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := f.store.Get(c, "n1"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.store.Get(c, "missing"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("get missing: %v", err)
	}
	_ = f.store.Create(c, note{ID: "n1"})

	for _, tc := range []struct {
		metric, pattern string
		want            int64
	}{
		{"singletable.calls", "EX-1", 4},
		{"singletable.calls", "EX-2", 2},
		{"singletable.requests", "EX-1", 4},
		{"singletable.requests", "EX-2", 2},
	} {
		if got := sumInt(t, f.reader, tc.metric, tc.pattern); got != tc.want {
			t.Errorf("%s{%s} = %d, want %d", tc.metric, tc.pattern, got, tc.want)
		}
	}
	errs := intByKind(t, f.reader, "singletable.call.errors")
	if errs["EX-1/not_found"] != 1 || errs["EX-2/already_exists"] != 1 || len(errs) != 2 {
		t.Errorf("singletable.call.errors = %v, want EX-1/not_found 1, EX-2/already_exists 1", errs)
	}
	if got := sumFloat(t, f.reader, "singletable.capacity", "EX-1"); got != 2 {
		t.Errorf("singletable.capacity{EX-1} = %v, want 2 (4 eventually consistent reads of 0.5)", got)
	}
	if got := sumFloat(t, f.reader, "singletable.capacity", "EX-2"); got <= 0 {
		t.Errorf("singletable.capacity{EX-2} = %v, want > 0", got)
	}
}

// TestOtelCapacityAskedOnlyWhenOn: without the option a GetItem asks for
// no consumed capacity (the parameter left out: DynamoDB's default,
// NONE); with it, TOTAL.
func TestOtelCapacityAskedOnlyWhenOn(t *testing.T) {
	t.Parallel()
	base := tabletest.NewTable(t, table.NewSchema("otel"))
	for _, tc := range []struct {
		name string
		opt  func(*table.Options)
		want types.ReturnConsumedCapacity
	}{
		{"none", func(*table.Options) {}, ""},
		{"off", oteltable.Option(nil, nil), ""},
		{"on", oteltable.Option(sdktrace.NewTracerProvider(), nil), types.ReturnConsumedCapacityTotal},
	} {
		var seen types.ReturnConsumedCapacity
		spy := func(o *dynamodb.Options) {
			o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
				return st.Serialize.Add(middleware.SerializeMiddlewareFunc("spy", func(ctx context.Context, in middleware.SerializeInput, next middleware.SerializeHandler) (middleware.SerializeOutput, middleware.Metadata, error) {
					if g, ok := in.Parameters.(*dynamodb.GetItemInput); ok {
						seen = g.ReturnConsumedCapacity
					}
					return next.HandleSerialize(ctx, in)
				}), middleware.After)
			})
		}
		s := newNotes(table.New(tabletest.NewClient(t, spy), base.Schema(), tc.opt, withKey))
		if _, err := s.Get(ctx(t), "missing"); !errors.Is(err, table.ErrNotFound) {
			t.Fatal(err)
		}
		if seen != tc.want {
			t.Errorf("%s: GetItem ReturnConsumedCapacity = %q, want %q", tc.name, seen, tc.want)
		}
	}
}

func collect(t *testing.T, r *sdkmetric.ManualReader) metricdata.ResourceMetrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	return rm
}

func find(rm metricdata.ResourceMetrics, name string) (metricdata.Metrics, bool) {
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name == name {
				return m, true
			}
		}
	}
	return metricdata.Metrics{}, false
}

func pattern(s attribute.Set) string {
	v, _ := s.Value(oteltable.AttrPattern)
	return v.AsString()
}

func sumInt(t *testing.T, r *sdkmetric.ManualReader, name, pat string) int64 {
	t.Helper()
	m, ok := find(collect(t, r), name)
	if !ok {
		return 0
	}
	var n int64
	for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
		if pattern(dp.Attributes) == pat {
			n += dp.Value
		}
	}
	return n
}

func sumFloat(t *testing.T, r *sdkmetric.ManualReader, name, pat string) float64 {
	t.Helper()
	m, ok := find(collect(t, r), name)
	if !ok {
		return 0
	}
	var n float64
	for _, dp := range m.Data.(metricdata.Sum[float64]).DataPoints {
		if pattern(dp.Attributes) == pat {
			n += dp.Value
		}
	}
	return n
}

func intByKind(t *testing.T, r *sdkmetric.ManualReader, name string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	m, ok := find(collect(t, r), name)
	if !ok {
		return out
	}
	for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
		k, _ := dp.Attributes.Value(oteltable.AttrErrorKind)
		out[pattern(dp.Attributes)+"/"+k.AsString()] += dp.Value
	}
	return out
}
