package ferryhook_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

var req = ferryhook.IngestRequest{Headers: `{"stripe-signature":["t=1,v1=abc"]}`, Body: `{"id":"evt_1"}`,
	SourceIP: "2001:db8::1", ContentType: "application/json", Method: "POST"}

// FH-4 + FH-1 + FH-12 + FH-11 events.create in one ingestion: the event
// and the counters (source eventCount/lastEventAt, user usageThisMonth)
// are written in one transaction across both tables, atomically under
// concurrency.
func TestIngestCounters_FH4_FH12(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "ingest@example.com")
	team := fh.PlanTeam
	if _, err := s.Users.Update(ctx(t), u.UserID, ferryhook.UserUpdate{Plan: &team}); err != nil {
		t.Fatal(err)
	}
	src := mustSource(t, s, u.UserID, "Stripe")
	const n = 10
	var wg sync.WaitGroup
	evs := make([]fh.Event, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev, err := s.Ingest(ctx(t), src.SourceID, req)
			if err != nil {
				t.Error(err)
			}
			evs[i] = ev
		}()
	}
	wg.Wait()
	if evs[0].UserID != u.UserID || evs[0].Status != fh.EventReceived ||
		evs[0].ExpiresAt != fh.PlanTeam.ExpiresAt(evs[0].ReceivedAt) {
		t.Fatalf("ingested event = %+v", evs[0])
	}
	gotSrc, err := s.Sources.ByID.Get(ctx(t), fh.Source{UserID: u.UserID, SourceID: src.SourceID})
	if err != nil {
		t.Fatal(err)
	}
	gotUser, err := s.Users.ByID.Get(ctx(t), fh.User{UserID: u.UserID})
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Events.ListBySource(ctx(t), src.SourceID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([3]int64{n, n, n}, [3]int64{gotSrc.EventCount, gotUser.UsageThisMonth, int64(len(p.Items))}); diff != "" {
		t.Errorf("[eventCount usage events] (-want +got):\n%s", diff)
	}
	if gotSrc.LastEventAt.IsZero() {
		t.Error("lastEventAt not set")
	}
}

// Ingestion refuses paused, deleted and unknown sources and oversized
// bodies, writing nothing (FH-4, FH-11 events.create).
func TestIngestRefused_FH4(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "refuse@example.com")
	src := mustSource(t, s, u.UserID, "s")
	big := req
	big.Body = strings.Repeat("b", fh.MaxBodyBytes+1)
	_, err := s.Ingest(ctx(t), src.SourceID, big)
	wantInvalid(t, err, "body")
	if _, err := s.Sources.Update(ctx(t), u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusPaused)}); err != nil {
		t.Fatal(err)
	}
	_, err = s.Ingest(ctx(t), src.SourceID, req)
	wantIs(t, err, ferryhook.ErrSourcePaused)
	if err := s.Sources.Delete(ctx(t), u.UserID, src.SourceID); err != nil {
		t.Fatal(err)
	}
	_, err = s.Ingest(ctx(t), src.SourceID, req)
	wantIs(t, err, table.ErrNotFound)
	_, err = s.Ingest(ctx(t), fh.SourceIDs.New(), req)
	wantIs(t, err, table.ErrNotFound)
	p, err := s.Events.ListBySource(ctx(t), src.SourceID)
	if err != nil || len(p.Items) != 0 {
		t.Fatalf("events written: %d, %v", len(p.Items), err)
	}
	got, err := s.Users.ByID.Get(ctx(t), fh.User{UserID: u.UserID})
	if err != nil || got.UsageThisMonth != 0 {
		t.Fatalf("usage = %d, %v; want 0", got.UsageThisMonth, err)
	}
}

// An ingest whose transaction response is lost after DynamoDB applied it
// (twice: the SDK's third attempt gets DynamoDB Local's answer) succeeds
// once, in the default profile: the event stored once, the source and the
// owner counted once. The SDK resends the same idempotency token, which
// DynamoDB answers with success without applying the transaction again;
// the event's put carries no write token (table.Entity.CreateOp), which
// nothing would read.
func TestIngestLostResponse_FH12(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	u := mustUser(t, f.store, "lost@example.com")
	src := mustSource(t, f.store, u.UserID, "lost")
	if _, err := ingestOnce(ctx(t), f.store, src.SourceID); err != nil { // the owner remembered
		t.Fatal(err)
	}
	lost := &tabletest.LostResponses{Op: "TransactWriteItems", Times: 2}
	client := tabletest.NewClient(t, lost.Option())
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	ls := ferryhook.New(table.New(client, f.main.Schema(), withCipher), table.New(client, f.events.Schema(), withCipher))
	ev, err := ingestOnce(ctx(t), ls, src.SourceID)
	if err != nil {
		t.Fatal(err)
	}
	if lost.Lost() != 2 {
		t.Fatalf("%d responses lost, want 2", lost.Lost())
	}
	if n := storedEvents(t, f.store, src.SourceID); n != 2 {
		t.Fatalf("%d events stored, want 2", n)
	}
	got, err := f.store.Events.GetByID(ctx(t), ev.EventID)
	if err != nil || got.EventID != ev.EventID {
		t.Fatalf("GetByID = %v, %v", got.EventID, err)
	}
	s, err := f.store.Sources.ByID.Get(ctx(t), fh.Source{UserID: u.UserID, SourceID: src.SourceID})
	if err != nil {
		t.Fatal(err)
	}
	owner, err := f.store.Users.ByID.Get(ctx(t), fh.User{UserID: u.UserID})
	if err != nil {
		t.Fatal(err)
	}
	if s.EventCount != 2 || owner.UsageThisMonth != 2 {
		t.Fatalf("eventCount %d, usageThisMonth %d, want 2 and 2", s.EventCount, owner.UsageThisMonth)
	}
}
