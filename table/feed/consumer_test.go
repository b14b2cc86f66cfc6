package feed_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/tabletest"
)

// workload writes notes k0..k4 (each with a unique slug: guard records
// too), changes each twice and deletes k4: several records per key, whose
// order a consumer must keep.
func workload(t *testing.T, w world, prefix string) {
	t.Helper()
	ctx := context.Background()
	ids := []string{"k0", "k1", "k2", "k3", "k4"}
	for _, id := range ids {
		if err := w.notes.Create(ctx, &note{ID: prefix + id, Owner: "acct", Slug: prefix + id, Text: "v0", Token: "secret-" + id}); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []string{"v1", "v2"} {
		for _, id := range ids {
			if _, err := w.notes.Update(ctx, w.notes.Key(note{ID: prefix + id}), func(n *note) error { n.Text = v; return nil }); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.notes.Delete(ctx, w.notes.Key(note{ID: prefix + "k4"})); err != nil {
		t.Fatal(err)
	}
}

// recorder is a BatchHandler that keeps every record it is handed
// (the consumers' own checkpoint records apart), optionally through a
// hook deciding what a call returns.
type recorder struct {
	tbl  *table.Table
	mu   sync.Mutex
	got  []table.Record
	feed int // change-feed checkpoint records delivered
	// hook, if set, sees each record before it is kept; a non-nil error
	// ends the call with (handled so far + ret, err).
	hook func(ctx context.Context, i int, rec table.Record, seen int) (stop bool, n int, err error)
}

func (r *recorder) HandleBatch(ctx context.Context, b feed.Batch) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, rec := range b.Records {
		if cl := r.tbl.Classify(rec); cl.Kind == table.KindLibrary && cl.Library == table.FeedType {
			r.feed++
			continue
		}
		if r.hook != nil {
			if stop, n, err := r.hook(ctx, i, rec, len(r.got)); stop {
				return n, err
			}
		}
		r.got = append(r.got, rec)
	}
	return len(b.Records), nil
}

func (r *recorder) records() []table.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

func keyOf(rec table.Record) string {
	s := func(name string) string {
		if v, ok := rec.Keys[name].(*types.AttributeValueMemberS); ok {
			return v.Value
		}
		return ""
	}
	return s("PK") + "/" + s("SK")
}

// seqBefore says whether sequence number a is below b (decimal strings
// of any length).
func seqBefore(a, b string) bool {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// withoutFeed drops change-feed checkpoint records.
func withoutFeed(tbl *table.Table, recs []table.Record) []table.Record {
	return slices.DeleteFunc(slices.Clone(recs), func(r table.Record) bool {
		cl := tbl.Classify(r)
		return cl.Kind == table.KindLibrary && cl.Library == table.FeedType
	})
}

// checkDelivered checks that every record of want was delivered in got
// and, per key, first delivered in want's order; it returns the IDs
// delivered more than once, in want's order.
func checkDelivered(t *testing.T, want, got []table.Record) (twice []string) {
	t.Helper()
	count := map[string]int{}
	var firsts []table.Record
	for _, r := range got {
		if count[r.ID]++; count[r.ID] == 1 {
			firsts = append(firsts, r)
		}
	}
	wantIDs := map[string]bool{}
	for _, r := range want {
		wantIDs[r.ID] = true
		if count[r.ID] == 0 {
			t.Errorf("record %s (%s %s) never delivered", r.ID, r.Op, keyOf(r))
		}
		if count[r.ID] > 1 {
			twice = append(twice, r.ID)
		}
	}
	for _, r := range got {
		if !wantIDs[r.ID] {
			t.Errorf("record %s (%s %s) delivered but not in the stream's records", r.ID, r.Op, keyOf(r))
		}
	}
	perKey := func(recs []table.Record) map[string][]string {
		m := map[string][]string{}
		for _, r := range recs {
			m[keyOf(r)] = append(m[keyOf(r)], r.ID)
		}
		return m
	}
	wk, gk := perKey(want), perKey(firsts)
	for k, ids := range wk {
		if !slices.Equal(ids, gk[k]) {
			t.Errorf("key %s: delivered in order %v, want %v", k, gk[k], ids)
		}
	}
	return twice
}

// streamFault answers requests of the Streams API (or DynamoDB) at the
// HTTP layer in front of DynamoDB Local, so the SDK's retryer and error
// parsing see what AWS would send: after letting After calls of Op
// through, the next Times calls get the error Code, or with Lose, reach
// DynamoDB Local and have their real answer thrown away (an HTTP 500),
// after which the SDK sends them again.
type streamFault struct {
	Op, Code    string
	Lose        bool
	After       int64
	Times       int64
	seen, faced atomic.Int64
}

// faults is an HTTP client applying each fault.
type faults []*streamFault

func (fs faults) Do(r *http.Request) (*http.Response, error) {
	for _, f := range fs {
		if !strings.HasSuffix(r.Header.Get("X-Amz-Target"), "."+f.Op) {
			continue
		}
		if f.seen.Add(1) <= f.After || f.faced.Load() >= f.Times {
			break
		}
		f.faced.Add(1)
		if f.Lose {
			resp, err := http.DefaultTransport.RoundTrip(r)
			if err != nil {
				return nil, err
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return errorResponse(r, 500, "InternalServerError"), nil
		}
		return errorResponse(r, 400, f.Code), nil
	}
	return http.DefaultTransport.RoundTrip(r)
}

func errorResponse(r *http.Request, status int, code string) *http.Response {
	body := fmt.Sprintf(`{"__type":"com.amazonaws.dynamodb.v20120810#%s","message":"injected by the test"}`, code)
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body: io.NopCloser(bytes.NewBufferString(body)), Request: r}
}

// quiet gives a second handle on a test's table a cursor key (it pages
// nothing), which silences the library's warning about a random one.
func quiet(o *table.Options) { o.CursorKey = make([]byte, 32) }

// streamsWith returns a Streams API client of tbl's DynamoDB Local whose
// requests go through hc.
func streamsWith(tbl *table.Table, hc faults) *dynamodbstreams.Client {
	return dynamodbstreams.New(feed.StreamsClient(tbl.Client()).Options(), func(o *dynamodbstreams.Options) {
		o.HTTPClient, o.Retryer = hc, quickRetryer()
	})
}

// quickRetryer is the SDK's standard retryer (3 attempts, throttling and
// server errors retried) with waits of at most 20 ms instead of 20 s, so
// the tests of faults run in well under a second each.
func quickRetryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) { o.MaxBackoff = 20 * time.Millisecond })
}

