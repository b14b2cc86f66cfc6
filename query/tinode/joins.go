package tinode

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// SubTopic is a subscription joined with its topic.
type SubTopic struct {
	Sub   tn.Subscription
	Topic tn.Topic
}

// SubUser is a subscription joined with its user.
type SubUser struct {
	Sub  tn.Subscription
	User tn.User
}

// TopicsOfUser lists a user's subscriptions joined with their topics
// (TN-23, Tinode's TopicsForUser): one page of Subscriptions.ByUser for
// sub's User and UpdatedAt (options as there), then one BatchGetItem for
// the page's topics, so 2 requests per page, never one per row. A
// subscription whose topic is gone is left out.
func (ss *Subscriptions) TopicsOfUser(ctx context.Context, sub tn.Subscription, opts ...table.ListOption) (table.Page[SubTopic], error) {
	return table.Run(ctx, ss.topicsOfUser, func(ctx context.Context) (table.Page[SubTopic], error) {
		p, err := ss.ByUser.List(ctx, sub, opts...)
		if err != nil {
			return table.Page[SubTopic]{}, err
		}
		return table.Join(ctx, p, func(s tn.Subscription) tn.TopicName { return s.Topic }, ss.s.Topics.GetMany,
			func(t tn.Topic) tn.TopicName { return t.Id }, func(s tn.Subscription, t tn.Topic) SubTopic { return SubTopic{Sub: s, Topic: t} })
	})
}

// UsersOfTopic lists a topic's subscriptions joined with their users
// (TN-23, Tinode's UsersForTopic): one page of Subscriptions.ByTopic for
// sub's Topic (options as there), then one BatchGetItem for the page's
// users: 2 requests per page. A subscription whose user is gone is left
// out.
func (ss *Subscriptions) UsersOfTopic(ctx context.Context, sub tn.Subscription, opts ...table.ListOption) (table.Page[SubUser], error) {
	return table.Run(ctx, ss.usersOfTopic, func(ctx context.Context) (table.Page[SubUser], error) {
		p, err := ss.ByTopic.List(ctx, sub, opts...)
		if err != nil {
			return table.Page[SubUser]{}, err
		}
		return table.Join(ctx, p, func(s tn.Subscription) tn.UserID { return s.User }, ss.s.Users.GetMany,
			func(u tn.User) tn.UserID { return u.Id }, func(s tn.Subscription, u tn.User) SubUser { return SubUser{Sub: s, User: u} })
	})
}

// UnreadCount returns how many messages the user has not read over all
// their subscriptions (TN-21, Tinode's UserUnreadCount): the sum of
// topic.SeqId - max(ReadSeqId, ClearId) over live subscriptions that
// grant read access (ModeWant and ModeGiven both hold R) to live topics.
// Requests: per page of subscriptions (GSI1 Query) one BatchGetItem of
// their topics, no per-topic read. The subscriptions come from GSI1, so a
// read position advanced a moment ago may not count yet.
func (ss *Subscriptions) UnreadCount(ctx context.Context, user tn.UserID) (int, error) {
	return table.Run(ctx, ss.unreadCount, func(ctx context.Context) (int, error) {
		total := 0
		for st, err := range table.Every(ctx, ss.TopicsOfUser, tn.Subscription{User: user}, table.Limit(100)) {
			if err != nil {
				return 0, err
			}
			s, t := st.Sub, st.Topic
			if !s.ModeWant.Has(tn.ModeRead) || !s.ModeGiven.Has(tn.ModeRead) || t.DeletedAt != nil || t.State == tn.StateDeleted {
				continue
			}
			if n := t.SeqId - max(s.ReadSeqId, s.ClearId); n > 0 {
				total += n
			}
		}
		return total, nil
	})
}

// CreateP2P creates a p2p topic with the subscriptions of its two users
// (TN-26, Tinode's TopicCreateP2P): the initiator's subscription is
// written as given (replacing any earlier one), while an existing
// subscription of the invited user is kept as it is (its modes and
// Private stay), only undeleted if it was soft-deleted; it is created
// when there is none. It reports whether the invited user's subscription
// was kept. Requests: a consistent GetItem of the invited subscription,
// then one transaction (topic with SubCnt 2, both subscriptions), retried
// if the invited subscription changed in between. An existing topic gives
// table.ErrAlreadyExists.
func (ts *Topics) CreateP2P(ctx context.Context, t *tn.Topic, initiator, invited *tn.Subscription) (bool, error) {
	return table.Run(ctx, ts.createP2P, func(ctx context.Context) (bool, error) {
		if initiator.Topic != t.Id || invited.Topic != t.Id {
			return false, table.Invalid("Topic", "both subscriptions must be of topic %q", t.Id)
		}
		if initiator.User == invited.User {
			return false, table.Invalid("User", "initiator and invited are both %q", initiator.User)
		}
		if err := tn.TopicNames.CheckField("Id", t.Id); err != nil {
			return false, err
		}
		ik, err := ts.s.sub.CheckedKey(tn.Subscription{Topic: invited.Topic, User: invited.User})
		if err != nil {
			return false, err
		}
		kept := false
		err = ts.s.retry(ctx, func() error {
			topic := *t
			topic.SubCnt = 2
			ops, err := ts.s.topic.CreateOp(&topic)
			if err != nil {
				return err
			}
			ops[0] = ops[0].OnFail(fmt.Errorf("create p2p topic %s: %w", t.Id, table.ErrAlreadyExists))
			first := *initiator
			put, err := ts.s.sub.PutOp(&first)
			if err != nil {
				return err
			}
			ops = append(ops, put)
			cur, err := ts.s.sub.Get(ctx, ik, table.Consistent())
			switch {
			case errors.Is(err, table.ErrNotFound):
				second := *invited
				create, err := ts.s.sub.CreateOp(&second)
				if err != nil {
					return err
				}
				ops, kept = append(ops, create...), false
			case err != nil:
				return err
			default:
				v := cur.Version
				p := table.Patch{IfVersion: &v, NoTouch: true}
				if cur.DeletedAt != nil {
					p = table.Patch{IfVersion: &v, NoTouch: true, Set: map[string]any{"State": tn.StateOK}, Remove: []string{"DeletedAt"}}
				}
				keep, err := ts.s.sub.PatchOp(ik, p)
				if err != nil {
					return err
				}
				ops, kept = append(ops, keep), true
			}
			return ts.s.t.Transact(ctx, ops...)
		})
		return kept, err
	})
}

// TopicMatch is a topic found by its tags and the tags that matched.
type TopicMatch struct {
	Topic tn.Topic
	Tags  []string
}

// FindByTags returns the topics holding any of tags (TN-19: today's Tinode's Find
// searches topics by their tags too): one BatchGetItem on the tag guards
// (user and topic tags share them, so a tag has one holder; under
// Options.SharedTags one Query per shared tag), one on the owners they name
// (the engine's confirmation, table.LookupUniques: an owner that no longer
// holds a tag does not match it, and its orphan guard is removed), one on
// the topics found, in the order of their first matching tag; a topic read
// without the tag (a shared tag's entry left behind) does not match it. Free tags
// and users' tags are skipped.
func (ts *Topics) FindByTags(ctx context.Context, tags ...string) ([]TopicMatch, error) {
	return table.Run(ctx, ts.findByTags, func(ctx context.Context) ([]TopicMatch, error) {
		return findByTags(ctx, ts.s, tags, ts.s.topic, ts.GetMany, func(t tn.Topic) (tn.TopicName, []string) { return t.Id, t.Tags },
			func(t tn.Topic, tags []string) TopicMatch { return TopicMatch{Topic: t, Tags: tags} })
	})
}
