package tinode_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
)

func contextWithTimeout(c context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(c, d)
}

func seqsOf(ms []tn.Message) []int {
	out := []int{}
	for _, m := range ms {
		out = append(out, m.SeqId)
	}
	return out
}

// TestSaveConcurrent_TN12: 100 concurrent senders to one topic, half of
// them through a second store (another process: its own group commits,
// racing the first's), get SeqIds 1..100, no gap, no duplicate, the
// topic's SeqId ends at 100, and the messages cost at most 3 requests each
// on average (issue 12).
func TestSaveConcurrent_TN12(t *testing.T) {
	t.Parallel()
	s0 := newStore(t)
	c := ctx(t)
	mustTopic(t, s0, "grpHot", "a")
	s, rc := counted(t, s0)
	other, rc2 := counted(t, s0)
	const n = 100
	var wg sync.WaitGroup
	seqs := make([]int, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			m := tn.Message{Topic: "grpHot", From: tn.UserID(fmt.Sprintf("u%d", i)), Content: tn.JSON(i)}
			if i%2 == 0 {
				errs[i] = s.Messages.Save(c, &m)
			} else {
				errs[i] = other.Messages.Save(c, &m)
			}
			seqs[i] = m.SeqId
		})
	}
	wg.Wait()
	if reqs := rc.Total() + rc2.Total(); reqs > 3*n {
		t.Errorf("%d messages took %d requests, more than 3 each", n, reqs)
	} else {
		t.Logf("%d messages from 100 senders in 2 processes: %d requests (%.2f per message)", n, reqs, float64(reqs)/n)
	}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("sender %d: %v", i, err)
		}
	}
	slices.Sort(seqs)
	want := make([]int, n)
	for i := range want {
		want[i] = i + 1
	}
	if d := cmp.Diff(want, seqs); d != "" {
		t.Errorf("SeqIds (-want +got):\n%s", d)
	}
	top, _ := s.Topics.ByName.Get(c, tn.Topic{Id: "grpHot"})
	if top.SeqId != n || top.TouchedAt == nil {
		t.Errorf("topic SeqId %d, TouchedAt %v", top.SeqId, top.TouchedAt)
	}
	all, err := table.Collect(table.Every(c, s.Messages.History, tinode.HistoryFilter{Topic: "grpHot"}, table.Limit(30)))
	if err != nil || len(all) != n {
		t.Fatalf("history: %d messages, %v", len(all), err)
	}
	for i, m := range all {
		if m.SeqId != n-i {
			t.Fatalf("history[%d] = %d, want %d", i, m.SeqId, n-i)
		}
	}
	p, err := s.Messages.History(c, tinode.HistoryFilter{Topic: "grpHot"})
	if err != nil || len(p.Items) != tinode.DefaultHistoryLimit || p.Items[0].SeqId != n || !p.More() {
		t.Fatalf("default page: %d items, more %v, %v", len(p.Items), p.More(), err)
	}
	p, err = s.Messages.History(c, tinode.HistoryFilter{Topic: "grpHot"}, table.Limit(70))
	if err != nil || len(p.Items) != 70 {
		t.Fatalf("table.Limit(70): %d items, %v", len(p.Items), err)
	}
	_, err = s.Messages.History(c, tinode.HistoryFilter{Topic: "grpHot"}, table.Limit(table.MaxListLimit+1))
	wantInvalid(t, err, "limit")
}

