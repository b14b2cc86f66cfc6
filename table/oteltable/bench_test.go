package oteltable_test

import (
	"context"
	"testing"

	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/oteltable"
	"github.com/singletable/singletable/table/tabletest"
)

// BenchmarkOtelGet runs one instrumented store Get (EX-1: one GetItem
// against DynamoDB Local) on tables that differ only in the option: none
// (no option at all), off (oteltable.Option(nil, nil)), noop (no-op
// providers: the middleware runs, nothing is recorded) and on (the SDK's
// providers, spans sampled and metrics aggregated). none and off must
// show the same allocs/op.
func BenchmarkOtelGet(b *testing.B) {
	base := tabletest.NewTable(b, table.NewSchema("otelbench"))
	tp := sdktrace.NewTracerProvider() // records spans, exports none
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	b.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
	seed := newNotes(base)
	if err := seed.Create(context.Background(), note{ID: "n1", Body: "hello"}); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		opt  func(*table.Options)
	}{
		{"none", func(*table.Options) {}},
		{"off", oteltable.Option(nil, nil)},
		{"noop", oteltable.Option(tracenoop.NewTracerProvider(), metricnoop.NewMeterProvider())},
		{"on", oteltable.Option(tp, mp)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := newNotes(table.New(tabletest.NewClient(b), base.Schema(), bc.opt, withKey))
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Get(ctx, "n1"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkOtelCallOff is the hook alone, with no Tracer: Table.Call and
// EndCall.End with no request. It must allocate nothing.
func BenchmarkOtelCallOff(b *testing.B) {
	tbl := table.New(nil, table.NewSchema("x"), func(o *table.Options) { o.CursorKey = make([]byte, 32) })
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		func() (err error) {
			_, call := tbl.Call(ctx, "EX-1", "notes.Get")
			defer func() { call.End(err) }()
			return nil
		}()
	}
}
