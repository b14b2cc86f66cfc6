package ferryhook_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
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

// faultyHTTP is an HTTP client for the SDK that, for requests of op,
// answers every ThrottleEvery-th with a throttle (which the SDK retries)
// and every ConflictEvery-th transaction with a TransactionConflict
// cancellation (which the engine retries), and passes the rest to Lost
// (tabletest.LostResponses: applied, response thrown away, resent by the
// SDK).
type faultyHTTP struct {
	op                           string
	throttleEvery, conflictEvery int64
	lost                         *tabletest.LostResponses
	seen, throttled, conflicts   atomic.Int64
}

func (f *faultyHTTP) Option() func(*dynamodb.Options) {
	return func(o *dynamodb.Options) { o.HTTPClient = f }
}

func (f *faultyHTTP) Do(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.Header.Get("X-Amz-Target"), "."+f.op) {
		n := f.seen.Add(1)
		answer := func(body string) (*http.Response, error) {
			return &http.Response{StatusCode: 400, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
				Body: io.NopCloser(bytes.NewBufferString(body)), Request: r}, nil
		}
		switch {
		case f.throttleEvery > 0 && n%f.throttleEvery == 0:
			f.throttled.Add(1)
			return answer(`{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"injected throttle"}`)
		case f.conflictEvery > 0 && n%f.conflictEvery == 0 && f.op == "TransactWriteItems":
			f.conflicts.Add(1)
			body, _ := io.ReadAll(r.Body)
			reasons := strings.Repeat(`{"Code":"TransactionConflict","Message":"conflict"},`, strings.Count(string(body), `"TableName"`))
			return answer(`{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","Message":"Transaction cancelled","CancellationReasons":[` + strings.TrimSuffix(reasons, ",") + `]}`)
		}
	}
	return f.lost.Do(r)
}

// storedEventIDs lists every event of source (FH-7) and fails t on one
// listed twice.
func storedEventIDs(t *testing.T, s *ferryhook.Store, source fh.SourceID) map[fh.EventID]bool {
	t.Helper()
	out := map[fh.EventID]bool{}
	for ev, err := range table.Every(context.Background(), s.Events.ListBySource, source, table.Limit(500)) {
		if err != nil {
			t.Fatal(err)
		}
		if out[ev.EventID] {
			t.Errorf("event %s listed twice", ev.EventID)
		}
		out[ev.EventID] = true
	}
	return out
}

// checkCounts fails t unless the source's exact count and the owner's
// usage (FH-13, FH-14) equal want.
func checkCounts(t *testing.T, s *ferryhook.Store, user fh.UserID, source fh.SourceID, want int, when string) {
	t.Helper()
	c := context.Background()
	cnt, err := s.Sources.Counts(c, user, source)
	if err != nil {
		t.Fatal(err)
	}
	usage, err := s.Users.Usage(c, user)
	if err != nil {
		t.Fatal(err)
	}
	if cnt.EventCount != int64(want) || usage != int64(want) {
		t.Errorf("%s: eventCount %d, usageThisMonth %d, want %d (the events stored)", when, cnt.EventCount, usage, want)
	}
}

