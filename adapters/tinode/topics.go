package tinode

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/tinode/chat/server/db/common"
	t "github.com/tinode/chat/server/store/types"
)

// TopicCreate creates the topic with its tags (TN-8): one transaction.
// Its first subscriptions come through TopicShare, as Tinode sends them.
// An existing topic gives types.ErrDuplicate.
func (a *Adapter) TopicCreate(topic *t.Topic) error {
	tp, err := toTopic(topic)
	if err != nil {
		return t.ErrMalformed
	}
	tp.SubCnt = 0
	ctx, cancel := a.ctx()
	defer cancel()
	return terr(a.st.Topics.Create(ctx, &tp))
}

// TopicCreateP2P creates a p2p topic with both subscriptions (TN-26): the
// initiator's written as given, the invited user's kept if it exists
// (undeleted). One read and one transaction.
func (a *Adapter) TopicCreateP2P(initiator, invited *t.Subscription) error {
	i, err := toSub(initiator)
	if err != nil {
		return t.ErrMalformed
	}
	v, err := toSub(invited)
	if err != nil {
		return t.ErrMalformed
	}
	created := initiator.CreatedAt
	if invited.CreatedAt.Before(created) && !invited.CreatedAt.IsZero() {
		created = invited.CreatedAt
	}
	tp := tn.Topic{Id: tn.TopicName(initiator.Topic), CreatedAt: created, TouchedAt: ptime(initiator.GetTouchedAt())}
	ctx, cancel := a.ctx()
	defer cancel()
	_, err = a.st.Topics.CreateP2P(ctx, &tp, &i, &v)
	return terr(err)
}

// TopicGet returns the topic (TN-8): one GetItem. None gives (nil, nil).
//
// With coalesce_ms, Tinode's server calls it when it loads a topic and
// numbers the next message SeqId + 1, so the topic is first recovered
// from its stored messages (recoverTopic: a crash, here or on the server
// that hosted the topic before, loses nothing): one Query per message
// partition and a GetItem of the newest message's sender's subscription
// more, and the writes of a recovery when there is something to recover.
// The SeqId and TouchedAt returned are never older than this process's
// last stored message (README "Scale").
func (a *Adapter) TopicGet(name string) (*t.Topic, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	tp, err := a.st.Topics.ByName.Get(ctx, tn.Topic{Id: tn.TopicName(name)})
	if err != nil {
		return nil, notFoundNil(err)
	}
	if a.coal != nil {
		if err := a.recoverTopic(ctx, &tp); err != nil {
			return nil, terr(err)
		}
		a.coal.loaded(name, tp.SeqId)
		if seq, at, ok := a.coal.live(name); ok {
			tp.SeqId = max(tp.SeqId, seq)
			if tp.TouchedAt == nil || at.After(*tp.TouchedAt) {
				tp.TouchedAt = &at
			}
		}
	}
	return fromTopic(&tp), nil
}

