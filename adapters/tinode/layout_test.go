package tinode

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	t "github.com/tinode/chat/server/store/types"
)

// The tests of this file hold the scale path safe in a cluster (issue 43,
// part 3): a topic's message layout is stored with the topic and every
// server obeys it whatever its own message_shards (TN-12, TN-13), and a
// reshard runs while servers write (the store's live table.Layout.Switch).
// Two adapters on one table are two Tinode servers: each keeps its own
// memory (layouts, coalesced marks), as processes do.

// placement returns, for every message of the topic, the partition that
// holds it, read raw from the topic's own partition and shards 0..15
// (more than any layout of these tests uses), failing on a SeqId stored
// twice.
func placement(tb testing.TB, a *Adapter, topic string) map[int]string {
	tb.Helper()
	tk := a.st.Topics.ByName.Entity().Key(tn.Topic{Id: tn.TopicName(topic)})
	must(tb, tk.Err())
	pk := tk.PK
	out := map[int]string{}
	for i := -1; i < 16; i++ {
		p := pk
		if i >= 0 {
			p = table.ShardPK(pk, i, 16)
		}
		cursor := ""
		for {
			page, err := a.tbl.QueryItems(context.Background(), table.Query{PK: p, OnlyType: tinode.TypeMessage, Cursor: cursor, Consistent: true})
			must(tb, err)
			for _, raw := range page.Items {
				seq := seqOf(tb, raw)
				if prev, ok := out[seq]; ok {
					tb.Fatalf("SeqId %d stored twice: in %s and %s", seq, prev, p)
				}
				out[seq] = p
			}
			if page.Cursor == "" {
				break
			}
			cursor = page.Cursor
		}
	}
	return out
}

// seqOf is the SeqId attribute of a raw message item.
func seqOf(tb testing.TB, raw table.Item) int {
	tb.Helper()
	n, ok := raw["SeqId"].(*types.AttributeValueMemberN)
	if !ok {
		tb.Fatalf("message item without a SeqId: %v", raw)
	}
	seq, err := strconv.Atoi(n.Value)
	must(tb, err)
	return seq
}

// storedLayout is the topic's layout as stored.
func storedLayout(tb testing.TB, a *Adapter, topic string) table.Layout {
	tb.Helper()
	tp, err := a.st.Topics.ByName.Get(context.Background(), tn.Topic{Id: tn.TopicName(topic)})
	must(tb, err)
	l, err := table.ParseLayout(tp.MsgLayout)
	must(tb, err)
	return l
}

// allHistory pages MessageGetAll back from the newest message as a chat
// client does (before = the oldest SeqId held, limit 10) until the answer
// is empty, and returns the SeqIds newest first.
func allHistory(tb testing.TB, a *Adapter, topic string, as t.Uid) []int {
	tb.Helper()
	var out []int
	opts := &t.QueryOpt{Limit: 10}
	for {
		page := getAll(tb, a, topic, as, opts)
		if len(page) == 0 {
			return out
		}
		out = append(out, page...)
		opts = &t.QueryOpt{Before: page[len(page)-1], Limit: 10}
	}
}

// wantNewestFirst fails unless seqs is n..1.
func wantNewestFirst(tb testing.TB, what string, seqs []int, n int) {
	tb.Helper()
	if len(seqs) != n {
		tb.Fatalf("%s: %d messages, want %d", what, len(seqs), n)
	}
	for i, s := range seqs {
		if s != n-i {
			tb.Fatalf("%s: SeqId %d at position %d, want %d (newest first, gapless, once each)", what, s, i, n-i)
		}
	}
}

