package ferryhook_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// splitCursor splits a sharded list's cursor into its layout prefix
// ("L8b:") and its sealed part.
func splitCursor(t *testing.T, c string) (prefix, sealed string) {
	t.Helper()
	i := strings.IndexByte(c, ':')
	if i < 0 || !strings.HasPrefix(c, "L") {
		t.Fatalf("cursor %q has no layout prefix", c)
	}
	return c[:i+1], c[i+1:]
}

// Every tampered form of a sharded events cursor is refused with
// table.ErrInvalidCursor before any request (issue 35; FH-7): the layout
// prefix alone (its sealed part removed), the prefix changed, its count
// inflated (L256b: named 258 partitions), swapped with another source's,
// removed, or malformed; and a whole cursor of another source. Before,
// a prefix-only cursor gave a first page of the partitions it named.
func TestEventCursorTampered_FH7(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, ferryhook.ScaledProfile())
	rc := &tabletest.RequestCounter{}
	client := tabletest.NewClient(t, rc.Option())
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	s := ferryhook.New(table.New(client, f.main.Schema(), withCipher), table.New(client, f.events.Schema(), withCipher), ferryhook.ScaledProfile(),
		func(o *ferryhook.Options) { o.EventShards, o.StateCheck = 8, time.Hour })
	u := mustUser(t, s, "tamper@example.com")
	a, b := mustSource(t, s, u.UserID, "a"), mustSource(t, s, u.UserID, "b")
	if _, err := s.Sources.ShardEvents(ctx(t), u.UserID, b.SourceID, 16); err != nil {
		t.Fatal(err)
	}
	for range 6 {
		for _, src := range []fh.SourceID{a.SourceID, b.SourceID} {
			if _, err := ingestOnce(ctx(t), s, src); err != nil {
				t.Fatal(err)
			}
		}
	}
	first := func(src fh.SourceID) string {
		t.Helper()
		p, err := s.Events.ListBySource(ctx(t), src, table.Limit(2))
		if err != nil || p.Cursor == "" {
			t.Fatalf("first page of %s: cursor %q, %v", src, p.Cursor, err)
		}
		return p.Cursor
	}
	ca, cb := first(a.SourceID), first(b.SourceID)
	pa, sa := splitCursor(t, ca)
	pb, sb := splitCursor(t, cb)
	if pa != "L8b:" || pb != "L16b:" {
		t.Fatalf("prefixes %q and %q, want L8b: and L16b:", pa, pb)
	}
	// The untampered cursor continues.
	rc.Reset()
	if p, err := s.Events.ListBySource(ctx(t), a.SourceID, table.Limit(2), table.After(ca)); err != nil || len(p.Items) != 2 {
		t.Fatalf("the issued cursor: %d events, %v", len(p.Items), err)
	}
	if rc.Of("Query") == 0 {
		t.Fatalf("the issued cursor sent no Query")
	}
	for _, tc := range []struct {
		name   string
		src    fh.SourceID
		cursor string
	}{
		{"prefix only", a.SourceID, pa},
		{"prefix only, other source's", a.SourceID, pb},
		{"prefix only, inflated", a.SourceID, "L256b:"},
		{"prefix only, without base", a.SourceID, "L8:"},
		{"prefix changed: base dropped", a.SourceID, "L8:" + sa},
		{"prefix changed: count", a.SourceID, "L9b:" + sa},
		{"prefix inflated", a.SourceID, "L256b:" + sa},
		{"prefix swapped with b's", a.SourceID, pb + sa},
		{"prefix swapped with a's", b.SourceID, pa + sb},
		{"prefix removed", a.SourceID, sa},
		{"another source's cursor", b.SourceID, ca},
		{"prefix malformed: leading zero", a.SourceID, "L08b:" + sa},
		{"prefix malformed: no count", a.SourceID, "Lb:" + sa},
		{"prefix malformed: count 1", a.SourceID, "L1b:" + sa},
		{"prefix malformed: over MaxShards", a.SourceID, "L257b:" + sa},
	} {
		rc.Reset()
		p, err := s.Events.ListBySource(ctx(t), tc.src, table.Limit(2), table.After(tc.cursor))
		if !errors.Is(err, table.ErrInvalidCursor) {
			t.Errorf("%s (%q): %d events, err %v, want ErrInvalidCursor", tc.name, tc.cursor, len(p.Items), err)
		}
		if rc.Total() != 0 {
			t.Errorf("%s: %v sent for a refused cursor, want none", tc.name, rc.Ops())
		}
	}
}
