package ferryhook_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/tabletest"
)

// TestPlanLimit_FH12: the plan limit (issue 44, the running service's
// 429 PLAN_LIMIT_REACHED on the free plan) in every profile, at its
// bound (planlimit.go), with a free plan limited to 6 events
// (Options.PlanLimit) and two stores on the same tables, A and B, on a
// modeled clock with the default Options.StateCheck of 1 second:
//
//   - B takes 1 event (it reads the usage: 0).
//   - A takes events one by one and then 6 together (Store.IngestBatch,
//     one group in the scaled profile) until refused with ErrPlanLimit (a
//     *PlanLimitError naming the limit): A alone never passes the limit
//     it read: 5 events (usage 1 read: B's event), except in the
//     stream-counted profile, whose usage read lags by the stream (no
//     consumer ran yet): A reads 0 and takes 6, the limit passed by B's 1
//     uncounted event, the stream's lag.
//   - 900 ms later, within StateCheck, B has not read again: it takes 5
//     more (its figure: 1 of 6), the limit passed by A's events since B's
//     read (the bound: the other stores' ingests within StateCheck, plus
//     the stream's lag).
//   - past StateCheck (the consumer caught up in the stream-counted
//     profile) both stores read the usage again and refuse.
//   - nothing was stored for a refused ingest: the events stored equal the
//     exact usage (FH-14) and the source's count (FH-13).
//   - A resets the billing period (Users.ResetUsage) and takes an event at
//     once.
func TestPlanLimit_FH12(t *testing.T) {
	t.Parallel()
	const limit = 6
	limited := func(o *ferryhook.Options) {
		o.PlanLimit = func(p fh.Plan) int64 {
			if p == fh.PlanFree {
				return limit
			}
			return 0
		}
	}
	for _, p := range []struct {
		name    string
		profile func(*ferryhook.Options)
		stream  bool
	}{
		{"document", func(*ferryhook.Options) {}, false},
		{"scaled", ferryhook.ScaledProfile(), false},
		{"stream-counted", ferryhook.StreamCountedProfile(), true},
	} {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			var now atomic.Int64
			now.Store(time.Now().UnixNano())
			clock := func(o *table.Options) { o.Now = func() time.Time { return time.Unix(0, now.Load()) } }
			var schema []table.SchemaOption
			if p.stream {
				schema = append(schema, table.WithStream(types.StreamViewTypeNewAndOldImages))
			}
			f := newFixtureWith(t, schema, []func(*table.Options){clock}, p.profile, limited)
			a, b := f.store, ferryhook.New(f.main, f.events, p.profile, limited)
			u := mustUser(t, a, "limit@example.com")
			src := mustSource(t, a, u.UserID, "stripe")
			c := context.Background()
			req := ferryhook.IngestRequest{Body: "{}", ContentType: "application/json", Method: "POST"}
			ingest := func(s *ferryhook.Store) error { _, err := s.Ingest(c, src.SourceID, req); return err }
			// takeAll ingests through s one by one until it is refused, and
			// returns how many it took.
			takeAll := func(s *ferryhook.Store, who string) int {
				t.Helper()
				for n := 0; ; n++ {
					err := ingest(s)
					if errors.Is(err, ferryhook.ErrPlanLimit) {
						var pe *ferryhook.PlanLimitError
						if !errors.As(err, &pe) || pe.Limit != limit || pe.User != u.UserID {
							t.Errorf("%s: %v, want a *PlanLimitError for %s, limit %d", who, err, u.UserID, limit)
						}
						return n
					}
					if err != nil {
						t.Fatalf("%s: %v", who, err)
					}
				}
			}

			if err := ingest(b); err != nil {
				t.Fatal(err)
			}
			// A: one, then a batch of 6 (one group in the scaled profile)
			// of which those that fit are taken, then refused.
			if err := ingest(a); err != nil {
				t.Fatal(err)
			}
			evs, err := a.IngestBatch(c, src.SourceID, []ferryhook.IngestRequest{req, req, req, req, req, req})
			if !errors.Is(err, ferryhook.ErrPlanLimit) {
				t.Errorf("A's batch of 6: %v, want ErrPlanLimit", err)
			}
			tookA := 1 + len(evs) + takeAll(a, "A")
			wantA := limit - 1 // B's event read
			if p.stream {
				wantA = limit // the usage read lags by the stream: B's event uncounted
			}
			if tookA != wantA {
				t.Errorf("A took %d events, want %d", tookA, wantA)
			}
			// B within StateCheck: its figure is 1 of 6.
			now.Add(int64(900 * time.Millisecond))
			if tookB := takeAll(b, "B within StateCheck"); tookB != limit-1 {
				t.Errorf("B within StateCheck took %d events, want %d (the bound: A's %d since B's read)", tookB, limit-1, tookA)
			}
			if p.stream {
				cons := &feed.Consumer{Table: f.events, Name: "ferryhook-counts", Handler: a.CountsHandler()}
				if err := cons.CatchUp(c); err != nil {
					t.Fatal(err)
				}
			}
			now.Add(int64(200 * time.Millisecond))
			for who, s := range map[string]*ferryhook.Store{"A": a, "B": b} {
				if err := ingest(s); !errors.Is(err, ferryhook.ErrPlanLimit) {
					t.Errorf("%s past StateCheck: %v, want ErrPlanLimit", who, err)
				}
			}
			stored := 0
			for _, err := range table.Every(c, a.Events.ListBySource, src.SourceID) {
				if err != nil {
					t.Fatal(err)
				}
				stored++
			}
			usage, err := a.Users.Usage(c, u.UserID)
			if err != nil {
				t.Fatal(err)
			}
			counts, err := a.Sources.Counts(c, u.UserID, src.SourceID)
			if err != nil {
				t.Fatal(err)
			}
			if want := 1 + wantA + limit - 1; stored != want || usage != int64(stored) || counts.EventCount != int64(stored) {
				t.Errorf("%d events stored (want %d), usage %d, source count %d", stored, want, usage, counts.EventCount)
			}
			if _, err := a.Users.ResetUsage(c, u.UserID, time.Unix(0, now.Load())); err != nil {
				t.Fatal(err)
			}
			if err := ingest(a); err != nil {
				t.Errorf("A after its own period reset: %v", err)
			}
			t.Logf("%s: limit %d; B 1, A %d, B %d more within StateCheck: %d stored (the bound), both refused past it", p.name, limit, tookA, limit-1, stored)
		})
	}
}

