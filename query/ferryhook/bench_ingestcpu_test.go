package ferryhook_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// BenchmarkIngestClientCPU is the client's side of BenchmarkWorkload's
// thin sequential paths: the library's ingest (FH-12), attempt create
// (FH-9) and user by email (FH-1, FH-2), each beside the hand-written
// "same" variant sending the same requests. It reports allocations (the
// load-independent figure on a shared machine) and the process's CPU per
// operation (client-us/op, getrusage).
//
// "online" runs against DynamoDB Local. "offline" runs the same calls on
// a client whose transport answers each request with DynamoDB Local's
// last answer to it (recorded while warming up, online), so that nothing
// waits on the server and every sample of a CPU profile is the client's:
// the SDK's work is the same in both variants, the difference is the
// library's. Profile the library's side with
// -bench 'IngestClientCPU/offline/ingest-lib' -cpuprofile.
func BenchmarkIngestClientCPU(b *testing.B) {
	rt := &replayTransport{answers: map[string][]byte{}}
	w := clientCPUWorkload(b, rt)
	variants := []struct {
		name string
		op   func() error
	}{
		{"ingest-lib", w.libIngest}, {"ingest-same", w.sameIngest},
		{"attempt-lib", w.libAttemptCreate}, {"attempt-same", w.sameAttemptCreate},
		{"email-lib", w.libByEmail}, {"email-same", w.sameByEmail},
	}
	for _, v := range variants { // warm: the owner remembered, connections open, answers recorded
		for range 20 {
			if err := v.op(); err != nil {
				b.Fatal(v.name, err)
			}
		}
	}
	for _, mode := range []string{"online", "offline"} {
		b.Run(mode, func(b *testing.B) {
			rt.offline.Store(mode == "offline")
			defer rt.offline.Store(false)
			for _, v := range variants {
				b.Run(v.name, func(b *testing.B) {
					b.ReportAllocs()
					cpu, sent := tabletest.SelfCPU(), rt.sent.Load()
					for b.Loop() {
						if err := v.op(); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64((tabletest.SelfCPU()-cpu)/time.Nanosecond)/1e3/float64(b.N), "client-us/op")
					b.ReportMetric(float64(rt.sent.Load()-sent)/float64(b.N), "requests/op")
				})
			}
		})
	}
}

// clientCPUWorkload is BenchmarkWorkload's fixture for the sequential
// scenarios, on a client whose transport is rt.
func clientCPUWorkload(b *testing.B, rt *replayTransport) *workload {
	b.Helper()
	c := tabletest.NewClient(b, func(o *dynamodb.Options) { o.HTTPClient = &http.Client{Transport: rt} })
	over := func(schema table.Schema) *table.Table {
		return table.New(c, tabletest.NewTable(b, schema).Schema(), func(o *table.Options) { o.Cipher = tabletest.Cipher() })
	}
	mainT, eventsT := over(ferryhook.MainSchema(ferryhook.DefaultMainTable)), over(ferryhook.EventsSchema(ferryhook.DefaultEventsTable))
	s := ferryhook.New(mainT, eventsT, benchPlanLimit)
	ctx := context.Background()
	w := &workload{s: s, ctx: ctx, c: c, main: mainT.Name(), events: eventsT.Name()}
	var err error
	if w.user, err = s.Users.Create(ctx, ferryhook.CreateUserInput{Email: benchEmail, Name: "B", GitHubID: "1"}); err != nil {
		b.Fatal(err)
	}
	if w.src, err = s.Sources.Create(ctx, w.user.UserID, ferryhook.CreateSourceInput{Name: "s", Provider: fh.ProviderStripe}); err != nil {
		b.Fatal(err)
	}
	if w.ev, err = s.Events.Create(ctx, eventInput(w.src, time.Time{})); err != nil {
		b.Fatal(err)
	}
	w.attEv = w.ev.EventID
	return w
}

// replayTransport sends requests to DynamoDB Local and records its
// answers; offline, it answers each request with the last answer to the
// same request body, or else to the same operation, without sending it.
type replayTransport struct {
	offline atomic.Bool
	sent    atomic.Int64 // requests, online and offline
	mu      sync.Mutex
	answers map[string][]byte // by request body, and by X-Amz-Target
}

func (rt *replayTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	_ = r.Body.Close()
	if err != nil {
		return nil, err
	}
	op := r.Header.Get("X-Amz-Target")
	rt.sent.Add(1)
	if rt.offline.Load() {
		rt.mu.Lock()
		answer, ok := rt.answers[string(body)]
		if !ok {
			answer = rt.answers[op]
		}
		rt.mu.Unlock()
		return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header:        http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
			Body:          io.NopCloser(bytes.NewReader(answer)),
			ContentLength: int64(len(answer)), Request: r}, nil
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	answer, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(answer))
	rt.mu.Lock()
	rt.answers[string(body)], rt.answers[op] = answer, answer
	rt.mu.Unlock()
	return resp, nil
}
