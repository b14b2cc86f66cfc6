package tinode

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	t "github.com/tinode/chat/server/store/types"
)

// The per-message path at scale (issue 32, part 2; issue 43, part 3;
// README "Scale").
//
// Per message Tinode's topic goroutine calls TopicUpdateOnMessage(n),
// MessageSave(n) and, when the sender may read, SubsUpdate(sender,
// RecvSeqId = ReadSeqId = n), one message at a time per topic. Written
// through as Tinode's SQL adapters do (coalesce_ms 0), that is a read and
// a write of the topic item (indexed in GSI1 USER#{owner}) and of the
// sender's subscription (indexed in GSI1 USER#{sender}) per message, all
// in TOPIC#{name}. With coalesce_ms > 0 (the default):
//
//   - TopicUpdateOnMessage sends nothing.
//   - MessageSave is one PutItem of the message, in TOPIC#{name}#{n mod N}
//     with message_shards N (the layout stored with the topic).
//   - A quiet topic (its messages within write_through_per_s, a token
//     bucket per topic: bucket) is written through: MessageSave then
//     records n on the topic item and SubsUpdate the sender's marks, one
//     conditional UpdateItem each (raiseSeq, raiseMarks), before Tinode's
//     calls return. Every server of a cluster reads what Tinode's SQL
//     adapters would show at that moment.
//   - A hot topic (above its budget) is coalesced: SubsUpdate of the
//     sender's marks sends nothing, they are kept here, and the topic's
//     SeqId/TouchedAt with them. At most once per coalesce_ms per topic
//     (the table's clock) a flush writes the kept marks and THEN the
//     topic's SeqId and TouchedAt (one conditional UpdateItem each), so
//     the topic item never records a SeqId whose sender marks are not
//     stored. A topic that turns quiet flushes what it kept before its
//     first write-through.
//   - Every write of a SeqId or a mark is conditioned, in the same
//     request, on the value this process last saw stored and sets the
//     higher of it and its own: a server that lost the topic (a cluster
//     rehash) never moves back what the new one wrote.
//   - A topic stopping here (Tinode's TopicUpdateSubCnt, called when a
//     group topic unloads: idle, deleted, shutdown, moved to another node)
//     and Close (Tinode's shutdown) flush what is kept. Nothing else is
//     called when a p2p topic unloads, or when tinode-db exits (os.Exit,
//     without Close): there the bound is coalesce_ms (the ticker flushes
//     a kept topic within it), and only a hot topic keeps anything.
//   - The adapter's reads (TopicGet, TopicsForUser, SubscriptionGet,
//     SubsForTopic, SubsForUser, UsersForTopic) return what is kept here
//     when it is newer than the table: this server never shows an older
//     SeqId or mark than it has accepted.
//
// Recovery (a crash loses what is kept here): a message is stored before
// anything records its SeqId, so the stored messages are the truth.
// TopicGet (Tinode reads it when it loads a topic, and numbers the next
// message SeqId + 1) reads the newest stored message (one consistent
// Query per message partition, merged: Messages.Newest). If it is above
// the topic item's SeqId F, the messages F+1..newest are read, each
// sender's marks are raised to its last message there (when the sender's
// subscription may read, as Tinode's Save asks), and the topic item gets
// the newest SeqId; the newest message's sender's marks are raised to it
// in any case (a crash between a write-through's SeqId and its marks). So
// a SeqId is never given twice, there is no gap (every SeqId up to the
// newest is a stored message), and no sender's mark is older than before
// the crash.

// mark is a sender's RecvSeqId and ReadSeqId.
type mark struct{ recv, read int }

// ptopic is what the coalescer keeps for one topic.
type ptopic struct {
	saved     int       // highest SeqId MessageSave stored
	savedFrom string    // its sender
	savedAt   time.Time // its CreatedAt (the topic's TouchedAt)
	savedWhen time.Time // clock time it was stored
	settled   int       // highest SeqId whose sender's marks are kept, written or need none
	settledAt time.Time
	stored    int             // the topic item's SeqId as last seen stored (0: not seen)
	marks     map[string]mark // senders' marks kept while the topic is hot
	seen      map[string]mark // senders' marks as last seen stored
	flushedAt time.Time       // clock time the last flush started
	flushing  bool            // a flush goroutine is scheduled or running
	active    time.Time       // clock time of the last message or load
	budget    bucket          // the write-through budget
	through   int             // the last message whose SeqId was written through
	// wmu is held while this process writes the topic's SeqId or its
	// senders' marks: a write-through waits for a flush in flight.
	wmu sync.Mutex
}

