package wiretest

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/oteltable"
)

// Traced returns a table option tracing into the in-memory exporter it
// also returns (table/oteltable, no metrics).
func Traced(t testing.TB) (func(*table.Options), *tracetest.InMemoryExporter) {
	t.Helper()
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return oteltable.Option(tp, nil), spans
}

// Span returns the one span named name, failing t unless there is
// exactly one.
func Span(t testing.TB, spans tracetest.SpanStubs, name string) tracetest.SpanStub {
	t.Helper()
	var found []tracetest.SpanStub
	var names []string
	for _, s := range spans {
		names = append(names, s.Name)
		if s.Name == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d spans named %s, want 1; spans: %v", len(found), name, names)
	}
	return found[0]
}

// Attr returns the value of attribute k of s, or "".
func Attr(s tracetest.SpanStub, k attribute.Key) string {
	for _, a := range s.Attributes {
		if a.Key == k {
			return a.Value.String()
		}
	}
	return ""
}

// Call returns the span of store method method, failing t unless it
// carries pattern (the catalog ID) and its own name.
func Call(t testing.TB, spans tracetest.SpanStubs, method, pattern string) tracetest.SpanStub {
	t.Helper()
	s := Span(t, spans, method)
	if got := Attr(s, oteltable.AttrPattern); got != pattern {
		t.Errorf("%s: %s = %q, want %q", method, oteltable.AttrPattern, got, pattern)
	}
	if got := Attr(s, oteltable.AttrMethod); got != method {
		t.Errorf("%s: %s = %q", method, oteltable.AttrMethod, got)
	}
	return s
}

// Child fails t unless child is directly under parent.
func Child(t testing.TB, parent, child tracetest.SpanStub) {
	t.Helper()
	if child.Parent.SpanID() != parent.SpanContext.SpanID() || child.SpanContext.TraceID() != parent.SpanContext.TraceID() {
		t.Errorf("span %s is not under %s", child.Name, parent.Name)
	}
}

// Request fails t unless a DynamoDB.op request span is directly under
// call, with call's pattern.
func Request(t testing.TB, spans tracetest.SpanStubs, call tracetest.SpanStub, op string) {
	t.Helper()
	for _, s := range spans {
		if s.Name == "DynamoDB."+op && s.Parent.SpanID() == call.SpanContext.SpanID() {
			if got, want := Attr(s, oteltable.AttrPattern), Attr(call, oteltable.AttrPattern); got != want {
				t.Errorf("%s under %s: pattern %q, want %q", s.Name, call.Name, got, want)
			}
			return
		}
	}
	t.Errorf("no DynamoDB.%s span under %s", op, call.Name)
}
