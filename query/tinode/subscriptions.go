package tinode

import (
	"context"
	"errors"
	"fmt"
	"iter"

	tn "github.com/singletable/singletable/entity/tinode"
	"github.com/singletable/singletable/table"
)

// Subscriptions are the access patterns of subscriptions.
type Subscriptions struct{ s *Store }

// Create subscribes a user to an existing topic: one transaction with a
// condition on TOPIC#{topic} / TOPIC and the create of SUB#{user}. A
// missing topic gives table.ErrNotFound, an existing subscription
// table.ErrAlreadyExists.
func (ss *Subscriptions) Create(ctx context.Context, sub *tn.Subscription) error {
	tk, err := tn.TopicKey(sub.Topic)
	if err != nil {
		return err
	}
	ops, err := ss.s.sub.CreateOp(sub)
	if err != nil {
		return err
	}
	err = ss.s.t.Transact(ctx, append([]table.TxOp{ss.s.t.ConditionOp(tk)}, ops...)...)
	var te *table.TxError
	// The first failing action decides: the topic (action 0) missing, or
	// the subscription already there.
	if errors.As(err, &te) {
		if failed := te.Failed(); len(failed) > 0 {
			if failed[0].Index == 0 {
				return fmt.Errorf("subscribe to %s: topic %w", sub.Topic, table.ErrNotFound)
			}
			return fmt.Errorf("subscribe %s: %w: %w", sub.Id, table.ErrAlreadyExists, err)
		}
	}
	return err
}

// Get returns the user's subscription to topic (TN-9): GetItem
// TOPIC#{topic} / SUB#{user}. A missing one gives table.ErrNotFound.
func (ss *Subscriptions) Get(ctx context.Context, topic tn.TopicName, user tn.UserID) (tn.Subscription, error) {
	k, err := tn.SubscriptionKey(topic, user)
	if err != nil {
		return tn.Subscription{}, err
	}
	return ss.s.sub.Get(ctx, k)
}

// Update reads the subscription, applies change (read/recv positions,
// modes, Private, ...) and writes it back, version-checked and retried;
// UpdatedAt advances and its GSI1 entry moves in the same write. A missing
// subscription gives table.ErrNotFound.
func (ss *Subscriptions) Update(ctx context.Context, topic tn.TopicName, user tn.UserID, change func(*tn.Subscription) error) (tn.Subscription, error) {
	k, err := tn.SubscriptionKey(topic, user)
	if err != nil {
		return tn.Subscription{}, err
	}
	return ss.s.sub.Update(ctx, k, change)
}

// SoftDelete marks the subscription deleted (DeletedAt, State deleted); it
// is hidden from the lists unless SubFilter.IncludeDeleted.
func (ss *Subscriptions) SoftDelete(ctx context.Context, topic tn.TopicName, user tn.UserID) error {
	_, err := ss.Update(ctx, topic, user, func(s *tn.Subscription) error {
		now := ss.s.now()
		s.DeletedAt, s.State = &now, tn.StateDeleted
		return nil
	})
	return err
}

// Delete deletes the subscription. A missing one gives table.ErrNotFound.
func (ss *Subscriptions) Delete(ctx context.Context, topic tn.TopicName, user tn.UserID) error {
	k, err := tn.SubscriptionKey(topic, user)
	if err != nil {
		return err
	}
	return ss.s.sub.Delete(ctx, k)
}

// ListByUser lists a user's subscriptions ordered by UpdatedAt, oldest
// first, optionally only those updated at or after f.UpdatedSince (TN-10):
// GSI1 PK = USER#{user}, SK BETWEEN SUBUPD#{Timestamp(since)} AND SUBUPD$.
// Options: table.Limit, table.After, table.Desc (newest first).
// Soft-deleted subscriptions are dropped after reading unless
// f.IncludeDeleted, so a page may be shorter than its limit while the
// cursor continues.
func (ss *Subscriptions) ListByUser(ctx context.Context, user tn.UserID, f SubFilter, opts ...table.ListOption) (table.Page[tn.Subscription], error) {
	k, err := tn.UserKey(user)
	if err != nil {
		return table.Page[tn.Subscription]{}, err
	}
	lo, hi, err := tn.SubscriptionsUpdatedSince(f.UpdatedSince)
	if err != nil {
		return table.Page[tn.Subscription]{}, table.Invalid("UpdatedSince", "%v", err)
	}
	q := table.Query{Index: table.GSI1, PK: k.PK, SK: table.SKBetween(lo, hi)}
	return ss.list(ctx, q, f, opts)
}

// AllByUser iterates over ListByUser's pages (TN-10); filter and options
// as ListByUser.
func (ss *Subscriptions) AllByUser(ctx context.Context, user tn.UserID, f SubFilter, opts ...table.ListOption) iter.Seq2[tn.Subscription, error] {
	return table.Pages(ctx, func(ctx context.Context, opts ...table.ListOption) (table.Page[tn.Subscription], error) {
		return ss.ListByUser(ctx, user, f, opts...)
	}, opts...)
}

// ListByTopic lists a topic's subscriptions, ordered by user id (TN-11):
// PK = TOPIC#{topic}, SK begins_with SUB#. Options: table.Limit,
// table.After, table.Desc. Soft-deleted subscriptions are dropped after
// reading unless f.IncludeDeleted; f.UpdatedSince is a
// *table.ValidationError (only ListByUser reads it).
func (ss *Subscriptions) ListByTopic(ctx context.Context, topic tn.TopicName, f SubFilter, opts ...table.ListOption) (table.Page[tn.Subscription], error) {
	if !f.UpdatedSince.IsZero() {
		return table.Page[tn.Subscription]{}, table.Invalid("UpdatedSince", "not supported when listing by topic")
	}
	pk, err := tn.TopicPartition(topic)
	if err != nil {
		return table.Page[tn.Subscription]{}, err
	}
	q := table.Query{PK: pk, SK: table.SKBeginsWith(tn.SubscriptionPrefix())}
	return ss.list(ctx, q, f, opts)
}

// AllByTopic iterates over ListByTopic's pages (TN-11); filter and options
// as ListByTopic.
func (ss *Subscriptions) AllByTopic(ctx context.Context, topic tn.TopicName, f SubFilter, opts ...table.ListOption) iter.Seq2[tn.Subscription, error] {
	return table.Pages(ctx, func(ctx context.Context, opts ...table.ListOption) (table.Page[tn.Subscription], error) {
		return ss.ListByTopic(ctx, topic, f, opts...)
	}, opts...)
}

// list reads one page of q and drops the soft-deleted subscriptions
// unless f.IncludeDeleted.
func (ss *Subscriptions) list(ctx context.Context, q table.Query, f SubFilter, opts []table.ListOption) (table.Page[tn.Subscription], error) {
	p, err := ss.s.sub.List(ctx, q, opts...)
	if err != nil || f.IncludeDeleted {
		return p, err
	}
	kept := p.Items[:0]
	for _, s := range p.Items {
		if s.DeletedAt == nil {
			kept = append(kept, s)
		}
	}
	p.Items = kept
	return p, nil
}