func (p *ptopic) work() bool { return len(p.marks) > 0 || p.settled > p.stored }

// settle marks the last stored message settled (its sender's marks kept,
// or none coming).
func (p *ptopic) settle() {
	if p.saved > p.settled {
		p.settled, p.settledAt = p.saved, p.savedAt
	}
}

// seenMax is how many senders' stored marks a topic remembers.
const seenMax = 1024

func (p *ptopic) see(user string, m mark) {
	if _, ok := p.seen[user]; ok || len(p.seen) < seenMax {
		p.seen[user] = m
	}
}

// idleTopic is how long a topic with nothing kept stays remembered
// (its budget and the values it last saw stored) after its last message.
const idleTopic = time.Minute

// coalescer keeps the per-message writes of every topic and flushes them.
type coalescer struct {
	a      *Adapter
	every  time.Duration
	rate   float64 // write-through budget, messages a second per topic
	mu     sync.Mutex
	topics map[string]*ptopic
	stop   chan struct{}
	wg     sync.WaitGroup // the ticker and flushes in flight
	dead   bool
}

func newCoalescer(a *Adapter, every time.Duration, rate int) *coalescer {
	c := &coalescer{a: a, every: every, rate: float64(rate), topics: map[string]*ptopic{}, stop: make(chan struct{})}
	c.wg.Add(1)
	go c.tick()
	return c
}

func (c *coalescer) now() time.Time { return c.a.tbl.Now() }

// tick settles and flushes idle topics: a topic whose last message was
// stored a period ago and whose sender's marks did not come (a sender
// without read access) is settled, and every topic due is flushed.
func (c *coalescer) tick() {
	defer c.wg.Done()
	tk := time.NewTicker(c.every)
	defer tk.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-tk.C:
		}
		c.mu.Lock()
		now := c.now()
		for name, p := range c.topics {
			if p.saved > p.settled && now.Sub(p.savedWhen) >= c.every {
				p.settle()
			}
			if !p.work() && !p.flushing && now.Sub(p.active) >= max(idleTopic, c.every) {
				delete(c.topics, name)
				continue
			}
			c.due(name, p, now)
		}
		c.mu.Unlock()
	}
}

// due starts a flush of the topic if it has work and none ran for a
// period. Called with c.mu held.
func (c *coalescer) due(name string, p *ptopic, now time.Time) {
	if c.dead || p.flushing || !p.work() || now.Sub(p.flushedAt) < c.every {
		return
	}
	p.flushing, p.flushedAt = true, now
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		p.wmu.Lock()
		err := c.flushLocked(name, p)
		p.wmu.Unlock()
		c.mu.Lock()
		p.flushing = false
		c.mu.Unlock()
		if err != nil {
			warnf("adapter dynamodb: topic[%s]: flush of SeqId and sender marks: %v (retried)", name, err)
		}
	}()
}

func (c *coalescer) topic(name string) *ptopic {
	p := c.topics[name]
	if p == nil {
		p = &ptopic{marks: map[string]mark{}, seen: map[string]mark{}, active: c.now()}
		c.topics[name] = p
	}
	return p
}

// loaded records the topic's SeqId as TopicGet read it after recovery
// (the newest stored message's, at least): the value the next conditional
// write of the SeqId expects. What this process kept of a topic whose
// last stored message is now below it is of a topic deleted and created
// again under its name (a p2p topic): it is dropped.
func (c *coalescer) loaded(name string, seq int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead {
		return
	}
	if p := c.topics[name]; p != nil && p.saved > seq {
		delete(c.topics, name)
	}
	p := c.topic(name)
	p.stored, p.active = seq, c.now()
}

// begin is TopicUpdateOnMessage(seq): the previous message's calls are
// over, so it is settled.
func (c *coalescer) begin(name string, seq int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.topics[name]; p != nil && p.saved > p.settled && p.saved < seq {
		p.settle()
		c.due(name, p, c.now())
	}
}

