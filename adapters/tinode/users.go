package tinode

import (
	"errors"
	"slices"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
	"github.com/tinode/chat/server/db/common"
	t "github.com/tinode/chat/server/store/types"
)

// UserCreate creates the user with its tags (TN-2): one transaction.
// An existing id or a held unique tag gives types.ErrDuplicate.
func (a *Adapter) UserCreate(user *t.User) error {
	u, err := toUser(user)
	if err != nil {
		return t.ErrMalformed
	}
	ctx, cancel := a.ctx()
	defer cancel()
	return terr(a.st.Users.Create(ctx, &u))
}

// UserGet returns the user (TN-1): one GetItem. A missing or soft-deleted
// user gives (nil, nil), as Tinode expects.
func (a *Adapter) UserGet(id t.Uid) (*t.User, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	u, err := a.st.Users.ByID.Get(ctx, tn.User{Id: tn.UserID(id.String())})
	if err != nil {
		return nil, notFoundNil(err)
	}
	if u.State == tn.StateDeleted || u.DeletedAt != nil {
		return nil, nil
	}
	out := fromUser(&u)
	return &out, nil
}

// UserGetAll returns the users that exist and are not deleted (TN-1): one
// BatchGetItem per 100 ids.
func (a *Adapter) UserGetAll(ids ...t.Uid) ([]t.User, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	us, err := a.st.Users.GetMany(ctx, userIDs(ids))
	if err != nil {
		return nil, terr(err)
	}
	var out []t.User
	for i := range us {
		if us[i].State != tn.StateDeleted && us[i].DeletedAt == nil {
			out = append(out, fromUser(&us[i]))
		}
	}
	return out, nil
}

func userIDs(ids []t.Uid) []tn.UserID {
	out := make([]tn.UserID, 0, len(ids))
	for _, id := range ids {
		if !id.IsZero() {
			out = append(out, tn.UserID(id.String()))
		}
	}
	return out
}

// UserDelete deletes the user (TN-17). Soft: the user, the group topics it
// owns and its p2p topics are marked deleted, its subscriptions kept.
// Hard: the group topics it owns are deleted with their messages
// (TN-18), its p2p topics left as they are (the other user keeps them, as
// in Tinode's SQL adapters), its files unlinked (TN-32),
// then the user with its subscriptions, credentials, auth records and
// tags. Each step is resumable; a repeated call finishes a stopped one.
func (a *Adapter) UserDelete(id t.Uid, hard bool) error {
	ctx, cancel := a.ctx()
	defer cancel()
	user := tn.UserID(id.String())
	// Topics the user owns (TN-22) and p2p topics (TN-10).
	var owned []tn.TopicName
	for tp, err := range a.st.Topics.Owned.All(ctx, tn.Topic{Owner: user}) {
		if err != nil {
			return terr(err)
		}
		owned = append(owned, tp.Id)
	}
	var p2p []tn.TopicName
	for s, err := range a.st.Subs.ByUser.All(ctx, tn.Subscription{User: user}, table.IncludeHidden()) {
		if err != nil {
			return terr(err)
		}
		if s.Topic.IsP2P() {
			p2p = append(p2p, s.Topic)
		}
	}
	for _, name := range owned {
		var err error
		if hard {
			err = a.topicDeleteHard(name)
		} else {
			_, err = a.st.Topics.SoftDelete(ctx, name)
		}
		if err != nil && !errors.Is(err, table.ErrNotFound) {
			return terr(err)
		}
	}
	// A soft delete marks the user's p2p topics deleted; a hard one leaves
	// them to the other user, as Tinode's SQL adapters do (they delete the
	// user's subscriptions and keep the topic and the other one's), so
	// the other user's 'me' still lists the conversation.
	for _, name := range p2p {
		if hard {
			break
		}
		if _, err := a.st.Topics.SoftDelete(ctx, name); err != nil && !errors.Is(err, table.ErrNotFound) {
			return terr(err)
		}
	}
	if !hard {
		_, err := a.st.Users.SoftDelete(ctx, user)
		return terr(err)
	}
	if _, err := a.st.Files.Unlink(ctx, tn.UserOwner(user)); err != nil {
		return terr(err)
	}
	// Subscriptions to the user's 'me' and 'fnd' topics are deleted with
	// the user's other subscriptions (GSI1 USER#{id}).
	return notFoundNil(a.st.Users.Delete(ctx, user))
}

