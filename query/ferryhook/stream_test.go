package ferryhook_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/feed/feedtest"
)

// FH-15: every write of the Ferryhook store in its scaled profile (counter
// shards per source and per user, 4 here, events sharded over partitions, the
// counters rolled up by RollupJob), on main and events tables with
// NEW_AND_OLD_IMAGES streams (the document declares none; the test adds
// them), heard as a typed change of its entity: users (an email change
// moving its guard), sources (paused, resumed, resharded, one deleted),
// connections, API keys (one revoked), events (ingested and created, a
// status change) and delivery attempts. Every record of either stream is
// routed to its entity or to the library's items (guards, counter shards
// and rollups, the rollup job's checkpoints), none unknown; every image
// decodes, the signing secrets unsealed.
func TestEveryWriteHeard_FH15(t *testing.T) {
	t.Parallel()
	// The scaled profile's layouts, with 4 counter shards instead of its
	// 32 (each shard is written per change of its item: 32 make the
	// stream 300 records long and the test two minutes slower on a shared
	// DynamoDB Local, for nothing more to route).
	f := newFixture(t, []table.SchemaOption{table.WithStream(types.StreamViewTypeNewAndOldImages)}, ferryhook.ScaledProfile(),
		func(o *ferryhook.Options) { o.CounterShards = 4 })
	s, c := f.store, ctx(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must2 := func(_ any, err error) { t.Helper(); must(err) }
	str := func(v string) *string { return &v }

	ada := mustUser(t, s, "ada@example.com")
	bob := mustUser(t, s, "bob@example.com")
	must2(s.Users.Update(c, ada.UserID, ferryhook.UserUpdate{Name: str("Ada L."), Email: str("ada.l@example.com")}))
	src, err := s.Sources.Create(c, ada.UserID, ferryhook.CreateSourceInput{Name: "stripe", Provider: fh.ProviderStripe, SigningSecret: "whsec_source_plain"})
	must(err)
	old := mustSource(t, s, bob.UserID, "old")
	must2(s.Sources.Update(c, ada.UserID, src.SourceID, ferryhook.SourceUpdate{Name: str("stripe live")}))
	must2(s.Sources.Update(c, ada.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusPaused)}))
	must2(s.Sources.Update(c, ada.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusActive)}))
	must2(s.Sources.ShardEvents(c, ada.UserID, src.SourceID, 4))
	conn, err := s.Connections.Create(c, ada.UserID, src.SourceID, ferryhook.CreateConnectionInput{Name: "api", DestinationURL: "https://api.example.com/hook", SigningSecret: "whsec_conn_plain"})
	must(err)
	gone, err := s.Connections.Create(c, ada.UserID, src.SourceID, ferryhook.CreateConnectionInput{Name: "old", DestinationURL: "https://old.example.com/hook"})
	must(err)
	must2(s.Connections.Update(c, ada.UserID, src.SourceID, conn.ConnectionID, ferryhook.ConnectionUpdate{Name: str("api v2")}))
	must2(s.Connections.RecordDelivery(c, src.SourceID, conn.ConnectionID, true))
	must(s.Connections.Delete(c, ada.UserID, src.SourceID, gone.ConnectionID))
	key, err := s.APIKeys.Create(c, ada.UserID, ferryhook.CreateAPIKeyInput{Name: "Production", Permissions: fh.PermissionWrite})
	must(err)
	revoked, err := s.APIKeys.Create(c, ada.UserID, ferryhook.CreateAPIKeyInput{Name: "Old"})
	must(err)
	must2(s.APIKeys.UpdateLastUsed(c, ferryhook.APIKeyRef{User: ada.UserID, Key: key.APIKey.KeyID}))
	must(s.APIKeys.Delete(c, ferryhook.APIKeyRef{User: ada.UserID, Key: revoked.APIKey.KeyID}))
	var ingested []fh.Event
	for i := range 3 {
		ev, err := s.Ingest(c, src.SourceID, ferryhook.IngestRequest{Body: fmt.Sprintf(`{"type":"invoice.paid","n":%d}`, i), ContentType: "application/json", Method: "POST", SourceIP: "203.0.113.7"})
		must(err)
		ingested = append(ingested, ev)
	}
	created, err := s.Events.Create(c, eventInput(src, time.Time{}))
	must(err)
	must2(s.Events.UpdateStatus(c, created.EventID, fh.EventDelivered))
	must2(s.Attempts.Create(c, ingested[0].EventID, fh.MinAttempt, ferryhook.CreateAttemptInput{ConnectionID: conn.ConnectionID, DestinationURL: conn.DestinationURL, StatusCode: 200, ExpiresAt: ingested[0].ExpiresAt}))
	must(s.Sources.Delete(c, bob.UserID, old.SourceID))
	must2(f.main.RunJob(c, s.RollupJob())) // the counters rolled up into the source and the user

	h := feedtest.New()
	var secrets []string
	route := func(tbl *table.Table, register func(*feed.Router)) int {
		t.Helper()
		r := h.Router(tbl)
		register(r)
		return h.Route(t, c, r)
	}
	nMain := route(f.main, func(r *feed.Router) {
		feedtest.Listen[fh.User](h, r, nil)
		feedtest.Listen(h, r, func(c table.ItemChange[fh.Source]) error {
			if c.New != nil && c.New.SigningSecret != "" {
				secrets = append(secrets, c.New.SigningSecret)
			}
			return nil
		})
		feedtest.Listen(h, r, func(c table.ItemChange[fh.Connection]) error {
			if c.New != nil && c.New.SigningSecret != "" {
				secrets = append(secrets, c.New.SigningSecret)
			}
			return nil
		})
		feedtest.Listen[fh.APIKey](h, r, nil)
	})
	partitions := map[string]bool{}
	nEvents := route(f.events, func(r *feed.Router) {
		feedtest.Listen(h, r, func(c table.ItemChange[fh.Event]) error {
			partitions[c.Key.PK] = true
			return nil
		})
		feedtest.Listen[fh.DeliveryAttempt](h, r, nil)
	})

	t.Logf("FH-15: main %d + events %d records: %s", nMain, nEvents, h.EveryEntity(t, f.main, f.events))
	for _, kind := range []string{table.GuardType, table.CounterType, "_job"} {
		if h.Library[kind] == 0 {
			t.Errorf("no %s record heard: library %v", kind, h.Library)
		}
	}
	// The secrets as sealed at rest, heard in plaintext.
	for _, want := range []string{"whsec_source_plain", "whsec_conn_plain"} {
		if !slices.Contains(secrets, want) {
			t.Errorf("secret %q not heard in plaintext: heard %q", want, secrets)
		}
	}
	if len(partitions) < 2 {
		t.Errorf("events heard in partitions %v, want the sharded source's several", partitions)
	}
	for typ, want := range map[string][]string{
		"APIKey":          {"created", "created", "modified", "removed"},
		"DeliveryAttempt": {"created"},
	} {
		if got := h.Events[typ]; !slices.Equal(got, want) {
			t.Errorf("%s events %v, want %v", typ, got, want)
		}
	}
	if evs := h.Events["Event"]; len(evs) != 5 || slices.Index(evs, "modified") < 0 {
		t.Errorf("Event events %v: want the 4 creations and the status change", evs)
	}
}
