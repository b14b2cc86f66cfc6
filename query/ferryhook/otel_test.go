package ferryhook_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	ferryhook "github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/oteltable"
)

// tracedFixture is a fixture whose two tables trace into spans.
func tracedFixture(t *testing.T) (fixture, *tracetest.InMemoryExporter) {
	t.Helper()
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return newFixtureWith(t, nil, []func(*table.Options){oteltable.Option(tp, nil)}), spans
}

// spanNamed returns the one span named name, failing t unless there is
// exactly one.
func spanNamed(t *testing.T, spans tracetest.SpanStubs, name string) tracetest.SpanStub {
	t.Helper()
	var found []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		var names []string
		for _, s := range spans {
			names = append(names, s.Name)
		}
		t.Fatalf("%d spans named %s, want 1; spans: %v", len(found), name, names)
	}
	return found[0]
}

func attr(s tracetest.SpanStub, k attribute.Key) string {
	for _, a := range s.Attributes {
		if a.Key == k {
			return a.Value.Emit()
		}
	}
	return ""
}

// wantCall checks that the span of method carries pattern and has a
// DynamoDB request under it (or under a call under it), and returns it.
func wantCall(t *testing.T, spans tracetest.SpanStubs, method, pattern string) tracetest.SpanStub {
	t.Helper()
	s := spanNamed(t, spans, method)
	if got := attr(s, oteltable.AttrPattern); got != pattern {
		t.Errorf("%s: %s = %q, want %q", method, oteltable.AttrPattern, got, pattern)
	}
	if got := attr(s, oteltable.AttrMethod); got != method {
		t.Errorf("%s: %s = %q", method, oteltable.AttrMethod, got)
	}
	return s
}

func wantChild(t *testing.T, parent, child tracetest.SpanStub) {
	t.Helper()
	if child.Parent.SpanID() != parent.SpanContext.SpanID() || child.SpanContext.TraceID() != parent.SpanContext.TraceID() {
		t.Errorf("span %s is not under %s", child.Name, parent.Name)
	}
}

func wantRequestUnder(t *testing.T, spans tracetest.SpanStubs, parent tracetest.SpanStub, op string) {
	t.Helper()
	for _, s := range spans {
		if s.Name == "DynamoDB."+op && s.Parent.SpanID() == parent.SpanContext.SpanID() {
			if got := attr(s, oteltable.AttrPattern); got != attr(parent, oteltable.AttrPattern) {
				t.Errorf("%s under %s: pattern %q, want %q", s.Name, parent.Name, got, attr(parent, oteltable.AttrPattern))
			}
			return
		}
	}
	t.Errorf("no DynamoDB.%s span under %s", op, parent.Name)
}

// TestOtelFerryhookCalls: store methods report their catalog ID, their
// requests sit under them, and a method calling another nests.
func TestOtelFerryhookCalls(t *testing.T) {
	f, exp := tracedFixture(t)
	s := f.store
	u := mustUser(t, s, "ada@example.com")
	nk, err := s.APIKeys.Create(ctx(t), u.UserID, ferryhook.CreateAPIKeyInput{Name: "Production"})
	if err != nil {
		t.Fatal(err)
	}
	exp.Reset()

	// FH-6: one consistent GetItem of the key the plaintext names.
	if _, err := s.APIKeys.Authenticate(ctx(t), nk.Key); err != nil {
		t.Fatal(err)
	}
	spans := exp.GetSpans()
	auth := wantCall(t, spans, "ferryhook.APIKeys.Authenticate", "FH-6")
	wantRequestUnder(t, spans, auth, "GetItem")
	exp.Reset()

	// Login (FH-2) goes through GetByEmail (FH-2): nested.
	if _, err := s.Users.Login(ctx(t), "ada@example.com", func(string) bool { return true }); err != nil {
		t.Fatal(err)
	}
	spans = exp.GetSpans()
	login := wantCall(t, spans, "ferryhook.Users.Login", "FH-2")
	byEmail := wantCall(t, spans, "ferryhook.Users.GetByEmail", "FH-2")
	wantChild(t, login, byEmail)
	exp.Reset()

	// The iterator (FH-10) starts its call when iterated; each page's
	// ListByUser nests under it.
	seq := s.APIKeys.AllByUser(ctx(t), u.UserID)
	if n := len(exp.GetSpans()); n != 0 {
		t.Fatalf("%d spans before iterating, want 0", n)
	}
	for _, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
	}
	spans = exp.GetSpans()
	all := wantCall(t, spans, "ferryhook.APIKeys.AllByUser", "FH-10")
	page := wantCall(t, spans, "ferryhook.APIKeys.ListByUser", "FH-10")
	wantChild(t, all, page)
	wantRequestUnder(t, spans, page, "Query")
	exp.Reset()

	// The events table's methods trace too (FH-7).
	src := mustSource(t, s, u.UserID, "Stripe")
	exp.Reset()
	if _, err := s.Events.ListBySource(ctx(t), src.SourceID); err != nil {
		t.Fatal(err)
	}
	spans = exp.GetSpans()
	list := wantCall(t, spans, "ferryhook.Events.ListBySource", "FH-7")
	wantRequestUnder(t, spans, list, "Query")
}
