package tinode

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/internal/retry"
	"github.com/singletable/singletable/table"
)

// Sharded messages (issue 22, TN-12, TN-13). One topic's messages all in
// TOPIC#{name} take at most 1,000 write units per second there (a message
// of about 1 KB costs 2 in its transaction), so one large channel tops out
// near 500 messages per second. A topic can instead write its messages to
// N partitions, message seq to TOPIC#{name}#{seq mod N} (table.ShardPK),
// with its layout (table.Layout) recorded on the topic item in MsgLayout:
//
//   - The profile: Options.MessageShards. 0 (the default) is tinode.md's
//     layout, byte for byte: topics are created unsharded and message
//     reads never look at a layout, so they cost what they always did.
//     N >= 1 is the sharded profile: new topics get N shards (1: unsharded
//     but switchable), and every message read first reads the topic's
//     layout (one consistent GetItem more). Tinode's own server, and a
//     store in the default profile, read only TOPIC#{name}: they do not
//     see the messages of a sharded topic's sharded epochs. Every process
//     must run the sharded profile before any topic is sharded.
//   - Switching a live topic ([Messages.Reshard], [ReshardJob]) appends
//     an epoch starting after the topic's SeqId; the messages already
//     saved stay where they are, so nothing moves and reads never miss.
//   - Save reads the layout with the topic (no extra request) and
//     conditions its transaction on it, so a Save that read the layout
//     before a switch is refused inside its transaction and retried.
//   - Servers that number and write messages themselves (ImportAt under
//     a layout they keep for a while: Options.ServerNumbered) are not
//     refused: a switch then appends an epoch past the newest stored
//     message, and a message such a server writes before it reads the
//     new layout stays where the previous epoch puts it, which every
//     read looks at too.

// layoutAttr is the topic attribute holding its messages' layout.
const layoutAttr = "MsgLayout"

// shardAware reports whether the store runs the sharded profile.
func (s *Store) shardAware() bool { return s.opts.MessageShards > 0 }

// newTopicLayout is the layout a topic created by this store starts with.
func (s *Store) newTopicLayout() string {
	if s.opts.MessageShards <= 1 {
		return ""
	}
	l, err := table.NewLayout(s.opts.MessageShards)
	if err != nil {
		return ""
	}
	return l.String()
}

// topicLayout returns the topic's message layout: one consistent GetItem
// of the topic in the sharded profile, none (the zero layout) in the
// default one. A missing topic has the zero layout.
func (ms *Messages) topicLayout(ctx context.Context, topic tn.TopicName) (table.Layout, error) {
	if !ms.s.shardAware() {
		return table.Layout{}, nil
	}
	return ms.topicLayoutUpTo(ctx, topic)
}

// knownLayout is a topic's message layout as read together with the
// topic's SeqId then (upTo): exact for every message at or below upTo,
// since a switch starts its epoch after the SeqId it reads (Reshard is
// conditioned on it), so an epoch added later starts above upTo.
type knownLayout struct {
	l    table.Layout
	upTo int
}

// layoutMemo remembers up to maxKnownLayouts topics' layouts (all are
// forgotten at once when it is full: a cache, never the truth; a read
// that misses under a remembered layout reads the topic again).
type layoutMemo struct {
	m sync.Map // tn.TopicName -> knownLayout
	n atomic.Int64
}

const maxKnownLayouts = 100_000

func (lm *layoutMemo) load(topic tn.TopicName, seq int) (table.Layout, bool) {
	v, ok := lm.m.Load(topic)
	if !ok || seq > v.(knownLayout).upTo {
		return table.Layout{}, false
	}
	return v.(knownLayout).l, true
}

func (lm *layoutMemo) store(topic tn.TopicName, k knownLayout) {
	if lm.n.Add(1) > maxKnownLayouts {
		lm.m.Clear()
		lm.n.Store(1)
	}
	lm.m.Store(topic, k)
}