// UserUpdate applies Tinode's field map to the user (TN-1, TN-3): a read
// and a version-checked write. A State change also moves the state of the
// group topics the user owns and of its p2p topics, as Tinode's SQL
// adapters do.
func (a *Adapter) UserUpdate(id t.Uid, update map[string]any) error {
	ctx, cancel := a.ctx()
	defer cancel()
	user := tn.UserID(id.String())
	_, err := a.st.Users.Update(ctx, user, func(u *tn.User) error {
		return applyUser(u, update)
	})
	if err != nil {
		return terr(err)
	}
	if st, ok := update["State"]; ok {
		state, _ := st.(t.ObjState)
		at, _ := update["StateAt"].(time.Time)
		if at.IsZero() {
			at = t.TimeNow()
		}
		return a.topicStateForUser(user, tn.ObjState(state), at)
	}
	return nil
}

func (a *Adapter) topicStateForUser(user tn.UserID, state tn.ObjState, at time.Time) error {
	ctx, cancel := a.ctx()
	defer cancel()
	var names []tn.TopicName
	for tp, err := range a.st.Topics.Owned.All(ctx, tn.Topic{Owner: user}) {
		if err != nil {
			return terr(err)
		}
		names = append(names, tp.Id)
	}
	for s, err := range a.st.Subs.ByUser.All(ctx, tn.Subscription{User: user}) {
		if err != nil {
			return terr(err)
		}
		if s.Topic.IsP2P() {
			names = append(names, s.Topic)
		}
	}
	for _, name := range names {
		_, err := a.st.Topics.Update(ctx, name, func(tp *tn.Topic) error {
			if tp.State != tn.StateDeleted {
				tp.State, tp.StateAt = state, &at
			}
			return nil
		})
		if err != nil && !errors.Is(err, table.ErrNotFound) {
			return terr(err)
		}
	}
	return nil
}

// applyUser sets the fields Tinode's update maps name.
func applyUser(u *tn.User, update map[string]any) error {
	for k, v := range update {
		var err error
		switch k {
		case "UpdatedAt":
			// The table's clock stamps UpdatedAt.
		case "State":
			s, _ := v.(t.ObjState)
			u.State = tn.ObjState(s)
			if u.State == tn.StateDeleted {
				now := t.TimeNow()
				u.DeletedAt = &now
			} else {
				u.DeletedAt = nil
			}
		case "StateAt":
			u.StateAt = timePtr(v)
		case "Access":
			if da, ok := v.(t.DefaultAccess); ok {
				u.Access = tn.DefaultAccess{Auth: mode(da.Auth), Anon: mode(da.Anon)}
			} else if da, ok := v.(*t.DefaultAccess); ok && da != nil {
				u.Access = tn.DefaultAccess{Auth: mode(da.Auth), Anon: mode(da.Anon)}
			}
		case "Public":
			u.Public, err = toJSON(v)
		case "Trusted":
			u.Trusted, err = toJSON(v)
		case "LastSeen":
			u.LastSeen = timePtr(v)
		case "UserAgent":
			u.UserAgent, _ = v.(string)
		case "Tags":
			u.Tags = tagList(v)
		}
		if err != nil {
			return t.ErrMalformed
		}
	}
	return nil
}

func timePtr(v any) *time.Time {
	switch x := v.(type) {
	case time.Time:
		if x.IsZero() {
			return nil
		}
		return &x
	case *time.Time:
		return x
	}
	return nil
}

func tagList(v any) []string {
	switch x := v.(type) {
	case []string:
		return x
	case t.StringSlice:
		return []string(x)
	}
	return nil
}

