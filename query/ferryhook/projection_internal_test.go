package ferryhook

import (
	"context"
	"strings"
	"testing"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestProjectionStateCheck: the scaled profile's read-to-check paths
// (recheck's BatchGetItem of a source and its owner, eventLayout's GetItem
// of counter shard 0, the GetItem of a source by ShardEvents and Counts
// and of a user by Usage) fetch only the attributes they check, and still
// decide as before. It logs the bytes and read units of the whole and the
// projected reads (docs/observability.md).
func TestProjectionStateCheck(t *testing.T) {
	rc := &tabletest.RequestCounter{Capacity: true}
	rb := &tabletest.ResponseBytes{}
	client := tabletest.NewClient(t, rc.Option(), rb.Option())
	opt := func(o *table.Options) {
		o.Cipher, o.CursorKey = tabletest.Cipher(), []byte("ferryhook projection cursor key!")
	}
	mainT := tabletest.NewTable(t, MainSchema(DefaultMainTable))
	eventsT := tabletest.NewTable(t, EventsSchema(DefaultEventsTable))
	s := New(table.New(client, mainT.Schema(), opt), table.New(client, eventsT.Schema(), opt), ScaledProfile())
	ctx := context.Background()
	u, err := s.Users.Create(ctx, CreateUserInput{Email: "ada@example.com", Name: "Ada", PasswordHash: "$2b$10$" + strings.Repeat("a", 53)})
	if err != nil {
		t.Fatal(err)
	}
	src, err := s.Sources.Create(ctx, u.UserID, CreateSourceInput{Name: "Stripe", Provider: "stripe", SigningSecret: "whsec_test"})
	if err != nil {
		t.Fatal(err)
	}
	o := ownerInfo{user: u.UserID, plan: u.Plan, layout: mustLayout(src.EventLayout)}
	sk, uk, err := s.ownerKeys(o, src.SourceID)
	if err != nil {
		t.Fatal(err)
	}
	shard0 := s.srcCounters.ShardKey(string(src.SourceID), 0)

	measure := func(what string, fn func() (table.Item, error)) int64 {
		t.Helper()
		rc.Reset()
		rb.Reset()
		if _, err := fn(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		r, _ := rc.Consumed()
		t.Logf("%-40s %5d response bytes, %.1f RCU", what, rb.Bytes(), r)
		return rb.Bytes()
	}
	owners := func(attrs ...string) func() (table.Item, error) {
		return func() (table.Item, error) {
			m, err := s.main.GetOwners(ctx, []table.Key{sk, uk}, false, attrs...)
			if err == nil && len(m) != 2 {
				t.Fatalf("%d items, want 2", len(m))
			}
			return nil, err
		}
	}
	wholeB := measure("recheck BatchGetItem, whole items", owners())
	projB := measure("recheck BatchGetItem, projected", owners(recheckAttrs...))
	shard := func(attrs ...string) func() (table.Item, error) {
		return func() (table.Item, error) { return s.main.GetOwner(ctx, shard0, true, attrs...) }
	}
	wholeS := measure("eventLayout GetItem of shard 0, whole", shard())
	projS := measure("eventLayout GetItem of shard 0, projected", shard(eventLayoutAttr))
	// Reads of one item by GetItem (consistent): whole as the typed Get
	// reads it, projected on the attributes by the owner read, and by
	// Entity.Peek as the store reads it (the same GetItem: as many bytes).
	wholeOrFields := func(k table.Key, attrs []string, peek func() error) (int64, int64) {
		get := func(attrs ...string) func() (table.Item, error) {
			return func() (table.Item, error) { return s.main.GetOwner(ctx, k, true, attrs...) }
		}
		whole, proj := measure("  GetItem, whole", get()), measure("  GetItem, projected", get(attrs...))
		peeked := measure("  GetItem by Entity.Peek", func() (table.Item, error) { return nil, peek() })
		if n := rc.Of("GetItem"); n != 1 || rc.Total() != 1 || peeked != proj {
			t.Errorf("Peek sent %v and got %d bytes; the projected owner read %d bytes: want one GetItem, as many bytes", rc.Ops(), peeked, proj)
		}
		return whole, peeked
	}
	var whole, proj [3]int64
	t.Log("ShardEvents' read of the source (status, eventLayout):")
	whole[0], proj[0] = wholeOrFields(sk, sourceShardFields.Attrs(), func() error { _, err := s.source.Peek(ctx, sk, sourceShardFields); return err })
	t.Log("Counts' read of the source, default profile (status, eventCount, lastEventAt):")
	whole[1], proj[1] = wholeOrFields(sk, sourceCountFields.Attrs(), func() error { _, err := s.source.Peek(ctx, sk, sourceCountFields); return err })
	t.Log("Usage's read of the user, default profile (usageThisMonth):")
	whole[2], proj[2] = wholeOrFields(uk, userUsageFields.Attrs(), func() error { _, err := s.user.Peek(ctx, uk, userUsageFields); return err })
	if projB >= wholeB || projS >= wholeS || proj[0] >= whole[0] || proj[1] >= whole[1] || proj[2] >= whole[2] {
		t.Errorf("projected reads not smaller: %d vs %d, %d vs %d, %v vs %v bytes", projB, wholeB, projS, wholeS, proj, whole)
	}
	st, err := s.source.Peek(ctx, sk, sourceShardFields)
	if err != nil {
		t.Fatal(err)
	}
	if table.FieldValue(st, sourceStatus) != fh.StatusActive || table.FieldValue(st, sourceEventLayout) != src.EventLayout {
		t.Fatalf("Peek(source) = status %q layout %q; want active, %q", table.FieldValue(st, sourceStatus), table.FieldValue(st, sourceEventLayout), src.EventLayout)
	}
	if n, err := s.Users.Usage(ctx, u.UserID); err != nil || n != 0 {
		t.Fatalf("Usage = %d, %v; want 0", n, err)
	}
	// The paths decide on the projected items as on whole ones.
	if same, err := s.recheck(ctx, src.SourceID, o); err != nil || !same {
		t.Fatalf("recheck = %v, %v; want true", same, err)
	}
	if l, err := s.eventLayout(ctx, src.SourceID); err != nil || l.String() != o.layout.String() {
		t.Fatalf("eventLayout = %v, %v; want %v", l, err, o.layout)
	}
	if _, err := s.Sources.Update(ctx, u.UserID, src.SourceID, SourceUpdate{Status: new(fh.StatusPaused)}); err != nil {
		t.Fatal(err)
	}
	if same, err := s.recheck(ctx, src.SourceID, o); err != nil || same {
		t.Fatalf("recheck of a paused source = %v, %v; want false", same, err)
	}
}
