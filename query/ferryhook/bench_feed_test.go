package ferryhook_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/tabletest"
)

// BenchmarkFeedKeepsUp runs Ferryhook's ingest as the workload does
// (8 concurrent ingests into one source, 1.8 KB bodies, the default
// profile) on an events table with a NEW_AND_OLD_IMAGES stream, while a
// feed.Consumer follows that stream and routes every record to a typed
// handler of fh.Event. It reports the ingest rate, the rate the consumer
// handled events at, the lag of each event (from its receivedAt to its
// handler: p50, p99, max) and the most events written but not yet handled
// (sampled every 20 ms). Each iteration is one run of 3,000 events.
func BenchmarkFeedKeepsUp(b *testing.B) {
	const events, writers = 3000, 8
	body := strings.Repeat("x", 1800)
	for b.Loop() {
		b.StopTimer()
		f := newBenchFixture(b)
		u, err := f.store.Users.Create(context.Background(), ferryhook.CreateUserInput{Email: fmt.Sprintf("lag%d@example.com", time.Now().UnixNano()), Name: "Ada", PasswordHash: bcryptHash})
		if err != nil {
			b.Fatal(err)
		}
		src, err := f.store.Sources.Create(context.Background(), u.UserID, ferryhook.CreateSourceInput{Name: "lag", Provider: fh.ProviderStripe, SigningSecret: "whsec_test"})
		if err != nil {
			b.Fatal(err)
		}
		var handled atomic.Int64
		var mu sync.Mutex
		var lags []time.Duration
		r := feed.NewRouter(f.events)
		feed.HandleType(r, func(_ context.Context, c table.ItemChange[fh.Event]) error {
			if c.Event == table.Created && c.New != nil {
				lag := time.Since(time.UnixMilli(int64(c.New.ReceivedAt)))
				mu.Lock()
				lags = append(lags, lag)
				mu.Unlock()
				handled.Add(1)
			}
			return nil
		})
		ctx, cancel := context.WithCancel(context.Background())
		c := &feed.Consumer{Table: f.events, Name: "lag", Handler: r, Start: feed.Latest, Poll: 50 * time.Millisecond}
		runErr := make(chan error, 1)
		go func() { runErr <- c.Run(ctx) }()
		time.Sleep(300 * time.Millisecond) // the consumer has its LATEST iterators

		var written atomic.Int64
		var maxBacklog int64
		stopSample := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stopSample:
					return
				case <-tick.C:
					if d := written.Load() - handled.Load(); d > maxBacklog {
						maxBacklog = d
					}
				}
			}
		}()
		b.StartTimer()
		start := time.Now()
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < events; i += writers {
					if _, err := f.store.Ingest(ctx, src.SourceID, ferryhook.IngestRequest{Body: body, ContentType: "application/json", Method: "POST"}); err != nil {
						errs <- err
						return
					}
					written.Add(1)
				}
			}()
		}
		wg.Wait()
		ingestDur := time.Since(start)
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
		deadline := time.Now().Add(time.Minute)
		for handled.Load() < events && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		drained := time.Since(start)
		b.StopTimer()
		close(stopSample)
		<-sampled
		cancel()
		if err := <-runErr; err != nil {
			b.Fatal(err)
		}
		if n := handled.Load(); n != events {
			b.Fatalf("handled %d events of %d", n, events)
		}
		slices.Sort(lags)
		b.ReportMetric(float64(events)/ingestDur.Seconds(), "ingest-events/s")
		b.ReportMetric(float64(events)/drained.Seconds(), "handled-events/s")
		b.ReportMetric(float64(lags[len(lags)/2].Milliseconds()), "lag-p50-ms")
		b.ReportMetric(float64(lags[len(lags)*99/100].Milliseconds()), "lag-p99-ms")
		b.ReportMetric(float64(lags[len(lags)-1].Milliseconds()), "lag-max-ms")
		b.ReportMetric(float64(maxBacklog), "backlog-max-events")
		b.StartTimer()
	}
}

// newBenchFixture is newFixture for a benchmark: both tables, the events
// table with a NEW_AND_OLD_IMAGES stream.
func newBenchFixture(b *testing.B) fixture {
	b.Helper()
	main := tabletest.NewTable(b, ferryhook.MainSchema(ferryhook.DefaultMainTable))
	events := tabletest.NewTable(b, ferryhook.EventsSchema(ferryhook.DefaultEventsTable, table.WithStream(types.StreamViewTypeNewAndOldImages)))
	return fixture{store: ferryhook.New(main, events), main: main, events: events}
}
