package tinode_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// shardedStore returns a store in the sharded profile (new topics with
// shards partitions of messages) on a fresh table.
func shardedStore(t testing.TB, shards int) *tinode.Store {
	t.Helper()
	return tinode.New(tabletest.NewTable(t, table.NewSchema("tinode")), func(o *tinode.Options) { o.MessageShards = shards })
}

// historySeqs pages through History with the page size and order given
// and returns the SeqIds in the order listed.
func historySeqs(t testing.TB, s *tinode.Store, topic tn.TopicName, f tinode.HistoryFilter, limit int, opts ...table.ListOption) []int {
	t.Helper()
	var out []int
	cursor := ""
	for pages := 0; ; pages++ {
		o := append([]table.ListOption{table.Limit(limit)}, opts...)
		if cursor != "" {
			o = append(o, table.After(cursor))
		}
		f.Topic = topic
		p, err := s.Messages.History(ctx(t), f, o...)
		if err != nil {
			t.Fatalf("history page %d: %v", pages, err)
		}
		if len(p.Items) > limit {
			t.Fatalf("page of %d, limit %d", len(p.Items), limit)
		}
		out = append(out, seqsOf(p.Items)...)
		if cursor = p.Cursor; cursor == "" || pages > 500 {
			return out
		}
	}
}

