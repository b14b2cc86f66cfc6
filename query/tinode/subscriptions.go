package tinode

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/internal/retry"
	"github.com/singletable/singletable/table"
)

// Subscriptions are the access patterns of subscriptions.
type Subscriptions struct {
	// ByTopicUser reads a user's subscription to a topic (TN-9).
	//
	//	sub, err := s.Subs.ByTopicUser.Get(ctx, tn.Subscription{Topic: topic, User: user})
	ByTopicUser *table.Pattern[tn.Subscription]
	// ByUser lists a user's subscriptions ordered by UpdatedAt, oldest
	// first, those updated at or after UpdatedAt when it is set (TN-10).
	// GSI1 is eventually consistent: a change a moment ago may not be
	// listed yet. Soft-deleted subscriptions are left out unless
	// table.IncludeHidden.
	//
	//	page, err := s.Subs.ByUser.List(ctx, tn.Subscription{User: u, UpdatedAt: since}, table.Desc())
	ByUser *table.Pattern[tn.Subscription]
	// ByTopic lists a topic's subscriptions, ordered by user id (TN-11).
	// Soft-deleted subscriptions are left out unless table.IncludeHidden;
	// a set UpdatedAt is a *table.ValidationError (only ByUser reads it).
	ByTopic *table.Pattern[tn.Subscription]
	// CreateUncounted subscribes a user to a topic that has no topic item:
	// Tinode's per-user 'me' ("usr...") and 'fnd' topics, and a channel's
	// readers ("chn..." names of a "grp..." topic) (TN-9). It counts
	// nothing (TN-24 counts subscriptions of stored topics).
	CreateUncounted func(context.Context, *tn.Subscription) error
	// Update changes a subscription (TN-9, its write side): change edits
	// read/recv positions, modes, Private, ...; UpdatedAt advances and its
	// GSI1 entry moves in the same write.
	Update func(context.Context, SubRef, func(*tn.Subscription) error) (tn.Subscription, error)

	channels, restore, topicsOfUser, usersOfTopic, unreadCount, create, share, softDelete, delete table.Op
	s                                                                                             *Store
}

// deleted is the subscriptions' Hidden rule: soft-deleted ones.
func deleted(sub *tn.Subscription) bool { return sub.DeletedAt != nil }

// SubRef names a user's subscription to a topic by its two key parts.
type SubRef struct {
	Topic tn.TopicName
	User  tn.UserID
}

// sub is the key fields of the subscription r names.
func (r SubRef) sub() tn.Subscription { return tn.Subscription{Topic: r.Topic, User: r.User} }

func newSubscriptions(s *Store) *Subscriptions {
	return &Subscriptions{s: s,
		CreateUncounted: table.Create(s.sub, table.WriteDef[tn.Subscription]{ID: "TN-9", Name: "tinode.Subscriptions.CreateUncounted", Also: []string{"TN-24"},
			Doc: "Subscribes a user to a topic that has no topic item: Tinode's per-user 'me' (\"usr...\") and 'fnd' topics, and a channel's readers (\"chn...\" names of a \"grp...\" topic) (TN-9)."}),
		channels:     table.NewOp(s.t, "TN-37", "tinode.Subscriptions.Channels"),
		restore:      table.NewOp(s.t, "TN-9", "tinode.Subscriptions.Restore"),
		topicsOfUser: table.NewOp(s.t, "TN-23", "tinode.Subscriptions.TopicsOfUser"),
		usersOfTopic: table.NewOp(s.t, "TN-23", "tinode.Subscriptions.UsersOfTopic"),
		unreadCount:  table.NewOp(s.t, "TN-21", "tinode.Subscriptions.UnreadCount"),
		create:       table.NewOp(s.t, "TN-24", "tinode.Subscriptions.Create"),
		share:        table.NewOp(s.t, "TN-25", "tinode.Subscriptions.Share"),
		Update: table.Update(s.sub, table.WriteDef[tn.Subscription]{ID: "TN-9", Name: "tinode.Subscriptions.Update",
			Doc: "Reads a subscription, applies change (read/recv positions, modes, Private, ...) and writes it back, version-checked and retried; UpdatedAt advances and its GSI1 entry moves in the same write."},
			SubRef.sub),
		softDelete: table.NewOp(s.t, "TN-24", "tinode.Subscriptions.SoftDelete"),
		delete:     table.NewOp(s.t, "TN-24", "tinode.Subscriptions.Delete"),
		ByTopicUser: table.NewPattern(s.sub, table.PatternDef[tn.Subscription]{ID: "TN-9", Name: "tinode.Subscriptions.ByTopicUser",
			Doc: "A user's subscription to a topic.", Reads: table.ReadOne,
			Require: []string{"User"}}),
		ByUser: table.NewPattern(s.sub, table.PatternDef[tn.Subscription]{ID: "TN-10", Name: "tinode.Subscriptions.ByUser",
			Doc: "A user's subscriptions by UpdatedAt, from UpdatedAt when set.", Reads: table.ReadPage, Index: table.GSI1,
			SortFrom: true, Hidden: deleted}),
		ByTopic: table.NewPattern(s.sub, table.PatternDef[tn.Subscription]{ID: "TN-11", Name: "tinode.Subscriptions.ByTopic",
			Doc: "A topic's subscriptions, by user id.", Reads: table.ReadPage, Hidden: deleted,
			Check: func(sub *tn.Subscription) error {
				if !sub.UpdatedAt.IsZero() {
					return table.Invalid("UpdatedAt", "not supported when listing by topic")
				}
				return nil
			}}),
	}
}

