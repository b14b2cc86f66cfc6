package ferryhook_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
)

func mustConn(t *testing.T, s *ferryhook.Store, user fh.UserID, src fh.SourceID, name string) fh.Connection {
	t.Helper()
	c, err := s.Connections.Create(ctx(t), user, src, ferryhook.CreateConnectionInput{
		Name: name, DestinationURL: "https://api.example.com/hooks", Filters: `[{"path":"type","eq":"invoice.paid"}]`})
	if err != nil {
		t.Fatalf("create connection: %v", err)
	}
	return c
}

// FH-5 (list connections for source) and FH-11 connections.create /
// connections.listBySource.
func TestConnectionsListBySource_FH5(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "conn@example.com")
	src := mustSource(t, s, u.UserID, "Stripe")
	var want []fh.Connection
	for _, n := range []string{"a", "b", "c"} {
		want = append(want, mustConn(t, s, u.UserID, src.SourceID, n))
	}
	if want[0].SigningSecret == "" || want[0].Status != fh.StatusActive {
		t.Fatalf("created connection = %+v: want a generated signing secret, active", want[0])
	}
	p, err := s.Connections.BySource.List(ctx(t), fh.Connection{UserID: u.UserID, SourceID: src.SourceID})
	if err != nil {
		t.Fatal(err)
	}
	byID := func(cs []fh.Connection) map[fh.ConnectionID]fh.Connection {
		m := map[fh.ConnectionID]fh.Connection{}
		for _, c := range cs {
			m[c.ConnectionID] = c
		}
		return m
	}
	if diff := cmp.Diff(byID(want), byID(p.Items)); diff != "" {
		t.Errorf("ListBySource (-want +got):\n%s", diff)
	}
	it, err := table.Collect(s.Connections.BySource.All(ctx(t), fh.Connection{UserID: u.UserID, SourceID: src.SourceID}, table.Limit(1)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(byID(want), byID(it)); diff != "" {
		t.Errorf("AllBySource (-want +got):\n%s", diff)
	}
	// Another user sees none of them.
	mallory := mustUser(t, s, "mallory@example.com")
	p, err = s.Connections.BySource.List(ctx(t), fh.Connection{UserID: mallory.UserID, SourceID: src.SourceID})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 0 {
		t.Errorf("another user listed %d connections, want 0", len(p.Items))
	}
}

// FH-11 connections.update / connections.delete, pause/resume and delivery
// counters; another user's ID gets ErrNotFound and changes nothing.
func TestConnectionsUpdateDeleteScoped_FH11(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "c-owner@example.com")
	mallory := mustUser(t, s, "c-mallory@example.com")
	src := mustSource(t, s, u.UserID, "Shopify")
	c := mustConn(t, s, u.UserID, src.SourceID, "orders")

	_, err := s.Connections.Create(ctx(t), mallory.UserID, src.SourceID, ferryhook.CreateConnectionInput{Name: "x", DestinationURL: "https://evil.example"})
	wantIs(t, err, table.ErrNotFound)
	url := "https://evil.example/steal"
	_, err = s.Connections.Update(ctx(t), mallory.UserID, src.SourceID, c.ConnectionID, ferryhook.ConnectionUpdate{DestinationURL: &url})
	wantIs(t, err, table.ErrNotFound)
	wantIs(t, s.Connections.Delete(ctx(t), mallory.UserID, src.SourceID, c.ConnectionID), table.ErrNotFound)
	got, err := s.Connections.ByID.Get(ctx(t), fh.Connection{UserID: u.UserID, SourceID: src.SourceID, ConnectionID: c.ConnectionID})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c, got); diff != "" {
		t.Errorf("changed by another user (-want +got):\n%s", diff)
	}

	for _, ok := range []bool{true, true, false} {
		if _, err := s.Connections.RecordDelivery(ctx(t), src.SourceID, c.ConnectionID, ok); err != nil {
			t.Fatal(err)
		}
	}
	url = "https://api.example.com/v2/hooks"
	retry := fh.JSONText(`{"schedule":[1,5,30]}`)
	upd, err := s.Connections.Update(ctx(t), u.UserID, src.SourceID, c.ConnectionID, ferryhook.ConnectionUpdate{DestinationURL: &url, RetryConfig: &retry})
	if err != nil {
		t.Fatal(err)
	}
	want := c
	want.DestinationURL, want.RetryConfig, want.DeliveryCount, want.FailureCount, want.UpdatedAt = url, retry, 2, 1, upd.UpdatedAt
	if diff := cmp.Diff(want, upd); diff != "" {
		t.Errorf("Update (-want +got):\n%s", diff)
	}
	if p, err := s.Connections.Update(ctx(t), u.UserID, src.SourceID, c.ConnectionID, ferryhook.ConnectionUpdate{Status: new(fh.StatusPaused)}); err != nil || p.Status != fh.StatusPaused {
		t.Fatalf("Pause = %v, %v", p.Status, err)
	}
	if r, err := s.Connections.Update(ctx(t), u.UserID, src.SourceID, c.ConnectionID, ferryhook.ConnectionUpdate{Status: new(fh.StatusActive)}); err != nil || r.Status != fh.StatusActive {
		t.Fatalf("Resume = %v, %v", r.Status, err)
	}
	if err := s.Connections.Delete(ctx(t), u.UserID, src.SourceID, c.ConnectionID); err != nil {
		t.Fatal(err)
	}
	_, err = s.Connections.ByID.Get(ctx(t), fh.Connection{UserID: u.UserID, SourceID: src.SourceID, ConnectionID: c.ConnectionID})
	wantIs(t, err, table.ErrNotFound)
	wantIs(t, s.Connections.Delete(ctx(t), u.UserID, src.SourceID, c.ConnectionID), table.ErrNotFound)
	p, err := s.Connections.BySource.List(ctx(t), fh.Connection{UserID: u.UserID, SourceID: src.SourceID})
	if err != nil || len(p.Items) != 0 {
		t.Fatalf("ListBySource after delete = %d items, %v", len(p.Items), err)
	}
}