// TopicsForUser returns the user's subscriptions joined with their topics
// and, for p2p topics, with the other user (TN-10, TN-23): the user's
// subscriptions (one GSI1 Query per 1 MB), one BatchGetItem of the topics
// and one of the p2p peers. 'me' and 'fnd' subscriptions are left out.
// With opts.IfModifiedSince only those changed after it are returned,
// oldest change first, up to opts.Limit (or MaxResults), as Tinode pages
// its contact list.
func (a *Adapter) TopicsForUser(id t.Uid, keepDeleted bool, opts *t.QueryOpt) ([]t.Subscription, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	user := tn.UserID(id.String())
	join := map[string]t.Subscription{}
	var topics []tn.TopicName
	var peers []tn.UserID
	for s, err := range a.st.Subs.ByUser.All(ctx, tn.Subscription{User: user}, includeHidden(keepDeleted)) {
		if err != nil {
			return nil, terr(err)
		}
		if opts != nil && opts.Topic != "" && string(s.Topic) != opts.Topic {
			continue
		}
		name := string(s.Topic)
		sub := fromSub(&s)
		switch t.GetTopicCat(name) {
		case t.TopicCatMe, t.TopicCatFnd:
			continue
		case t.TopicCatP2P:
			u1, u2, _ := t.ParseP2P(name)
			other := u1
			if u1 == id {
				other = u2
			}
			sub.SetWith(other.UserId())
			peers = append(peers, tn.UserID(other.String()))
		case t.TopicCatGrp:
			name = t.ChnToGrp(name)
		}
		topics = append(topics, tn.TopicName(name))
		join[name] = sub
	}
	if len(join) == 0 {
		return nil, nil
	}
	tps, err := a.st.Topics.GetMany(ctx, topics)
	if err != nil {
		return nil, terr(err)
	}
	for i := range tps {
		tp := &tps[i]
		sub, ok := join[string(tp.Id)]
		if !ok {
			continue
		}
		if !keepDeleted && tp.State == tn.StateDeleted {
			delete(join, string(tp.Id))
			continue
		}
		sub.UpdatedAt = common.SelectLatestTime(sub.UpdatedAt, tp.UpdatedAt)
		sub.SetState(t.ObjState(tp.State))
		sub.SetTouchedAt(vtime(tp.TouchedAt))
		sub.SetSeqId(tp.SeqId)
		if t.GetTopicCat(sub.Topic) == t.TopicCatGrp {
			sub.SetSubCnt(tp.SubCnt)
			sub.SetPublic(fromJSON(tp.Public))
			sub.SetTrusted(fromJSON(tp.Trusted))
		}
		join[string(tp.Id)] = sub
	}
	if len(peers) > 0 {
		us, err := a.st.Users.GetMany(ctx, peers)
		if err != nil {
			return nil, terr(err)
		}
		for i := range us {
			u := &us[i]
			if !keepDeleted && u.State == tn.StateDeleted {
				continue
			}
			name := id.P2PName(t.ParseUid(string(u.Id)))
			sub, ok := join[name]
			if !ok {
				continue
			}
			sub.UpdatedAt = common.SelectLatestTime(sub.UpdatedAt, u.UpdatedAt)
			sub.SetState(t.ObjState(u.State))
			sub.SetPublic(fromJSON(u.Public))
			sub.SetTrusted(fromJSON(u.Trusted))
			sub.SetDefaultAccess(tmode(u.Access.Auth), tmode(u.Access.Anon))
			sub.SetLastSeenAndUA(u.LastSeen, u.UserAgent)
			join[name] = sub
		}
	}
	subs := make([]t.Subscription, 0, len(join))
	for _, s := range join {
		a.coal.overlayJoined(&s)
		subs = append(subs, s)
	}
	slices.SortFunc(subs, func(x, y t.Subscription) int { return strings.Compare(x.Topic, y.Topic) })
	return common.SelectEarliestUpdatedSubs(subs, opts, a.maxResults), nil
}