// saved records that MessageSave stored message seq and reports whether
// its SeqId (and its sender's marks) are written through: the topic is
// within its write-through budget.
func (c *coalescer) saved(name string, seq int, from string, at time.Time) (*ptopic, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.topic(name)
	now := c.now()
	if seq > p.saved {
		p.saved, p.savedFrom, p.savedAt, p.savedWhen = seq, from, at, now
	}
	p.active = now
	return p, !c.dead && p.budget.take(now, c.rate)
}

// writeThrough writes message seq's SeqId and TouchedAt to the topic item
// now (the topic is quiet). Marks kept while the topic was hot are written
// first, with the SeqId they settle (a flush), so the topic item never
// records a SeqId past kept marks. On failure the message is left to the
// flush, as a hot topic's.
func (c *coalescer) writeThrough(name string, p *ptopic, seq int, at time.Time) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	c.mu.Lock()
	kept := len(p.marks) > 0
	c.mu.Unlock()
	if kept {
		if err := c.flushLocked(name, p); err != nil {
			return err
		}
	}
	c.mu.Lock()
	guess := p.stored
	if guess == 0 {
		guess = seq - 1
	}
	c.mu.Unlock()
	ctx, cancel := c.a.ctx()
	defer cancel()
	got, err := c.a.raiseSeq(ctx, tn.TopicName(name), guess, seq, at)
	if errors.Is(err, table.ErrNotFound) {
		got, err = seq, nil // a topic without an item
	}
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p.stored = max(p.stored, got)
	if seq > p.settled {
		p.settled, p.settledAt = seq, at
	}
	p.through = max(p.through, seq)
	return nil
}

// What senderMarks did with an update.
const (
	marksOther   = iota // not the marks Tinode's Save makes: the caller writes them
	marksKept           // kept, written by the topic's next flush
	marksThrough        // to be written through now (marksThrough)
)

// senderMarks looks at SubsUpdate's update: when it is the one Tinode's
// Save makes after MessageSave (the sender of the topic's last stored
// message, RecvSeqId and ReadSeqId both set to its SeqId and nothing
// else), it is kept (a hot topic) or to be written through (a message
// whose SeqId was written through). It returns what to do and the SeqId.
func (c *coalescer) senderMarks(name, user string, update map[string]any) (int, int) {
	if len(update) != 2 {
		return marksOther, 0
	}
	recv, ok1 := update["RecvSeqId"]
	read, ok2 := update["ReadSeqId"]
	if !ok1 || !ok2 {
		return marksOther, 0
	}
	seq := intOf(recv)
	if seq <= 0 || intOf(read) != seq {
		return marksOther, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.topics[name]
	if c.dead || p == nil || p.saved != seq || p.savedFrom != user {
		return marksOther, 0
	}
	if p.through == seq {
		return marksThrough, seq
	}
	c.keep(p, user, mark{recv: seq, read: seq})
	c.due(name, p, c.now())
	return marksKept, seq
}

// keep adds m to the topic's kept marks of user. Called with c.mu held.
func (c *coalescer) keep(p *ptopic, user string, m mark) {
	k := p.marks[user]
	p.marks[user] = mark{recv: max(k.recv, m.recv), read: max(k.read, m.read)}
	if m.recv > p.settled && m.recv == p.saved {
		p.settled, p.settledAt = m.recv, p.savedAt
	}
}

// marksThrough writes the sender's marks of message seq, whose SeqId was
// written through: one conditional UpdateItem (raiseMarks). On failure
// they are kept for the next flush.
func (c *coalescer) marksThrough(name, user string, seq int) error {
	c.mu.Lock()
	p := c.topics[name]
	c.mu.Unlock()
	if p == nil {
		return nil
	}
	p.wmu.Lock()
	defer p.wmu.Unlock()
	c.mu.Lock()
	guess := p.seen[user]
	c.mu.Unlock()
	ctx, cancel := c.a.ctx()
	defer cancel()
	got, err := c.a.raiseMarks(ctx, tn.TopicName(name), tn.UserID(user), guess, mark{recv: seq, read: seq})
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case errors.Is(err, table.ErrNotFound):
		return nil
	case err != nil:
		c.keep(p, user, mark{recv: seq, read: seq})
		return err
	}
	p.see(user, got)
	return nil
}

