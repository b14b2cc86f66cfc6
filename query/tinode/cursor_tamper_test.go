package tinode_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Every tampered form of a sharded history cursor is refused with
// table.ErrInvalidCursor before any request (issue 35; TN-13): the layout
// prefix alone (L2:, L4:, its sealed part removed), the prefix changed,
// its count inflated, swapped with another topic's, removed, or
// malformed; and a whole cursor of another topic. Before, a prefix-only
// cursor gave a first page of only the partitions it named (SeqIds
// silently missing) or of as many as it claimed.
func TestHistoryCursorTampered_TN13(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := tabletest.NewTable(t, table.NewSchema("tinode"))
	client := tabletest.NewClient(t, rc.Option())
	s4 := tinode.New(table.New(client, tb.Schema()), func(o *tinode.Options) { o.MessageShards = 4 })
	s2 := tinode.New(table.New(client, tb.Schema()), func(o *tinode.Options) { o.MessageShards = 2 })
	mustTopic(t, s4, "grpFour")
	mustTopic(t, s2, "grpTwo")
	for range 6 {
		for _, top := range []tn.TopicName{"grpFour", "grpTwo"} {
			if err := s4.Messages.Save(ctx(t), &tn.Message{Topic: top, From: "usrA", Content: tn.JSON("x")}); err != nil {
				t.Fatal(err)
			}
		}
	}
	first := func(top tn.TopicName) (cursor, prefix, sealed string) {
		t.Helper()
		p, err := s4.Messages.History(ctx(t), tinode.HistoryFilter{Topic: top}, table.Limit(2))
		if err != nil || p.Cursor == "" {
			t.Fatalf("first page of %s: cursor %q, %v", top, p.Cursor, err)
		}
		i := strings.IndexByte(p.Cursor, ':')
		if i < 0 {
			t.Fatalf("cursor %q has no layout prefix", p.Cursor)
		}
		return p.Cursor, p.Cursor[:i+1], p.Cursor[i+1:]
	}
	c4, p4, s4c := first("grpFour")
	c2, p2, s2c := first("grpTwo")
	if p4 != "L4:" || p2 != "L2:" {
		t.Fatalf("prefixes %q and %q, want L4: and L2:", p4, p2)
	}
	rc.Reset()
	if p, err := s4.Messages.History(ctx(t), tinode.HistoryFilter{Topic: "grpFour"}, table.Limit(2), table.After(c4)); err != nil || len(p.Items) != 2 {
		t.Fatalf("the issued cursor: %d messages, %v", len(p.Items), err)
	}
	if rc.Of("Query") == 0 {
		t.Fatalf("the issued cursor sent no Query")
	}
	for _, tc := range []struct {
		name   string
		topic  tn.TopicName
		cursor string
	}{
		{"prefix only", "grpFour", p4},
		{"prefix only, fewer partitions", "grpFour", p2},
		{"prefix only, inflated", "grpFour", "L256:"},
		{"prefix only, with base", "grpTwo", "L2b:"},
		{"prefix changed: base added", "grpFour", "L4b:" + s4c},
		{"prefix changed: count", "grpFour", "L3:" + s4c},
		{"prefix inflated", "grpFour", "L256:" + s4c},
		{"prefix swapped with grpTwo's", "grpFour", p2 + s4c},
		{"prefix swapped with grpFour's", "grpTwo", p4 + s2c},
		{"prefix removed", "grpFour", s4c},
		{"another topic's cursor", "grpTwo", c4},
		{"another topic's cursor, same layout", "grpFour", c2},
		{"prefix malformed: sign", "grpFour", "L+4:" + s4c},
		{"prefix malformed: over MaxShards", "grpFour", "L257:" + s4c},
	} {
		rc.Reset()
		p, err := s4.Messages.History(ctx(t), tinode.HistoryFilter{Topic: tc.topic}, table.Limit(2), table.After(tc.cursor))
		if !errors.Is(err, table.ErrInvalidCursor) {
			t.Errorf("%s (%q): %d messages, err %v, want ErrInvalidCursor", tc.name, tc.cursor, len(p.Items), err)
		}
		if rc.Total() != 0 {
			t.Errorf("%s: %v sent for a refused cursor, want none", tc.name, rc.Ops())
		}
	}
}