// TestLayoutStoredWithTopic_TN12_TN13: two servers of one deployment
// configured differently (message_shards 4 with coalesce_ms, and the
// default 0) write to each other's topics, as Tinode's cluster does when a
// topic moves to another node. Each message lands where the topic's
// stored layout puts it, never where the writing server's own config
// would, and each server reads every message of both topics. Before, the
// server with 0 wrote a sharded topic's messages to TOPIC#{name} and read
// only there: each server saw only its own half.
func TestLayoutStoredWithTopic_TN12_TN13(t_ *testing.T) {
	t_.Parallel()
	tbl := tabletest.NewTable(t_, table.NewSchema("tinode"))
	sharded := New(tbl, Config{MessageShards: 4, CoalesceMillis: 50})
	plain := New(tbl, Config{})
	t_.Cleanup(func() { sharded.Close(); plain.Close() })
	senders := senderUids(2)
	scaleTopic(t_, sharded, "grpBornSharded", senders)
	scaleTopic(t_, plain, "grpBornPlain", senders)
	clk := newClock()
	for _, topic := range []string{"grpBornSharded", "grpBornPlain"} {
		// 1..10 through the server that created it, 11..20 through the
		// other (the topic moved: the second loads it with TopicGet, as
		// Tinode does).
		order := []*Adapter{sharded, plain}
		if topic == "grpBornPlain" {
			order = []*Adapter{plain, sharded}
		}
		for i, a := range order {
			must(t_, order[0].Flush())
			s := &server{tb: t_, a: a, topic: topic, clk: clk}
			s.load()
			if s.lastID != 10*i {
				t_.Fatalf("%s: the server loading it numbers from %d, want %d", topic, s.lastID, 10*i)
			}
			for j := range 10 {
				clk.Advance(time.Millisecond)
				if _, err := s.send(senders[j%2], "m", 3); err != nil {
					t_.Fatal(err)
				}
			}
		}
		must(t_, sharded.Flush())
	}
	for topic, wantLayout := range map[string]string{"grpBornSharded": "0:4", "grpBornPlain": ""} {
		l := storedLayout(t_, plain, topic)
		if l.String() != wantLayout {
			t_.Fatalf("%s: stored layout %q, want %q", topic, l, wantLayout)
		}
		pk := plain.st.Topics.ByName.Entity().Key(tn.Topic{Id: tn.TopicName(topic)}).PK
		where := placement(t_, plain, topic)
		for seq := 1; seq <= 20; seq++ {
			if where[seq] != l.SeqPK(pk, int64(seq)) {
				t_.Errorf("%s: message %d in %q, the stored layout %q puts it in %q", topic, seq, where[seq], l, l.SeqPK(pk, int64(seq)))
			}
		}
		for name, a := range map[string]*Adapter{"message_shards 4": sharded, "message_shards 0": plain} {
			wantNewestFirst(t_, fmt.Sprintf("%s read by the server with %s", topic, name), allHistory(t_, a, topic, senders[1]), 20)
			if m, err := a.st.Messages.Get(context.Background(), tn.TopicName(topic), 7); err != nil || m.SeqId != 7 {
				t_.Errorf("%s: Get 7 on the server with %s = %d, %v", topic, name, m.SeqId, err)
			}
		}
	}
}

