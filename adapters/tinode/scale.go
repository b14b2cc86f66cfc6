package tinode

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/tinode/chat/server/logs"
	t "github.com/tinode/chat/server/store/types"
)

// The per-message path at scale (issue 32, part 2; README "Scale").
//
// Per message Tinode's topic goroutine calls TopicUpdateOnMessage(n),
// MessageSave(n) and, when the sender may read, SubsUpdate(sender,
// RecvSeqId = ReadSeqId = n), one message at a time per topic. Written
// through, that is a read and a write of the topic item (indexed in GSI1
// USER#{owner}) and of the sender's subscription (indexed in GSI1
// USER#{sender}) per message, all in TOPIC#{name}. With coalesce_ms > 0:
//
//   - TopicUpdateOnMessage sends nothing.
//   - MessageSave is one PutItem of the message, in TOPIC#{name}#{n mod N}
//     with message_shards N (the layout read once per topic and process).
//   - SubsUpdate of the sender's marks to n sends nothing: the marks are
//     kept here, and the topic's SeqId/TouchedAt with them.
//   - At most once per coalesce_ms per topic (the table's clock), a flush
//     writes the kept marks (a read and a write per sender) and THEN the
//     topic's SeqId and TouchedAt (a read and a write), so the topic item
//     never records a SeqId whose sender marks are not stored.
//   - The adapter's reads (TopicGet, TopicsForUser, SubscriptionGet,
//     SubsForTopic, SubsForUser, UsersForTopic) return what is kept here
//     when it is newer than the table: this server never shows an older
//     SeqId or mark than it has accepted.
//
// Recovery (a crash loses what is kept here): a message is stored before
// anything records its SeqId, so the stored messages are the truth. TopicGet
// (Tinode reads it when it loads a topic, and numbers the next message
// SeqId + 1) reads, for a topic this process has not written, the newest
// stored message (one consistent Query per message partition, merged:
// Messages.Newest). If it is above the topic item's SeqId F, the messages
// F+1..newest are read, each sender's marks are raised to its last message
// there (when the sender's subscription may read, as Tinode's Save asks),
// and the topic item gets the newest SeqId. So a SeqId is never given
// twice, there is no gap (every SeqId up to the newest is a stored
// message), and no sender's mark is older than before the crash.

// mark is a sender's pending RecvSeqId and ReadSeqId.
type mark struct{ recv, read int }

// ptopic is what the coalescer keeps for one topic.
type ptopic struct {
	saved     int       // highest SeqId MessageSave stored
	savedFrom string    // its sender
	savedAt   time.Time // its CreatedAt (the topic's TouchedAt)
	savedWhen time.Time // clock time it was stored
	settled   int       // highest SeqId whose sender's marks are kept or need none
	settledAt time.Time
	flushed   int // SeqId last written to the topic item by this process
	marks     map[string]mark
	flushedAt time.Time // clock time the last flush started
	flushing  bool
}

func (p *ptopic) work() bool { return len(p.marks) > 0 || p.settled > p.flushed }

// coalescer keeps the per-message writes of every topic and flushes them.
type coalescer struct {
	a      *Adapter
	every  time.Duration
	mu     sync.Mutex
	topics map[string]*ptopic
	stop   chan struct{}
	wg     sync.WaitGroup // the ticker and flushes in flight
	dead   bool
}

func newCoalescer(a *Adapter, every time.Duration) *coalescer {
	c := &coalescer{a: a, every: every, topics: map[string]*ptopic{}, stop: make(chan struct{})}
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
				p.settled, p.settledAt = p.saved, p.savedAt
			}
			if !p.work() && !p.flushing && p.saved <= p.flushed && now.Sub(p.flushedAt) >= c.every {
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
		if err := c.flush(name); err != nil {
			logs.Warn.Printf("adapter dynamodb: topic[%s]: flush of SeqId and sender marks: %v (retried)", name, err)
		}
	}()
}

func (c *coalescer) topic(name string) *ptopic {
	p := c.topics[name]
	if p == nil {
		p = &ptopic{marks: map[string]mark{}}
		c.topics[name] = p
	}
	return p
}

// begin is TopicUpdateOnMessage(seq): the previous message's calls are
// over, so it is settled.
func (c *coalescer) begin(name string, seq int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.topics[name]; p != nil && p.saved > p.settled && p.saved < seq {
		p.settled, p.settledAt = p.saved, p.savedAt
		c.due(name, p, c.now())
	}
}

// saved records that MessageSave stored message seq.
func (c *coalescer) saved(name string, seq int, from string, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.topic(name)
	if seq > p.saved {
		p.saved, p.savedFrom, p.savedAt, p.savedWhen = seq, from, at, c.now()
	}
}