// topicLayoutUpTo reads the topic's layout (one consistent GetItem; a
// missing topic has the zero layout) and remembers it with the topic's
// SeqId as read, for Get.
func (ms *Messages) topicLayoutUpTo(ctx context.Context, topic tn.TopicName) (table.Layout, error) {
	tk, err := ms.s.topicKey(topic)
	if err != nil {
		return table.Layout{}, err
	}
	raw, err := ms.s.t.GetOwner(ctx, tk, true)
	if errors.Is(err, table.ErrNotFound) {
		return table.Layout{}, nil
	}
	if err != nil {
		return table.Layout{}, err
	}
	l, err := table.LayoutOf(raw, layoutAttr)
	if err != nil {
		return table.Layout{}, err
	}
	if n, ok := raw["SeqId"].(*types.AttributeValueMemberN); ok {
		if upTo, err := strconv.Atoi(n.Value); err == nil {
			ms.s.layouts.store(topic, knownLayout{l: l, upTo: upTo})
		}
	}
	return l, nil
}

// messagePK returns the partition of message seq of the topic whose
// partition is pk under layout l.
func messagePK(l table.Layout, pk string, seq int) string { return l.SeqPK(pk, int64(seq)) }

// Reshard switches the topic's messages to n shards from its next SeqId
// on (1: back to TOPIC#{name}), while the topic is live (issue 22): one
// transaction sets MsgLayout on condition that the topic still holds the
// layout and the SeqId read, so no message is saved at or above the new
// epoch's start under the old layout (a Save that read it fails its
// condition and is retried with the new one). Messages already saved stay
// where they are and stay readable: reads cover every epoch. It needs the
// sharded profile (Options.MessageShards >= 1), else a
// *table.ValidationError; a missing topic gives table.ErrNotFound. It
// returns the new layout.
//
// With Options.ServerNumbered (servers number and write the messages,
// [Messages.ImportAt], each under the layout it last read: no Save to
// refuse) the epoch starts past the newest stored message and past the
// last epoch's start (appendFrom): the switch always appends, so the
// shard count a server still writes with until it reads the new layout
// stays in the layout, and a message it writes meanwhile, in the place
// the previous epoch gives, is found by every read (TN-13: History reads
// every partition any epoch used, Get the place of each epoch's count).
//
// Requests: a consistent GetItem of the topic and the transaction
// (repeated when a Save or another switch wins the race); with
// ServerNumbered one consistent Query per partition more (the newest
// message).
//
// Pattern: TN-12 (the layout its saves write to).
func (ms *Messages) Reshard(ctx context.Context, topic tn.TopicName, n int) (table.Layout, error) {
	return table.Run(ctx, ms.reshard, func(ctx context.Context) (table.Layout, error) {
		if !ms.s.shardAware() {
			return table.Layout{}, table.Invalid("MessageShards", "the store runs tinode.md's layout (Options.MessageShards 0): its readers would not see sharded messages")
		}
		if n < 1 || n > table.MaxShards {
			return table.Layout{}, table.Invalid("shards", "%d is outside 1..%d", n, table.MaxShards)
		}
		tk, err := ms.s.topicKey(topic)
		if err != nil {
			return table.Layout{}, err
		}
		o := ms.s.opts
		for attempt := 0; ; attempt++ {
			raw, err := ms.s.t.GetOwner(ctx, tk, true)
			if err != nil {
				return table.Layout{}, err
			}
			t, err := ms.s.topic.Decode(raw)
			if err != nil {
				return table.Layout{}, err
			}
			l, err := table.ParseLayout(t.MsgLayout)
			if err != nil {
				return l, err
			}
			if l.Shards() == n {
				return l, nil
			}
			// Every message is below SeqId+1: a switch again before the next
			// message redoes the empty last epoch (the condition on SeqId
			// below keeps it empty).
			from := int64(t.SeqId) + 1
			if ms.s.opts.ServerNumbered {
				if from, err = ms.appendFrom(ctx, topic, l, from); err != nil {
					return l, err
				}
			}
			next, err := l.Switch(from, n)
			if err != nil {
				return l, err
			}
			// The SeqId read, exactly as stored (absent: no message yet).
			op := ms.s.t.SwitchLayoutOp(tk, layoutAttr, l, next, map[string]types.AttributeValue{"SeqId": raw["SeqId"]})
			err = ms.s.t.Transact(ctx, op)
			if err == nil {
				return next, nil
			}
			if !retryable(err) {
				return l, fmt.Errorf("reshard %s: %w", topic, err)
			}
			if attempt+1 >= o.SaveAttempts {
				return l, fmt.Errorf("reshard %s: %d attempts lost the race: %w: %w", topic, attempt+1, table.ErrConflict, err)
			}
			if err := retry.Wait(ctx, attempt, o.SaveBackoff, o.SaveMaxBackoff); err != nil {
				return l, err
			}
		}
	})
}