// TestHistory_TN13 lists messages by SeqId range, newest first, in numeric
// order (9 before 10), limited; bad ranges are refused.
func TestHistory_TN13(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustTopic(t, s, "p2pXY", "x", "y")
	for i := range 12 {
		m := tn.Message{Topic: "p2pXY", From: "x", Content: tn.JSON(fmt.Sprint("m", i+1)), Head: tn.JSON(map[string]string{"mime": "text/plain"})}
		if err := s.Messages.Save(c, &m); err != nil {
			t.Fatal(err)
		}
		if m.SeqId != i+1 {
			t.Fatalf("SeqId = %d, want %d", m.SeqId, i+1)
		}
	}
	p, err := s.Messages.History(c, tinode.HistoryFilter{Topic: "p2pXY", Seq: tinode.SeqRange{Since: 8, Before: 12}}, table.Limit(3))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{11, 10, 9}, seqsOf(p.Items)); d != "" {
		t.Errorf("newest first (-want +got):\n%s", d)
	}
	p, err = s.Messages.History(c, tinode.HistoryFilter{Topic: "p2pXY", Seq: tinode.SeqRange{Since: 8, Before: 12}}, table.After(p.Cursor), table.Limit(3))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{8}, seqsOf(p.Items)); d != "" {
		t.Errorf("second page (-want +got):\n%s", d)
	}
	p, err = s.Messages.History(c, tinode.HistoryFilter{Topic: "p2pXY", Seq: tinode.SeqRange{Since: 9}}, table.Asc())
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{9, 10, 11, 12}, seqsOf(p.Items)); d != "" {
		t.Errorf("ascending 9.. (-want +got):\n%s", d)
	}
	if string(p.Items[0].Content) != `"m9"` || string(p.Items[0].Head) != `{"mime":"text/plain"}` {
		t.Errorf("message 9: content %s head %s", p.Items[0].Content, p.Items[0].Head)
	}
	_, err = s.Messages.History(c, tinode.HistoryFilter{Topic: "p2pXY", Seq: tinode.SeqRange{Since: 10, Before: 5}})
	wantInvalid(t, err, "SeqRange")
	_, err = s.Messages.History(c, tinode.HistoryFilter{Topic: "p2pXY", Seq: tinode.SeqRange{Since: 5, Before: 5}})
	wantInvalid(t, err, "SeqRange")
	_, err = s.Messages.History(c, tinode.HistoryFilter{Topic: "p2pXY", Seq: tinode.SeqRange{Since: -1}})
	wantInvalid(t, err, "SeqRange")
	_, err = s.Messages.History(c, tinode.HistoryFilter{Topic: ""})
	wantInvalid(t, err, "Topic")
	wantInvalid(t, s.Messages.Save(c, &tn.Message{Topic: "p2pXY", Content: tn.RawJSON("{bad")}), "Content")
	wantInvalid(t, s.Messages.Save(c, &tn.Message{Topic: ""}), "Topic")
	wantIs(t, s.Messages.Save(c, &tn.Message{Topic: "nope"}), table.ErrNotFound)
	wantIs(t, s.Messages.Import(c, &tn.Message{Topic: "p2pXY", SeqId: 3}), table.ErrAlreadyExists)
}

