package tinode

import (
	"errors"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	t "github.com/tinode/chat/server/store/types"
)

// SubscriptionGet returns the user's subscription to topic (TN-9): one
// GetItem. None, or a soft-deleted one without keepDeleted, gives
// (nil, nil).
func (a *Adapter) SubscriptionGet(topic string, user t.Uid, keepDeleted bool) (*t.Subscription, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	s, err := a.st.Subs.ByTopicUser.Get(ctx, tn.Subscription{Topic: tn.TopicName(topic), User: tn.UserID(user.String())})
	if err != nil {
		return nil, notFoundNil(err)
	}
	if s.DeletedAt != nil && !keepDeleted {
		return nil, nil
	}
	out := fromSub(&s)
	a.coal.overlaySub(&out)
	return &out, nil
}

// SubsForUser returns the user's live subscriptions without Private
// (TN-10): one GSI1 Query per 1 MB.
func (a *Adapter) SubsForUser(user t.Uid) ([]t.Subscription, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	var out []t.Subscription
	for s, err := range a.st.Subs.ByUser.All(ctx, tn.Subscription{User: tn.UserID(user.String())}) {
		if err != nil {
			return nil, terr(err)
		}
		sub := fromSub(&s)
		a.coal.overlaySub(&sub)
		sub.Private = nil
		out = append(out, sub)
	}
	return out, nil
}

// SubsForTopic returns the topic's subscriptions, soft-deleted ones too
// with keepDeleted (TN-11): one Query per 1 MB, ordered by user id.
// opts.User keeps one user (one GetItem), opts.Limit (or MaxResults)
// bounds the list.
func (a *Adapter) SubsForTopic(topic string, keepDeleted bool, opts *t.QueryOpt) ([]t.Subscription, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	if opts != nil && !opts.User.IsZero() {
		s, err := a.SubscriptionGet(topic, opts.User, keepDeleted)
		if err != nil || s == nil {
			return nil, err
		}
		return []t.Subscription{*s}, nil
	}
	limit := a.limit(opts)
	var out []t.Subscription
	for s, err := range a.st.Subs.ByTopic.All(ctx, tn.Subscription{Topic: tn.TopicName(topic)}, includeHidden(keepDeleted)) {
		if err != nil {
			return nil, terr(err)
		}
		sub := fromSub(&s)
		a.coal.overlaySub(&sub)
		out = append(out, sub)
		if len(out) == limit {
			break
		}
	}
	return out, nil
}

// SubsUpdate applies Tinode's field map to the user's subscription, or to
// every subscription of the topic when user is zero (TN-9): per
// subscription one read and one version-checked write. Missing
// subscriptions are not an error, as an UPDATE that matches nothing is
// not in Tinode's SQL adapters.
//
// With coalesce_ms, the update Tinode makes after saving a message (the
// sender's RecvSeqId and ReadSeqId set to its SeqId) is written through
// when the message's SeqId was (a quiet topic): one conditional UpdateItem
// (raiseMarks, never lowering marks another server wrote, UpdatedAt
// untouched as on Tinode's SQL adapters); for a hot topic it is kept and
// written by the topic's next flush: no request (README "Scale").
func (a *Adapter) SubsUpdate(topic string, user t.Uid, update map[string]any) error {
	if a.coal != nil && !user.IsZero() {
		switch how, seq := a.coal.senderMarks(topic, user.String(), update); how {
		case marksKept:
			return nil
		case marksThrough:
			if err := a.coal.marksThrough(topic, user.String(), seq); err != nil {
				// Kept: the next flush writes them.
				warnf("adapter dynamodb: topic[%s]: sender marks %d written through: %v (left to the flush)", topic, seq, err)
			}
			return nil
		}
	}
	ctx, cancel := a.ctx()
	defer cancel()
	name := tn.TopicName(topic)
	var users []tn.UserID
	if user.IsZero() {
		for s, err := range a.st.Subs.ByTopic.All(ctx, tn.Subscription{Topic: name}, table.IncludeHidden()) {
			if err != nil {
				return terr(err)
			}
			users = append(users, s.User)
		}
	} else {
		users = []tn.UserID{tn.UserID(user.String())}
	}
	for _, u := range users {
		_, err := a.st.Subs.Update(ctx, tinode.SubRef{Topic: name, User: u}, func(s *tn.Subscription) error { return applySub(s, update) })
		if err != nil && !errors.Is(err, table.ErrNotFound) {
			return terr(err)
		}
	}
	return nil
}

func applySub(s *tn.Subscription, update map[string]any) error {
	for k, v := range update {
		var err error
		switch k {
		case "ModeWant":
			m, _ := v.(t.AccessMode)
			s.ModeWant = mode(m)
		case "ModeGiven":
			m, _ := v.(t.AccessMode)
			s.ModeGiven = mode(m)
		case "Private":
			s.Private, err = toJSON(v)
		case "ReadSeqId":
			s.ReadSeqId = max(s.ReadSeqId, intOf(v))
		case "RecvSeqId":
			s.RecvSeqId = max(s.RecvSeqId, intOf(v))
		case "DelId":
			s.DelId = max(s.DelId, intOf(v))
		case "DeletedAt":
			s.DeletedAt = timePtr(v)
		case "CreatedAt":
			if at, ok := v.(time.Time); ok {
				s.CreatedAt = at
			}
		}
		if err != nil {
			return t.ErrMalformed
		}
	}
	return nil
}

// SubsDelete soft-deletes the user's subscription (TN-9, TN-24): one read
// and one transaction that also lowers the topic's SubCnt. A missing one
// gives types.ErrNotFound.
func (a *Adapter) SubsDelete(topic string, user t.Uid) error {
	ctx, cancel := a.ctx()
	defer cancel()
	return terr(a.st.Subs.SoftDelete(ctx, tn.TopicName(topic), tn.UserID(user.String())))
}

// includeHidden is table.IncludeHidden when keep (soft-deleted
// subscriptions listed too), else no option.
func includeHidden(keep bool) table.ListOption {
	if keep {
		return table.IncludeHidden()
	}
	return nil
}