// UserUpdateTags adds, removes or resets the user's tags (TN-3): one read
// and one transaction that moves the tags' guards and lookup entries.
// A unique tag held by another user or topic gives types.ErrDuplicate.
func (a *Adapter) UserUpdateTags(id t.Uid, add, remove, reset []string) ([]string, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	u, err := a.st.Users.Update(ctx, tn.UserID(id.String()), func(u *tn.User) error {
		u.Tags = mutateTags(u.Tags, add, remove, reset)
		return nil
	})
	if err != nil {
		return nil, terr(err)
	}
	return u.Tags, nil
}

func mutateTags(tags, add, remove, reset []string) []string {
	if reset != nil {
		tags = slices.Clone(reset)
	} else {
		for _, tag := range add {
			if !slices.Contains(tags, tag) {
				tags = append(tags, tag)
			}
		}
		tags = slices.DeleteFunc(slices.Clone(tags), func(s string) bool { return slices.Contains(remove, s) })
	}
	// In the order they were added, each once, as Tinode's PostgreSQL
	// adapter reads them back (SELECT without ORDER BY of rows inserted
	// in that order).
	seen := map[string]bool{}
	return slices.DeleteFunc(tags, func(s string) bool {
		dup := seen[s]
		seen[s] = true
		return dup
	})
}

// UserGetByCred returns the user whose validated credential is
// method:value (TN-30): a GetItem of the credential's guard, then one of
// the credential it names, which answers (a guard is never the truth); an
// unknown value costs the first only. None gives (ZeroUid, nil).
func (a *Adapter) UserGetByCred(method, value string) (t.Uid, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	u, err := a.st.Creds.UserByCred(ctx, method, value)
	if err != nil {
		return t.ZeroUid, notFoundNil(err)
	}
	return t.ParseUid(string(u)), nil
}

// UserUnreadCount returns each user's unread messages over the
// subscriptions with read access (TN-21): per user a Query page of
// subscriptions and one BatchGetItem of their topics. Every id is in the
// map even if its count failed, as Tinode asks.
func (a *Adapter) UserUnreadCount(ids ...t.Uid) (map[t.Uid]int, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	counts := make(map[t.Uid]int, len(ids))
	var firstErr error
	for _, id := range ids {
		counts[id] = 0
		n, err := a.st.Subs.UnreadCount(ctx, tn.UserID(id.String()))
		if err != nil {
			if firstErr == nil {
				firstErr = terr(err)
			}
			continue
		}
		counts[id] = n
	}
	return counts, firstErr
}

