package ferryhook_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Ingest (FH-4, FH-7, FH-12) costs one request in the steady state: the
// source's owner is remembered after the first ingest, and the source's
// state and the owner's plan are conditions in the transaction (issue 12).
// A plan change is caught by the transaction and the ingest retried with
// the new plan; a pause or delete is caught by it too.
func TestIngestOneRequest_FH4_FH7_FH12(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	u := mustUser(t, f.store, "ingest1@example.com")
	src := mustSource(t, f.store, u.UserID, "stripe")
	rc := &tabletest.RequestCounter{}
	client := tabletest.NewClient(t, rc.Option())
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	s := ferryhook.New(table.New(client, f.main.Schema(), withCipher), table.New(client, f.events.Schema(), withCipher))
	if _, err := s.Ingest(ctx(t), src.SourceID, ferryhook.IngestRequest{Body: "{}", ContentType: "application/json", Method: "POST"}); err != nil {
		t.Fatal(err)
	}
	first := rc.Total()
	rc.Reset()
	for range 5 {
		if _, err := s.Ingest(ctx(t), src.SourceID, ferryhook.IngestRequest{Body: "{}", ContentType: "application/json", Method: "POST"}); err != nil {
			t.Fatal(err)
		}
	}
	if n := rc.Total(); n != 5 || rc.Of("TransactWriteItems") != 5 {
		t.Fatalf("5 ingests took %d requests (%d transactions), want 5 (the first took %d)", n, rc.Of("TransactWriteItems"), first)
	}
	// The owner upgrades: the next ingest sees it (the transaction's plan
	// condition fails, the plan is read again) and uses the new retention.
	pro := fh.PlanPro
	if _, err := f.store.Users.Update(ctx(t), u.UserID, ferryhook.UserUpdate{Plan: &pro}); err != nil {
		t.Fatal(err)
	}
	ev, err := s.Ingest(ctx(t), src.SourceID, ferryhook.IngestRequest{Body: "{}", ContentType: "application/json", Method: "POST"})
	if err != nil {
		t.Fatal(err)
	}
	if want := fh.PlanPro.ExpiresAt(ev.ReceivedAt); ev.ExpiresAt != want {
		t.Errorf("expiresAt %d after the upgrade, want the pro retention %d", ev.ExpiresAt, want)
	}
	// Paused, then deleted, behind the remembered owner's back.
	if _, err := f.store.Sources.Update(ctx(t), u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusPaused)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ingest(ctx(t), src.SourceID, ferryhook.IngestRequest{Method: "POST"}); !errors.Is(err, ferryhook.ErrSourcePaused) {
		t.Errorf("ingest into a paused source: %v, want ErrSourcePaused", err)
	}
	if err := f.store.Sources.Delete(ctx(t), u.UserID, src.SourceID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ingest(ctx(t), src.SourceID, ferryhook.IngestRequest{Method: "POST"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("ingest into a deleted source: %v, want ErrNotFound", err)
	}
	stored, err := f.store.Sources.ByID.Get(ctx(t), fh.Source{UserID: u.UserID, SourceID: src.SourceID})
	if err == nil && stored.EventCount != 7 {
		t.Errorf("eventCount %d, want 7", stored.EventCount)
	}
}
