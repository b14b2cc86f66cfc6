package tinode

import (
	"fmt"
	"slices"
	"testing"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	t "github.com/tinode/chat/server/store/types"
)

// The tests of this file pin MessageGetAll to the SeqIds Tinode's SQL
// adapters select (issue 43, part 1): a chat client pages history back
// until the server answers "204 no content", which Tinode's server sends
// when MessageGetAll returns no message and no error. Each case runs on
// DynamoDB Local, and TestHistoryAsSQL compares a grid of queries with a
// model of the postgres adapter's SELECT (sqlModel).

// historyTopic is a group topic of n messages 1..n from alice, shared
// with alice and bob, on an adapter of cfg; it returns the adapter, the
// topic and alice's and bob's ids.
func historyTopic(tb testing.TB, cfg Config, n int) (a *Adapter, topic string, alice, bob t.Uid) {
	tb.Helper()
	a = New(tabletest.NewTable(tb, table.NewSchema("tinode")), cfg)
	td := newFixtures()
	loadUsers(tb, a, td)
	grp := td.Topics[0]
	grp.SeqId = 0
	must(tb, a.TopicCreate(grp))
	must(tb, a.TopicShare(grp.Id, []*t.Subscription{td.Subs[0], td.Subs[1]}))
	alice, bob = uidOf(td.Users[0]), uidOf(td.Users[1])
	saveMessages(tb, a, grp.Id, alice, n)
	return a, grp.Id, alice, bob
}

// getAll is MessageGetAll's SeqIds, failing the test on an error.
func getAll(tb testing.TB, a *Adapter, topic string, forUser t.Uid, opts *t.QueryOpt) []int {
	tb.Helper()
	got, err := a.MessageGetAll(topic, forUser, opts)
	if err != nil {
		tb.Fatalf("MessageGetAll(%s) = %v; an empty selection is no error (Tinode's 204, not its 500)", optString(opts), err)
	}
	return msgSeqs(got)
}

func optString(o *t.QueryOpt) string {
	if o == nil {
		return "nil"
	}
	return fmt.Sprintf("since %d, before %d, limit %d, ranges %v", o.Since, o.Before, o.Limit, o.IdRanges)
}

func seqsDown(hi, lo int) []int {
	out := []int{}
	for s := hi; s >= lo; s-- {
		out = append(out, s)
	}
	return out
}

// TestHistoryPastFirstMessage_TN13 is the page issue 43 found: on a group
// of 25 messages, tinode-sdk's withLaterData(10) then withEarlierData(10)
// three times sends before = the oldest SeqId it holds; the third asks
// for the messages before 1. Tinode on PostgreSQL answers it "204 no
// content" (no message, no error); the adapter failed it with
// types.ErrMalformed (query/tinode refuses the empty SeqRange), which
// Tinode's server answered "500 internal error".
func TestHistoryPastFirstMessage_TN13(t_ *testing.T) {
	t_.Parallel()
	for _, c := range []struct {
		name string
		cfg  Config
	}{{"default", Config{}}, {"message_shards 4", Config{MessageShards: 4, CoalesceMillis: 1000}}} {
		t_.Run(c.name, func(t_ *testing.T) {
			t_.Parallel()
			a, grp, _, bob := historyTopic(t_, c.cfg, 25)
			defer a.Close()
			pages := [][]int{getAll(t_, a, grp, bob, &t.QueryOpt{Limit: 10})}
			for range 3 {
				oldest := pages[len(pages)-1][len(pages[len(pages)-1])-1]
				pages = append(pages, getAll(t_, a, grp, bob, &t.QueryOpt{Before: oldest, Limit: 10}))
				if len(pages[len(pages)-1]) == 0 {
					break
				}
			}
			want := [][]int{seqsDown(25, 16), seqsDown(15, 6), seqsDown(5, 1), {}}
			if fmt.Sprint(pages) != fmt.Sprint(want) {
				t_.Fatalf("pages = %v, want %v", pages, want)
			}
		})
	}
}