// senderMarks keeps SubsUpdate's update when it is the one Tinode's Save
// makes after MessageSave: the sender of the topic's last stored message,
// RecvSeqId and ReadSeqId both set to its SeqId and nothing else. It
// reports whether it kept it (else the caller writes it through).
func (c *coalescer) senderMarks(name, user string, update map[string]any) bool {
	if len(update) != 2 {
		return false
	}
	recv, ok1 := update["RecvSeqId"]
	read, ok2 := update["ReadSeqId"]
	if !ok1 || !ok2 {
		return false
	}
	seq := intOf(recv)
	if seq <= 0 || intOf(read) != seq {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.topics[name]
	if c.dead || p == nil || p.saved != seq || p.savedFrom != user {
		return false
	}
	m := p.marks[user]
	p.marks[user] = mark{recv: max(m.recv, seq), read: max(m.read, seq)}
	if seq > p.settled {
		p.settled, p.settledAt = seq, p.savedAt
	}
	c.due(name, p, c.now())
	return true
}

// flush writes the topic's kept marks, then its SeqId and TouchedAt.
func (c *coalescer) flush(name string) error {
	c.mu.Lock()
	p := c.topics[name]
	if p == nil {
		c.mu.Unlock()
		return nil
	}
	marks := make(map[string]mark, len(p.marks))
	for u, m := range p.marks {
		marks[u] = m
	}
	seq, at, flushed := p.settled, p.settledAt, p.flushed
	c.mu.Unlock()

	ctx, cancel := c.a.ctx()
	defer cancel()
	topic := tn.TopicName(name)
	written := map[string]mark{}
	var errs []error
	for u, m := range marks {
		_, err := c.a.st.Subs.Update(ctx, topic, tn.UserID(u), func(s *tn.Subscription) error {
			s.RecvSeqId, s.ReadSeqId = max(s.RecvSeqId, m.recv), max(s.ReadSeqId, m.read)
			return nil
		})
		if err != nil && !errors.Is(err, table.ErrNotFound) {
			errs = append(errs, err)
			continue
		}
		written[u] = m
	}
	topicDone := false
	if len(errs) == 0 && seq > flushed {
		_, err := c.a.st.Topics.RecordMessage(ctx, topic, seq, at)
		if err != nil && !errors.Is(err, table.ErrNotFound) {
			errs = append(errs, err)
		} else {
			topicDone = true
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for u, m := range written {
		if cur, ok := p.marks[u]; ok && cur.recv <= m.recv && cur.read <= m.read {
			delete(p.marks, u)
		}
	}
	if topicDone {
		p.flushed = max(p.flushed, seq)
	}
	p.flushing = false
	return errors.Join(errs...)
}

// flushAll flushes every topic now and waits (Close, Flush).
func (c *coalescer) flushAll() error {
	c.mu.Lock()
	now := c.now()
	var names []string
	for name, p := range c.topics {
		if p.saved > p.settled {
			p.settled, p.settledAt = p.saved, p.savedAt
		}
		if !p.flushing && p.work() {
			p.flushing, p.flushedAt = true, now
			names = append(names, name)
		}
	}
	c.mu.Unlock()
	var errs []error
	for _, name := range names {
		errs = append(errs, c.flush(name))
	}
	// Flushes started before still run: wait for them.
	c.mu.Lock()
	busy := false
	for _, p := range c.topics {
		busy = busy || p.flushing
	}
	c.mu.Unlock()
	if busy {
		time.Sleep(10 * time.Millisecond)
		return errors.Join(append(errs, c.flushAll())...)
	}
	return errors.Join(errs...)
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

// overlaySub raises sub's marks to the kept ones.
func (c *coalescer) overlaySub(sub *t.Subscription) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.topics[sub.Topic]; p != nil {
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
	if err := name.Validate("Topic"); err != nil {
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
// item (see the recovery rule above). Requests: a consistent GetItem of
// the topic (the layout), one Query per message partition; when there is
// something to recover, one Query per page of those messages, a read and a
// write per sender and of the topic.
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
	if err != nil || newest.SeqId <= tp.SeqId {
		return err
	}
	last := map[tn.UserID]int{}
	f := tinode.HistoryFilter{Seq: tinode.SeqRange{Since: tp.SeqId + 1, Before: newest.SeqId + 1}, IncludeDeleted: true}
	for m, err := range a.st.Messages.HistoryAll(ctx, name, f, table.Limit(500)) {
		if err != nil {
			return err
		}
		if m.From != "" {
			last[m.From] = max(last[m.From], m.SeqId)
		}
	}
	errNoRead := errors.New("not a reader")
	for u, seq := range last {
		_, err := a.st.Subs.Update(ctx, name, u, func(s *tn.Subscription) error {
			if s.DeletedAt != nil || !(tmode(s.ModeGiven) & tmode(s.ModeWant)).IsReader() {
				return errNoRead
			}
			s.RecvSeqId, s.ReadSeqId = max(s.RecvSeqId, seq), max(s.ReadSeqId, seq)
			return nil
		})
		if err != nil && !errors.Is(err, errNoRead) && !errors.Is(err, table.ErrNotFound) {
			return err
		}
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