// UsersForTopic returns the topic's subscriptions joined with their users
// (TN-11, TN-23): one Query of the topic's subscriptions per 1 MB and one
// BatchGetItem of the users. For a p2p topic each side gets the other
// user's Public, Trusted and last seen, as Tinode expects; opts.User keeps
// one user, opts.Limit (or MaxResults) bounds the list.
func (a *Adapter) UsersForTopic(topic string, keepDeleted bool, opts *t.QueryOpt) ([]t.Subscription, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	p2p := t.GetTopicCat(topic) == t.TopicCatP2P
	limit := a.limit(opts)
	var one t.Uid
	if opts != nil {
		one = opts.User
	}
	var raw []tn.Subscription
	for s, err := range a.st.Subs.ByTopic.All(ctx, tn.Subscription{Topic: tn.TopicName(topic)}, includeHidden(keepDeleted || p2p)) {
		if err != nil {
			return nil, terr(err)
		}
		if !p2p && !one.IsZero() && string(s.User) != one.String() {
			continue
		}
		raw = append(raw, s)
		if len(raw) == limit {
			break
		}
	}
	if len(raw) == 0 {
		return nil, nil
	}
	ids := make([]tn.UserID, len(raw))
	for i := range raw {
		ids[i] = raw[i].User
	}
	us, err := a.st.Users.GetMany(ctx, ids)
	if err != nil {
		return nil, terr(err)
	}
	byID := map[tn.UserID]*tn.User{}
	for i := range us {
		if us[i].State != tn.StateDeleted {
			byID[us[i].Id] = &us[i]
		}
	}
	var subs []t.Subscription
	for i := range raw {
		u, ok := byID[raw[i].User]
		if !ok {
			continue
		}
		sub := fromSub(&raw[i])
		a.coal.overlaySub(&sub)
		sub.ObjHeader.MergeTimes(&t.ObjHeader{CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt})
		sub.SetPublic(fromJSON(u.Public))
		sub.SetTrusted(fromJSON(u.Trusted))
		sub.SetLastSeenAndUA(u.LastSeen, u.UserAgent)
		subs = append(subs, sub)
	}
	if p2p && len(subs) > 0 {
		if len(subs) == 1 {
			subs[0].SetPublic(nil)
			subs[0].SetTrusted(nil)
			subs[0].SetLastSeenAndUA(nil, "")
		} else {
			p, tr := subs[0].GetPublic(), subs[0].GetTrusted()
			seen, ua := subs[0].GetLastSeen(), subs[0].GetUserAgent()
			subs[0].SetPublic(subs[1].GetPublic())
			subs[0].SetTrusted(subs[1].GetTrusted())
			subs[0].SetLastSeenAndUA(subs[1].GetLastSeen(), subs[1].GetUserAgent())
			subs[1].SetPublic(p)
			subs[1].SetTrusted(tr)
			subs[1].SetLastSeenAndUA(seen, ua)
		}
		subs = slices.DeleteFunc(subs, func(s t.Subscription) bool {
			return (s.DeletedAt != nil && !keepDeleted) || (!one.IsZero() && s.User != one.String())
		})
	}
	return subs, nil
}

func (a *Adapter) limit(opts *t.QueryOpt) int {
	limit := a.maxResults
	if opts != nil && opts.Limit > 0 && opts.Limit < limit {
		limit = opts.Limit
	}
	return limit
}

// OwnTopics returns the names of the live topics the user owns (TN-22):
// GSI1 USER#{user} / OWNS#, one Query per 1 MB.
func (a *Adapter) OwnTopics(id t.Uid) ([]string, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	var out []string
	for tp, err := range a.st.Topics.Owned.All(ctx, tn.Topic{Owner: tn.UserID(id.String())}) {
		if err != nil {
			return nil, terr(err)
		}
		if tp.State != tn.StateDeleted {
			out = append(out, string(tp.Id))
		}
	}
	return out, nil
}

// ChannelsForUser returns the channels the user reads with notifications
// on (TN-37): one Query of a sparse GSI2.
func (a *Adapter) ChannelsForUser(id t.Uid) ([]string, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	names, err := a.st.Subs.Channels(ctx, tn.UserID(id.String()))
	if err != nil {
		return nil, terr(err)
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = string(n)
	}
	return out, nil
}

// TopicShare creates subscriptions (TN-25): for a stored topic in
// transactions of up to 99 that also raise its SubCnt (TN-24); for topics
// with no item (topic "" for 'me' and 'fnd', a channel's "chn" readers)
// one conditional PutItem each. A subscription that exists is brought back
// as new (Restore: modes and times from the share, positions reset,
// undeleted), as Tinode's adapters do.
func (a *Adapter) TopicShare(topic string, shares []*t.Subscription) error {
	ctx, cancel := a.ctx()
	defer cancel()
	subs := make([]*tn.Subscription, 0, len(shares))
	for _, sh := range shares {
		s, err := toSub(sh)
		if err != nil {
			return t.ErrMalformed
		}
		subs = append(subs, &s)
	}
	counted := topic != "" && !t.IsChannel(topic)
	if counted {
		res, err := a.st.Subs.Share(ctx, tn.TopicName(topic), subs)
		switch {
		case errors.Is(err, table.ErrNotFound):
			counted = false // a topic with no item, such as 'slf'
		case err != nil:
			return terr(err)
		default:
			for _, s := range subs {
				if slices.Contains(res.Existing, s.User) {
					if err := a.st.Subs.Restore(ctx, s, true); err != nil {
						return terr(err)
					}
				}
			}
			return nil
		}
	}
	for _, s := range subs {
		err := a.st.Subs.CreateUncounted(ctx, s)
		if errors.Is(err, table.ErrAlreadyExists) {
			err = a.st.Subs.Restore(ctx, s, false)
		}
		if err != nil {
			return terr(err)
		}
	}
	return nil
}

