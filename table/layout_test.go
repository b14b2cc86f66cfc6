package table_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

func TestLayoutText(t *testing.T) {
	t.Parallel()
	var zero table.Layout
	if zero.String() != "" || zero.Shards() != 1 || !zero.IsZero() {
		t.Fatalf("zero layout: %q, %d shards", zero, zero.Shards())
	}
	l, err := zero.Switch(101, 4)
	if err != nil {
		t.Fatal(err)
	}
	if l, err = l.Switch(501, 8); err != nil {
		t.Fatal(err)
	}
	if got := l.String(); got != "0:1,101:4,501:8" {
		t.Errorf("String = %q", got)
	}
	back, err := table.ParseLayout(l.String())
	if err != nil || back.String() != l.String() {
		t.Fatalf("round trip: %q, %v", back, err)
	}
	want := []table.Epoch{{From: 0, Shards: 1}, {From: 101, Shards: 4}, {From: 501, Shards: 8}}
	if diff := cmp.Diff(want, back.Epochs()); diff != "" {
		t.Errorf("Epochs (-want +got):\n%s", diff)
	}
	for _, c := range []struct {
		seq  int64
		want string
	}{{1, "P"}, {100, "P"}, {101, "P#1"}, {104, "P#0"}, {500, "P#0"}, {501, "P#5"}, {508, "P#4"}} {
		if got := l.SeqPK("P", c.seq); got != c.want {
			t.Errorf("SeqPK(%d) = %q, want %q", c.seq, got, c.want)
		}
	}
	if got := l.IDPK("P", 600, "evt1"); got != table.ShardPK("P", table.Shard("evt1", 8), 8) {
		t.Errorf("IDPK = %q", got)
	}
	if diff := cmp.Diff([]string{"P", "P#0", "P#1", "P#2", "P#3", "P#4", "P#5", "P#6", "P#7"}, l.Partitions("P")); diff != "" {
		t.Errorf("Partitions (-want +got):\n%s", diff)
	}
	q := l.Query(table.Query{PK: "P"})
	if q.Shards != 8 || !q.ShardBase {
		t.Errorf("Query = %+v", q)
	}
	if q := zero.Query(table.Query{PK: "P"}); q.Shards != 0 || q.ShardBase {
		t.Errorf("zero Query = %+v", q)
	}
	four, _ := table.NewLayout(4)
	if got := four.String(); got != "0:4" {
		t.Errorf("NewLayout(4) = %q", got)
	}
	if q := four.Query(table.Query{PK: "P"}); q.Shards != 4 || q.ShardBase {
		t.Errorf("4-shard Query = %+v", q)
	}
	for _, bad := range []string{"x", "0:0", "5:2,5:4", "5:2,3:4", "0:300", "-1:2"} {
		if _, err := table.ParseLayout(bad); err == nil {
			t.Errorf("ParseLayout(%q) accepted", bad)
		}
	}
	if _, err := l.Switch(400, 16); err == nil {
		t.Error("a switch before the last epoch accepted")
	}
}

// wsMsg is an item of a write-sharded collection: a topic's message.
type wsMsg struct {
	Topic string `dynamo:"topic"`
	Seq   int    `dynamo:"seq"`
	Body  string `dynamo:"body"`
}

// wsOwner is the collection's owner; its layout is an attribute the
// engine writes (Layout), beside the sequence counter.
type wsOwner struct {
	ID  string `dynamo:"id"`
	Seq int    `dynamo:"seq"`
}

const wsAttr = "layout"

