package tinode

import (
	"context"
	"errors"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// Restore brings back an existing subscription as a new one, as Tinode's
// TopicShare does for a user who subscribes again (TN-9, TN-24): modes
// and CreatedAt from sub, read and receive positions and DelId reset,
// DeletedAt cleared, Private kept. If it was soft-deleted and counted is
// set (the topic has an item), the topic's SubCnt gains 1 after the
// subscription is written. Requests: a consistent GetItem and one
// UpdateItem checked on the version read (retried on a lost race), and for
// a soft-deleted one an UpdateItem of the topic's SubCnt. If the second
// write does not happen, SubCnt stays one low until Topics.RecountSubs. A
// missing subscription gives table.ErrNotFound.
func (ss *Subscriptions) Restore(ctx context.Context, sub *tn.Subscription, counted bool) error {
	return ss.restore.Do(ctx, func(ctx context.Context) error {
		wasDeleted := false
		_, err := ss.Update(ctx, SubRef{Topic: sub.Topic, User: sub.User}, func(cur *tn.Subscription) error {
			wasDeleted = cur.DeletedAt != nil
			cur.DeletedAt = nil
			cur.State = tn.StateOK
			cur.ModeWant, cur.ModeGiven = sub.ModeWant, sub.ModeGiven
			cur.ReadSeqId, cur.RecvSeqId, cur.DelId = 0, 0, 0
			if !sub.CreatedAt.IsZero() {
				cur.CreatedAt = sub.CreatedAt
			}
			return nil
		})
		if err != nil || !wasDeleted || !counted {
			return err
		}
		tk, err := ss.s.topicKey(sub.Topic)
		if err != nil {
			return err
		}
		if _, err := ss.s.topic.Add(ctx, tk, "SubCnt", 1); err != nil && !errors.Is(err, table.ErrNotFound) {
			return err
		}
		return nil
	})
}

// RecountSubs sets the topic's SubCnt to the number of its live
// subscriptions (TN-24, Tinode's TopicUpdateSubCnt), also counting the
// readers of a channel when readers names their "chn..." topic: one Query
// per 1 MB of subscriptions of each, then Topics.Update. It returns the
// count. A missing topic gives table.ErrNotFound.
func (ts *Topics) RecountSubs(ctx context.Context, name, readers tn.TopicName) (int, error) {
	return table.Run(ctx, ts.recountSubs, func(ctx context.Context) (int, error) {
		n := 0
		names := []tn.TopicName{name}
		if readers != "" {
			names = append(names, readers)
		}
		ss := ts.s.Subs
		for _, tname := range names {
			for _, err := range ss.ByTopic.All(ctx, tn.Subscription{Topic: tname}) {
				if err != nil {
					return 0, err
				}
				n++
			}
		}
		k, err := ts.s.topicKey(name)
		if err != nil {
			return 0, err
		}
		_, err = ts.s.topic.Update(ctx, k, func(t *tn.Topic) error {
			t.SubCnt = n
			return nil
		})
		return n, err
	})
}

// RecordMessage records that message seq was sent to the topic at the
// given time, for a server that numbers a topic's messages itself, as
// Tinode's topic goroutine does (TN-12, Tinode's TopicUpdateOnMessage;
// Messages.Import then writes the message): SeqId becomes seq unless it
// is already higher, TouchedAt moves forward. A consistent GetItem and
// one UpdateItem checked on the version read (retried on a lost race). A
// missing topic gives table.ErrNotFound.
func (ts *Topics) RecordMessage(ctx context.Context, name tn.TopicName, seq int, at time.Time) (tn.Topic, error) {
	return table.Run(ctx, ts.recordMessage, func(ctx context.Context) (tn.Topic, error) {
		if seq < 1 || seq > tn.MaxSeqId {
			return tn.Topic{}, table.Invalid("SeqId", "%d is outside 1..%d", seq, tn.MaxSeqId)
		}
		k, err := ts.s.topicKey(name)
		if err != nil {
			return tn.Topic{}, err
		}
		at = at.UTC()
		return ts.s.topic.Update(ctx, k, func(t *tn.Topic) error {
			t.SeqId = max(t.SeqId, seq)
			if t.TouchedAt == nil || at.After(*t.TouchedAt) {
				t.TouchedAt = &at
			}
			return nil
		})
	})
}
