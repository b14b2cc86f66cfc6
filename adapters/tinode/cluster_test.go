package tinode

import (
	"fmt"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	t "github.com/tinode/chat/server/store/types"
)

// Two adapters on one table are two nodes of a Tinode cluster: node A
// hosts a topic (its topic goroutine: server), node B serves a member's
// 'me' and reads the topic's subscriptions from the table (README
// "Scale", issue 43 part 3).

// node returns another adapter (a cluster node) on tb's table, with its
// own client, on clock clk (nil: the wall clock).
func node(tb testing.TB, tbl *table.Table, clk *clock, cfg Config) *Adapter {
	tb.Helper()
	tbl2 := table.New(tabletest.NewClient(tb), tbl.Schema(), func(o *table.Options) {
		o.Cipher = tabletest.Cipher()
		if clk != nil {
			o.Now = clk.Now
		}
	})
	a := New(tbl2, cfg)
	tb.Cleanup(func() { a.Close() })
	return a
}

// waitFlushes waits until no flush of a's coalescer is in flight.
func waitFlushes(a *Adapter) {
	for {
		a.coal.mu.Lock()
		busy := false
		for _, p := range a.coal.topics {
			busy = busy || p.flushing
		}
		a.coal.mu.Unlock()
		if !busy {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// seen is what a node shows of one member of topic: the topic's SeqId in
// the member's 'me' (TopicsForUser) and the member's marks, from
// TopicsForUser, SubscriptionGet and SubsForUser (all three must agree).
type seen struct{ seq, recv, read int }

func (s seen) String() string { return fmt.Sprintf("seq %d recv %d read %d", s.seq, s.recv, s.read) }

func readMember(tb testing.TB, b *Adapter, topic string, u t.Uid) seen {
	tb.Helper()
	subs, err := b.TopicsForUser(u, false, nil)
	must(tb, err)
	var me *t.Subscription
	for i := range subs {
		if subs[i].Topic == topic {
			me = &subs[i]
		}
	}
	if me == nil {
		tb.Fatalf("%s: 'me' of %s has no %s", topic, u, topic)
	}
	got := seen{seq: me.GetSeqId(), recv: me.RecvSeqId, read: me.ReadSeqId}
	sub, err := b.SubscriptionGet(topic, u, false)
	must(tb, err)
	if sub.RecvSeqId != got.recv || sub.ReadSeqId != got.read {
		tb.Fatalf("%s: %s: SubscriptionGet recv %d read %d, TopicsForUser %s", topic, u, sub.RecvSeqId, sub.ReadSeqId, got)
	}
	all, err := b.SubsForUser(u)
	must(tb, err)
	for _, s := range all {
		if s.Topic == topic && (s.RecvSeqId != got.recv || s.ReadSeqId != got.read) {
			tb.Fatalf("%s: %s: SubsForUser recv %d read %d, TopicsForUser %s", topic, u, s.RecvSeqId, s.ReadSeqId, got)
		}
	}
	return got
}

// TestClusterQuietReadsAsSQL_TN9_TN10_TN12: with the default
// configuration, node A hosts a group topic and its members send at 5
// messages a second (a modeled clock); right after each message node B
// reads every member's 'me' entry of the topic (TopicsForUser),
// SubscriptionGet and SubsForUser, and sees exactly what Tinode on
// PostgreSQL shows at that moment: the topic's SeqId is the last message,
// the sender's RecvSeqId and ReadSeqId are that message (Tinode's Save
// marks it read by its sender), a member's read note (Tinode's
// store.Subs.Update, through node A) is its value, and a sender that may
// not read (mode without R: Tinode makes no SubsUpdate) leaves its marks
// where they were while the SeqId moves. Before, with message_shards 4
// and coalesce_ms 1000, node B saw the SeqId and the sender's marks up to
// a second old.
func TestClusterQuietReadsAsSQL_TN9_TN10_TN12(t_ *testing.T) {
	t_.Parallel()
	clk := newClock()
	tbl := tabletest.NewTable(t_, table.NewSchema("tinode"), clk.opt())
	a := node(t_, tbl, clk, DefaultConfig())
	b := node(t_, tbl, clk, DefaultConfig())
	const topic = "grpQuiet"
	members := senderUids(4) // the last one writes without R
	scaleTopic(t_, a, topic, members)
	must(t_, a.SubsUpdate(topic, members[3], map[string]any{"ModeWant": t.ModeWrite | t.ModeJoin, "ModeGiven": t.ModeWrite | t.ModeJoin, "UpdatedAt": clk.Now()}))
	s := &server{tb: t_, a: a, topic: topic, clk: clk}
	s.load()
	model := make([]seen, len(members)) // what PostgreSQL holds
	for i := range 40 {
		clk.Advance(200 * time.Millisecond)
		from := i % len(members)
		if from == 3 {
			// Tinode's Save without readBySender: no SubsUpdate.
			m, err := s.send(members[from], fmt.Sprintf("m%d", i), 2)
			must(t_, err)
			s.lastID = m.SeqId
		} else {
			m, err := s.send(members[from], fmt.Sprintf("m%d", i), 3)
			must(t_, err)
			model[from].recv, model[from].read = m.SeqId, m.SeqId
		}
		if i%7 == 3 {
			// A member reads up to an older message: Tinode's
			// store.Subs.Update adds UpdatedAt (written through always).
			r := (from + 1) % 3
			read := max(model[r].read, s.lastID-1)
			must(t_, a.SubsUpdate(topic, members[r], map[string]any{"ReadSeqId": read, "UpdatedAt": clk.Now()}))
			model[r].read = read
		}
		for j, u := range members {
			want := model[j]
			want.seq = s.lastID
			if got := readMember(t_, b, topic, u); got != want {
				t_.Fatalf("after SeqId %d (from member %d), node B shows member %d %s; PostgreSQL shows %s", s.lastID, from, j, got, want)
			}
		}
	}
	// The topic stayed quiet: node A kept nothing.
	a.coal.mu.Lock()
	p := a.coal.topics[topic]
	kept, through := len(p.marks), p.through
	a.coal.mu.Unlock()
	if kept != 0 || through != s.lastID {
		t_.Fatalf("node A keeps %d senders' marks, wrote through up to %d of %d", kept, through, s.lastID)
	}
}

// TestClusterHotWindow_TN12: a topic above its write-through budget (3
// senders at 1,000 messages a second, a modeled clock; budget 100 a
// second, coalesce_ms 100) is coalesced, and what node B reads lags node
// A by at most coalesce_ms: after each message (and the flush it started,
// if any), B's SeqId of the topic and each sender's marks are no older
// than the messages of 100 ms before. The first 100 messages (a full
// budget) and the messages after the topic turned quiet again are read
// exactly. Node A's own reads never lag.
func TestClusterHotWindow_TN12(t_ *testing.T) {
	t_.Parallel()
	clk := newClock()
	tbl := tabletest.NewTable(t_, table.NewSchema("tinode"), clk.opt())
	cfg := Config{MessageShards: 4, CoalesceMillis: 100, WriteThroughPerSecond: 100}
	a := node(t_, tbl, clk, cfg)
	b := node(t_, tbl, clk, DefaultConfig())
	const topic = "grpHot"
	senders := senderUids(3)
	scaleTopic(t_, a, topic, senders)
	s := &server{tb: t_, a: a, topic: topic, clk: clk}
	s.load()
	lastBy := map[t.Uid]int{}
	maxLag, exact := 0, 0
	check := func(i int, bound int) {
		waitFlushes(a)
		for _, u := range senders {
			got := readMember(t_, b, topic, u)
			lag := s.lastID - got.seq
			maxLag = max(maxLag, lag)
			if lag > bound {
				t_.Fatalf("message %d: node B shows SeqId %d of %d: %d messages (ms) behind, coalesce_ms is 100", i, got.seq, s.lastID, lag)
			}
			want := lastBy[u]
			if want-got.recv > bound+2 || want-got.read > bound+2 {
				t_.Fatalf("message %d: node B shows %s's marks %s, its last message is %d", i, u, got, want)
			}
			if got.recv > want || got.read > want {
				t_.Fatalf("message %d: node B shows %s's marks %s past its last message %d", i, u, got, want)
			}
			if lag == 0 && got.recv == want {
				exact++
			}
			own, err := a.SubscriptionGet(topic, u, false)
			must(t_, err)
			if own.RecvSeqId != want || own.ReadSeqId != want {
				t_.Fatalf("message %d: node A shows %s's marks %d/%d, its last message is %d", i, u, own.RecvSeqId, own.ReadSeqId, want)
			}
		}
	}
	for i := range 600 {
		clk.Advance(time.Millisecond)
		from := senders[i%3]
		m, err := s.send(from, fmt.Sprintf("m%d", i), 3)
		must(t_, err)
		lastBy[from] = m.SeqId
		if i < 99 {
			check(i, 0) // within the first second's budget: exact
			continue
		}
		check(i, 100+1)
	}
	if maxLag < 50 {
		t_.Fatalf("node B lagged at most %d messages: the topic was not coalesced", maxLag)
	}
	// Quiet again: 2 modeled seconds of nothing, then 5 messages a second.
	clk.Advance(2 * time.Second)
	for i := range 10 {
		clk.Advance(200 * time.Millisecond)
		from := senders[i%3]
		m, err := s.send(from, fmt.Sprintf("q%d", i), 3)
		must(t_, err)
		lastBy[from] = m.SeqId
		check(600+i, 0)
	}
	t_.Logf("hot: node B lagged up to %d messages (%d ms at 1,000/s); %d of %d reads exact", maxLag, maxLag, exact, 3*610)
}

// TestClusterStaleFlushNeverBackwards_TN9_TN12: node A hosts a hot topic
// and keeps its SeqId and senders' marks; the topic moves to node B (a
// cluster rehash: B's TopicGet recovers them from the stored messages),
// whose server writes 10 newer messages through; then node A flushes what
// it kept, over values it last saw long before. Nothing moves back: the
// topic's SeqId and each sender's marks are B's.
func TestClusterStaleFlushNeverBackwards_TN9_TN12(t_ *testing.T) {
	t_.Parallel()
	for _, how := range []string{"Flush", "TopicUpdateSubCnt"} {
		t_.Run(how, func(t_ *testing.T) {
			t_.Parallel()
			clk := newClock()
			tbl := tabletest.NewTable(t_, table.NewSchema("tinode"), clk.opt())
			// Always coalesced, and flushed once (at its first message)
			// until told: the ticker's period is 1,000 s.
			a := node(t_, tbl, clk, Config{MessageShards: 4, CoalesceMillis: 1_000_000})
			b := node(t_, tbl, clk, DefaultConfig())
			const topic = "grpMoved"
			senders := senderUids(2)
			scaleTopic(t_, a, topic, senders)
			sa := &server{tb: t_, a: a, topic: topic, clk: clk}
			sa.load()
			for i := range 50 {
				clk.Advance(time.Millisecond)
				_, err := sa.send(senders[i%2], fmt.Sprintf("a%d", i), 3)
				must(t_, err)
			}
			waitFlushes(a)
			a.coal.mu.Lock()
			kept := len(a.coal.topics[topic].marks)
			a.coal.mu.Unlock()
			if kept == 0 {
				t_.Fatal("node A keeps nothing: the test would prove nothing")
			}
			before := readMember(t_, b, topic, senders[0])
			// The topic moves to node B.
			sb := &server{tb: t_, a: b, topic: topic, clk: clk}
			sb.load()
			if sb.lastID != 50 {
				t_.Fatalf("node B loads SeqId %d, 50 are stored", sb.lastID)
			}
			clk.Advance(2 * time.Second)
			for i := range 10 {
				clk.Advance(200 * time.Millisecond)
				_, err := sb.send(senders[0], fmt.Sprintf("b%d", i), 3)
				must(t_, err)
			}
			// Node A lets go of what it kept, long after.
			if how == "Flush" {
				must(t_, a.Flush())
			} else {
				must(t_, a.TopicUpdateSubCnt(topic))
				a.coal.mu.Lock()
				_, still := a.coal.topics[topic]
				a.coal.mu.Unlock()
				if still {
					t_.Fatal("node A still holds the topic it let go")
				}
			}
			got0, got1 := readMember(t_, b, topic, senders[0]), readMember(t_, b, topic, senders[1])
			if got0 != (seen{60, 60, 60}) || got1 != (seen{60, 50, 50}) {
				t_.Fatalf("after node A's flush: sender 0 %s, sender 1 %s; want seq 60, marks 60 and 50 (before B: %s)", got0, got1, before)
			}
			ctx := t_.Context()
			tp, err := a.st.Topics.ByName.Get(ctx, tn.Topic{Id: topic})
			must(t_, err)
			if tp.SeqId != 60 {
				t_.Fatalf("stored SeqId %d, want 60", tp.SeqId)
			}
		})
	}
}

// TestRaiseNeverBackwards_TN9_TN12: four nodes raise one topic's SeqId and
// one subscription's marks at once, each from its own stale guess, 40
// times each with random values; the stored values end as the highest
// any node wrote, and no node ever reads a value lower than one it saw
// stored before.
func TestRaiseNeverBackwards_TN9_TN12(t_ *testing.T) {
	t_.Parallel()
	tbl := tabletest.NewTable(t_, table.NewSchema("tinode"))
	first := New(tbl, Config{})
	const topic = "grpRace"
	senders := senderUids(1)
	scaleTopic(t_, first, topic, senders)
	var mu sync.Mutex
	top, topRecv, topRead := 0, 0, 0
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for n := range 4 {
		a := node(t_, tbl, nil, DefaultConfig())
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(n), 43))
			guess, g := 0, mark{}
			for range 40 {
				seq := 1 + rng.IntN(1000)
				want := mark{recv: 1 + rng.IntN(1000), read: 1 + rng.IntN(1000)}
				ctx := t_.Context()
				got, err := a.raiseSeq(ctx, topic, guess, seq, time.Now())
				if err != nil || got < seq || got < guess {
					errs <- fmt.Errorf("node %d: raiseSeq(%d over %d) = %d, %v", n, seq, guess, got, err)
					return
				}
				m, err := a.raiseMarks(ctx, topic, tn.UserID(senders[0].String()), g, want)
				if err != nil || m.recv < want.recv || m.read < want.read || m.recv < g.recv || m.read < g.read {
					errs <- fmt.Errorf("node %d: raiseMarks(%v over %v) = %v, %v", n, want, g, m, err)
					return
				}
				guess, g = got, m
				mu.Lock()
				top, topRecv, topRead = max(top, seq), max(topRecv, want.recv), max(topRead, want.read)
				mu.Unlock()
				if rng.IntN(3) == 0 {
					guess, g = 0, mark{} // forget: a stale guess
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t_.Fatal(err)
	}
	ctx := t_.Context()
	tp, err := first.st.Topics.ByName.Get(ctx, tn.Topic{Id: topic})
	must(t_, err)
	sub, err := first.st.Subs.ByTopicUser.Get(ctx, tn.Subscription{Topic: topic, User: tn.UserID(senders[0].String())})
	must(t_, err)
	if tp.SeqId != top || sub.RecvSeqId != topRecv || sub.ReadSeqId != topRead {
		t_.Fatalf("stored SeqId %d, marks %d/%d; the highest raised: %d, %d/%d", tp.SeqId, sub.RecvSeqId, sub.ReadSeqId, top, topRecv, topRead)
	}
}

// TestExitWithoutClose_SampleData: tinode-db loads its sample data (96
// messages over the topics, as fast as it can) and exits with os.Exit,
// never calling Close. With the default configuration every topic stays
// within its write-through budget, so a server started afterwards (a new
// adapter, nothing loaded) shows each topic's SeqId and each sender's
// marks as PostgreSQL does, before any server loads a topic. Before, with
// message_shards 4 and coalesce_ms 1000, the topics showed SeqId 1.
func TestExitWithoutClose_SampleData(t_ *testing.T) {
	t_.Parallel()
	tbl := tabletest.NewTable(t_, table.NewSchema("tinode"))
	db := New(tbl, DefaultConfig())
	members := senderUids(3)
	topics := []string{"grpSample1", "grpSample2", "grpSample3"}
	servers := map[string]*server{}
	for _, name := range topics {
		scaleTopic(t_, db, name, members)
		servers[name] = &server{tb: t_, a: db, topic: name, clk: &clock{}}
	}
	rng := rand.New(rand.NewPCG(96, 1))
	last := map[string]map[t.Uid]int{}
	for i := range 96 {
		name := topics[rng.IntN(len(topics))]
		from := members[rng.IntN(len(members))]
		s := servers[name]
		s.clk.ns.Store(time.Now().UnixNano())
		m, err := s.send(from, fmt.Sprintf("sample %d", i), 3)
		must(t_, err)
		if last[name] == nil {
			last[name] = map[t.Uid]int{}
		}
		last[name][from] = m.SeqId
	}
	db.coal.kill() // os.Exit: no Close, no flush
	srv := New(tbl, DefaultConfig())
	defer srv.Close()
	for _, name := range topics {
		for _, u := range members {
			got := readMember(t_, srv, name, u)
			want := seen{seq: servers[name].lastID, recv: last[name][u], read: last[name][u]}
			if got != want {
				t_.Fatalf("%s, member %s: %s; PostgreSQL shows %s", name, u, got, want)
			}
		}
	}
}

// TestClusterTopicRecreated_TN8_TN12: node A wrote 5 messages of a topic
// (a p2p topic's name comes back when both users delete it and talk
// again); node B deletes it (hard) and creates it again under the same
// name; node A, which still remembers the old topic, loads the new one:
// TopicGet gives SeqId 0 (Tinode numbers the first message 1), and its
// first message is recorded as SeqId 1.
func TestClusterTopicRecreated_TN8_TN12(t_ *testing.T) {
	t_.Parallel()
	clk := newClock()
	tbl := tabletest.NewTable(t_, table.NewSchema("tinode"), clk.opt())
	a := node(t_, tbl, clk, DefaultConfig())
	b := node(t_, tbl, clk, DefaultConfig())
	const topic = "grpAgain"
	senders := senderUids(2)
	scaleTopic(t_, a, topic, senders)
	s := &server{tb: t_, a: a, topic: topic, clk: clk}
	s.load()
	for i := range 5 {
		clk.Advance(200 * time.Millisecond)
		_, err := s.send(senders[i%2], fmt.Sprintf("old %d", i), 3)
		must(t_, err)
	}
	must(t_, b.TopicDelete(topic, false, true))
	scaleTopic(t_, b, topic, senders)
	s.load()
	if s.lastID != 0 {
		t_.Fatalf("node A loads the new topic at SeqId %d, want 0", s.lastID)
	}
	clk.Advance(200 * time.Millisecond)
	_, err := s.send(senders[0], "new", 3)
	must(t_, err)
	if got := readMember(t_, b, topic, senders[0]); got != (seen{1, 1, 1}) {
		t_.Fatalf("node B shows %s, want seq 1 recv 1 read 1", got)
	}
}

// TestWriteThroughLostResponse_TN9_TN12: node A's write-throughs lose
// their responses after DynamoDB applied them (3 UpdateItems in a row,
// from the third on): the SDK resends each and the write token
// recognises it as applied; with the SDK's retries off the adapter gets
// the error, keeps the message for the flush, whose conditional write
// finds the value already stored. Either way node B reads exactly
// PostgreSQL's SeqId and marks after every message, and the stored topic
// ends as the messages say.
func TestWriteThroughLostResponse_TN9_TN12(t_ *testing.T) {
	t_.Parallel()
	for _, sdkRetries := range []bool{true, false} {
		t_.Run(fmt.Sprintf("sdkRetries=%v", sdkRetries), func(t_ *testing.T) {
			t_.Parallel()
			clk := newClock()
			tbl := tabletest.NewTable(t_, table.NewSchema("tinode"), clk.opt())
			const topic = "grpLostWT"
			senders := senderUids(2)
			scaleTopic(t_, New(tbl, Config{}), topic, senders)
			lost := &tabletest.LostResponses{Op: "UpdateItem", Times: 3, After: 2, Drop: !sdkRetries}
			opts := []func(*dynamodb.Options){lost.Option()}
			if !sdkRetries {
				opts = append(opts, func(o *dynamodb.Options) { o.RetryMaxAttempts = 1 })
			}
			faulty := table.New(tabletest.NewClient(t_, opts...), tbl.Schema(), func(o *table.Options) {
				o.Cipher, o.Now = tabletest.Cipher(), clk.Now
			})
			a := New(faulty, DefaultConfig())
			t_.Cleanup(func() { a.Close() })
			b := node(t_, tbl, clk, DefaultConfig())
			s := &server{tb: t_, a: a, topic: topic, clk: clk}
			s.load()
			last := map[t.Uid]int{}
			const n = 12
			for i := range n {
				clk.Advance(200 * time.Millisecond)
				m, err := s.send(senders[i%2], fmt.Sprintf("m%d", i), 3)
				must(t_, err)
				last[senders[i%2]] = m.SeqId
				for _, u := range senders {
					if got, want := readMember(t_, b, topic, u), (seen{m.SeqId, last[u], last[u]}); got != want {
						t_.Fatalf("after SeqId %d (lost %d responses), node B shows %s of %s, want %s", m.SeqId, lost.Lost(), u, got, want)
					}
				}
			}
			if lost.Lost() != 3 {
				t_.Fatalf("lost %d responses, want 3", lost.Lost())
			}
			checkTopic(t_, a, topic, n, senders)
		})
	}
}
