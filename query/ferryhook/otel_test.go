package ferryhook_test

import (
	"testing"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/internal/wiretest"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
)

// TestOtelFerryhookCalls: store methods report their catalog ID, their
// requests sit under them, and a method calling another nests.
func TestOtelFerryhookCalls(t *testing.T) {
	traced, exp := wiretest.Traced(t)
	s := newFixtureWith(t, nil, []func(*table.Options){traced}).store
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
	auth := wiretest.Call(t, spans, "ferryhook.APIKeys.Authenticate", "FH-6")
	wiretest.Request(t, spans, auth, "GetItem")
	exp.Reset()

	// Login (FH-2) goes through GetByEmail (FH-2): nested.
	if _, err := s.Users.Login(ctx(t), "ada@example.com", func(string) bool { return true }); err != nil {
		t.Fatal(err)
	}
	spans = exp.GetSpans()
	login := wiretest.Call(t, spans, "ferryhook.Users.Login", "FH-2")
	byEmail := wiretest.Call(t, spans, "ferryhook.Users.GetByEmail", "FH-2")
	wiretest.Child(t, login, byEmail)
	exp.Reset()

	// The declared pattern's iterator (FH-10) starts its call when
	// iterated; each page's Query is sent under it.
	seq := s.APIKeys.ByUser.All(ctx(t), fh.APIKey{UserID: u.UserID})
	if n := len(exp.GetSpans()); n != 0 {
		t.Fatalf("%d spans before iterating, want 0", n)
	}
	for _, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
	}
	spans = exp.GetSpans()
	all := wiretest.Call(t, spans, "ferryhook.APIKeys.ByUser.All", "FH-10")
	wiretest.Request(t, spans, all, "Query")
	exp.Reset()

	// The events table's methods trace too (FH-7).
	src := mustSource(t, s, u.UserID, "Stripe")
	exp.Reset()
	if _, err := s.Events.ListBySource(ctx(t), src.SourceID); err != nil {
		t.Fatal(err)
	}
	spans = exp.GetSpans()
	list := wiretest.Call(t, spans, "ferryhook.Events.ListBySource", "FH-7")
	wiretest.Request(t, spans, list, "Query")
}