// Group commit under faults (issue 44, FH-12): 256 concurrent ingests
// into one source in the scaled profile, their transactions' responses
// lost (the SDK resends them with their idempotency tokens), throttled
// (the SDK retries) and canceled by conflicts (the engine retries): every
// ingest succeeds, its event is stored once, and the counts equal the
// events stored.
func TestGroupCommitFaults_FH12(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, ferryhook.ScaledProfile())
	u := mustUser(t, f.store, "groupfaults@example.com")
	src := mustSource(t, f.store, u.UserID, "stripe")
	faults := &faultyHTTP{op: "TransactWriteItems", throttleEvery: 5, conflictEvery: 7, lost: &tabletest.LostResponses{Op: "TransactWriteItems", Times: 2, After: 1}}
	client := tabletest.NewClient(t, faults.Option())
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	s := ferryhook.New(table.New(client, f.main.Schema(), withCipher), table.New(client, f.events.Schema(), withCipher), ferryhook.ScaledProfile())
	c, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var mu sync.Mutex
	returned := map[fh.EventID]bool{}
	for round := range 4 {
		var wg sync.WaitGroup
		for range 64 {
			wg.Go(func() {
				ev, err := s.Ingest(c, src.SourceID, ferryhook.IngestRequest{Body: scaleBody, Headers: scaleHeaders, ContentType: "application/json", Method: "POST"})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err != nil:
					t.Errorf("round %d: ingest: %v", round, err)
				case returned[ev.EventID]:
					t.Errorf("event %s returned twice", ev.EventID)
				case ev.ByKey != true:
					t.Errorf("event %s not marked byKey in the scaled profile", ev.EventID)
				}
				returned[ev.EventID] = true
			})
		}
		wg.Wait()
	}
	if faults.lost.Lost() != 2 || faults.throttled.Load() == 0 || faults.conflicts.Load() == 0 {
		t.Errorf("faults injected: %d lost, %d throttled, %d conflicts; want 2 and some of each", faults.lost.Lost(), faults.throttled.Load(), faults.conflicts.Load())
	}
	txs := faults.seen.Load()
	stored := storedEventIDs(t, f.store, src.SourceID)
	if len(stored) != len(returned) {
		t.Errorf("%d events stored, %d ingests succeeded", len(stored), len(returned))
	}
	for id := range returned {
		if !stored[id] {
			t.Errorf("event %s returned but not stored", id)
		}
	}
	checkCounts(t, f.store, u.UserID, src.SourceID, len(stored), "after faults")
	t.Logf("256 ingests in %d transaction attempts (%d lost, %d throttled, %d conflicts): %.1f events a transaction", txs, faults.lost.Lost(), faults.throttled.Load(), faults.conflicts.Load(), 256/float64(txs))
}

// streamFixture is a store in the stream-counted profile on tables with
// a stream, and the events table.
func streamFixture(t *testing.T, opts ...func(*ferryhook.Options)) fixture {
	t.Helper()
	return newFixture(t, []table.SchemaOption{table.WithStream(types.StreamViewTypeNewAndOldImages)}, append([]func(*ferryhook.Options){ferryhook.StreamCountedProfile()}, opts...)...)
}

// moreRetries gives the SDK's retryer 8 attempts (3 by default): the
// faults injected here (lost responses and throttles one after another)
// must not exhaust a request's retries, which would fail a call whose
// write was applied (an outcome Ingest's doc states, not the one tested).
func moreRetries(o *dynamodb.Options) { o.RetryMaxAttempts = 8 }

// errCrash is a consumer's crash after a batch was applied and before it
// was acknowledged.
var errCrash = errors.New("consumer crashed")