// switchLost loses every TransactWriteItems response (applied, then a 500
// to each retry of the SDK) while lose is set, and passes requests through
// otherwise.
type switchLost struct {
	lose atomic.Bool
	lost *tabletest.LostResponses
}

func (s *switchLost) Do(r *http.Request) (*http.Response, error) {
	if s.lose.Load() {
		return s.lost.Do(r)
	}
	return http.DefaultClient.Do(r)
}

// TestPlanLimitLostResponse_FH12: an ingest whose transaction DynamoDB
// applied but whose every answer was lost returns an error, and its event
// is stored: the store keeps it counted against the limit (planlimit.go,
// kept) until its next usage read, so one store still never passes the
// limit. In the scaled profile, with a limit of 3: one ingest, one lost,
// one more; the fourth is
// refused and 3 events are stored (a store that gave the lost one's room
// back took a fourth).
func TestPlanLimitLostResponse_FH12(t *testing.T) {
	t.Parallel()
	limited := func(o *ferryhook.Options) {
		o.PlanLimit = func(p fh.Plan) int64 {
			if p == fh.PlanFree {
				return 3
			}
			return 0
		}
	}
	at := time.Now()
	clock := func(o *table.Options) { o.Now = func() time.Time { return at } } // no usage re-read
	// The scaled profile: its usage figure comes only from its usage
	// read (the document profile's also from the owner's item, read again
	// after a failure).
	f := newFixtureWith(t, nil, []func(*table.Options){clock}, ferryhook.ScaledProfile(), limited)
	sw := &switchLost{lost: &tabletest.LostResponses{Op: "TransactWriteItems", Times: 1 << 20}}
	cl := tabletest.NewClient(t, func(o *dynamodb.Options) { o.HTTPClient = sw })
	opts := func(o *table.Options) { clock(o); o.Cipher, o.CursorKey = tabletest.Cipher(), make([]byte, 32) }
	s := ferryhook.New(table.New(cl, f.main.Schema(), opts), table.New(cl, f.events.Schema(), opts), ferryhook.ScaledProfile(), limited)
	u := mustUser(t, f.store, "lost@example.com")
	src := mustSource(t, f.store, u.UserID, "stripe")
	c := context.Background()
	ingest := func() error {
		_, err := s.Ingest(c, src.SourceID, ferryhook.IngestRequest{Body: "{}", ContentType: "application/json", Method: "POST"})
		return err
	}
	if err := ingest(); err != nil {
		t.Fatal(err)
	}
	sw.lose.Store(true)
	if err := ingest(); err == nil || errors.Is(err, ferryhook.ErrPlanLimit) {
		t.Fatalf("ingest with every answer lost: %v, want a failure that is not ErrPlanLimit", err)
	}
	sw.lose.Store(false)
	if sw.lost.Lost() == 0 {
		t.Fatal("no response lost")
	}
	if err := ingest(); err != nil {
		t.Fatal(err)
	}
	if err := ingest(); !errors.Is(err, ferryhook.ErrPlanLimit) {
		t.Errorf("fourth ingest: %v, want ErrPlanLimit (the lost one counted)", err)
	}
	stored := 0
	for _, err := range table.Every(c, f.store.Events.ListBySource, src.SourceID) {
		if err != nil {
			t.Fatal(err)
		}
		stored++
	}
	if stored != 3 {
		t.Errorf("%d events stored, want 3 (the lost one applied, the limit held)", stored)
	}
}
