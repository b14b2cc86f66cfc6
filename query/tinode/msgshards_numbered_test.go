package tinode_test

import (
	"slices"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestReshardServerNumbered_TN12_TN13: in a store whose messages servers
// number and write themselves (Options.ServerNumbered; Tinode through
// adapters/tinode, whose topic SeqId may lag the stored messages by
// coalesce_ms), a switch starts past the newest stored message, not past
// the topic's SeqId, and always appends an epoch: switched twice before
// the next message, the second does not redo the first (which would
// remove its count while a server may already write with it). A server
// still writing under the layout it read before the switches puts its
// messages where that layout does, and History, Get and Newest find them.
func TestReshardServerNumbered_TN12_TN13(t *testing.T) {
	t.Parallel()
	s := tinode.New(tabletest.NewTable(t, table.NewSchema("tinode")), func(o *tinode.Options) {
		o.MessageShards = 4
		o.ServerNumbered = true
	})
	mustTopic(t, s, "grpNum")
	tp, err := s.Topics.ByName.Get(ctx(t), tn.Topic{Id: "grpNum"})
	if err != nil {
		t.Fatal(err)
	}
	first, err := table.ParseLayout(tp.MsgLayout)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now().UTC()
	write := func(l table.Layout, from, to int) {
		t.Helper()
		for seq := from; seq <= to; seq++ {
			if err := s.Messages.ImportAt(ctx(t), &tn.Message{Topic: "grpNum", SeqId: seq, From: "usrA", CreatedAt: at, Content: tn.JSON("hi")}, l); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Messages 1..6 stored; the topic records SeqId 2 only (the rest not
	// flushed yet).
	write(first, 1, 6)
	if _, err := s.Topics.RecordMessage(ctx(t), "grpNum", 2, at); err != nil {
		t.Fatal(err)
	}
	l1, err := s.Messages.Reshard(ctx(t), "grpNum", 8)
	if err != nil {
		t.Fatal(err)
	}
	if l1.String() != "0:4,7:8" {
		t.Fatalf("first switch: %s, want 0:4,7:8 (past the newest stored message 6, not the recorded SeqId 2)", l1)
	}
	l2, err := s.Messages.Reshard(ctx(t), "grpNum", 4)
	if err != nil {
		t.Fatal(err)
	}
	if l2.String() != "0:4,7:8,8:4" {
		t.Fatalf("second switch before any message: %s, want 0:4,7:8,8:4 (appended, the 8 kept)", l2)
	}
	// A server that read l1 writes 7..9 under it; one that read the first
	// layout writes 10..12 under that; then 13..15 under l2.
	write(l1, 7, 9)
	write(first, 10, 12)
	write(l2, 13, 15)
	got := historySeqs(t, s, "grpNum", tinode.HistoryFilter{}, 4)
	if want := []int{15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}; !slices.Equal(got, want) {
		t.Fatalf("History = %v, want %v", got, want)
	}
	for seq := 1; seq <= 15; seq++ {
		if m, err := s.Messages.Get(ctx(t), "grpNum", seq); err != nil || m.SeqId != seq {
			t.Fatalf("Get %d = %d, %v", seq, m.SeqId, err)
		}
	}
	if m, err := s.Messages.Newest(ctx(t), "grpNum", l2); err != nil || m.SeqId != 15 {
		t.Fatalf("Newest = %d, %v; want 15", m.SeqId, err)
	}
	// The next switch starts past 15 whatever the topic records.
	l3, err := s.Messages.Reshard(ctx(t), "grpNum", 2)
	if err != nil || l3.String() != "0:4,7:8,8:4,16:2" {
		t.Fatalf("third switch: %s, %v; want 0:4,7:8,8:4,16:2", l3, err)
	}
}