// TopicDelete deletes the topic (TN-18). Soft: its subscriptions (and a
// channel's readers) are soft-deleted, each lowering SubCnt, and the topic
// marked deleted. Hard: the topic's avatar and its messages' attachments
// are unlinked (TN-32), a channel's readers deleted, then the topic's
// partition (subscriptions, messages, deletion log) and the topic.
func (a *Adapter) TopicDelete(topic string, isChan, hard bool) error {
	if hard {
		a.forget(topic)
		if isChan {
			if err := a.deleteReaders(topic); err != nil {
				return err
			}
		}
		return a.topicDeleteHard(tn.TopicName(topic))
	}
	ctx, cancel := a.ctx()
	defer cancel()
	names := []tn.TopicName{tn.TopicName(topic)}
	if isChan {
		names = append(names, tn.TopicName(t.GrpToChn(topic)))
	}
	for _, name := range names {
		var users []tn.UserID
		for s, err := range a.st.Subs.ByTopic.All(ctx, tn.Subscription{Topic: name}) {
			if err != nil {
				return terr(err)
			}
			users = append(users, s.User)
		}
		for _, u := range users {
			if err := a.st.Subs.SoftDelete(ctx, name, u); err != nil && !errors.Is(err, table.ErrNotFound) {
				return terr(err)
			}
		}
	}
	_, err := a.st.Topics.SoftDelete(ctx, tn.TopicName(topic))
	return notFoundNil(err)
}

func (a *Adapter) deleteReaders(topic string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	chn := tn.TopicName(t.GrpToChn(topic))
	var users []tn.UserID
	for s, err := range a.st.Subs.ByTopic.All(ctx, tn.Subscription{Topic: chn}, table.IncludeHidden()) {
		if err != nil {
			return terr(err)
		}
		users = append(users, s.User)
	}
	for _, u := range users {
		if err := a.st.Subs.Delete(ctx, chn, u); err != nil && !errors.Is(err, table.ErrNotFound) {
			return terr(err)
		}
	}
	return nil
}

func (a *Adapter) topicDeleteHard(name tn.TopicName) error {
	ctx, cancel := a.ctx()
	defer cancel()
	if _, err := a.st.Files.Unlink(ctx, tn.TopicOwner(name)); err != nil {
		return terr(err)
	}
	// Messages with attachments carry "attachments" in their head.
	var owners []tn.LinkOwner
	for m, err := range table.Every(ctx, a.st.Messages.History, tinode.HistoryFilter{Topic: name}) {
		if err != nil {
			return terr(err)
		}
		if m.Id != "" && strings.Contains(string(m.Head), `"attachments"`) {
			owners = append(owners, tn.MessageOwner(m.Id))
		}
	}
	for _, o := range owners {
		if _, err := a.st.Files.Unlink(ctx, o); err != nil {
			return terr(err)
		}
	}
	return notFoundNil(a.st.Topics.Delete(ctx, name))
}

// TopicUpdateOnMessage records the topic's new last SeqId and TouchedAt
// (TN-12, Topics.RecordMessage): one read and one version-checked write of
// the topic; SeqId never moves back. Tinode numbers messages itself and saves them with
// MessageSave. A topic with no item ('me') is not an error.
//
// With coalesce_ms it sends nothing: MessageSave records the SeqId once the
// message is stored, written through or kept (README "Scale").
func (a *Adapter) TopicUpdateOnMessage(topic string, msg *t.Message) error {
	if a.coal != nil {
		a.coal.begin(topic, msg.SeqId)
		return nil
	}
	ctx, cancel := a.ctx()
	defer cancel()
	_, err := a.st.Topics.RecordMessage(ctx, tn.TopicName(topic), msg.SeqId, msg.CreatedAt)
	return notFoundNil(err)
}

