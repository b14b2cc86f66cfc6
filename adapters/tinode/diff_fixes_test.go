package tinode

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	t "github.com/tinode/chat/server/store/types"
)

// The tests of this file each pin a difference the differential run
// (e2e/diff_test.go: the same tinode-sdk scenario on Tinode's PostgreSQL
// adapter and on this one) showed, and failed before its fix.

// saveMessages writes n messages 1..n to the fixture group topic, as
// Tinode's server does for each: TopicUpdateOnMessage, then MessageSave.
func saveMessages(tb testing.TB, a *Adapter, topic string, from t.Uid, n int) {
	tb.Helper()
	now := time.Now().UTC().Round(time.Millisecond)
	for i := 1; i <= n; i++ {
		m := &t.Message{ObjHeader: t.ObjHeader{CreatedAt: now, UpdatedAt: now}, Topic: topic, From: from.String(), SeqId: i, Content: "m"}
		m.SetUid(t.Uid(10000 + i))
		must(tb, a.TopicUpdateOnMessage(topic, m))
		must(tb, a.MessageSave(m))
	}
}

func msgSeqs(ms []t.Message) []int {
	out := []int{}
	for _, m := range ms {
		out = append(out, m.SeqId)
	}
	return out
}

// TestDiffHistoryRanges: a chat client pages history back with
// {get data ranges=[...]} (tinode-sdk's getMessagesPage fills the gaps of
// its cache that way), which reaches MessageGetAll as QueryOpt.IdRanges.
// The SQL adapters read only those ranges; the adapter ignored them and
// answered the newest page again (30..21 where PostgreSQL gives 25..16).
func TestDiffHistoryRanges(t_ *testing.T) {
	t_.Parallel()
	a, td := newAdapter(t_)
	loadUsers(t_, a, td)
	grp := td.Topics[0]
	grp.SeqId = 0
	must(t_, a.TopicCreate(grp))
	must(t_, a.TopicShare(grp.Id, []*t.Subscription{td.Subs[0], td.Subs[1]}))
	alice := uidOf(td.Users[0])
	saveMessages(t_, a, grp.Id, alice, 30)
	for _, c := range []struct {
		name string
		opts *t.QueryOpt
		want []int
	}{
		{"before 21, limit 10", &t.QueryOpt{Before: 21, Limit: 10}, []int{20, 19, 18, 17, 16, 15, 14, 13, 12, 11}},
		{"range [16, 26)", &t.QueryOpt{IdRanges: []t.Range{{Low: 16, Hi: 26}}, Limit: 10}, []int{25, 24, 23, 22, 21, 20, 19, 18, 17, 16}},
		{"ranges [3, 5), 7 and [28, 40)", &t.QueryOpt{IdRanges: []t.Range{{Low: 3, Hi: 5}, {Low: 7}, {Low: 28, Hi: 40}}}, []int{30, 29, 28, 7, 4, 3}},
		{"ranges limited to 4", &t.QueryOpt{IdRanges: []t.Range{{Low: 3, Hi: 5}, {Low: 7}, {Low: 28, Hi: 40}}, Limit: 4}, []int{30, 29, 28, 7}},
		{"ranges win over since and before", &t.QueryOpt{Since: 1, Before: 3, IdRanges: []t.Range{{Low: 10, Hi: 12}}}, []int{11, 10}},
	} {
		got, err := a.MessageGetAll(grp.Id, alice, c.opts)
		if err != nil || !slices.Equal(msgSeqs(got), c.want) {
			t_.Errorf("%s: %v, %v; want %v", c.name, msgSeqs(got), err, c.want)
		}
	}
}