// TestReshardWhileWriting_TN12_TN13: one server writes messages to a
// topic in Tinode's call order (at least 150, until the switches are
// over) while another server (configured with message_shards 0) switches
// the topic's layout five times (4 -> 8 -> 2 -> 1 -> 8 -> 3, the last
// through the adapter's ReshardJob) and a third reads it back page by
// page (allHistory). The writer reads the stored layout again after
// layoutEvery (50 ms here, a second by default). Every message is stored
// once and every server lists them all, newest first, gapless; a point
// read finds each message written under a replaced layout (and every
// 10th); every switch appended an epoch; and the 40 messages written
// after the writer read the last layout are each in the place that
// layout gives. Before, the writer used the layout it read first for as
// long as it ran (and a server with message_shards 0 could not reshard).
func TestReshardWhileWriting_TN12_TN13(t_ *testing.T) {
	t_.Parallel()
	for _, c := range []struct {
		name string
		cfg  Config
	}{{"writer message_shards 4 coalesce_ms 50", Config{MessageShards: 4, CoalesceMillis: 50}}, {"writer default", Config{MessageShards: 4}}} {
		t_.Run(c.name, func(t_ *testing.T) {
			t_.Parallel()
			tbl := tabletest.NewTable(t_, table.NewSchema("tinode"))
			writer := New(tbl, c.cfg)
			writer.layoutEvery = 50 * time.Millisecond
			operator := New(tbl, Config{})
			reader := New(tbl, Config{})
			t_.Cleanup(func() { writer.Close(); operator.Close(); reader.Close() })
			senders := senderUids(3)
			const topic, minN = "grpLive", 150
			scaleTopic(t_, writer, topic, senders)
			clk := newClock()
			s := &server{tb: t_, a: writer, topic: topic, clk: clk}
			s.load()

			// The writer writes until the switches are over and at least
			// minN messages are written: every switch is made while it
			// writes, however fast the machine.
			var wg sync.WaitGroup
			var written atomic.Int64
			stop := make(chan struct{})
			writeErr := make(chan error, 1)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						if i >= minN {
							return
						}
					default:
					}
					if _, err := s.send(senders[i%3], "m", 3); err != nil {
						writeErr <- fmt.Errorf("message %d: %w", i+1, err)
						return
					}
					written.Store(int64(i + 1))
				}
			}()
			var layouts []table.Layout
			counts := []int{8, 2, 1, 8}
			for _, k := range counts {
				time.Sleep(60 * time.Millisecond)
				l, err := operator.Reshard(topic, k)
				if err != nil {
					t_.Fatalf("Reshard to %d while writing: %v", k, err)
				}
				layouts = append(layouts, l)
			}
			time.Sleep(60 * time.Millisecond)
			rep, err := operator.tbl.RunJob(context.Background(), operator.ReshardJob("reshard-live", func(tp tn.Topic) int { return 3 }))
			if err != nil || rep.Changed != 1 {
				t_.Fatalf("ReshardJob while writing: %+v, %v", rep, err)
			}
			layouts = append(layouts, storedLayout(t_, operator, topic))
			close(stop)
			wg.Wait()
			select {
			case err := <-writeErr:
				t_.Fatal(err)
			default:
			}
			// The writer has read the last layout: 40 more messages.
			n := int(written.Load())
			time.Sleep(2 * writer.layoutEvery)
			for i := n; i < n+40; i++ {
				if _, err := s.send(senders[i%3], "m", 3); err != nil {
					t_.Fatal(err)
				}
			}
			must(t_, writer.Flush())
			total := n + 40

			final := layouts[len(layouts)-1]
			t_.Logf("layouts: %v", layouts)
			ep := final.Epochs()
			if len(ep) != 1+len(counts)+1 {
				t_.Errorf("final layout %s has %d epochs, want %d: every switch appends one", final, len(ep), 1+len(counts)+1)
			}
			if last := ep[len(ep)-1].From; last > int64(n) {
				t_.Fatalf("the last switch starts at %d, after the writer's %d messages: not a switch while writing", last, n)
			}
			where := placement(t_, reader, topic)
			pk := reader.st.Topics.ByName.Entity().Key(tn.Topic{Id: tn.TopicName(topic)}).PK
			var off []int
			for seq := 1; seq <= total; seq++ {
				p, ok := where[seq]
				if !ok {
					t_.Fatalf("message %d is not stored", seq)
				}
				if p != final.SeqPK(pk, int64(seq)) {
					off = append(off, seq)
					if seq > n {
						t_.Errorf("message %d, written after the writer read %s, is in %s, not %s", seq, final, p, final.SeqPK(pk, int64(seq)))
					}
				}
			}
			if len(where) != total {
				t_.Fatalf("%d messages stored, want %d", len(where), total)
			}
			t_.Logf("%d messages written while switching, %d of %d under a layout a switch had replaced (where the previous epoch puts them)", n, len(off), total)
			for name, a := range map[string]*Adapter{"writer": writer, "operator": operator, "reader": reader} {
				wantNewestFirst(t_, name+"'s history", allHistory(t_, a, topic, senders[0]), total)
			}
			// Point reads: each message written under a replaced layout, and
			// every 10th.
			for seq := 1; seq <= total; seq++ {
				if seq%10 != 0 && !slices.Contains(off, seq) {
					continue
				}
				if m, err := reader.st.Messages.Get(context.Background(), tn.TopicName(topic), seq); err != nil || m.SeqId != seq {
					t_.Fatalf("Get %d = %d, %v", seq, m.SeqId, err)
				}
			}
			checkTopic(t_, reader, topic, total, senders)
		})
	}
}