// The stream route under faults (issue 44, FH-16): ingests whose PutItem
// responses are lost (recognised by their write tokens) or throttled; a
// consumer whose UpdateItem responses are lost and throttled, that
// crashes after applying a batch it never acknowledged and is restarted
// (a new Consumer on the same checkpoints, which delivers that batch
// again): the counts equal the events stored, and every ingest that
// returned success stored its event once.
func TestStreamCountsFaults_FH16(t *testing.T) {
	t.Parallel()
	f := streamFixture(t)
	u := mustUser(t, f.store, "streamfaults@example.com")
	src := mustSource(t, f.store, u.UserID, "stripe")
	putFaults := &faultyHTTP{op: "PutItem", throttleEvery: 5, lost: &tabletest.LostResponses{Op: "PutItem", Times: 3, After: 2}}
	client := tabletest.NewClient(t, putFaults.Option(), moreRetries)
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	s := ferryhook.New(table.New(client, f.main.Schema(), withCipher), table.New(client, f.events.Schema(), withCipher), ferryhook.StreamCountedProfile())
	c, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	returned := map[fh.EventID]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 12 {
				ev, err := s.Ingest(c, src.SourceID, ferryhook.IngestRequest{Body: scaleBody, Headers: scaleHeaders, ContentType: "application/json", Method: "POST"})
				mu.Lock()
				if err != nil {
					t.Errorf("ingest: %v", err)
				} else {
					returned[ev.EventID] = true
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if putFaults.lost.Lost() != 3 || putFaults.throttled.Load() == 0 {
		t.Errorf("ingest faults: %d lost, %d throttled; want 3 and some", putFaults.lost.Lost(), putFaults.throttled.Load())
	}

	// The consumer: its writes lost and throttled; it crashes after
	// applying its third batch, before acknowledging it.
	applyFaults := &faultyHTTP{op: "UpdateItem", throttleEvery: 4, lost: &tabletest.LostResponses{Op: "UpdateItem", Times: 2, After: 1}}
	cc := tabletest.NewClient(t, applyFaults.Option(), moreRetries)
	cs := ferryhook.New(table.New(cc, f.main.Schema(), withCipher), table.New(cc, f.events.Schema(), withCipher), ferryhook.StreamCountedProfile())
	h := cs.CountsHandler()
	batches := 0
	crashing := feed.BatchFunc(func(ctx context.Context, b feed.Batch) (int, error) {
		n, err := h.HandleBatch(ctx, b)
		if err != nil {
			return n, err
		}
		if batches++; batches == 3 {
			return 0, errCrash
		}
		return n, nil
	})
	first := &feed.Consumer{Table: f.events, Name: "ferryhook-counts", Handler: crashing, BatchSize: 10, Attempts: 1, Backoff: time.Millisecond}
	if err := first.CatchUp(c); !errors.Is(err, errCrash) {
		t.Fatalf("the first consumer: %v, want its crash", err)
	}
	mid, err := f.store.Sources.Counts(c, u.UserID, src.SourceID)
	if err != nil {
		t.Fatal(err)
	}
	restarted := &feed.Consumer{Table: f.events, Name: "ferryhook-counts", Handler: h, BatchSize: 10, Backoff: time.Millisecond}
	if err := restarted.CatchUp(c); err != nil {
		t.Fatal(err)
	}
	if applyFaults.lost.Lost() != 2 || applyFaults.throttled.Load() == 0 {
		t.Errorf("consumer faults: %d lost, %d throttled; want 2 and some", applyFaults.lost.Lost(), applyFaults.throttled.Load())
	}
	stored := storedEventIDs(t, f.store, src.SourceID)
	for id := range returned {
		if !stored[id] {
			t.Errorf("event %s returned but not stored", id)
		}
	}
	if len(stored) != len(returned) {
		t.Errorf("%d events stored, %d ingests returned success", len(stored), len(returned))
	}
	checkCounts(t, f.store, u.UserID, src.SourceID, len(stored), "after the consumer's crash and restart")
	t.Logf("%d events; %d counted when the first consumer crashed (3 batches of 10 applied, the third unacknowledged)", len(stored), mid.EventCount)
	if mid.EventCount != 30 {
		t.Errorf("%d counted when the first consumer crashed, want 30 (its three batches of 10)", mid.EventCount)
	}
}

// The stream route's bounds (issue 44, FH-16), tested at the bound: a
// source paused or deleted by another store takes events for up to
// Options.StateCheck after the change, then none; the store that pauses
// it refuses at once; a plan changed elsewhere sets the retention of
// events from StateCheck on; the counts follow the stream and equal the
// events stored once the consumer caught up.
func TestStreamCountsBounds_FH16(t *testing.T) {
	t.Parallel()
	var now atomic.Int64
	now.Store(time.Now().UnixNano())
	clock := func(o *table.Options) { o.Now = func() time.Time { return time.Unix(0, now.Load()) } }
	f := newFixtureWith(t, []table.SchemaOption{table.WithStream(types.StreamViewTypeNewAndOldImages)}, []func(*table.Options){clock}, ferryhook.StreamCountedProfile())
	other := ferryhook.New(f.main, f.events, ferryhook.StreamCountedProfile())
	u := mustUser(t, f.store, "bounds@example.com")
	src := mustSource(t, f.store, u.UserID, "stripe")
	c := context.Background()
	ingest := func(s *ferryhook.Store) (fh.Event, error) {
		return s.Ingest(c, src.SourceID, ferryhook.IngestRequest{Body: "{}", ContentType: "application/json", Method: "POST"})
	}
	advance := func(d time.Duration) { now.Add(int64(d)) }
	if _, err := ingest(f.store); err != nil { // remembers the source, active
		t.Fatal(err)
	}
	// The plan, changed by another store: within StateCheck the old
	// retention, after it the new.
	pro := fh.PlanPro
	if _, err := other.Users.Update(c, u.UserID, ferryhook.UserUpdate{Plan: &pro}); err != nil {
		t.Fatal(err)
	}
	advance(900 * time.Millisecond)
	ev, err := ingest(f.store)
	if err != nil || ev.ExpiresAt != fh.PlanFree.ExpiresAt(ev.ReceivedAt) {
		t.Errorf("within StateCheck of a plan change: %v, expiresAt %d, want the free retention %d (the bound)", err, ev.ExpiresAt, fh.PlanFree.ExpiresAt(ev.ReceivedAt))
	}
	advance(200 * time.Millisecond)
	ev, err = ingest(f.store)
	if err != nil || ev.ExpiresAt != fh.PlanPro.ExpiresAt(ev.ReceivedAt) {
		t.Errorf("past StateCheck of a plan change: %v, expiresAt %d, want the pro retention %d", err, ev.ExpiresAt, fh.PlanPro.ExpiresAt(ev.ReceivedAt))
	}
	// Paused by another store: taken within StateCheck, refused after.
	if _, err := other.Sources.Update(c, u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusPaused)}); err != nil {
		t.Fatal(err)
	}
	advance(900 * time.Millisecond)
	if _, err := ingest(f.store); err != nil {
		t.Errorf("within StateCheck of a pause elsewhere: %v, want the event taken (the bound)", err)
	}
	advance(200 * time.Millisecond)
	if _, err := ingest(f.store); !errors.Is(err, ferryhook.ErrSourcePaused) {
		t.Errorf("past StateCheck of a pause elsewhere: %v, want ErrSourcePaused", err)
	}
	// Resumed and paused by the ingesting store itself: refused at once.
	if _, err := f.store.Sources.Update(c, u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusActive)}); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest(f.store); err != nil {
		t.Errorf("after its own resume: %v", err)
	}
	if _, err := f.store.Sources.Update(c, u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusPaused)}); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest(f.store); !errors.Is(err, ferryhook.ErrSourcePaused) {
		t.Errorf("right after its own pause: %v, want ErrSourcePaused", err)
	}
	// Deleted by another store: taken within StateCheck, refused after.
	if _, err := f.store.Sources.Update(c, u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusActive)}); err != nil {
		t.Fatal(err)
	}
	if _, err := ingest(f.store); err != nil {
		t.Fatal(err)
	}
	if err := other.Sources.Delete(c, u.UserID, src.SourceID); err != nil {
		t.Fatal(err)
	}
	advance(900 * time.Millisecond)
	if _, err := ingest(f.store); err != nil {
		t.Errorf("within StateCheck of a delete elsewhere: %v, want the event taken (the bound)", err)
	}
	advance(200 * time.Millisecond)
	if _, err := ingest(f.store); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("past StateCheck of a delete elsewhere: %v, want ErrNotFound", err)
	}
	// Counted from the stream: nothing before the consumer, then the
	// events stored (read as the store's items: the source is deleted).
	cons := &feed.Consumer{Table: f.events, Name: "ferryhook-counts", Handler: f.store.CountsHandler()}
	if err := cons.CatchUp(c); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range table.Every(c, f.store.Events.ListBySource, src.SourceID) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	usage, err := f.store.Users.Usage(c, u.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if n != 7 || usage != int64(n) {
		t.Errorf("%d events stored, usage %d, want 7 each", n, usage)
	}
	fmt.Fprint(io.Discard, n)
}