// TestDiffSharedTags: with the default configuration a namespaced tag
// another user holds is taken as Tinode's SQL adapters take it (they keep
// no tag unique; Tinode's server answers {set tags} on 'me' with 200 and
// {"added":1}); before, the adapter refused it (types.ErrDuplicate, which
// Tinode's server answers with 500). Both holders are found.
func TestDiffSharedTags(t_ *testing.T) {
	t_.Parallel()
	a, td := newAdapter(t_)
	loadUsers(t_, a, td)
	alice, bob := uidOf(td.Users[0]), uidOf(td.Users[1])
	must(t_, a.UserUpdate(alice, map[string]any{"Tags": []string{"basic:alice", "alias:chess"}}))
	must(t_, a.UserUpdate(bob, map[string]any{"Tags": []string{"basic:bob", "alias:chess"}}))
	if _, err := a.UserUpdateTags(bob, []string{"basic:alice"}, nil, nil); err != nil {
		t_.Fatalf("UserUpdateTags with a tag alice holds: %v", err)
	}
	found, err := a.Find(uidOf(td.Users[2]).UserId(), "", [][]string{{"alias:chess"}}, nil, false)
	if err != nil || len(found) != 2 {
		t_.Fatalf("Find alias:chess = %+v, %v; want alice and bob", found, err)
	}
	if id, err := a.FindOne("alias:chess"); err != nil || (id != alice.UserId() && id != bob.UserId()) {
		t_.Fatalf("FindOne = %q, %v", id, err)
	}
}

// TestDiffTagAndCredOrder: tags come back in the order they were added
// and credentials oldest first, as Tinode's PostgreSQL adapter returns
// them; the adapter sorted tags and listed credentials by value
// (bob2@ before bob@).
func TestDiffTagAndCredOrder(t_ *testing.T) {
	t_.Parallel()
	a, td := newAdapter(t_)
	loadUsers(t_, a, td)
	bob := uidOf(td.Users[1])
	must(t_, a.UserUpdate(bob, map[string]any{"Tags": []string{"tester", "basic:bob1"}}))
	tags, err := a.UserUpdateTags(bob, []string{"email:bob@example.com", "tester"}, nil, nil)
	if err != nil || !slices.Equal(tags, []string{"tester", "basic:bob1", "email:bob@example.com"}) {
		t_.Fatalf("tags = %v, %v", tags, err)
	}
	if u, _ := a.UserGet(bob); u == nil || !slices.Equal(u.Tags, tags) {
		t_.Fatalf("UserGet tags = %+v", u)
	}
	now := time.Now().UTC().Round(time.Millisecond)
	for i, v := range []string{"bob@example.com", "bob2@example.com"} {
		at := now.Add(time.Duration(i) * time.Second)
		_, err := a.CredUpsert(&t.Credential{ObjHeader: t.ObjHeader{CreatedAt: at, UpdatedAt: at}, User: bob.String(), Method: "email", Value: v, Resp: "123456"})
		must(t_, err)
		if i == 0 {
			must(t_, a.CredConfirm(bob, "email"))
		}
	}
	cs, err := a.CredGetAll(bob, "", false)
	if err != nil || len(cs) != 2 || cs[0].Value != "bob@example.com" || cs[1].Value != "bob2@example.com" {
		t_.Fatalf("CredGetAll = %+v, %v; want bob@ then bob2@", cs, err)
	}
}

// TestDiffHardDeleteKeepsP2P: after a user's hard delete the other user's
// 'me' still lists their p2p topic, as with Tinode's SQL adapters (which
// delete the user's subscriptions and leave the topic and the other
// subscription); the adapter marked the topic deleted, so it vanished
// from the other user's list (PostgreSQL: 3 topics, the adapter: 2).
// A soft delete still marks it deleted, as the SQL adapters do.
func TestDiffHardDeleteKeepsP2P(t_ *testing.T) {
	t_.Parallel()
	for _, hard := range []bool{true, false} {
		a, td := newAdapter(t_)
		loadUsers(t_, a, td)
		must(t_, a.TopicCreateP2P(td.Subs[2], td.Subs[3]))
		p2p := td.Subs[2].Topic
		gone, stays := t.ParseUid(td.Subs[2].User), t.ParseUid(td.Subs[3].User)
		must(t_, a.UserDelete(gone, hard))
		subs, err := a.TopicsForUser(stays, false, nil)
		if err != nil {
			t_.Fatal(err)
		}
		listed := slices.ContainsFunc(subs, func(s t.Subscription) bool { return s.Topic == p2p })
		if listed != hard {
			t_.Errorf("hard=%v: the other user's 'me' lists the p2p topic: %v, want %v (%d subscriptions)", hard, listed, hard, len(subs))
		}
	}
}

