package podcastflow_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/internal/wiretest"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/oteltable"
	"github.com/singletable/singletable/table/tabletest"
)

// TestOtelPodcastflowCalls: store methods and declared patterns report
// their catalog ID, with their requests under them; an iterator's
// requests sit under it; a failed call carries its error kind.
func TestOtelPodcastflowCalls(t *testing.T) {
	traced, exp := wiretest.Traced(t)
	s := podcastflow.New(tabletest.NewTable(t, podcastflow.Schema(""), traced))
	mustCreateOrgs(t, s, "o1")
	mustCreateUser(t, s, user("u1", "o1", pf.RoleAdmin))
	exp.Reset()

	if _, err := s.Users.Profile.Get(t.Context(), pf.UserProfile{UserID: "u1"}); err != nil {
		t.Fatal(err)
	}
	spans := exp.GetSpans()
	wiretest.Request(t, spans, wiretest.Call(t, spans, "podcastflow.Users.Profile.Get", "PF-1"), "GetItem")
	exp.Reset()

	if _, err := s.Users.GetWithPreferences(t.Context(), "u1"); err != nil {
		t.Fatal(err)
	}
	spans = exp.GetSpans()
	wiretest.Request(t, spans, wiretest.Call(t, spans, "podcastflow.Users.GetWithPreferences", "PF-3"), "Query")
	exp.Reset()

	for _, err := range s.Users.AllUsers.All(t.Context(), pf.UserProfile{}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	spans = exp.GetSpans()
	// The iterator's call starts when iterated; its pages' Query
	// requests (one per index shard) sit under it.
	wiretest.Request(t, spans, wiretest.Call(t, spans, "podcastflow.Users.AllUsers.All", "PF-4"), "Query")
	exp.Reset()

	if _, err := s.Users.Profile.Get(t.Context(), pf.UserProfile{UserID: "nobody"}); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("err = %v, want table.ErrNotFound", err)
	}
	spans = exp.GetSpans()
	if got := wiretest.Attr(wiretest.Call(t, spans, "podcastflow.Users.Profile.Get", "PF-1"), oteltable.AttrErrorKind); got != "not_found" {
		t.Errorf("error kind %q, want not_found", got)
	}
}