// flushLocked writes the topic's kept marks, then its settled SeqId and
// TouchedAt, each one conditional UpdateItem over what this process last
// saw stored (raiseMarks, raiseSeq: never lowering what another server
// wrote). Called with p.wmu held.
func (c *coalescer) flushLocked(name string, p *ptopic) error {
	c.mu.Lock()
	marks := make(map[string]mark, len(p.marks))
	guesses := make(map[string]mark, len(p.marks))
	for u, m := range p.marks {
		marks[u], guesses[u] = m, p.seen[u]
	}
	seq, at, stored := p.settled, p.settledAt, p.stored
	c.mu.Unlock()

	ctx, cancel := c.a.ctx()
	defer cancel()
	topic := tn.TopicName(name)
	written := map[string]mark{}
	seen := map[string]mark{}
	var errs []error
	for u, m := range marks {
		got, err := c.a.raiseMarks(ctx, topic, tn.UserID(u), guesses[u], m)
		switch {
		case errors.Is(err, table.ErrNotFound):
		case err != nil:
			errs = append(errs, err)
			continue
		default:
			seen[u] = got
		}
		written[u] = m
	}
	got := 0
	if len(errs) == 0 && seq > stored {
		var err error
		got, err = c.a.raiseSeq(ctx, topic, stored, seq, at)
		if errors.Is(err, table.ErrNotFound) {
			got, err = seq, nil
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for u, m := range written {
		if cur, ok := p.marks[u]; ok && cur.recv <= m.recv && cur.read <= m.read {
			delete(p.marks, u)
		}
	}
	for u, m := range seen {
		p.see(u, m)
	}
	p.stored = max(p.stored, got)
	return errors.Join(errs...)
}

// flushAll flushes every topic now and waits (Close, Flush).
func (c *coalescer) flushAll() error {
	c.mu.Lock()
	var ps []*ptopic
	var names []string
	for name, p := range c.topics {
		p.settle()
		if p.work() {
			ps, names = append(ps, p), append(names, name)
		}
	}
	c.mu.Unlock()
	var errs []error
	for i, p := range ps {
		p.wmu.Lock()
		errs = append(errs, c.flushLocked(names[i], p))
		p.wmu.Unlock()
	}
	return errors.Join(errs...)
}

// release flushes the topic now and forgets it: Tinode's server stops the
// topic on this process (TopicUpdateSubCnt, which it calls when a group
// topic unloads: idle, deleted, the server shutting down, or moved to
// another node of a cluster). If the flush fails the topic stays, and the
// ticker retries.
func (c *coalescer) release(name string) error {
	c.mu.Lock()
	p := c.topics[name]
	if p == nil {
		c.mu.Unlock()
		return nil
	}
	p.settle()
	c.mu.Unlock()
	p.wmu.Lock()
	err := c.flushLocked(name, p)
	p.wmu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil && c.topics[name] == p && !p.work() {
		delete(c.topics, name)
	}
	return err
}

// close stops the ticker and flushes everything kept.
func (c *coalescer) close() error {
	c.mu.Lock()
	if c.dead {
		c.mu.Unlock()
		return nil
	}
	c.mu.Unlock()
	err := c.flushAll()
	c.mu.Lock()
	c.dead = true
	c.mu.Unlock()
	close(c.stop)
	c.wg.Wait()
	return err
}

// kill stops the coalescer without flushing: a crash, for tests. Flushes
// already in flight finish (a killed process's last requests may land).
func (c *coalescer) kill() {
	c.mu.Lock()
	if c.dead {
		c.mu.Unlock()
		return
	}
	c.dead = true
	c.mu.Unlock()
	close(c.stop)
	c.wg.Wait()
}

// forget drops what is kept for a deleted topic.
func (c *coalescer) forget(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.topics, name)
}

// live returns the topic's last stored SeqId and TouchedAt if this process
// stored a message of it that may not be in the topic item yet.
func (c *coalescer) live(name string) (int, time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.topics[name]; p != nil && p.saved > 0 {
		return p.saved, p.savedAt, true
	}
	return 0, time.Time{}, false
}

// overlaySub raises sub's marks to the kept ones, after noting the stored
// ones (the expectation of the next conditional write of them).
func (c *coalescer) overlaySub(sub *t.Subscription) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.topics[sub.Topic]; p != nil {
		p.see(sub.User, mark{recv: sub.RecvSeqId, read: sub.ReadSeqId})
		if m, ok := p.marks[sub.User]; ok {
			sub.RecvSeqId, sub.ReadSeqId = max(sub.RecvSeqId, m.recv), max(sub.ReadSeqId, m.read)
		}
	}
}