// TestHistoryEmptyRanges_TN13: a selection that holds no SeqId is an
// empty answer, never an error (PostgreSQL's BETWEEN lo AND hi with
// hi < lo, or an IN list of no existing SeqId): since equal to before,
// since above before, a range whose Hi is at or below its Low, a single
// SeqId 0 or negative, and several ranges all empty.
func TestHistoryEmptyRanges_TN13(t_ *testing.T) {
	t_.Parallel()
	a, grp, alice, _ := historyTopic(t_, Config{}, 12)
	for _, o := range []*t.QueryOpt{
		{Since: 5, Before: 5},
		{Since: 9, Before: 4},
		{Since: 12, Before: 12, Limit: 3},
		{IdRanges: []t.Range{{Low: 5, Hi: 5}}},
		{IdRanges: []t.Range{{Low: 7, Hi: 3}}},
		{IdRanges: []t.Range{{Low: 0}}},
		{IdRanges: []t.Range{{Low: -3}}},
		{IdRanges: []t.Range{{Low: 0, Hi: 1}}},
		{IdRanges: []t.Range{{Low: 4, Hi: 4}, {Low: 9, Hi: 2}, {Low: -1}}},
		{IdRanges: []t.Range{{Low: 13, Hi: 20}, {Low: 40}}},
	} {
		if got := getAll(t_, a, grp, alice, o); len(got) != 0 {
			t_.Errorf("%s: %v, want none", optString(o), got)
		}
	}
	// Next to an empty range, a range that holds messages answers them.
	if got := getAll(t_, a, grp, alice, &t.QueryOpt{IdRanges: []t.Range{{Low: 5, Hi: 5}, {Low: 11, Hi: 14}, {Low: 0}}}); !slices.Equal(got, []int{12, 11}) {
		t_.Errorf("an empty range next to [11, 14): %v, want [12 11]", got)
	}
}

// TestHistoryBeforeAtOrBelowFirst_TN13_TN14: Before at the first SeqId
// (1) or at the first message left after a deletion for everyone selects
// no message; Before 0 or negative is no bound, as in the SQL adapters
// (Before > 0 bounds the range).
func TestHistoryBeforeAtOrBelowFirst_TN13_TN14(t_ *testing.T) {
	t_.Parallel()
	a, grp, alice, bob := historyTopic(t_, Config{}, 10)
	for _, c := range []struct {
		opts *t.QueryOpt
		want []int
	}{
		{&t.QueryOpt{Before: 1}, []int{}},
		{&t.QueryOpt{Before: 1, Limit: 10}, []int{}},
		{&t.QueryOpt{Since: 1, Before: 1}, []int{}},
		{&t.QueryOpt{Before: 2}, []int{1}},
		{&t.QueryOpt{Before: 0, Limit: 3}, []int{10, 9, 8}},
		{&t.QueryOpt{Before: -1, Limit: 3}, []int{10, 9, 8}},
		{&t.QueryOpt{Since: -4, Before: 3}, []int{2, 1}},
	} {
		if got := getAll(t_, a, grp, alice, c.opts); !slices.Equal(got, c.want) {
			t_.Errorf("%s: %v, want %v", optString(c.opts), got, c.want)
		}
	}
	// 1..4 deleted for everyone: 5 is the first message; before it none.
	must(t_, a.MessageDeleteList(grp, &t.DelMessage{Topic: grp, DelId: 1, SeqIdRanges: []t.Range{{Low: 1, Hi: 5}}}))
	for _, who := range []t.Uid{alice, bob, t.ZeroUid} {
		if got := getAll(t_, a, grp, who, &t.QueryOpt{Before: 5, Limit: 10}); len(got) != 0 {
			t_.Errorf("before the first message left, as %v: %v, want none", who, got)
		}
		if got := getAll(t_, a, grp, who, &t.QueryOpt{Before: 6, Limit: 10}); !slices.Equal(got, []int{5}) {
			t_.Errorf("before 6, as %v: %v, want [5]", who, got)
		}
	}
}

// TestHistorySincePastLast_TN13: Since past the last SeqId, with or
// without Before, and past the largest SeqId a message can have, selects
// no message; Since at the last selects it.
func TestHistorySincePastLast_TN13(t_ *testing.T) {
	t_.Parallel()
	a, grp, alice, _ := historyTopic(t_, Config{}, 8)
	for _, c := range []struct {
		opts *t.QueryOpt
		want []int
	}{
		{&t.QueryOpt{Since: 9}, []int{}},
		{&t.QueryOpt{Since: 9, Limit: 10}, []int{}},
		{&t.QueryOpt{Since: 9, Before: 20}, []int{}},
		{&t.QueryOpt{Since: tn.MaxSeqId + 1}, []int{}},
		{&t.QueryOpt{Since: 1 << 40, Before: 1 << 41}, []int{}},
		{&t.QueryOpt{IdRanges: []t.Range{{Low: tn.MaxSeqId + 5, Hi: tn.MaxSeqId + 9}}}, []int{}},
		{&t.QueryOpt{Since: 8}, []int{8}},
		{&t.QueryOpt{Since: 7, Before: 1 << 41}, []int{8, 7}},
	} {
		if got := getAll(t_, a, grp, alice, c.opts); !slices.Equal(got, c.want) {
			t_.Errorf("%s: %v, want %v", optString(c.opts), got, c.want)
		}
	}
}