// quickRetries gives a DynamoDB client the quick retryer.
func quickRetries(o *dynamodb.Options) { o.Retryer = quickRetryer() }

// A consumer from the trim horizon delivers every record; one from the
// latest record only what is written after it starts; both continue
// where they stopped, and a new consumer of an existing name resumes
// after its checkpoint whatever its Start says.
func TestConsumerTrimHorizonAndLatest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	workload(t, w, "a")
	before := readAll(t, w.tbl)
	th := &recorder{tbl: w.tbl}
	lt := &recorder{tbl: w.tbl}
	cth := &feed.Consumer{Table: w.tbl, Name: "th", Handler: th}
	clt := &feed.Consumer{Table: w.tbl, Name: "latest", Handler: lt, Start: feed.Latest}
	for _, c := range []*feed.Consumer{cth, clt} {
		if err := c.CatchUp(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if twice := checkDelivered(t, before, th.records()); len(twice) > 0 {
		t.Errorf("trim horizon: delivered twice %v", twice)
	}
	if got := lt.records(); len(got) != 0 {
		t.Errorf("latest: %d records delivered before any write after it started", len(got))
	}
	workload(t, w, "b")
	after := withoutFeed(w.tbl, readAll(t, w.tbl))[len(before):]
	for _, c := range []*feed.Consumer{cth, clt} {
		if err := c.CatchUp(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if twice := checkDelivered(t, after, lt.records()); len(twice) > 0 {
		t.Errorf("latest: delivered twice %v", twice)
	}
	if twice := checkDelivered(t, append(slices.Clone(before), after...), th.records()); len(twice) > 0 {
		t.Errorf("trim horizon, second CatchUp: delivered twice %v", twice)
	}
	// A new consumer named "latest" resumes after the checkpoint: Start
	// applies only to a consumer with no checkpoint at all.
	workload(t, w, "c")
	all := withoutFeed(w.tbl, readAll(t, w.tbl))
	third := all[len(before)+len(after):]
	again := &recorder{tbl: w.tbl}
	if err := (&feed.Consumer{Table: w.tbl, Name: "latest", Handler: again, Start: feed.Latest}).CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if twice := checkDelivered(t, third, again.records()); len(twice) > 0 {
		t.Errorf("restarted latest: delivered twice %v", twice)
	}
}

// A consumer stopped mid-way (its context cancelled by the handler after
// n records) and started again delivers every record, in order per key:
// when the handler reported what it handled, none twice; when it was
// killed without reporting (returning 0), exactly the records of the
// in-flight batch it had seen are delivered again.
func TestConsumerRestart(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	workload(t, w, "")
	want := readAll(t, w.tbl)
	const batch, stopAfter = 4, 7 // the 7th record is the 3rd of the 2nd batch
	for _, tc := range []struct {
		name     string
		reported bool
	}{{"reported", true}, {"killed", false}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var inflight []string // the records of the stopping batch the handler saw
			first := &recorder{tbl: w.tbl}
			first.hook = func(_ context.Context, i int, rec table.Record, seen int) (bool, int, error) {
				if seen < stopAfter-1 {
					return false, 0, nil
				}
				if seen == stopAfter-1 {
					for _, r := range first.got[len(first.got)-i:] {
						inflight = append(inflight, r.ID)
					}
					inflight = append(inflight, rec.ID)
					first.got = append(first.got, rec)
					cancel()
					if tc.reported {
						return true, i + 1, context.Canceled
					}
					return true, 0, context.Canceled
				}
				return true, 0, errors.New("handler called after the stop")
			}
			c1 := &feed.Consumer{Table: w.tbl, Name: tc.name, Handler: first, BatchSize: batch, Poll: 10 * time.Millisecond}
			if err := c1.Run(ctx); err != nil {
				t.Fatalf("Run after cancel: %v, want nil", err)
			}
			if n := len(first.records()); n != stopAfter {
				t.Fatalf("first consumer handled %d records, want %d", n, stopAfter)
			}
			second := &recorder{tbl: w.tbl}
			c2 := &feed.Consumer{Table: w.tbl, Name: tc.name, Handler: second, BatchSize: batch}
			if err := c2.CatchUp(context.Background()); err != nil {
				t.Fatal(err)
			}
			twice := checkDelivered(t, want, append(first.records(), second.records()...))
			wantTwice := []string(nil)
			if !tc.reported {
				wantTwice = inflight
			}
			if !slices.Equal(twice, wantTwice) {
				t.Errorf("delivered twice %v, want %v", twice, wantTwice)
			}
			if !tc.reported && len(inflight) != stopAfter-batch {
				t.Errorf("in-flight batch seen %v: want the %d records after the first batch", inflight, stopAfter-batch)
			}
		})
	}
}

// A handler's error is retried Attempts times, then returned as a
// *table.RecordError naming the record, with the checkpoint at the last
// record handled (the records before it in the batch, which the handler
// reported); a consumer of the same name resumes at the failing record.
// An error that clears up within Attempts is only a delay.
func TestConsumerHandlerError(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	workload(t, w, "")
	want := readAll(t, w.tbl)
	ctx := context.Background()
	// The failing record: the second change of k2, in the middle of a batch.
	bad, mods := -1, 0
	for i, r := range want {
		if r.Op == "MODIFY" && keyOf(r) == "NOTE#k2/NOTE" {
			if mods++; mods == 2 {
				bad = i
			}
		}
	}
	if bad < 1 {
		t.Fatal("no second change of k2 in the stream")
	}
	boom := errors.New("boom")
	calls := 0
	h := &recorder{tbl: w.tbl}
	h.hook = func(_ context.Context, i int, rec table.Record, _ int) (bool, int, error) {
		if rec.ID == want[bad].ID {
			calls++
			return true, i, boom
		}
		return false, 0, nil
	}
	c := &feed.Consumer{Table: w.tbl, Name: "failing", Handler: h, Attempts: 3, Backoff: time.Millisecond}
	err := c.CatchUp(ctx)
	var re *table.RecordError
	if !errors.Is(err, boom) || !errors.As(err, &re) || re.ID != want[bad].ID || re.Sequence != want[bad].Sequence || re.Entity != "Note" {
		t.Fatalf("CatchUp: %v, want boom as a RecordError naming record %s", err, want[bad].ID)
	}
	if calls != 3 {
		t.Errorf("the failing record was handed %d times, want Attempts (3)", calls)
	}
	cps, err := c.Checkpoints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if cp := cps[want[bad].Shard]; cp.Sequence != want[bad-1].Sequence || cp.Done {
		t.Errorf("checkpoint %+v, want at %s (the record before the failing one)", cp, want[bad-1].Sequence)
	}
	if got := h.records(); !slices.EqualFunc(got, want[:bad], func(a, b table.Record) bool { return a.ID == b.ID }) {
		t.Errorf("handled %d records before the failure, want the %d before it", len(got), bad)
	}
	// A consumer of the same name resumes at the failing record.
	next := &recorder{tbl: w.tbl}
	if err := (&feed.Consumer{Table: w.tbl, Name: "failing", Handler: next}).CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if got := next.records(); len(got) == 0 || got[0].ID != want[bad].ID {
		t.Errorf("resumed at %v, want the failing record %s", got, want[bad].ID)
	}
	if twice := checkDelivered(t, want, append(h.records(), next.records()...)); len(twice) > 0 {
		t.Errorf("delivered twice %v", twice)
	}

	// Two failures, then success: everything handled, the record three times.
	flaky := &recorder{tbl: w.tbl}
	fails := 0
	flaky.hook = func(_ context.Context, i int, rec table.Record, _ int) (bool, int, error) {
		if rec.ID == want[bad].ID && fails < 2 {
			fails++
			return true, i, boom
		}
		return false, 0, nil
	}
	if err := (&feed.Consumer{Table: w.tbl, Name: "flaky", Handler: flaky, Attempts: 3, Backoff: time.Millisecond}).CatchUp(ctx); err != nil {
		t.Fatalf("a handler error that clears within Attempts: %v", err)
	}
	if twice := checkDelivered(t, want, flaky.records()); len(twice) > 0 {
		t.Errorf("flaky: kept twice %v", twice)
	}
}

// The consumer's own checkpoint writes are records of the stream: a batch
// of nothing else is not checkpointed, so a consumer following a quiet
// table writes no checkpoint after its first, and two consumers do not
// feed each other checkpoint writes.
func TestConsumerNoCheckpointLoop(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	workload(t, w, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	recs := []*recorder{{tbl: w.tbl}, {tbl: w.tbl}}
	for i, r := range recs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &feed.Consumer{Table: w.tbl, Name: fmt.Sprint("c", i), Handler: r, Poll: 20 * time.Millisecond}
			if err := c.Run(ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	seen := func(r *recorder) int {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.feed
	}
	// Each consumer handles the workload, writes one checkpoint, then sees
	// both checkpoint records; then they poll on, a second at least.
	for deadline := time.Now().Add(time.Minute); seen(recs[0]) < 2 || seen(recs[1]) < 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after a minute the consumers saw %d and %d checkpoint records, want 2 each", seen(recs[0]), seen(recs[1]))
		}
	}
	time.Sleep(time.Second)
	cancel()
	wg.Wait()
	all := readAll(t, w.tbl)
	if n := len(all) - len(withoutFeed(w.tbl, all)); n != 2 {
		t.Errorf("%d checkpoint records in the stream after a second more of two consumers polling every 20 ms, want 2", n)
	}
	for i, r := range recs {
		if n := seen(r); n != 2 {
			t.Errorf("consumer %d saw %d checkpoint records, want 2", i, n)
		}
	}
}

// Two consumers of one Name running at once (a deployment's second
// instance, a rolling restart) each deliver every record, in order per
// key; their checkpoint keeps the furthest position, so a consumer of the
// same name started after them delivers nothing again.
func TestConsumerTwoOfOneName(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	workload(t, w, "")
	want := withoutFeed(w.tbl, readAll(t, w.tbl))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	recs := []*recorder{{tbl: w.tbl}, {tbl: w.tbl}}
	for _, r := range recs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &feed.Consumer{Table: w.tbl, Name: "shared", Handler: r, BatchSize: 3, Poll: 20 * time.Millisecond}
			if err := c.Run(ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	for deadline := time.Now().Add(time.Minute); len(recs[0].records()) < len(want) || len(recs[1].records()) < len(want); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after a minute the consumers delivered %d and %d of %d records", len(recs[0].records()), len(recs[1].records()), len(want))
		}
	}
	cancel()
	wg.Wait()
	for i, r := range recs {
		if twice := checkDelivered(t, want, r.records()); len(twice) > 0 {
			t.Errorf("consumer %d delivered %v twice", i, twice)
		}
	}
	after := &recorder{tbl: w.tbl}
	if err := (&feed.Consumer{Table: w.tbl, Name: "shared", Handler: after}).CatchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := after.records(); len(got) != 0 {
		t.Errorf("a consumer of the same name started after them delivered %d records again, want none (first %s %s)", len(got), got[0].Op, keyOf(got[0]))
	}
}