// TestWriteShardedCollection writes a collection under three layouts
// (the owner's own key, 4 shards, 8 shards, switched while items exist),
// each item in the partition SeqPK names, and lists it against an
// unsharded reference holding the same items: complete, ordered, nothing
// twice, at several page sizes, both orders.
func TestWriteShardedCollection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tb := tabletest.NewTable(t, table.NewSchema("wshard"))
	msgs := table.NewEntity(tb, table.Def[wsMsg]{Type: "Msg", Keys: table.Template{PK: "T#{topic}", SK: "M#{seq:10}"}})
	owners := table.NewEntity(tb, table.Def[wsOwner]{Type: "Owner", Keys: table.Template{PK: "T#{id}", SK: "OWNER"}})
	for _, id := range []string{"sharded", "ref"} {
		if err := owners.Create(ctx, &wsOwner{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	owner := table.Key{PK: "T#sharded", SK: "OWNER"}
	// write saves seq under the layout read from the owner, conditioned
	// on it, and the same message in the reference.
	write := func(seq int) {
		t.Helper()
		raw, err := tb.GetOwner(ctx, owner, true)
		if err != nil {
			t.Fatal(err)
		}
		l, err := table.LayoutOf(raw, wsAttr)
		if err != nil {
			t.Fatal(err)
		}
		m := wsMsg{Topic: "sharded", Seq: seq, Body: fmt.Sprint("body ", seq)}
		ops, err := msgs.CreateOp(&m)
		if err != nil {
			t.Fatal(err)
		}
		op := tb.InPartition(ops[0], l.SeqPK("T#sharded", int64(seq)))
		if err := tb.Transact(ctx, op, tb.LayoutCheckOp(owner, wsAttr, l)); err != nil {
			t.Fatal(err)
		}
		ref := wsMsg{Topic: "ref", Seq: seq, Body: m.Body}
		if err := msgs.Create(ctx, &ref); err != nil {
			t.Fatal(err)
		}
	}
	switchTo := func(from, n int) {
		t.Helper()
		raw, err := tb.GetOwner(ctx, owner, true)
		if err != nil {
			t.Fatal(err)
		}
		l, _ := table.LayoutOf(raw, wsAttr)
		next, err := l.Switch(int64(from), n)
		if err != nil {
			t.Fatal(err)
		}
		if err := tb.Transact(ctx, tb.SwitchLayoutOp(owner, wsAttr, l, next, nil)); err != nil {
			t.Fatal(err)
		}
		// A second switch from the same stale layout is refused.
		stale, _ := l.Switch(int64(from), n+1)
		if err := tb.Transact(ctx, tb.SwitchLayoutOp(owner, wsAttr, l, stale, nil)); !errors.Is(err, table.ErrConditionFailed) && !isCondFailed(err) {
			t.Fatalf("a switch from a stale layout: %v", err)
		}
	}
	seq := 0
	for range 23 {
		seq++
		write(seq)
	}
	switchTo(seq+1, 4)
	for range 41 {
		seq++
		write(seq)
	}
	switchTo(seq+1, 8)
	for range 37 {
		seq++
		write(seq)
	}
	// A writer holding the 4-shard layout is refused now.
	raw, _ := tb.GetOwner(ctx, owner, true)
	cur, _ := table.LayoutOf(raw, wsAttr)
	if cur.Shards() != 8 {
		t.Fatalf("layout %q", cur)
	}
	old, _ := table.ParseLayout("0:1,24:4")
	m := wsMsg{Topic: "sharded", Seq: 999, Body: "stale"}
	ops, _ := msgs.CreateOp(&m)
	err := tb.Transact(ctx, tb.InPartition(ops[0], old.SeqPK("T#sharded", 999)), tb.LayoutCheckOp(owner, wsAttr, old))
	if !isCondFailed(err) {
		t.Fatalf("stale writer: %v", err)
	}
	// Every item sits where the layout says: a point read is one GetItem.
	for s := 1; s <= seq; s++ {
		k := table.Key{PK: cur.SeqPK("T#sharded", int64(s)), SK: fmt.Sprintf("M#%010d", s)}
		if _, err := msgs.Get(ctx, k); err != nil {
			t.Fatalf("seq %d at %s: %v", s, k.PK, err)
		}
	}
	list := func(pk string, desc bool, limit int, q func(table.Query) table.Query) []int {
		t.Helper()
		var got []int
		cursor := ""
		for pages := 0; ; pages++ {
			p, err := msgs.List(ctx, q(table.Query{PK: pk, SK: table.SKBeginsWith("M#"), Desc: desc, Limit: limit, Cursor: cursor}))
			if err != nil {
				t.Fatal(err)
			}
			if limit > 0 && len(p.Items) > limit {
				t.Fatalf("page of %d items, limit %d", len(p.Items), limit)
			}
			for _, m := range p.Items {
				got = append(got, m.Seq)
			}
			if p.Cursor == "" {
				return got
			}
			cursor = p.Cursor
			if pages > 1000 {
				t.Fatal("no end")
			}
		}
	}
	same := func(q table.Query) table.Query { return q }
	for _, desc := range []bool{true, false} {
		want := list("T#ref", desc, 0, same)
		if len(want) != seq {
			t.Fatalf("reference holds %d", len(want))
		}
		for _, limit := range []int{0, 1, 5, 7, 20, 100} {
			got := list("T#sharded", desc, limit, cur.Query)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("desc %v limit %d (-reference +sharded):\n%s", desc, limit, diff)
			}
		}
	}
	// The base partition alone holds only the first epoch.
	if got := list("T#sharded", true, 0, same); len(got) != 23 {
		t.Errorf("the owner's partition holds %d messages, want 23", len(got))
	}
}

func isCondFailed(err error) bool {
	var te *table.TxError
	if !errors.As(err, &te) {
		return false
	}
	for _, r := range te.Failed() {
		if r.Code == "ConditionalCheckFailed" {
			return true
		}
	}
	return false
}

// TestLayoutSwitchAgain: a switch made again before any item was written
// in the last epoch (from equal to its From) changes that epoch's count,
// or removes it when the count is the one before; a from before the last
// epoch and counts out of range are refused.
func TestLayoutSwitchAgain(t *testing.T) {
	l, err := table.ParseLayout("0:1,31:4")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n    int
		want string
	}{{8, "0:1,31:8"}, {1, "0:1"}, {4, "0:1,31:4"}} {
		got, err := l.Switch(31, tc.n)
		if err != nil || got.String() != tc.want {
			t.Errorf("Switch(31, %d) of %s = %q, %v; want %q", tc.n, l, got, err, tc.want)
		}
	}
	one, _ := table.ParseLayout("0:4")
	if got, err := one.Switch(0, 8); err != nil || got.String() != "0:8" {
		t.Errorf("Switch(0, 8) of 0:4 = %q, %v", got, err)
	}
	if _, err := l.Switch(30, 8); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("Switch before the last epoch = %v, want ErrInvalidInput", err)
	}
	if _, err := l.Switch(31, 0); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("Switch(31, 0) = %v, want ErrInvalidInput", err)
	}
}
