package tinode

import (
	"slices"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
	t "github.com/tinode/chat/server/store/types"
)

// TestTopicsAndSubscriptions covers TN-8..TN-11, TN-22..TN-26, TN-37,
// TN-38: group and p2p topics, subscriber counts through subscribe,
// unsubscribe and re-subscribe, the user's contact list paged with
// QueryOpt, the topic's users, owner change, tags and deletion.
func TestTopicsAndSubscriptions(t_ *testing.T) {
	t_.Parallel()
	a, td := newAdapter(t_)
	loadUsers(t_, a, td)
	alice, bob, carol := uidOf(td.Users[0]), uidOf(td.Users[1]), uidOf(td.Users[2])
	grp := td.Topics[0]
	must(t_, a.TopicCreate(grp))
	wantErr(t_, a.TopicCreate(grp), t.ErrDuplicate)
	must(t_, a.TopicShare(grp.Id, []*t.Subscription{td.Subs[0], td.Subs[1]}))
	must(t_, a.TopicCreateP2P(td.Subs[2], td.Subs[3]))
	// 'me' and 'fnd' subscriptions have no topic item.
	must(t_, a.TopicShare("", []*t.Subscription{
		{User: alice.String(), Topic: alice.UserId(), ModeWant: t.ModeCMeFnd, ModeGiven: t.ModeCMeFnd},
		{User: alice.String(), Topic: alice.FndName(), ModeWant: t.ModeCMeFnd, ModeGiven: t.ModeCMeFnd},
	}))

	got, err := a.TopicGet(grp.Id)
	if err != nil || got == nil || got.SubCnt != 2 || got.Owner != alice.String() || got.SeqId != 111 {
		t_.Fatalf("TopicGet = %+v, %v", got, err)
	}
	if tp, err := a.TopicGet("grpNone"); err != nil || tp != nil {
		t_.Fatalf("TopicGet(missing) = %+v, %v", tp, err)
	}
	if p2p, _ := a.TopicGet(td.Subs[2].Topic); p2p == nil || p2p.SubCnt != 2 {
		t_.Fatalf("p2p topic = %+v", p2p)
	}

	// Alice's contact list: the group and the p2p topic, not me/fnd.
	subs, err := a.TopicsForUser(alice, false, nil)
	if err != nil || len(subs) != 2 {
		t_.Fatalf("TopicsForUser = %d, %v; want 2", len(subs), err)
	}
	for _, s := range subs {
		switch s.Topic {
		case grp.Id:
			if s.GetSubCnt() != 2 || s.GetSeqId() != 111 {
				t_.Fatalf("group subscription joined %+v", s)
			}
		case td.Subs[2].Topic:
			if s.GetWith() != bob.UserId() {
				t_.Fatalf("p2p with = %q", s.GetWith())
			}
		default:
			t_.Fatalf("unexpected topic %s", s.Topic)
		}
	}
	// QueryOpt paging: one at a time, oldest change first.
	page, err := a.TopicsForUser(alice, false, &t.QueryOpt{Limit: 1})
	if err != nil || len(page) != 1 {
		t_.Fatalf("TopicsForUser limit 1 = %d, %v", len(page), err)
	}
	ims := time.Now().Add(time.Hour)
	if later, err := a.TopicsForUser(alice, false, &t.QueryOpt{IfModifiedSince: &ims}); err != nil || len(later) != 0 {
		t_.Fatalf("TopicsForUser since the future = %d, %v", len(later), err)
	}

	// The topic's users, and a p2p topic's Public swapped.
	must(t_, a.UserUpdate(bob, map[string]any{"Public": map[string]any{"fn": "Bob"}}))
	users, err := a.UsersForTopic(td.Subs[2].Topic, false, nil)
	if err != nil || len(users) != 2 {
		t_.Fatalf("UsersForTopic = %d, %v", len(users), err)
	}
	for _, s := range users {
		if s.User == alice.String() {
			if pub, _ := s.GetPublic().(map[string]any); pub["fn"] != "Bob" {
				t_.Fatalf("alice's side of the p2p topic shows %v, want bob's Public", s.GetPublic())
			}
		}
	}
	one, err := a.UsersForTopic(grp.Id, false, &t.QueryOpt{User: bob})
	if err != nil || len(one) != 1 || one[0].User != bob.String() {
		t_.Fatalf("UsersForTopic(one user) = %+v, %v", one, err)
	}
	lim, err := a.SubsForTopic(grp.Id, false, &t.QueryOpt{Limit: 1})
	if err != nil || len(lim) != 1 {
		t_.Fatalf("SubsForTopic limit 1 = %d, %v", len(lim), err)
	}

	// Subscriptions: get, update, soft delete, re-subscribe.
	s, err := a.SubscriptionGet(grp.Id, bob, false)
	if err != nil || s == nil || s.ReadSeqId != 3 {
		t_.Fatalf("SubscriptionGet = %+v, %v", s, err)
	}
	must(t_, a.SubsUpdate(grp.Id, bob, map[string]any{"ReadSeqId": 7, "RecvSeqId": 8}))
	if s, _ := a.SubscriptionGet(grp.Id, bob, false); s.ReadSeqId != 7 || s.RecvSeqId != 8 {
		t_.Fatalf("after SubsUpdate = %+v", s)
	}
	must(t_, a.SubsDelete(grp.Id, bob))
	if s, _ := a.SubscriptionGet(grp.Id, bob, false); s != nil {
		t_.Fatal("deleted subscription returned without keepDeleted")
	}
	if s, _ := a.SubscriptionGet(grp.Id, bob, true); s == nil || s.DeletedAt == nil {
		t_.Fatal("deleted subscription missing with keepDeleted")
	}
	if tp, _ := a.TopicGet(grp.Id); tp.SubCnt != 1 {
		t_.Fatalf("SubCnt after unsubscribe = %d, want 1", tp.SubCnt)
	}
	must(t_, a.TopicShare(grp.Id, []*t.Subscription{{User: bob.String(), Topic: grp.Id, ModeWant: 47, ModeGiven: 47}}))
	if s, _ := a.SubscriptionGet(grp.Id, bob, false); s == nil || s.ReadSeqId != 0 {
		t_.Fatalf("re-subscribed = %+v", s)
	}
	if tp, _ := a.TopicGet(grp.Id); tp.SubCnt != 2 {
		t_.Fatalf("SubCnt after re-subscribe = %d, want 2", tp.SubCnt)
	}
	must(t_, a.TopicUpdateSubCnt(grp.Id))
	if tp, _ := a.TopicGet(grp.Id); tp.SubCnt != 2 {
		t_.Fatalf("recounted SubCnt = %d, want 2", tp.SubCnt)
	}
	if ss, err := a.SubsForUser(bob); err != nil || len(ss) != 2 {
		t_.Fatalf("SubsForUser = %d, %v", len(ss), err)
	}

	// Owner, tags, search.
	if own, err := a.OwnTopics(alice); err != nil || !slices.Equal(own, []string{grp.Id}) {
		t_.Fatalf("OwnTopics = %v, %v", own, err)
	}
	must(t_, a.TopicOwnerChange(grp.Id, bob))
	if own, _ := a.OwnTopics(alice); len(own) != 0 {
		t_.Fatalf("alice still owns %v", own)
	}
	must(t_, a.TopicUpdate(grp.Id, map[string]any{"Tags": []string{"travel", "alias:trips"}, "Public": map[string]any{"fn": "Trips"}}))
	found, err := a.Find(carol.UserId(), "", [][]string{{"travel"}}, nil, false)
	if err != nil || len(found) != 1 || found[0].Topic != grp.Id || found[0].GetSubCnt() != 2 {
		t_.Fatalf("Find(travel) = %+v, %v", found, err)
	}
	if id, _ := a.FindOne("alias:trips"); id != grp.Id {
		t_.Fatalf("FindOne(alias) = %q", id)
	}
	// No tag is unique by default (the SQL adapters' rule): carol may
	// hold the topic's alias too.
	_, err = a.UserUpdateTags(carol, []string{"alias:trips"}, nil, nil)
	must(t_, err)

	// Channels: a reader with P is listed for push.
	chn := t.GrpToChn(grp.Id)
	must(t_, a.TopicShare(chn, []*t.Subscription{{User: carol.String(), Topic: chn, ModeWant: t.ModeJoin | t.ModeRead | t.ModePres, ModeGiven: t.ModeJoin | t.ModeRead | t.ModePres}}))
	if ch, err := a.ChannelsForUser(carol); err != nil || !slices.Equal(ch, []string{chn}) {
		t_.Fatalf("ChannelsForUser = %v, %v", ch, err)
	}

	// Soft delete keeps the topic, marked; hard delete removes it.
	must(t_, a.TopicDelete(td.Subs[2].Topic, false, false))
	if tp, _ := a.TopicGet(td.Subs[2].Topic); tp == nil || tp.State != t.StateDeleted {
		t_.Fatalf("soft-deleted p2p topic = %+v", tp)
	}
	must(t_, a.TopicDelete(grp.Id, true, true))
	if tp, _ := a.TopicGet(grp.Id); tp != nil {
		t_.Fatal("hard-deleted topic still there")
	}
	if ch, _ := a.ChannelsForUser(carol); len(ch) != 0 {
		t_.Fatalf("channel readers left: %v", ch)
	}
	c, cancel := a.ctx()
	defer cancel()
	if ss, _ := a.st.Subs.ByTopic.List(c, tn.Subscription{Topic: tn.TopicName(grp.Id)}, table.IncludeHidden()); len(ss.Items) != 0 {
		t_.Fatalf("subscriptions left: %d", len(ss.Items))
	}
}