// appendFrom is where a switch of a topic whose messages servers number
// themselves (Options.ServerNumbered) starts: past the topic's SeqId
// (from), past the newest message stored under layout l (a server may
// store messages before the topic records their SeqId: adapters/tinode's
// coalesce_ms), and past the last epoch's start, so the switch appends an
// epoch and never redoes one. Requests: one consistent Query per
// partition of l (Messages.Newest).
func (ms *Messages) appendFrom(ctx context.Context, topic tn.TopicName, l table.Layout, from int64) (int64, error) {
	newest, err := ms.Newest(ctx, topic, l)
	switch {
	case err == nil:
		from = max(from, int64(newest.SeqId)+1)
	case !errors.Is(err, table.ErrNotFound):
		return 0, err
	}
	if ep := l.Epochs(); len(ep) > 0 {
		from = max(from, ep[len(ep)-1].From+1)
	}
	return from, nil
}

// ReshardJob returns the job that switches live topics to the shard count
// shards returns for each (0: leave it), with [Messages.Reshard]: run it
// with table.RunJob (parallel, resumable, capacity-bounded) when a profile
// or a topic's load changes. A topic already at its count is Unchanged, so
// a second run changes nothing; other items are Skipped.
func ReshardJob(name string, s *Store, shards func(t tn.Topic) int) table.Job {
	return table.ReshardJob(name, s.topic, func(t tn.Topic) string { return t.MsgLayout }, shards,
		func(ctx context.Context, t tn.Topic, n int) error {
			_, err := s.Messages.Reshard(ctx, t.Id, n)
			return err
		})
}

// ImportAt writes a message that already has its SeqId under layout l,
// which the caller read from the topic (Topics.ByName, MsgLayout) and keeps:
// ONE conditional PutItem of TOPIC#{topic}#{seq mod N} (TOPIC#{topic} for
// the zero layout) / MSG#{seq}, never overwriting (table.ErrAlreadyExists;
// a lost response is recognised by its write token, table.Entity.CreateIn).
// No topic read, no layout check: it is the per-message write of a server
// that numbers a topic's messages itself and whose topics keep the layout
// they were created with (Tinode's, through adapters/tinode). A topic
// switched with Reshard while such a server writes to it would get
// messages in the old layout's partitions: switch it with the writers of
// that topic stopped, unless the store runs Options.ServerNumbered: then
// the switch appends an epoch past the newest stored message and such a
// message, in the place the previous epoch gives, is still found by every
// read (TN-13).
//
// Pattern: TN-12 (the write it serves).
func (ms *Messages) ImportAt(ctx context.Context, m *tn.Message, l table.Layout) error {
	return ms.importAt.Do(ctx, func(ctx context.Context) error {
		tk, err := ms.s.topicKey(m.Topic)
		if err != nil {
			return err
		}
		cp := *m
		if err := ms.s.msg.CreateIn(ctx, &cp, messagePK(l, tk.PK, cp.SeqId)); err != nil {
			return err
		}
		*m = cp
		return nil
	})
}

// Newest returns the topic's message with the highest SeqId stored under
// layout l, deleted ones included (a tombstone keeps its SeqId): one
// consistent Query (Limit 1, newest first) per partition of l, sent at
// once and merged. No message gives table.ErrNotFound. It is how a server
// that numbers messages itself recovers the topic's last SeqId after a
// crash, whatever the topic item recorded.
//
// Pattern: TN-13 (the read it serves).
func (ms *Messages) Newest(ctx context.Context, topic tn.TopicName, l table.Layout) (tn.Message, error) {
	return table.Run(ctx, ms.newest, func(ctx context.Context) (tn.Message, error) {
		tk, err := ms.s.topicKey(topic)
		if err != nil {
			return tn.Message{}, err
		}
		pk := tk.PK
		lo, hi, err := SeqRange{}.bounds(ms.s.msg)
		if err != nil {
			return tn.Message{}, err
		}
		p, err := ms.s.t.QueryItems(ctx, l.Query(table.Query{PK: pk, SK: table.SKBetween(lo, hi), Desc: true, Limit: 1, Consistent: true}))
		if err != nil {
			return tn.Message{}, err
		}
		if len(p.Items) == 0 {
			return tn.Message{}, fmt.Errorf("newest message of %s: %w", topic, table.ErrNotFound)
		}
		return ms.s.msg.Decode(p.Items[0])
	})
}
