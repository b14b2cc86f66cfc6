package ferryhook

import (
	"context"
	"testing"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table/tabletest"
)

// BenchmarkIngestBuild is the client's share of an ingest (FH-12): building
// the transaction's three actions (the event's create, the source's and
// the owner's counters), without sending it. Its allocations are the
// stable figure on a shared machine.
func BenchmarkIngestBuild(b *testing.B) {
	s := New(tabletest.NewTable(b, MainSchema(DefaultMainTable)), tabletest.NewTable(b, EventsSchema(DefaultEventsTable)))
	ctx := context.Background()
	u, err := s.Users.Create(ctx, CreateUserInput{Email: "build@example.com", Name: "B", GitHubID: "1"})
	if err != nil {
		b.Fatal(err)
	}
	src, err := s.Sources.Create(ctx, u.UserID, CreateSourceInput{Name: "s", Provider: fh.ProviderStripe})
	if err != nil {
		b.Fatal(err)
	}
	ev, err := received(src.SourceID, IngestRequest{Body: `{"type":"invoice.paid"}`, ContentType: "application/json", Method: "POST", SourceIP: "203.0.113.7"})
	if err != nil {
		b.Fatal(err)
	}
	o := ownerInfo{user: u.UserID, plan: u.Plan}
	if o.counters, err = s.prepareCounters(src.SourceID, o); err != nil { // as sourceOwner does once per owner
		b.Fatal(err)
	}
	recv := []fh.Event{ev}
	b.ReportAllocs()
	for b.Loop() {
		if _, ops, _, err := s.ingestOps(recv, o); err != nil || len(ops) != 3 {
			b.Fatal(len(ops), err)
		}
	}
}