// TopicUpdateSubCnt recounts the topic's live subscriptions, with a
// channel's readers (TN-24): one Query per 1 MB of each, then a read and
// a write of the topic. SubCnt is kept exact by every subscribe and
// unsubscribe already; this repairs a count a stopped Restore left low.
//
// Tinode's server calls it when a group topic stops on this server (idle,
// deleted, shut down, or moved to another node of a cluster): with
// coalesce_ms, what is kept of the topic is written first and forgotten
// (README "Scale"), so the node that loads it next reads it from the
// table; if that write fails, the topic stays kept and the ticker retries
// it.
func (a *Adapter) TopicUpdateSubCnt(topic string) error {
	if a.coal != nil {
		if err := a.coal.release(topic); err != nil {
			// Still kept: the ticker flushes it within coalesce_ms.
			warnf("adapter dynamodb: topic[%s]: flush as the topic stops: %v (retried)", topic, err)
		}
	}
	ctx, cancel := a.ctx()
	defer cancel()
	readers := tn.TopicName("")
	if strings.HasPrefix(topic, "grp") {
		readers = tn.TopicName(t.GrpToChn(topic))
	}
	_, err := a.st.Topics.RecountSubs(ctx, tn.TopicName(topic), readers)
	return notFoundNil(err)
}

// TopicUpdate applies Tinode's field map to the topic (TN-8): one read and
// one version-checked write; tag changes move their guards and lookup
// entries in the same transaction. A missing topic is not an error, as
// an UPDATE that matches nothing is not in Tinode's SQL adapters.
func (a *Adapter) TopicUpdate(topic string, update map[string]any) error {
	ctx, cancel := a.ctx()
	defer cancel()
	_, err := a.st.Topics.Update(ctx, tn.TopicName(topic), func(tp *tn.Topic) error {
		return applyTopic(tp, update)
	})
	return notFoundNil(err)
}

func applyTopic(tp *tn.Topic, update map[string]any) error {
	touched := false
	for k, v := range update {
		var err error
		switch k {
		case "TouchedAt":
			tp.TouchedAt, touched = timePtr(v), true
		case "State":
			s, _ := v.(t.ObjState)
			tp.State = tn.ObjState(s)
		case "StateAt":
			tp.StateAt = timePtr(v)
		case "Access":
			if da, ok := v.(t.DefaultAccess); ok {
				tp.Access = tn.DefaultAccess{Auth: mode(da.Auth), Anon: mode(da.Anon)}
			} else if da, ok := v.(*t.DefaultAccess); ok && da != nil {
				tp.Access = tn.DefaultAccess{Auth: mode(da.Auth), Anon: mode(da.Anon)}
			}
		case "Public":
			tp.Public, err = toJSON(v)
		case "Trusted":
			tp.Trusted, err = toJSON(v)
		case "Aux":
			tp.Aux, err = toJSON(v)
		case "Tags":
			tp.Tags = tagList(v)
		case "SeqId", "DelId", "SubCnt":
			// Kept by the store's own writes: TopicUpdateOnMessage
			// (SeqId), MessageDeleteList (DelId, advanced in the same
			// transaction as the deletion log), subscribe and
			// unsubscribe (SubCnt).
		case "UseBt":
			tp.UseBt, _ = v.(bool)
		case "Owner":
			s, _ := v.(string)
			tp.Owner = tn.UserID(s)
		}
		if err != nil {
			return t.ErrMalformed
		}
	}
	if u, ok := update["UpdatedAt"].(time.Time); ok && !touched {
		tp.TouchedAt = &u
	}
	return nil
}

func intOf(v any) int {
	switch x := v.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case float64:
		return int(x)
	}
	return 0
}

// TopicOwnerChange makes the user the topic's owner (TN-38): one read and
// one write that moves the owner index entry.
func (a *Adapter) TopicOwnerChange(topic string, newOwner t.Uid) error {
	ctx, cancel := a.ctx()
	defer cancel()
	_, err := a.st.Topics.ChangeOwner(ctx, tn.TopicName(topic), tn.UserID(newOwner.String()))
	return terr(err)
}
