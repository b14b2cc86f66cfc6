package tinode

import (
	"slices"
	"testing"
	"time"

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