// overlayJoined is overlaySub for a subscription joined with its topic
// (TopicsForUser): the topic's SeqId and TouchedAt too.
func (c *coalescer) overlayJoined(sub *t.Subscription) {
	if c == nil {
		return
	}
	c.overlaySub(sub)
	name := sub.Topic
	if t.GetTopicCat(name) == t.TopicCatGrp {
		name = t.ChnToGrp(name)
	}
	if seq, at, ok := c.live(name); ok {
		if seq > sub.GetSeqId() {
			sub.SetSeqId(seq)
		}
		if at.After(sub.GetTouchedAt()) {
			sub.SetTouchedAt(at)
		}
	}
}

// layoutRefresh is how long MessageSave writes a topic's messages under
// the layout it read before reading it again: a switch (Reshard, by any
// server or job) reaches every writer within it.
const layoutRefresh = time.Second

// knownLayout is a topic's layout and when it was read (the table's
// clock).
type knownLayout struct {
	l  table.Layout
	at time.Time
}

// layoutOf returns the topic's message layout as stored with the topic
// (TN-12), whatever this server's message_shards: remembered for
// a.layoutEvery, then one consistent GetItem of the topic again (a topic
// without an item, such as 'me', has the zero layout and is not
// remembered). A message written under a layout a switch replaced since
// is where the previous epoch puts it, which every read looks at too
// (query/tinode Options.ServerNumbered).
func (a *Adapter) layoutOf(ctx context.Context, name tn.TopicName) (table.Layout, error) {
	now := a.tbl.Now()
	if v, ok := a.layouts.Load(name); ok && now.Sub(v.(knownLayout).at) < a.layoutEvery {
		return v.(knownLayout).l, nil
	}
	if err := tn.TopicNames.Check(name); err != nil {
		return table.Layout{}, err
	}
	tk := a.st.Topics.ByName.Entity().Key(tn.Topic{Id: name})
	if err := tk.Err(); err != nil {
		return table.Layout{}, err
	}
	raw, err := a.tbl.GetOwner(ctx, tk, true)
	if errors.Is(err, table.ErrNotFound) {
		return table.Layout{}, nil
	}
	if err != nil {
		return table.Layout{}, err
	}
	l, err := table.LayoutOf(raw, "MsgLayout")
	if err != nil {
		return l, err
	}
	a.layouts.Store(name, knownLayout{l: l, at: now})
	return l, nil
}

// Reshard switches the topic's messages to n shards (1: its own
// partition TOPIC#{name}) while servers write to it (TN-12, issue 43):
// query/tinode's Messages.Reshard, the store's live table.Layout.Switch,
// conditioned on the layout and SeqId read. The new epoch starts past the
// newest stored message and is always appended, so a server that writes
// under the layout it read before the switch (for at most layoutRefresh)
// puts its messages where the previous epoch does, and every read finds
// them (TN-13). It returns the new layout. Requests: a consistent GetItem
// of the topic, one consistent Query per message partition (the newest
// message) and the transaction.
func (a *Adapter) Reshard(topic string, n int) (table.Layout, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	l, err := a.st.Messages.Reshard(ctx, tn.TopicName(topic), n)
	if err == nil {
		a.layouts.Delete(tn.TopicName(topic))
	}
	return l, terr(err)
}

// ReshardJob is Reshard over every topic of the table, to the count shards
// gives each (0: leave it): query/tinode's ReshardJob on the adapter's
// store. Run it with table.RunJob (parallel, resumable, capacity-bounded)
// while the servers run.
func (a *Adapter) ReshardJob(name string, shards func(tn.Topic) int) table.Job {
	return tinode.ReshardJob(name, a.st, shards)
}

// saveMessage writes m under its SeqId: one PutItem in the partition of
// its SeqId. A failure whose outcome is unknown (the write may have
// landed: a lost response the SDK gave up on, a timeout) is retried; a
// retry that finds the SeqId taken reads the message there and succeeds
// if it is this one (same Id), so a lost response never makes Tinode
// number its next message with a SeqId already stored. A SeqId held by
// another message is table.ErrAlreadyExists (types.ErrDuplicate): a
// message is never overwritten.
func (a *Adapter) saveMessage(ctx context.Context, m *tn.Message) error {
	for attempt := 0; ; attempt++ {
		l, err := a.layoutOf(ctx, m.Topic)
		if err == nil {
			cp := *m
			if err = a.st.Messages.ImportAt(ctx, &cp, l); err == nil {
				*m = cp
				return nil
			}
		}
		switch {
		case errors.Is(err, table.ErrAlreadyExists):
			if attempt == 0 || m.Id == "" {
				return err
			}
			got, gerr := a.st.Messages.Get(ctx, m.Topic, m.SeqId)
			if gerr == nil && got.Id == m.Id {
				return nil
			}
			return err
		case definite(err), attempt+1 >= saveAttempts, ctx.Err() != nil:
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(attempt+1) * 20 * time.Millisecond):
		}
	}
}

