package oteltable_test

import (
	"context"
	"fmt"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/oteltable"
	"github.com/singletable/singletable/table/tabletest"
)

// A service wires its tracer and meter providers into its table once; its
// store methods (here notes.Get, access pattern EX-1, and notes.Create,
// EX-2) each report a span with their DynamoDB requests under it, and the
// per-pattern metrics. A real service passes its exporting providers
// (OTLP, say); the example records in memory to print what it got.
func ExampleOption() {
	t, done := tabletest.ForExample("ExampleOption")
	defer done()
	schema := tabletest.NewTable(t, table.NewSchema("svc")).Schema()

	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))

	// The wiring: one option on the table.
	tbl := table.New(tabletest.Client(t), schema, oteltable.Option(tp, mp),
		func(o *table.Options) { o.CursorKey = []byte("example cursor key, 32 bytes!!!!") })
	store := newNotes(tbl)

	ctx := context.Background()
	_ = store.Create(ctx, note{ID: "n1", Body: "hello"})
	_, _ = store.Get(ctx, "n1")
	_ = store.Create(ctx, note{ID: "n1", Body: "again"}) // already exists

	for _, s := range spans.GetSpans() {
		p, _ := attrOf(s.Attributes, oteltable.AttrPattern)
		capacity, _ := attrOf(s.Attributes, oteltable.AttrCapacity)
		kind, _ := attrOf(s.Attributes, oteltable.AttrErrorKind)
		fmt.Printf("span %-18s pattern=%s capacity=%v error=%s\n", s.Name, p.AsString(), capacity.AsFloat64(), kind.AsString())
	}
	var rm metricdata.ResourceMetrics
	_ = reader.Collect(ctx, &rm)
	m, _ := find(rm, "singletable.calls")
	for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
		fmt.Printf("singletable.calls{pattern=%s} %d\n", pattern(dp.Attributes), dp.Value)
	}
	// A failed request reports no consumed capacity (DynamoDB returns
	// none with an error), hence 0 on the duplicate create.

	// Unordered output:
	// span DynamoDB.PutItem   pattern=EX-2 capacity=1 error=
	// span notes.Create       pattern=EX-2 capacity=1 error=
	// span DynamoDB.GetItem   pattern=EX-1 capacity=0.5 error=
	// span notes.Get          pattern=EX-1 capacity=0.5 error=
	// span DynamoDB.PutItem   pattern=EX-2 capacity=0 error=condition_failed
	// span notes.Create       pattern=EX-2 capacity=0 error=already_exists
	// singletable.calls{pattern=EX-2} 2
	// singletable.calls{pattern=EX-1} 1
}
