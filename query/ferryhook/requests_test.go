package ferryhook_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/internal/patterncost"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// TestRequestCosts measures one call of every Ferryhook method that serves
// a catalog pattern (FH-1..FH-14) and holds each to the requests recorded
// in docs/patterns/ferryhook.requests.json (see patterncost.Costs): a method
// that starts to send one more request fails here.
func TestRequestCosts_FH1_FH2_FH3_FH4_FH5_FH6_FH7_FH8_FH9_FH10_FH11_FH12_FH13_FH14(t *testing.T) {
	f := newFixture(t, nil)
	rc := &tabletest.RequestCounter{Capacity: true}
	meter := capacity.NewMeter(tabletest.Client(t))
	client := tabletest.NewClient(t, rc.Option(), meter.Option())
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	mainT, eventsT := table.New(client, f.main.Schema(), withCipher), table.New(client, f.events.Schema(), withCipher)
	// StateCheck an hour: the plan limit reads a free user's usage once per
	// StateCheck (not per ingest), and on a loaded machine a second may
	// pass between the first ingest and the steady state measured.
	s := ferryhook.New(mainT, eventsT, func(o *ferryhook.Options) { o.StateCheck = time.Hour })
	meter.Learn(mainT, eventsT)
	costs := &patterncost.Costs{App: "ferryhook", Root: "../..", Counter: rc, Meter: meter, Tables: []*table.Table{mainT, eventsT}}
	// A long deadline: the meter reads every item it charges, and a busy machine is slow.
	c, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	m := func(method, note string, fn func() error) { t.Helper(); costs.Measure(t, method, note, fn) }
	drain := func(seq func(func(fh.Source, error) bool)) error {
		for _, err := range seq {
			if err != nil {
				return err
			}
		}
		return nil
	}

	var u fh.User
	m("Users.Create", "", func() (err error) {
		u, err = s.Users.Create(c, ferryhook.CreateUserInput{Email: "cost@example.com", Name: "Ada", PasswordHash: bcryptHash})
		return err
	})
	m("Users.ByID.Get", "", func() error { _, err := s.Users.ByID.Get(c, fh.User{UserID: u.UserID}); return err })
	m("Users.GetByEmail", "", func() error { _, err := s.Users.GetByEmail(c, "Cost@Example.com"); return err })
	m("Users.Login", "GetByEmail's, the hash accepted", func() error {
		got, err := s.Users.Login(c, "cost@example.com", func(h string) bool { return h == bcryptHash })
		if err == nil && got.UserID != u.UserID {
			err = fmt.Errorf("logged in %s, want %s", got.UserID, u.UserID)
		}
		return err
	})
	name := "Ada L."
	m("Users.Update", "the name", func() error { _, err := s.Users.Update(c, u.UserID, ferryhook.UserUpdate{Name: &name}); return err })
	m("Users.IncrementUsage", "", func() error { _, err := s.Users.IncrementUsage(c, u.UserID, 1); return err })

	var src fh.Source
	m("Sources.Create", "", func() (err error) {
		src, err = s.Sources.Create(c, u.UserID, ferryhook.CreateSourceInput{Name: "stripe", Provider: fh.ProviderStripe, SigningSecret: "whsec_test"})
		return err
	})
	mustSource(t, s, u.UserID, "github")
	m("Sources.GetByID", "", func() error { _, err := s.Sources.GetByID(c, src.SourceID); return err })
	m("Sources.ByID.Get", "", func() error {
		_, err := s.Sources.ByID.Get(c, fh.Source{UserID: u.UserID, SourceID: src.SourceID})
		return err
	})
	m("Sources.ByUser.List", "a page of 2", func() error { _, err := s.Sources.ByUser.List(c, fh.Source{UserID: u.UserID}); return err })
	m("Sources.ByUser.All", "2 sources, 1 page", func() error { return drain(s.Sources.ByUser.All(c, fh.Source{UserID: u.UserID})) })
	srcName := "stripe prod"
	m("Sources.Update", "the name", func() error {
		_, err := s.Sources.Update(c, u.UserID, src.SourceID, ferryhook.SourceUpdate{Name: &srcName})
		return err
	})
	// Pausing and resuming is Update with a status: the same two
	// requests as the name's, measured above.
	for _, st := range []fh.Status{fh.StatusPaused, fh.StatusActive} {
		if got, err := s.Sources.Update(c, u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: &st}); err != nil || got.Status != st {
			t.Fatalf("Update status %s = %q, %v", st, got.Status, err)
		}
	}

	var conn fh.Connection
	m("Connections.Create", "", func() (err error) {
		conn, err = s.Connections.Create(c, u.UserID, src.SourceID, ferryhook.CreateConnectionInput{Name: "prod", DestinationURL: "https://example.com/hook"})
		return err
	})
	m("Connections.ByID.Get", "", func() error {
		_, err := s.Connections.ByID.Get(c, fh.Connection{UserID: u.UserID, SourceID: src.SourceID, ConnectionID: conn.ConnectionID})
		return err
	})
	m("Connections.BySource.List", "a page of 1", func() error {
		_, err := s.Connections.BySource.List(c, fh.Connection{UserID: u.UserID, SourceID: src.SourceID})
		return err
	})
	m("Connections.BySource.All", "1 connection, 1 page", func() error {
		for _, err := range s.Connections.BySource.All(c, fh.Connection{UserID: u.UserID, SourceID: src.SourceID}) {
			if err != nil {
				return err
			}
		}
		return nil
	})
	connName := "production"
	m("Connections.Update", "the name", func() error {
		_, err := s.Connections.Update(c, u.UserID, src.SourceID, conn.ConnectionID, ferryhook.ConnectionUpdate{Name: &connName})
		return err
	})
	// Pausing and resuming is Update with a status, as for sources.
	for _, st := range []fh.Status{fh.StatusPaused, fh.StatusActive} {
		if got, err := s.Connections.Update(c, u.UserID, src.SourceID, conn.ConnectionID, ferryhook.ConnectionUpdate{Status: &st}); err != nil || got.Status != st {
			t.Fatalf("Update status %s = %q, %v", st, got.Status, err)
		}
	}
	m("Connections.RecordDelivery", "a delivery", func() error {
		n, err := s.Connections.RecordDelivery(c, src.SourceID, conn.ConnectionID, true)
		if err == nil && n != 1 {
			err = fmt.Errorf("delivery count %d, want 1", n)
		}
		return err
	})

	var nk ferryhook.NewAPIKey
	m("APIKeys.Create", "", func() (err error) {
		nk, err = s.APIKeys.Create(c, u.UserID, ferryhook.CreateAPIKeyInput{Name: "Production"})
		return err
	})
	m("APIKeys.Authenticate", "guard, then the key it names; strongly consistent, every profile", func() error { _, err := s.APIKeys.Authenticate(c, nk.Key); return err })
	m("APIKeys.GetByHash", "", func() error { _, err := s.APIKeys.GetByHash(c, nk.APIKey.KeyHash); return err })
	m("APIKeys.ByUser.List", "a page of 1", func() error { _, err := s.APIKeys.ByUser.List(c, fh.APIKey{UserID: u.UserID}); return err })
	m("APIKeys.ByUser.All", "1 key, 1 page", func() error {
		for _, err := range s.APIKeys.ByUser.All(c, fh.APIKey{UserID: u.UserID}) {
			if err != nil {
				return err
			}
		}
		return nil
	})
	m("APIKeys.UpdateLastUsed", "", func() error {
		_, err := s.APIKeys.UpdateLastUsed(c, ferryhook.APIKeyRef{User: u.UserID, Key: nk.APIKey.KeyID})
		return err
	})

	// The first ingest learns the source's owner; the one measured is
	// the steady state, one transaction.
	if _, err := s.Ingest(c, src.SourceID, ferryhook.IngestRequest{Body: "{}", ContentType: "application/json", Method: "POST"}); err != nil {
		t.Fatal(err)
	}
	m("Store.Ingest", "steady state", func() error {
		_, err := s.Ingest(c, src.SourceID, ferryhook.IngestRequest{Body: "{}", ContentType: "application/json", Method: "POST"})
		return err
	})
	m("Store.IngestBatch", "2 events; default profile: a transaction each; scaled: one transaction of both (TestIngestWCU_FH12_FH16)", func() error {
		_, err := s.IngestBatch(c, src.SourceID, []ferryhook.IngestRequest{{Body: "{}", Method: "POST"}, {Body: "{}", Method: "POST"}})
		return err
	})
	m("Sources.Counts", "default profile; scaled: 1 BatchGetItem of 34 keys (TestScaledProfileRequests)", func() error {
		_, err := s.Sources.Counts(c, u.UserID, src.SourceID)
		return err
	})
	m("Users.Usage", "default profile; scaled: 1 BatchGetItem of 34 keys (TestScaledProfileRequests)", func() error {
		_, err := s.Users.Usage(c, u.UserID)
		return err
	})
	var ev fh.Event
	m("Events.Create", "", func() (err error) {
		ev, err = s.Events.Create(c, eventInput(src, time.Now()))
		return err
	})
	m("Events.GetByID", "an ID the library minted; the service's take GSI1 + GetItem", func() error { _, err := s.Events.GetByID(c, ev.EventID); return err })
	m("Events.ListBySource", "a page of 3, default profile; scaled, 64 partitions: 1 GetItem + 65 Queries (TestShardedEventListRequests_FH7)", func() error { _, err := s.Events.ListBySource(c, src.SourceID); return err })
	m("Events.UpdateStatus", "an ID the library minted; the service's take GSI1 + UpdateItem", func() error { _, err := s.Events.UpdateStatus(c, ev.EventID, fh.EventProcessing); return err })
	m("Attempts.Create", "", func() error {
		_, err := s.Attempts.Create(c, ev.EventID, 1, ferryhook.CreateAttemptInput{ConnectionID: conn.ConnectionID, DestinationURL: conn.DestinationURL, StatusCode: 200})
		return err
	})
	m("Attempts.ByEvent.List", "a page of 1", func() error {
		_, err := s.Attempts.ByEvent.List(c, fh.DeliveryAttempt{EventID: ev.EventID})
		return err
	})
	m("Attempts.ByEvent.All", "1 attempt, 1 page", func() error {
		for _, err := range s.Attempts.ByEvent.All(c, fh.DeliveryAttempt{EventID: ev.EventID}) {
			if err != nil {
				return err
			}
		}
		return nil
	})

	// The scaled profile's switch of a live source (a store on the same
	// metered client): the source read, then one transaction of the item
	// and its 32 counter shards.
	scaled := ferryhook.New(mainT, eventsT, ferryhook.ScaledProfile())
	m("Sources.ShardEvents", "scaled profile: 1 partition to 16 (the source and its 32 counter shards in one transaction)", func() error {
		_, err := scaled.Sources.ShardEvents(c, u.UserID, src.SourceID, 16)
		return err
	})
	// The stream-counted profile's counting (FH-16), on tables with a
	// stream reached through the metered client: a batch of two events of
	// one source, one UpdateItem on its source shard and one on its
	// owner's usage shard.
	sf := streamFixture(t)
	ss := ferryhook.New(table.New(client, sf.main.Schema(), withCipher), table.New(client, sf.events.Schema(), withCipher), ferryhook.StreamCountedProfile())
	su := mustUser(t, sf.store, "stream-cost@example.com")
	ssrc := mustSource(t, sf.store, su.UserID, "stripe")
	for range 2 {
		if _, err := ss.Ingest(c, ssrc.SourceID, ferryhook.IngestRequest{Body: "{}", Method: "POST"}); err != nil {
			t.Fatal(err)
		}
	}
	arn, err := feed.StreamARN(c, sf.events)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := feed.ReadAll(c, feed.StreamsClient(sf.events.Client()), arn)
	if err != nil || len(recs) != 2 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	m("Store.CountsHandler", "stream-counted profile: a batch of 2 events of one source (the handler's requests per batch)", func() error {
		n, err := ss.CountsHandler().HandleBatch(c, feed.Batch{Shard: recs[0].Shard, Records: recs})
		if err == nil && n != 2 {
			err = fmt.Errorf("%d records handled", n)
		}
		return err
	})
	m("Connections.Delete", "", func() error { return s.Connections.Delete(c, u.UserID, src.SourceID, conn.ConnectionID) })
	m("APIKeys.Delete", "", func() error { return s.APIKeys.Delete(c, ferryhook.APIKeyRef{User: u.UserID, Key: nk.APIKey.KeyID}) })
	m("Sources.Delete", "", func() error { return s.Sources.Delete(c, u.UserID, src.SourceID) })
	costs.Check(t)
}