// Create subscribes a user to an existing topic: one transaction that
// adds 1 to the topic's SubCnt (TN-24; the topic must exist) and creates
// SUB#{user}. A missing topic gives table.ErrNotFound, an existing
// subscription table.ErrAlreadyExists.
func (ss *Subscriptions) Create(ctx context.Context, sub *tn.Subscription) error {
	return ss.create.Do(ctx, func(ctx context.Context) error {
		tk, err := ss.s.topicKey(sub.Topic)
		if err != nil {
			return err
		}
		ops, err := ss.s.sub.CreateOp(sub)
		if err != nil {
			return err
		}
		count, err := ss.s.subCount(tk, 1)
		if err != nil {
			return err
		}
		// The first failing action decides: the topic missing, or the
		// subscription already there.
		ops[0] = ops[0].OnFail(fmt.Errorf("subscribe %s: %w", sub.Id, table.ErrAlreadyExists))
		count = count.OnFail(fmt.Errorf("subscribe to %s: topic %w", sub.Topic, table.ErrNotFound))
		return ss.s.t.Transact(ctx, append([]table.TxOp{count}, ops...)...)
	})
}

// subCount returns the action that adds delta to the topic's SubCnt; it
// fails (the transaction with it) if the topic does not exist.
func (s *Store) subCount(topic table.Key, delta int64) (table.TxOp, error) {
	return s.topic.PatchOp(topic, table.Patch{Add: map[string]int64{"SubCnt": delta}, NoTouch: true})
}

// ShareResult reports what [Subscriptions.Share] did per user.
type ShareResult struct {
	// Created are the users subscribed by this call.
	Created []tn.UserID
	// Existing are the users who already had a subscription (kept as it
	// was, soft-deleted or not).
	Existing []tn.UserID
}

// Share subscribes many users to a topic at once (TN-25, Tinode's
// TopicShare): subs in chunks of 99, each chunk one transaction that
// creates its subscriptions and adds their number to the topic's SubCnt.
// A subscription that already exists is reported in Existing and never
// overwritten: the chunk is retried without it. A missing topic gives
// table.ErrNotFound; bad input (any sub) a *table.ValidationError before
// any request. Requests: one transaction per chunk, plus one per chunk
// that met existing subscriptions.
func (ss *Subscriptions) Share(ctx context.Context, topic tn.TopicName, subs []*tn.Subscription) (ShareResult, error) {
	return table.Run(ctx, ss.share, func(ctx context.Context) (ShareResult, error) {
		tk, err := ss.s.topicKey(topic)
		if err != nil {
			return ShareResult{}, err
		}
		seen := map[tn.UserID]bool{}
		for i, sub := range subs {
			if sub.Topic != topic {
				return ShareResult{}, table.Invalid(fmt.Sprintf("subs[%d].Topic", i), "%q is not the topic %q", sub.Topic, topic)
			}
			if seen[sub.User] {
				return ShareResult{}, table.Invalid(fmt.Sprintf("subs[%d].User", i), "%q listed twice", sub.User)
			}
			seen[sub.User] = true
			probe := *sub
			probe.Id = tn.SubscriptionID(sub.Topic, sub.User)
			if probe.UpdatedAt.IsZero() {
				probe.UpdatedAt = ss.s.now()
			}
			if err := ss.s.sub.Validate(&probe); err != nil {
				return ShareResult{}, fmt.Errorf("subs[%d]: %w", i, err)
			}
		}
		var res ShareResult
		for start := 0; start < len(subs); start += table.MaxTxItems - 1 {
			chunk := subs[start:min(start+table.MaxTxItems-1, len(subs))]
			for len(chunk) > 0 {
				count, err := ss.s.subCount(tk, int64(len(chunk)))
				if err != nil {
					return res, err
				}
				ops := []table.TxOp{count}
				for _, sub := range chunk {
					op, err := ss.s.sub.CreateOp(sub)
					if err != nil {
						return res, err
					}
					ops = append(ops, op...)
				}
				err = ss.s.t.Transact(ctx, ops...)
				if err == nil {
					for _, sub := range chunk {
						res.Created = append(res.Created, sub.User)
					}
					break
				}
				var te *table.TxError
				if !errors.As(err, &te) {
					return res, err
				}
				exists := map[int]bool{}
				for _, r := range te.Failed() {
					switch {
					case r.Index == 0:
						return res, fmt.Errorf("share %s: topic %w", topic, table.ErrNotFound)
					case r.Code == "ConditionalCheckFailed":
						exists[r.Index-1] = true
					default:
						return res, err
					}
				}
				kept := chunk[:0:0]
				for i, sub := range chunk {
					if exists[i] {
						res.Existing = append(res.Existing, sub.User)
					} else {
						kept = append(kept, sub)
					}
				}
				chunk = kept
			}
		}
		return res, nil
	})
}