// TestHistoryStraddlesDeleted_TN13_TN14: a range across messages deleted
// for everyone (6..8 and 10) and for one user (bob: 1..5 and 15) answers
// the messages left, newest first, and the limit counts those answered:
// the read goes on past the deleted ones, as the SQL adapters' LIMIT
// applies after their WHERE. A page of nothing but deleted messages is
// empty.
func TestHistoryStraddlesDeleted_TN13_TN14(t_ *testing.T) {
	t_.Parallel()
	for _, c := range []struct {
		name string
		cfg  Config
	}{{"default", Config{}}, {"message_shards 4", Config{MessageShards: 4}}} {
		t_.Run(c.name, func(t_ *testing.T) {
			t_.Parallel()
			a, grp, alice, bob := historyTopic(t_, c.cfg, 20)
			must(t_, a.MessageDeleteList(grp, &t.DelMessage{Topic: grp, DeletedFor: bob.String(), DelId: 1, SeqIdRanges: []t.Range{{Low: 1, Hi: 6}, {Low: 15}}}))
			must(t_, a.MessageDeleteList(grp, &t.DelMessage{Topic: grp, DelId: 2, SeqIdRanges: []t.Range{{Low: 6, Hi: 9}, {Low: 10}}}))
			for _, q := range []struct {
				who  t.Uid
				opts *t.QueryOpt
				want []int
			}{
				{alice, &t.QueryOpt{Since: 4, Before: 12}, []int{11, 9, 5, 4}},
				{alice, &t.QueryOpt{Since: 4, Before: 12, Limit: 3}, []int{11, 9, 5}},
				{alice, &t.QueryOpt{Before: 12, Limit: 4}, []int{11, 9, 5, 4}},
				{alice, &t.QueryOpt{Since: 6, Before: 9}, []int{}},
				{alice, &t.QueryOpt{IdRanges: []t.Range{{Low: 5, Hi: 12}}, Limit: 3}, []int{11, 9, 5}},
				{alice, &t.QueryOpt{IdRanges: []t.Range{{Low: 6, Hi: 9}, {Low: 10}}}, []int{}},
				{bob, &t.QueryOpt{Before: 9, Limit: 10}, []int{}},
				{bob, &t.QueryOpt{Before: 12, Limit: 10}, []int{11, 9}},
				{bob, &t.QueryOpt{Since: 1, Limit: 8}, []int{20, 19, 18, 17, 16, 14, 13, 12}},
				{bob, &t.QueryOpt{Since: 13, Before: 18}, []int{17, 16, 14, 13}},
				{bob, &t.QueryOpt{IdRanges: []t.Range{{Low: 3, Hi: 7}, {Low: 15}, {Low: 16}}}, []int{16}},
				{t.ZeroUid, &t.QueryOpt{Since: 4, Before: 12}, []int{11, 9, 5, 4}},
			} {
				if got := getAll(t_, a, grp, q.who, q.opts); !slices.Equal(got, q.want) {
					t_.Errorf("as %v, %s: %v, want %v", q.who, optString(q.opts), got, q.want)
				}
			}
		})
	}
}

// sqlModel answers MessageGetAll as the query of Tinode's postgres
// adapter selects (server/db/postgres/adapter.go, v0.25.3), restated from
// the SQL's meaning: messages 1..last with delid = 0 (not deleted for
// everyone), "m.seqid BETWEEN since AND before-1" (since 0 unless
// Since > 0, before-1 = 2^31-1 unless Before > 0) or, with IdRanges,
// "BETWEEN low AND hi-1" for one range with Hi != 0 and "IN (...)" of
// every range's SeqIds otherwise, without those in a deletion log range
// [low, hi) of forUser, ORDER BY seqid DESC, LIMIT min(Limit, 100).
type sqlModel struct {
	last    int
	hard    map[int]bool
	userDel map[t.Uid][]t.Range // per-user deletion log: [Low, Hi), Hi = Low+1 for one SeqId
}