// saveAttempts bounds MessageSave's own retries of an unknown outcome
// (each request also has the SDK's retries).
const saveAttempts = 4

// definite reports whether err says for sure that nothing was written.
func definite(err error) bool {
	return errors.Is(err, table.ErrInvalidInput) || errors.Is(err, table.ErrInvalidKey) ||
		errors.Is(err, table.ErrNotFound) || errors.Is(err, table.ErrUniqueViolation) ||
		errors.Is(err, table.ErrItemTooLarge)
}

// recoverTopic returns the topic with the SeqId of its newest stored
// message when that is above the topic item's, after raising the marks of
// the senders of the messages above it and recording it on the topic
// item (see the recovery rule above). The newest message's sender's marks
// are raised to it in any case: a write-through records the SeqId before
// Tinode's SubsUpdate of the sender's marks, and a crash may fall in
// between. Requests: a consistent GetItem of the topic (the layout), one
// Query per message partition, a consistent GetItem of the newest
// message's sender's subscription (and a write if its marks are behind);
// when there is more to recover, one Query per page of those messages, a
// read and a write per sender and of the topic.
func (a *Adapter) recoverTopic(ctx context.Context, tp *tn.Topic) error {
	name := tp.Id
	l, err := a.layoutOf(ctx, name)
	if err != nil {
		return err
	}
	newest, err := a.st.Messages.Newest(ctx, name, l)
	if errors.Is(err, table.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	last := map[tn.UserID]int{}
	if newest.From != "" {
		last[newest.From] = newest.SeqId
	}
	if newest.SeqId > tp.SeqId {
		f := tinode.HistoryFilter{Topic: name, Seq: tinode.SeqRange{Since: tp.SeqId + 1, Before: newest.SeqId + 1}, IncludeDeleted: true}
		for m, err := range table.Every(ctx, a.st.Messages.History, f, table.Limit(500)) {
			if err != nil {
				return err
			}
			if m.From != "" {
				last[m.From] = max(last[m.From], m.SeqId)
			}
		}
	}
	errNoRead := errors.New("not a reader")
	errAsHigh := errors.New("marks as high")
	for u, seq := range last {
		_, err := a.st.Subs.Update(ctx, tinode.SubRef{Topic: name, User: u}, func(s *tn.Subscription) error {
			if s.DeletedAt != nil || !(tmode(s.ModeGiven) & tmode(s.ModeWant)).IsReader() {
				return errNoRead
			}
			if s.RecvSeqId >= seq && s.ReadSeqId >= seq {
				return errAsHigh
			}
			s.RecvSeqId, s.ReadSeqId = max(s.RecvSeqId, seq), max(s.ReadSeqId, seq)
			return nil
		})
		if err != nil && !errors.Is(err, errNoRead) && !errors.Is(err, errAsHigh) && !errors.Is(err, table.ErrNotFound) {
			return err
		}
	}
	if newest.SeqId <= tp.SeqId {
		return nil
	}
	rec, err := a.st.Topics.RecordMessage(ctx, name, newest.SeqId, newest.CreatedAt)
	if err != nil {
		return err
	}
	tp.SeqId, tp.TouchedAt = rec.SeqId, rec.TouchedAt
	return nil
}

// Flush writes what coalesce_ms keeps (topics' SeqIds and TouchedAt,
// senders' marks) now and waits; Close calls it. Without coalesce_ms it
// does nothing.
func (a *Adapter) Flush() error {
	if a.coal == nil {
		return nil
	}
	return terr(a.coal.flushAll())
}

// forget drops what the adapter remembers of a topic being deleted.
func (a *Adapter) forget(name string) {
	a.layouts.Delete(tn.TopicName(name))
	if a.coal != nil {
		a.coal.forget(name)
	}
}