// SoftDelete marks the subscription deleted (DeletedAt, State deleted);
// it is hidden from the lists unless table.IncludeHidden. The
// subscription is read (consistent GetItem), then one transaction patches
// it on the version read and subtracts 1 from the topic's SubCnt (TN-24),
// retried on a lost race. Soft-deleting a deleted subscription changes
// nothing. UpdatedAt advances in the same patch and its GSI1 entry moves
// with it (a declared key a patch sets in full), so clients syncing by
// UpdatedSince see the change. A missing one gives table.ErrNotFound.
func (ss *Subscriptions) SoftDelete(ctx context.Context, topic tn.TopicName, user tn.UserID) error {
	return ss.softDelete.Do(ctx, func(ctx context.Context) error {
		k, err := ss.s.sub.CheckedKey(tn.Subscription{Topic: topic, User: user})
		if err != nil {
			return err
		}
		tk, _ := ss.s.topicKey(topic)
		return ss.s.retry(ctx, func() error {
			cur, err := ss.s.sub.Get(ctx, k, table.Consistent())
			if err != nil || cur.DeletedAt != nil {
				return err
			}
			now := ss.s.now()
			v := cur.Version
			// UpdatedAt, which GSI1's key derives from, advances in the same
			// patch: the declared template moves the GSI1 entry with it.
			mark, err := ss.s.sub.PatchOp(k, table.Patch{
				Set:       map[string]any{"DeletedAt": now, "State": tn.StateDeleted, "UpdatedAt": now.UTC()},
				IfVersion: &v, NoTouch: true,
			})
			if err != nil {
				return err
			}
			count, err := ss.s.subCount(tk, -1)
			if err != nil {
				return err
			}
			return ss.s.transactCounted(ctx, tk, mark, count)
		})
	})
}

// Delete deletes the subscription: it is read (consistent GetItem), then
// one transaction deletes it on the version read and, if it was live,
// subtracts 1 from the topic's SubCnt (TN-24), retried on a lost race; a
// subscription whose topic is gone is deleted alone. A missing one gives
// table.ErrNotFound.
func (ss *Subscriptions) Delete(ctx context.Context, topic tn.TopicName, user tn.UserID) error {
	return ss.delete.Do(ctx, func(ctx context.Context) error {
		k, err := ss.s.sub.CheckedKey(tn.Subscription{Topic: topic, User: user})
		if err != nil {
			return err
		}
		tk, _ := ss.s.topicKey(topic)
		return ss.s.retry(ctx, func() error {
			cur, err := ss.s.sub.Get(ctx, k, table.Consistent())
			if err != nil {
				return err
			}
			ops := []table.TxOp{ss.s.sub.DeleteVersionOp(k, cur.Version)}
			if cur.DeletedAt == nil {
				count, err := ss.s.subCount(tk, -1)
				if err != nil {
					return err
				}
				ops = append(ops, count)
			}
			if len(ops) == 1 {
				return ss.s.t.Transact(ctx, ops[0])
			}
			return ss.s.transactCounted(ctx, tk, ops[0], ops[1])
		})
	})
}

// errCountFailed is a SubCnt change's failed condition: the topic may be
// gone.
var errCountFailed = errors.New("the topic's SubCnt change failed")

// transactCounted runs a subscription change with its SubCnt change in one
// transaction; if the count failed (and the change did not) because the
// topic is gone, the change runs alone (there is nothing left to count).
func (s *Store) transactCounted(ctx context.Context, topic table.Key, change, count table.TxOp) error {
	err := s.t.Transact(ctx, change, count.OnFail(errCountFailed))
	if errors.Is(err, errCountFailed) {
		if _, gerr := s.topic.Get(ctx, topic, table.Consistent()); errors.Is(gerr, table.ErrNotFound) {
			return s.t.Transact(ctx, change)
		}
	}
	return err
}

// retry runs attempt until it succeeds or fails for a reason other than a
// lost race (a failed version check, a transaction conflict,
// throttling), waiting with jittered backoff, at most opts.SaveAttempts
// times.
func (s *Store) retry(ctx context.Context, attempt func() error) error {
	for i := 0; ; i++ {
		err := attempt()
		if err == nil || !retryable(err) || errors.Is(err, table.ErrAlreadyExists) ||
			errors.Is(err, table.ErrNotFound) || errors.Is(err, table.ErrUniqueViolation) {
			return err
		}
		if i+1 >= s.opts.SaveAttempts {
			return fmt.Errorf("%d attempts lost the race: %w: %w", i+1, table.ErrConflict, err)
		}
		if err := retry.Wait(ctx, i, s.opts.SaveBackoff, s.opts.SaveMaxBackoff); err != nil {
			return err
		}
	}
}
