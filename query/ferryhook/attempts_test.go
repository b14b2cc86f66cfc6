package ferryhook_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
)

// FH-9 (attempts of an event) and FH-11 attempts.create /
// attempts.listByEvent: numbers 1..8, in order, each once.
func TestAttemptsListByEvent_FH9(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "att@example.com")
	src := mustSource(t, s, u.UserID, "s")
	conn := mustConn(t, s, u.UserID, src.SourceID, "c")
	ev, err := s.Events.Create(ctx(t), eventInput(src, time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	var want []fh.DeliveryAttempt
	for n := fh.MinAttempt; n <= fh.MaxAttempt; n++ {
		code := 503
		if n == fh.MaxAttempt {
			code = 200
		}
		a, err := s.Attempts.Create(ctx(t), ev.EventID, n, ferryhook.CreateAttemptInput{
			ConnectionID: conn.ConnectionID, DestinationURL: conn.DestinationURL, StatusCode: code,
			ResponseBody: strings.Repeat("é", 1500), Latency: 120 * time.Millisecond, ExpiresAt: ev.ExpiresAt,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len([]rune(a.ResponseBody)) != fh.MaxResponseBody {
			t.Fatalf("response body kept %d characters, want %d", len([]rune(a.ResponseBody)), fh.MaxResponseBody)
		}
		want = append(want, a)
	}
	got, err := table.Collect(s.Attempts.ByEvent.All(ctx(t), fh.DeliveryAttempt{EventID: ev.EventID}, table.Limit(3)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ByEvent.All (-want +got):\n%s", diff)
	}
	p, err := s.Attempts.ByEvent.List(ctx(t), fh.DeliveryAttempt{EventID: ev.EventID})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, p.Items); diff != "" {
		t.Errorf("ByEvent.List (-want +got):\n%s", diff)
	}
	_, err = s.Attempts.Create(ctx(t), ev.EventID, 3, ferryhook.CreateAttemptInput{ConnectionID: conn.ConnectionID, DestinationURL: conn.DestinationURL})
	wantIs(t, err, table.ErrAlreadyExists)
}

// FH-11 attempts.create: bad input, attempt numbers outside 1..8 among it.
func TestAttemptsBadInput_FH11(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ev, conn := fh.NewEventID(), fh.ConnectionIDs.New()
	ok := ferryhook.CreateAttemptInput{ConnectionID: conn, DestinationURL: "https://x.example"}
	for _, n := range []int{0, 9, -1} {
		_, err := s.Attempts.Create(ctx(t), ev, n, ok)
		wantInvalid(t, err, "attemptNumber")
	}
	bad := ok
	bad.StatusCode = 42
	_, err := s.Attempts.Create(ctx(t), ev, 1, bad)
	wantInvalid(t, err, "statusCode")
	bad = ok
	bad.DestinationURL = ""
	_, err = s.Attempts.Create(ctx(t), ev, 1, bad)
	wantInvalid(t, err, "destinationUrl")
	bad = ok
	bad.ConnectionID = "conn_"
	_, err = s.Attempts.Create(ctx(t), ev, 1, bad)
	wantInvalid(t, err, "connectionId")
	bad = ok
	bad.Latency = -time.Second
	_, err = s.Attempts.Create(ctx(t), ev, 1, bad)
	wantInvalid(t, err, "latencyMs")
	_, err = s.Attempts.Create(ctx(t), "evt_bad", 1, ok)
	wantInvalid(t, err, "eventId")
	p, err := s.Attempts.ByEvent.List(ctx(t), fh.DeliveryAttempt{EventID: ev})
	if err != nil || len(p.Items) != 0 {
		t.Fatalf("attempts written by bad input: %d, %v", len(p.Items), err)
	}
}