func (m sqlModel) getAll(forUser t.Uid, o *t.QueryOpt) []int {
	limit := defaultMaxMessageResults
	sel := func(int) bool { return true }
	if o != nil {
		between := func(lo, hi int) func(int) bool { return func(s int) bool { return lo <= s && s <= hi } }
		switch {
		case len(o.IdRanges) == 1 && o.IdRanges[0].Hi != 0:
			sel = between(o.IdRanges[0].Low, o.IdRanges[0].Hi-1)
		case len(o.IdRanges) > 0:
			in := map[int]bool{}
			for _, r := range o.IdRanges {
				if r.Hi == 0 {
					in[r.Low] = true
				}
				for s := r.Low; s < r.Hi; s++ {
					in[s] = true
				}
			}
			sel = func(s int) bool { return in[s] }
		default:
			lo, hi := 0, 1<<31-1
			if o.Since > 0 {
				lo = o.Since
			}
			if o.Before > 0 {
				hi = o.Before - 1
			}
			sel = between(lo, hi)
		}
		if o.Limit > 0 && o.Limit < limit {
			limit = o.Limit
		}
	}
	out := []int{}
	for s := m.last; s >= 1 && len(out) < limit; s-- {
		if m.hard[s] || !sel(s) || slices.ContainsFunc(m.userDel[forUser], func(r t.Range) bool { return r.Low <= s && s < r.Hi }) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// TestHistoryAsSQL_TN13_TN14 compares MessageGetAll with sqlModel over a
// grid of Since, Before and Limit (each around the first and last SeqId,
// the deleted messages and past them, with 0 and negative values), and
// of IdRanges, for a user with deletions of his own, one without and no
// user, on a topic of 20 messages of which 6..8 and 10 are deleted for
// everyone and 1..5 and 15 for bob; with the default configuration and
// with message_shards 4.
func TestHistoryAsSQL_TN13_TN14(t_ *testing.T) {
	t_.Parallel()
	for _, c := range []struct {
		name string
		cfg  Config
	}{{"default", Config{}}, {"message_shards 4", Config{MessageShards: 4}}} {
		t_.Run(c.name, func(t_ *testing.T) {
			t_.Parallel()
			a, grp, alice, bob := historyTopic(t_, c.cfg, 20)
			must(t_, a.MessageDeleteList(grp, &t.DelMessage{Topic: grp, DeletedFor: bob.String(), DelId: 1, SeqIdRanges: []t.Range{{Low: 1, Hi: 6}, {Low: 15}}}))
			must(t_, a.MessageDeleteList(grp, &t.DelMessage{Topic: grp, DelId: 2, SeqIdRanges: []t.Range{{Low: 6, Hi: 9}, {Low: 10}}}))
			model := sqlModel{
				last:    20,
				hard:    map[int]bool{6: true, 7: true, 8: true, 10: true},
				userDel: map[t.Uid][]t.Range{bob: {{Low: 1, Hi: 6}, {Low: 15, Hi: 16}}},
			}
			var queries []*t.QueryOpt
			bounds := []int{-1, 0, 1, 2, 5, 6, 9, 11, 16, 20, 21, 30}
			for _, since := range bounds {
				for _, before := range bounds {
					for _, limit := range []int{0, 1, 3} {
						queries = append(queries, &t.QueryOpt{Since: since, Before: before, Limit: limit})
					}
				}
			}
			for _, rs := range [][]t.Range{
				{{Low: 1, Hi: 21}}, {{Low: 0, Hi: 4}}, {{Low: 6, Hi: 9}}, {{Low: 9, Hi: 6}}, {{Low: 11}}, {{Low: 10}},
				{{Low: 0}}, {{Low: 19, Hi: 30}}, {{Low: 25, Hi: 30}}, {{Low: 3, Hi: 5}, {Low: 7}, {Low: 12, Hi: 17}},
				{{Low: 16, Hi: 21}, {Low: 1, Hi: 3}}, {{Low: 4, Hi: 12}, {Low: 9, Hi: 14}}, {{Low: 5, Hi: 5}, {Low: 20}},
			} {
				for _, limit := range []int{0, 2} {
					queries = append(queries, &t.QueryOpt{IdRanges: rs, Limit: limit, Since: 3, Before: 4})
				}
			}
			queries = append(queries, nil)
			n := 0
			for _, who := range []t.Uid{bob, alice, t.ZeroUid} {
				for _, q := range queries {
					want, got := model.getAll(who, q), getAll(t_, a, grp, who, q)
					if !slices.Equal(got, want) {
						t_.Errorf("as %v, %s: %v, PostgreSQL's query selects %v", who, optString(q), got, want)
					}
					n++
				}
			}
			t_.Logf("%d queries compared with the postgres adapter's selection", n)
		})
	}
}