// UserGetUnvalidated returns up to limit users with a credential still
// unvalidated and not updated since lastUpdatedBefore (TN-30): GSI2
// CREDUNV pages, no Scan. Tinode also asks that they never logged in;
// the users are read in one BatchGetItem and those with a LastSeen are
// dropped.
func (a *Adapter) UserGetUnvalidated(lastUpdatedBefore time.Time, limit int) ([]t.Uid, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	ids, err := a.st.Creds.Unvalidated(ctx, lastUpdatedBefore, limit)
	if err != nil {
		return nil, terr(err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	us, err := a.st.Users.GetMany(ctx, ids)
	if err != nil {
		return nil, terr(err)
	}
	var out []t.Uid
	for _, u := range us {
		if u.LastSeen == nil && u.UpdatedAt.Before(lastUpdatedBefore) {
			out = append(out, t.ParseUid(string(u.Id)))
		}
	}
	return out, nil
}

// Find returns the users and topics holding the tags (TN-19): req is a
// list of tag sets of which each must match once, opt optional tags;
// results rank by the number of matching tags (a tag starting with
// prefix counts 20), then by subscriber count, at most MaxResults. Per
// unique tag one GetItem of its guard, per shared tag one Query, then one
// BatchGetItem of users and one of topics. The caller is left out.
func (a *Adapter) Find(caller, prefix string, req [][]string, opt []string, activeOnly bool) ([]t.Subscription, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	all := t.FlattenDoubleSlice(req)
	all = append(all, opt...)
	slices.Sort(all)
	all = slices.Compact(all)
	if len(all) == 0 {
		return nil, nil
	}
	index := map[string]struct{}{}
	for _, tag := range all {
		index[tag] = struct{}{}
	}
	users, err := a.st.Users.FindByTags(ctx, all...)
	if err != nil {
		return nil, terr(err)
	}
	topics, err := a.st.Topics.FindByTags(ctx, all...)
	if err != nil {
		return nil, terr(err)
	}
	type hit struct {
		sub   t.Subscription
		score int
		cnt   int
	}
	var hits []hit
	matches := func(tags []string) (int, bool) {
		for _, set := range req {
			if !slices.ContainsFunc(set, func(s string) bool { return slices.Contains(tags, s) }) {
				return 0, false
			}
		}
		score := 0
		for _, tag := range tags {
			if prefix != "" && len(tag) >= len(prefix) && tag[:len(prefix)] == prefix {
				score += 20
			} else {
				score++
			}
		}
		return score, true
	}
	for _, m := range users {
		u := m.User
		if (activeOnly && u.State != tn.StateOK) || u.DeletedAt != nil {
			continue
		}
		name := t.ParseUid(string(u.Id)).UserId()
		if name == caller {
			continue
		}
		score, ok := matches(common.FilterFoundTags(u.Tags, index))
		if !ok {
			continue
		}
		var s t.Subscription
		s.Topic, s.CreatedAt, s.UpdatedAt = name, u.CreatedAt, u.UpdatedAt
		s.SetPublic(fromJSON(u.Public))
		s.SetTrusted(fromJSON(u.Trusted))
		s.SetDefaultAccess(tmode(u.Access.Auth), tmode(u.Access.Anon))
		s.ModeGiven, s.ModeWant = t.ModeUnset, t.ModeUnset
		s.Private = common.FilterFoundTags(u.Tags, index)
		hits = append(hits, hit{s, score, 0})
	}
	for _, m := range topics {
		tp := m.Topic
		if (activeOnly && tp.State != tn.StateOK) || tp.DeletedAt != nil || string(tp.Id) == caller {
			continue
		}
		score, ok := matches(common.FilterFoundTags(tp.Tags, index))
		if !ok {
			continue
		}
		var s t.Subscription
		s.Topic, s.CreatedAt, s.UpdatedAt = string(tp.Id), tp.CreatedAt, tp.UpdatedAt
		if tp.UseBt {
			s.Topic = t.GrpToChn(s.Topic)
		}
		s.SetSubCnt(tp.SubCnt)
		s.SetPublic(fromJSON(tp.Public))
		s.SetTrusted(fromJSON(tp.Trusted))
		s.SetDefaultAccess(tmode(tp.Access.Auth), tmode(tp.Access.Anon))
		s.ModeGiven, s.ModeWant = t.ModeUnset, t.ModeUnset
		s.Private = common.FilterFoundTags(tp.Tags, index)
		hits = append(hits, hit{s, score, tp.SubCnt})
	}
	slices.SortStableFunc(hits, func(x, y hit) int {
		if x.score != y.score {
			return y.score - x.score
		}
		return y.cnt - x.cnt
	})
	out := make([]t.Subscription, 0, min(len(hits), a.maxResults))
	for _, h := range hits {
		if len(out) == a.maxResults {
			break
		}
		out = append(out, h.sub)
	}
	return out, nil
}

// FindOne returns the user ("usr...") or topic holding tag (TN-4, TN-19),
// "" if none: the tag's guard (or lookup entries), then nothing more.
func (a *Adapter) FindOne(tag string) (string, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	users, err := a.st.Users.FindByTags(ctx, tag)
	if err != nil {
		return "", terr(err)
	}
	if len(users) > 0 {
		return t.ParseUid(string(users[0].User.Id)).UserId(), nil
	}
	topics, err := a.st.Topics.FindByTags(ctx, tag)
	if err != nil {
		return "", terr(err)
	}
	if len(topics) > 0 {
		return string(topics[0].Topic.Id), nil
	}
	return "", nil
}