// FH-11 connections.*: bad input.
func TestConnectionsBadInput_FH11(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "cbad@example.com")
	src := mustSource(t, s, u.UserID, "s")
	c := mustConn(t, s, u.UserID, src.SourceID, "c")
	cases := []struct {
		in    ferryhook.CreateConnectionInput
		field string
	}{
		{ferryhook.CreateConnectionInput{DestinationURL: "https://x.example"}, "name"},
		{ferryhook.CreateConnectionInput{Name: "x"}, "destinationUrl"},
		{ferryhook.CreateConnectionInput{Name: "x", DestinationURL: "ftp://x.example"}, "destinationUrl"},
		{ferryhook.CreateConnectionInput{Name: "x", DestinationURL: "/relative"}, "destinationUrl"},
		{ferryhook.CreateConnectionInput{Name: "x", DestinationURL: "https://x.example", Filters: "{"}, "filters"},
		{ferryhook.CreateConnectionInput{Name: "x", DestinationURL: "https://x.example", Transform: "nope"}, "transform"},
		{ferryhook.CreateConnectionInput{Name: "x", DestinationURL: "https://x.example", RetryConfig: "[1,"}, "retryConfig"},
	}
	for _, tc := range cases {
		_, err := s.Connections.Create(ctx(t), u.UserID, src.SourceID, tc.in)
		wantInvalid(t, err, tc.field)
	}
	_, err := s.Connections.Create(ctx(t), u.UserID, "src_bad", ferryhook.CreateConnectionInput{Name: "x", DestinationURL: "https://x.example"})
	wantInvalid(t, err, "sourceId")
	bad := "mailto:x@example.com"
	_, err = s.Connections.Update(ctx(t), u.UserID, src.SourceID, c.ConnectionID, ferryhook.ConnectionUpdate{DestinationURL: &bad})
	wantInvalid(t, err, "destinationUrl")
	badJSON := fh.JSONText("{")
	_, err = s.Connections.Update(ctx(t), u.UserID, src.SourceID, c.ConnectionID, ferryhook.ConnectionUpdate{Filters: &badJSON})
	wantInvalid(t, err, "filters")
	unknown := fh.Status("archived")
	_, err = s.Connections.Update(ctx(t), u.UserID, src.SourceID, c.ConnectionID, ferryhook.ConnectionUpdate{Status: &unknown})
	wantInvalid(t, err, "status")
	_, err = s.Connections.Update(ctx(t), u.UserID, src.SourceID, "conn_x", ferryhook.ConnectionUpdate{Status: &unknown})
	wantInvalid(t, err, "connectionId")
	got, err := s.Connections.ByID.Get(ctx(t), fh.Connection{UserID: u.UserID, SourceID: src.SourceID, ConnectionID: c.ConnectionID})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c, got); diff != "" {
		t.Errorf("connection changed by bad input (-want +got):\n%s", diff)
	}
}