// Faults of the Streams API and of the checkpoint writes, injected in
// front of DynamoDB Local: each leaves every record delivered, in order
// per key, exactly once.
func TestConsumerFaults(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	workload(t, w, "")
	want := readAll(t, w.tbl)
	for _, tc := range []struct {
		name   string
		faults faults
		// retried says the consumer itself (beyond the SDK) retried.
		retried bool
	}{
		{"expired iterator", faults{{Op: "GetRecords", Code: "ExpiredIteratorException", After: 1, Times: 2}}, false},
		{"GetRecords throttled", faults{{Op: "GetRecords", Code: "LimitExceededException", Times: 4}}, true},
		{"GetRecords throttled (ProvisionedThroughputExceeded)", faults{{Op: "GetRecords", Code: "ProvisionedThroughputExceededException", After: 1, Times: 4}}, true},
		{"DescribeStream throttled", faults{{Op: "DescribeStream", Code: "ThrottlingException", Times: 4}}, true},
		{"GetRecords response lost", faults{{Op: "GetRecords", Lose: true, After: 1, Times: 2}}, false},
		{"GetShardIterator throttled", faults{{Op: "GetShardIterator", Code: "LimitExceededException", Times: 4}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := &recorder{tbl: w.tbl}
			c := &feed.Consumer{Table: w.tbl, Name: tc.name, Handler: got, BatchSize: 5,
				Streams: streamsWith(w.tbl, tc.faults), Backoff: 5 * time.Millisecond}
			if err := c.CatchUp(context.Background()); err != nil {
				t.Fatal(err)
			}
			if twice := checkDelivered(t, want, got.records()); len(twice) > 0 {
				t.Errorf("delivered twice %v", twice)
			}
			for _, f := range tc.faults {
				if f.faced.Load() != f.Times {
					t.Errorf("%s: %d faults injected, want %d", f.Op, f.faced.Load(), f.Times)
				}
			}
			if tc.retried != (c.Retries() > 0) {
				t.Errorf("consumer retries %d, want some: %v", c.Retries(), tc.retried)
			}
			cps, err := c.Checkpoints(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			// At the last record, or past it: the other subtests' checkpoint
			// records follow in the same stream.
			if cp := cps[want[len(want)-1].Shard]; seqBefore(cp.Sequence, want[len(want)-1].Sequence) {
				t.Errorf("checkpoint %+v, want at the last record %s or after", cp, want[len(want)-1].Sequence)
			}
		})
	}

	// A checkpoint write throttled past the SDK's retries is retried by
	// the consumer; one refused for good stops it with ErrCheckpoint, and
	// the next run delivers again exactly the batch it could not record.
	t.Run("checkpoint write throttled", func(t *testing.T) {
		t.Parallel()
		f := &tabletest.Errors{Op: "PutItem", Code: "ProvisionedThroughputExceededException", Times: 5}
		faulty := table.New(tabletest.NewClient(t, f.Option(), quickRetries), w.tbl.Schema(), quiet)
		got := &recorder{tbl: w.tbl}
		c := &feed.Consumer{Table: faulty, Name: "cp-throttled", Handler: got, BatchSize: 5, Backoff: 5 * time.Millisecond}
		if err := c.CatchUp(context.Background()); err != nil {
			t.Fatal(err)
		}
		if twice := checkDelivered(t, want, got.records()); len(twice) > 0 {
			t.Errorf("delivered twice %v", twice)
		}
		if c.Retries() == 0 || f.Calls() <= 5 {
			t.Errorf("retries %d, PutItem calls %d: want the consumer to retry past the SDK", c.Retries(), f.Calls())
		}
	})
	t.Run("checkpoint write response lost", func(t *testing.T) {
		t.Parallel()
		// The first write lands, its answer is lost and the SDK sends it
		// again: the condition admits the same position.
		f := &tabletest.LostResponses{Op: "PutItem", Times: 2}
		faulty := table.New(tabletest.NewClient(t, f.Option(), quickRetries), w.tbl.Schema(), quiet)
		got := &recorder{tbl: w.tbl}
		c := &feed.Consumer{Table: faulty, Name: "cp-lost", Handler: got, BatchSize: 5}
		if err := c.CatchUp(context.Background()); err != nil {
			t.Fatal(err)
		}
		if twice := checkDelivered(t, want, got.records()); len(twice) > 0 {
			t.Errorf("delivered twice %v", twice)
		}
		if f.Lost() != 2 {
			t.Errorf("%d responses lost, want 2", f.Lost())
		}
	})
	t.Run("checkpoint write refused", func(t *testing.T) {
		t.Parallel()
		// The second checkpoint write (after the second batch) is refused.
		refuse := faults{{Op: "PutItem", Code: "AccessDeniedException", After: 1, Times: 1}}
		faulty := table.New(tabletest.NewClient(t, func(o *dynamodb.Options) { o.HTTPClient = refuse }, quickRetries), w.tbl.Schema(), quiet)
		first := &recorder{tbl: w.tbl}
		c := &feed.Consumer{Table: faulty, Name: "cp-refused", Handler: first, BatchSize: 5}
		err := c.CatchUp(context.Background())
		if !errors.Is(err, feed.ErrCheckpoint) {
			t.Fatalf("CatchUp: %v, want ErrCheckpoint", err)
		}
		if n := len(first.records()); n != 10 {
			t.Fatalf("handled %d records before the refused checkpoint, want 2 batches of 5", n)
		}
		second := &recorder{tbl: w.tbl}
		if err := (&feed.Consumer{Table: w.tbl, Name: "cp-refused", Handler: second, BatchSize: 5}).CatchUp(context.Background()); err != nil {
			t.Fatal(err)
		}
		twice := checkDelivered(t, want, append(first.records(), second.records()...))
		var batch2 []string
		for _, r := range want[5:10] {
			batch2 = append(batch2, r.ID)
		}
		if !slices.Equal(twice, batch2) {
			t.Errorf("delivered twice %v, want the second batch %v", twice, batch2)
		}
	})
}

// A checkpoint older than the stream's retention (a consumer down for
// more than 24 hours on AWS) gets TrimmedDataAccessException: the consumer
// continues at the trim horizon, delivering what the stream still holds
// (DynamoDB Local trims nothing: the answer is injected).
func TestConsumerTrimmedCheckpoint(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	workload(t, w, "a")
	if err := (&feed.Consumer{Table: w.tbl, Name: "trimmed", Handler: &recorder{tbl: w.tbl}}).CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	workload(t, w, "b")
	want := withoutFeed(w.tbl, readAll(t, w.tbl))
	trim := faults{{Op: "GetShardIterator", Code: "TrimmedDataAccessException", Times: 1}}
	got := &recorder{tbl: w.tbl}
	if err := (&feed.Consumer{Table: w.tbl, Name: "trimmed", Handler: got, Streams: streamsWith(w.tbl, trim)}).CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if trim[0].faced.Load() != 1 {
		t.Fatalf("%d faults injected, want 1", trim[0].faced.Load())
	}
	// Everything the stream holds, from its start, once.
	if twice := checkDelivered(t, want, got.records()); len(twice) > 0 {
		t.Errorf("delivered twice %v", twice)
	}
}