// TestDiffErrorsAreTinodes: what a user can send must come back as one of
// Tinode's errors, which its server answers with 4xx, never as a library
// error, which it answers with 500. A description over DynamoDB's 400 KB
// item limit (Tinode's max_message_size may allow it; the SQL adapters
// store it) is types.ErrMalformed.
func TestDiffErrorsAreTinodes(t_ *testing.T) {
	t_.Parallel()
	a, td := newAdapter(t_)
	loadUsers(t_, a, td)
	alice := uidOf(td.Users[0])
	big := map[string]any{"fn": strings.Repeat("x", 500<<10)}
	wantErr(t_, a.UserUpdate(alice, map[string]any{"Public": big}), t.ErrMalformed)
	grp := td.Topics[0]
	must(t_, a.TopicCreate(grp))
	wantErr(t_, a.TopicUpdate(grp.Id, map[string]any{"Public": big}), t.ErrMalformed)
	sub := *td.Subs[0]
	sub.Private = big
	wantErr(t_, a.TopicShare(grp.Id, []*t.Subscription{&sub}), t.ErrMalformed)
}

// TestDiffShardedTopicDelete: with message_shards a hard topic delete
// left the topic's subscriptions (and deletion log) behind, so members'
// 'me' kept listing the deleted topic (the differential run with
// DIFF_ADAPTER_CONFIG='{"message_shards": 4, "coalesce_ms": 1000}'):
// query/tinode's Topics.Delete purged only the message shards of a topic
// born sharded, not the topic's own partition.
func TestDiffShardedTopicDelete(t_ *testing.T) {
	t_.Parallel()
	a := New(tabletest.NewTable(t_, table.NewSchema("tinode")), Config{MessageShards: 4})
	td := newFixtures()
	loadUsers(t_, a, td)
	grp := td.Topics[0]
	grp.SeqId = 0
	must(t_, a.TopicCreate(grp))
	must(t_, a.TopicShare(grp.Id, []*t.Subscription{td.Subs[0], td.Subs[1]}))
	alice, bob := uidOf(td.Users[0]), uidOf(td.Users[1])
	saveMessages(t_, a, grp.Id, alice, 6)
	must(t_, a.MessageDeleteList(grp.Id, &t.DelMessage{Topic: grp.Id, DeletedFor: bob.String(), DelId: 1, SeqIdRanges: []t.Range{{Low: 1, Hi: 3}}}))
	must(t_, a.TopicDelete(grp.Id, false, true))
	for _, u := range []t.Uid{alice, bob} {
		subs, err := a.TopicsForUser(u, true, nil)
		if err != nil {
			t_.Fatal(err)
		}
		if slices.ContainsFunc(subs, func(s t.Subscription) bool { return s.Topic == grp.Id }) {
			t_.Errorf("%s's 'me' still lists the deleted topic", u.UserId())
		}
	}
	if subs, err := a.SubsForTopic(grp.Id, true, nil); err != nil || len(subs) != 0 {
		t_.Errorf("subscriptions left: %d, %v", len(subs), err)
	}
	if ms, err := a.MessageGetAll(grp.Id, alice, nil); err != nil || len(ms) != 0 {
		t_.Errorf("messages left: %v, %v", msgSeqs(ms), err)
	}
}