// TestDeleteMessages_TN14 (TN-14) soft-deletes for one user (hidden from that user
// only) and hard-deletes for all (DeletedAt, content removed).
func TestDeleteMessages_TN14(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustTopic(t, s, "p2pXY", "x", "y")
	for i := range 6 {
		if err := s.Messages.Save(c, &tn.Message{Topic: "p2pXY", From: "x", Content: tn.JSON(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.Messages.DeleteForUser(c, "p2pXY", "x", 2, 5)
	if err != nil || n != 3 {
		t.Fatalf("soft delete: %d, %v", n, err)
	}
	if n, _ := s.Messages.DeleteForUser(c, "p2pXY", "x", 2, 5); n != 0 {
		t.Errorf("second soft delete hid %d again", n)
	}
	history := func(f tinode.HistoryFilter) []int {
		f.Topic = "p2pXY"
		p, err := s.Messages.History(c, f)
		if err != nil {
			t.Fatal(err)
		}
		return seqsOf(p.Items)
	}
	if d := cmp.Diff([]int{6, 5, 1}, history(tinode.HistoryFilter{ForUser: "x"})); d != "" {
		t.Errorf("x's view (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]int{6, 5, 4, 3, 2, 1}, history(tinode.HistoryFilter{ForUser: "y"})); d != "" {
		t.Errorf("y's view (-want +got):\n%s", d)
	}
	// Hidden messages are dropped after reading: the iterator goes on
	// past pages left short or empty.
	all, err := table.Collect(table.Every(c, s.Messages.History, tinode.HistoryFilter{Topic: "p2pXY", ForUser: "x"}, table.Limit(2)))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{6, 5, 1}, seqsOf(all)); d != "" {
		t.Errorf("x's view, pages of 2 (-want +got):\n%s", d)
	}
	all, err = table.Collect(table.Every(c, s.Messages.History, tinode.HistoryFilter{Topic: "p2pXY", ForUser: "x"}, table.Limit(2), table.Asc()))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{1, 5, 6}, seqsOf(all)); d != "" {
		t.Errorf("x's view, oldest first (-want +got):\n%s", d)
	}
	_, err = s.Messages.History(c, tinode.HistoryFilter{Topic: "p2pXY", ForUser: "bad\x00id"})
	wantInvalid(t, err, "ForUser")
	m, _ := s.Messages.Get(c, "p2pXY", 3)
	if d := cmp.Diff(tn.DeletedFor{{User: "x"}}, m.DeletedFor); d != "" {
		t.Errorf("DeletedFor (-want +got):\n%s", d)
	}
	n, err = s.Messages.DeleteForAll(c, "p2pXY", 5, 0)
	if err != nil || n != 2 {
		t.Fatalf("hard delete: %d, %v", n, err)
	}
	if d := cmp.Diff([]int{4, 3, 2, 1}, history(tinode.HistoryFilter{ForUser: "y"})); d != "" {
		t.Errorf("after hard delete (-want +got):\n%s", d)
	}
	m, err = s.Messages.Get(c, "p2pXY", 6)
	if err != nil || m.DeletedAt == nil || m.Content != nil || !m.UpdatedAt.Equal(*m.DeletedAt) {
		t.Errorf("tombstone: %+v %v", m, err)
	}
	if d := cmp.Diff([]int{6, 5, 4, 3, 2, 1}, history(tinode.HistoryFilter{IncludeDeleted: true})); d != "" {
		t.Errorf("IncludeDeleted (-want +got):\n%s", d)
	}
	_, err = s.Messages.DeleteForUser(c, "p2pXY", "", 1, 0)
	wantInvalid(t, err, "User")
	_, err = s.Messages.DeleteForAll(c, "p2pXY", 4, 2)
	wantInvalid(t, err, "SeqRange")
}

// TestExpiry_TN15: a message past its ExpireTime is never returned (Get,
// History, Load), while the same item is returned before it.
func TestExpiry_TN15(t *testing.T) {
	t.Parallel()
	clk := &clock{now: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := newStore(t, clk.opt)
	c := ctx(t)
	mustTopic(t, s, "grpE", "a")
	exp := clk.now.Add(time.Hour).Unix()
	for i := range 3 {
		m := tn.Message{Topic: "grpE", Content: tn.JSON(i)}
		if i == 1 {
			m.ExpireTime = exp
		}
		if err := s.Messages.Save(c, &m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Messages.Get(c, "grpE", 2); err != nil {
		t.Fatalf("before expiry: %v", err)
	}
	clk.now = clk.now.Add(2 * time.Hour)
	_, err := s.Messages.Get(c, "grpE", 2)
	wantIs(t, err, table.ErrNotFound)
	p, err := s.Messages.History(c, tinode.HistoryFilter{Topic: "grpE"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{3, 1}, seqsOf(p.Items)); d != "" {
		t.Errorf("history (-want +got):\n%s", d)
	}
	v, err := s.Topics.Load(c, "grpE")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{3, 1}, seqsOf(v.Messages)); d != "" {
		t.Errorf("load (-want +got):\n%s", d)
	}
}
