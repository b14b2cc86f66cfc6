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

func eventInput(src fh.Source, at time.Time) ferryhook.CreateEventInput {
	return ferryhook.CreateEventInput{
		SourceID: src.SourceID, UserID: src.UserID, Plan: fh.PlanPro,
		Headers: `{"content-type":["application/json"]}`, Body: `{"type":"invoice.paid"}`,
		SourceIP: "203.0.113.7", ContentType: "application/json", Method: "POST", ReceivedAt: at,
	}
}

// FH-7 (events of a source, newest first, paginated) and FH-11
// events.create / events.listBySource.
func TestEventsListBySourceNewestFirst_FH7(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "ev@example.com")
	src := mustSource(t, s, u.UserID, "Stripe")
	other := mustSource(t, s, u.UserID, "Other")
	base := time.Now().Add(-time.Hour)
	var want []fh.Event
	for i := range 7 {
		ev, err := s.Events.Create(ctx(t), eventInput(src, base.Add(time.Duration(i)*time.Second)))
		if err != nil {
			t.Fatal(err)
		}
		want = append([]fh.Event{ev}, want...) // newest first
	}
	if _, err := s.Events.Create(ctx(t), eventInput(other, base)); err != nil {
		t.Fatal(err)
	}
	var got []fh.Event
	cursor, pages := "", 0
	for {
		p, err := s.Events.ListBySource(ctx(t), src.SourceID, table.Limit(3), table.After(cursor))
		if err != nil {
			t.Fatal(err)
		}
		pages++
		got = append(got, p.Items...)
		if cursor = p.Cursor; cursor == "" {
			break
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ListBySource pages (-want +got):\n%s", diff)
	}
	if pages != 3 {
		t.Errorf("%d pages of 3 for 7 events, want 3", pages)
	}
	it, err := table.Collect(table.Every(ctx(t), s.Events.ListBySource, src.SourceID, table.Limit(4)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, it); diff != "" {
		t.Errorf("AllBySource (-want +got):\n%s", diff)
	}
	// A cursor of one source does not continue another's list.
	p, err := s.Events.ListBySource(ctx(t), src.SourceID, table.Limit(3))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Events.ListBySource(ctx(t), other.SourceID, table.After(p.Cursor))
	wantIs(t, err, table.ErrInvalidCursor)
}

// FH-8 (event by ID) and FH-11 events.getById / events.updateStatus.
func TestEventsGetByIDUpdateStatus_FH8(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "ev8@example.com")
	src := mustSource(t, s, u.UserID, "GitHub")
	ev, err := s.Events.Create(ctx(t), eventInput(src, time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Events.GetByID(ctx(t), ev.EventID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ev, got); diff != "" {
		t.Errorf("GetByID (-want +got):\n%s", diff)
	}
	proc, err := s.Events.UpdateStatus(ctx(t), ev.EventID, fh.EventProcessing)
	if err != nil || proc.Status != fh.EventProcessing || proc.ProcessedAt == 0 || proc.DeliveredAt != 0 {
		t.Fatalf("UpdateStatus(processing) = %+v, %v", proc, err)
	}
	done, err := s.Events.UpdateStatus(ctx(t), ev.EventID, fh.EventDelivered)
	if err != nil || done.Status != fh.EventDelivered || done.DeliveredAt == 0 || done.ProcessedAt != proc.ProcessedAt {
		t.Fatalf("UpdateStatus(delivered) = %+v, %v", done, err)
	}
	_, err = s.Events.GetByID(ctx(t), fh.NewEventID())
	wantIs(t, err, table.ErrNotFound)
	_, err = s.Events.UpdateStatus(ctx(t), fh.NewEventID(), fh.EventFailed)
	wantIs(t, err, table.ErrNotFound)
}

// FH-12: expiresAt = receivedAt + 24h / 7d / 30d / 90d by plan, stored in
// the events table's TTL attribute; an event past it is not returned.
func TestEventsRetentionByPlan_FH12(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	s := f.store
	u := mustUser(t, s, "ttl@example.com")
	src := mustSource(t, s, u.UserID, "s")
	at := time.Now().Truncate(time.Millisecond)
	want := map[fh.Plan]time.Duration{fh.PlanFree: 24 * time.Hour, fh.PlanStarter: 7 * 24 * time.Hour, fh.PlanPro: 30 * 24 * time.Hour, fh.PlanTeam: 90 * 24 * time.Hour}
	for plan, d := range want {
		in := eventInput(src, at)
		in.Plan = plan
		ev, err := s.Events.Create(ctx(t), in)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := ev.ExpiresAt, fh.UnixSeconds(at.Unix()+int64(d/time.Second)); got != want {
			t.Errorf("%s: expiresAt = %d, want %d", plan, got, want)
		}
		stored, err := s.Events.GetByID(ctx(t), ev.EventID)
		if err != nil || stored.ExpiresAt != ev.ExpiresAt {
			t.Errorf("%s: stored expiresAt = %d, %v", plan, stored.ExpiresAt, err)
		}
	}
	if got := f.events.Schema().TTLAttr; got != "expiresAt" {
		t.Errorf("TTL attribute = %q, want expiresAt", got)
	}
	// An event received 25 hours ago on the free plan has expired.
	old := eventInput(src, time.Now().Add(-25*time.Hour))
	old.Plan = fh.PlanFree
	ev, err := s.Events.Create(ctx(t), old)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Events.GetByID(ctx(t), ev.EventID)
	wantIs(t, err, table.ErrNotFound)
}

// FH-11 events.*: bad input; a body over 256 KB writes nothing.
func TestEventsBadInput_FH11(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "evbad@example.com")
	src := mustSource(t, s, u.UserID, "s")
	mod := func(f func(*ferryhook.CreateEventInput)) ferryhook.CreateEventInput {
		in := eventInput(src, time.Time{})
		f(&in)
		return in
	}
	cases := []struct {
		in    ferryhook.CreateEventInput
		field string
	}{
		{mod(func(in *ferryhook.CreateEventInput) { in.Body = strings.Repeat("x", fh.MaxBodyBytes+1) }), "body"},
		{mod(func(in *ferryhook.CreateEventInput) { in.Body = "\xff\xfe" }), "body"},
		{mod(func(in *ferryhook.CreateEventInput) { in.Headers = "{" }), "headers"},
		{mod(func(in *ferryhook.CreateEventInput) { in.SourceIP = "999.1.1.1" }), "sourceIp"},
		{mod(func(in *ferryhook.CreateEventInput) { in.Method = "post it" }), "method"},
		{mod(func(in *ferryhook.CreateEventInput) { in.Plan = "platinum" }), "plan"},
		{mod(func(in *ferryhook.CreateEventInput) { in.SourceID = "src_" }), "sourceId"},
		{mod(func(in *ferryhook.CreateEventInput) { in.UserID = "" }), "userId"},
	}
	for _, c := range cases {
		_, err := s.Events.Create(ctx(t), c.in)
		wantInvalid(t, err, c.field)
	}
	if _, err := s.Events.Create(ctx(t), mod(func(in *ferryhook.CreateEventInput) { in.Body = strings.Repeat("x", fh.MaxBodyBytes) })); err != nil {
		t.Fatalf("a body of exactly 256 KB: %v", err)
	}
	_, err := s.Events.UpdateStatus(ctx(t), fh.NewEventID(), "lost")
	wantInvalid(t, err, "status")
	_, err = s.Events.ListBySource(ctx(t), src.SourceID, table.Limit(table.MaxListLimit+1))
	wantInvalid(t, err, "limit")
	p, err := s.Events.ListBySource(ctx(t), src.SourceID)
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("events stored: %d, %v; want only the 256 KB one", len(p.Items), err)
	}
}