// TestShardedMessages_TN12_TN13: a topic whose messages are sharded in 4
// (the sharded profile), then switched to 8 and back to 1 while live,
// holds the same messages as an unsharded reference (tinode.md's layout,
// another store on another table): History lists them complete and in
// order at several page sizes, both orders and over SeqId ranges; every
// message is read by seq; the messages sit in TOPIC#{name}#{seq mod N}.
func TestShardedMessages_TN12_TN13(t *testing.T) {
	t.Parallel()
	sh := shardedStore(t, 4)
	ref := newStore(t)
	mustTopic(t, sh, "grpBig")
	mustTopic(t, ref, "grpBig")
	save := func(n int) {
		t.Helper()
		for range n {
			for _, s := range []*tinode.Store{sh, ref} {
				if err := s.Messages.Save(ctx(t), &tn.Message{Topic: "grpBig", From: "usrA", Content: tn.JSON("hi")}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	save(30)
	if _, err := sh.Messages.Reshard(ctx(t), "grpBig", 8); err != nil {
		t.Fatal(err)
	}
	save(25)
	l, err := sh.Messages.Reshard(ctx(t), "grpBig", 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.String(); got != "0:4,31:8,56:1" {
		t.Errorf("layout %q", got)
	}
	save(12)
	const total = 67
	// Every message is where its SeqId's epoch puts it.
	for seq := 1; seq <= total; seq++ {
		pk := "TOPIC#grpBig"
		switch {
		case seq <= 30:
			pk += fmt.Sprintf("#%d", seq%4)
		case seq <= 55:
			pk += fmt.Sprintf("#%d", seq%8)
		}
		raw, err := tabletest.Client(t).GetItem(ctx(t), getInput(sh, pk, seq))
		if err != nil || raw.Item == nil {
			t.Fatalf("message %d not at %s: %v", seq, pk, err)
		}
		m, err := sh.Messages.Get(ctx(t), "grpBig", seq)
		if err != nil || m.SeqId != seq {
			t.Fatalf("Get %d: %+v, %v", seq, m, err)
		}
	}
	for _, f := range []tinode.HistoryFilter{{}, {Seq: tinode.SeqRange{Since: 20, Before: 60}}, {Seq: tinode.SeqRange{Since: 31, Before: 56}}} {
		for _, asc := range []bool{false, true} {
			var opts []table.ListOption
			if asc {
				opts = append(opts, table.Asc())
			}
			want := historySeqs(t, ref, "grpBig", f, 1000, opts...)
			for _, limit := range []int{1, 3, 7, 10, 50, 1000} {
				got := historySeqs(t, sh, "grpBig", f, limit, opts...)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("filter %+v asc %v limit %d (-unsharded +sharded):\n%s", f, asc, limit, diff)
				}
			}
		}
	}
	// Load: the newest page merged over every partition.
	v, err := sh.Topics.Load(ctx(t), "grpBig", table.Limit(10))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := seqsOf(v.Messages), []int{67, 66, 65, 64, 63, 62, 61, 60, 59, 58}; !slices.Equal(got, want) {
		t.Errorf("Load messages %v, want %v", got, want)
	}
	p, err := sh.Messages.History(ctx(t), tinode.HistoryFilter{Topic: "grpBig"}, table.Limit(10), table.After(v.MessageCursor))
	if err != nil || len(p.Items) != 10 || p.Items[0].SeqId != 57 {
		t.Fatalf("History after Load: %v, %v", seqsOf(p.Items), err)
	}
	// Deleting a range for everyone rewrites the messages where they are.
	n, err := sh.Messages.DeleteForAll(ctx(t), "grpBig", 25, 40)
	if err != nil || n != 15 {
		t.Fatalf("DeleteForAll: %d, %v", n, err)
	}
	if got := historySeqs(t, sh, "grpBig", tinode.HistoryFilter{}, 9); len(got) != total-15 {
		t.Errorf("after delete %d listed, want %d", len(got), total-15)
	}
	// Deleting the topic purges every partition its layout used.
	if err := sh.Topics.Delete(ctx(t), "grpBig"); err != nil {
		t.Fatal(err)
	}
	for _, pk := range []string{"TOPIC#grpBig", "TOPIC#grpBig#0", "TOPIC#grpBig#3", "TOPIC#grpBig#7"} {
		page, err := sh.Table().QueryItems(ctx(t), table.Query{PK: pk, Consistent: true})
		if err != nil || len(page.Items) != 0 {
			t.Errorf("%s after delete: %d items, %v", pk, len(page.Items), err)
		}
	}
}

// TestReshardWhileSaving_TN12: switching a live topic to more shards
// while 20 senders save messages (issue 22): new Saves go to the new
// layout at once, old messages stay readable, and afterwards every SeqId
// 1..n is readable by seq and listed exactly once, gapless.
func TestReshardWhileSaving_TN12(t *testing.T) {
	t.Parallel()
	s := shardedStore(t, 1)
	mustTopic(t, s, "grpLive")
	const senders, each = 20, 15
	var wg sync.WaitGroup
	errs := make(chan error, senders*each+10)
	start := make(chan struct{})
	for i := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for range each {
				if err := s.Messages.Save(ctx(t), &tn.Message{Topic: "grpLive", From: tn.UserID(fmt.Sprintf("usr%02d", i)), Content: tn.JSON("x")}); err != nil {
					errs <- err
				}
			}
		}()
	}
	// The switches run as jobs, during the saves: 1 -> 4 -> 16. A switch
	// starts its epoch at the topic's SeqId + 1, after the last epoch's
	// start: a second switch with no message saved since the first is
	// refused (ValidationError on From). Whether a sender's Save lands
	// between the two jobs is the scheduler's choice (the senders may
	// also all be done, or keep losing their transactions to the switch),
	// so the job goroutine saves one message itself after each switch:
	// every epoch then holds a message and the next switch is valid.
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-start
		for _, n := range []int{4, 16} {
			rep, err := s.Table().RunJob(ctx(t), tinode.ReshardJob(fmt.Sprintf("reshard-%d", n), s, func(tp tn.Topic) int {
				if tp.Id == "grpLive" {
					return n
				}
				return 0
			}))
			if err != nil {
				errs <- err
				return
			}
			if rep.Changed != 1 {
				errs <- fmt.Errorf("reshard job to %d: %s", n, rep)
			}
			if err := s.Messages.Save(ctx(t), &tn.Message{Topic: "grpLive", From: "usrJob", Content: tn.JSON("after the switch")}); err != nil {
				errs <- err
				return
			}
		}
	}()
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	top, err := s.Topics.ByName.Get(ctx(t), tn.Topic{Id: "grpLive"})
	if err != nil {
		t.Fatal(err)
	}
	const n = senders*each + 2 // and the job goroutine's one after each switch
	if top.SeqId != n {
		t.Fatalf("SeqId %d, want %d", top.SeqId, n)
	}
	l, _ := table.ParseLayout(top.MsgLayout)
	if l.Shards() != 16 || len(l.Epochs()) != 3 { // 1, then 4 and 16, each epoch holding a message
		t.Fatalf("layout %q", top.MsgLayout)
	}
	t.Logf("layout after the switches: %s", l)
	want := make([]int, n)
	for i := range want {
		want[i] = n - i
	}
	for _, limit := range []int{7, 50, 1000} {
		if diff := cmp.Diff(want, historySeqs(t, s, "grpLive", tinode.HistoryFilter{}, limit)); diff != "" {
			t.Errorf("limit %d: listed (-want +got):\n%s", limit, diff)
		}
	}
	for seq := 1; seq <= n; seq++ {
		if m, err := s.Messages.Get(ctx(t), "grpLive", seq); err != nil || m.SeqId != seq {
			t.Fatalf("Get %d: %v", seq, err)
		}
		// Exactly where the final layout puts it: no Save wrote under a
		// layout a switch had replaced (its condition refused it).
		pk := l.SeqPK("TOPIC#grpLive", int64(seq))
		if out, err := tabletest.Client(t).GetItem(ctx(t), getInput(s, pk, seq)); err != nil || out.Item == nil {
			t.Fatalf("message %d is not in %s (layout %s): %v", seq, pk, l, err)
		}
	}
	// A second run of the job changes nothing.
	rep, err := s.Table().RunJob(ctx(t), tinode.ReshardJob("reshard-again", s, func(tn.Topic) int { return 16 }))
	if err != nil || rep.Changed != 0 || rep.Unchanged != 1 {
		t.Errorf("second run: %s, %v", rep, err)
	}
}

// TestReshardNeedsTheShardedProfile: the default profile (tinode.md's
// keys, readers that never look for a layout) refuses to shard a topic.
func TestReshardNeedsTheShardedProfile(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	mustTopic(t, s, "grpPlain")
	_, err := s.Messages.Reshard(context.Background(), "grpPlain", 4)
	wantInvalid(t, err, "MessageShards")
}

// getInput is a raw GetItem of message seq in partition pk.
func getInput(s *tinode.Store, pk string, seq int) *dynamodb.GetItemInput {
	sc := s.Table().Schema()
	k, _ := tinode.MessageKey(s, "t", seq)
	return &dynamodb.GetItemInput{TableName: aws.String(s.Table().Name()), ConsistentRead: aws.Bool(true), Key: map[string]types.AttributeValue{
		sc.PK: &types.AttributeValueMemberS{Value: pk}, sc.SK: &types.AttributeValueMemberS{Value: k.SK},
	}}
}

// TestReshardTwiceWithoutMessages_TN12: a second switch before any message
// was saved in the first one's epoch (a reshard job run twice quickly, or
// a change of mind) redoes that empty epoch instead of being refused; the
// messages before and after stay complete and in order.
func TestReshardTwiceWithoutMessages_TN12(t *testing.T) {
	t.Parallel()
	s := shardedStore(t, 4)
	mustTopic(t, s, "grpTwice")
	save := func(n int) {
		t.Helper()
		for range n {
			if err := s.Messages.Save(ctx(t), &tn.Message{Topic: "grpTwice", From: "usrA", Content: tn.JSON("hi")}); err != nil {
				t.Fatal(err)
			}
		}
	}
	save(5)
	steps := []struct {
		n    int
		want string
	}{{8, "0:4,6:8"}, {16, "0:4,6:16"}, {4, "0:4"}, {2, "0:4,6:2"}}
	for _, st := range steps {
		l, err := s.Messages.Reshard(ctx(t), "grpTwice", st.n)
		if err != nil || l.String() != st.want {
			t.Fatalf("Reshard(%d) = %q, %v; want %q", st.n, l, err, st.want)
		}
	}
	save(5)
	p, err := s.Messages.History(ctx(t), tinode.HistoryFilter{Topic: "grpTwice"}, table.Limit(20))
	if err != nil {
		t.Fatal(err)
	}
	if got := seqsOf(p.Items); !slices.Equal(got, []int{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}) {
		t.Errorf("history %v", got)
	}
}
