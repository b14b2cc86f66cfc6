package tinode_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
)

// clock is a table clock tests advance by hand.
type clock struct{ now time.Time }

func (c *clock) opt(o *table.Options) { o.Now = func() time.Time { return c.now } }

// TestSubscriptions_TN9_TN10_TN11 gets one subscription, lists a user's by
// UpdatedAt (all, newest first, updated since) and a topic's.
func TestSubscriptions_TN9_TN10_TN11(t *testing.T) {
	t.Parallel()
	clk := &clock{now: time.Date(2024, 1, 1, 9, 0, 0, 0, time.UTC)}
	s := newStore(t, clk.opt)
	c := ctx(t)
	for _, name := range []tn.TopicName{"grpA", "grpB", "grpC"} {
		mustTopic(t, s, name, "alice", "bob")
		clk.now = clk.now.Add(time.Minute)
	}
	// touching grpA moves it to the end of alice's list
	since := clk.now
	if _, err := s.Subs.Update(c, tinode.SubRef{Topic: "grpA", User: "alice"}, func(s *tn.Subscription) error { s.ReadSeqId = 3; return nil }); err != nil {
		t.Fatal(err)
	}
	sub, err := s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: "grpA", User: "alice"})
	if err != nil || sub.ReadSeqId != 3 || !sub.UpdatedAt.Equal(since) || sub.Id != "grpA:alice" {
		t.Fatalf("TN-9 get: %+v %v", sub, err)
	}
	topics := func(subs []tn.Subscription) []tn.TopicName {
		var out []tn.TopicName
		for _, s := range subs {
			out = append(out, s.Topic)
		}
		return out
	}
	all, err := table.Collect(s.Subs.ByUser.All(c, tn.Subscription{User: "alice"}, table.Limit(2)))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]tn.TopicName{"grpB", "grpC", "grpA"}, topics(all)); d != "" {
		t.Errorf("TN-10 by UpdatedAt (-want +got):\n%s", d)
	}
	p, err := s.Subs.ByUser.List(c, tn.Subscription{User: "alice"}, table.Desc(), table.Limit(1))
	if err != nil || len(p.Items) != 1 || p.Items[0].Topic != "grpA" || !p.More() {
		t.Fatalf("TN-10 newest first: %v %v", topics(p.Items), err)
	}
	p, err = s.Subs.ByUser.List(c, tn.Subscription{User: "alice", UpdatedAt: since})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]tn.TopicName{"grpA"}, topics(p.Items)); d != "" {
		t.Errorf("TN-10 since (-want +got):\n%s", d)
	}
	p, err = s.Subs.ByTopic.List(c, tn.Subscription{Topic: "grpB"})
	if err != nil {
		t.Fatal(err)
	}
	var users []tn.UserID
	for _, s := range p.Items {
		users = append(users, s.User)
	}
	if d := cmp.Diff([]tn.UserID{"alice", "bob"}, users); d != "" {
		t.Errorf("TN-11 (-want +got):\n%s", d)
	}
	if err := s.Subs.SoftDelete(c, "grpB", "bob"); err != nil {
		t.Fatal(err)
	}
	p, _ = s.Subs.ByTopic.List(c, tn.Subscription{Topic: "grpB"})
	if len(p.Items) != 1 {
		t.Errorf("TN-11 soft-deleted subscription listed: %d", len(p.Items))
	}
	p, _ = s.Subs.ByTopic.List(c, tn.Subscription{Topic: "grpB"}, table.IncludeHidden())
	if len(p.Items) != 2 {
		t.Errorf("TN-11 IncludeDeleted: %d", len(p.Items))
	}
	// Deleted subscriptions are dropped after reading, page by page.
	all, err = table.Collect(s.Subs.ByTopic.All(c, tn.Subscription{Topic: "grpB"}, table.Limit(1)))
	if err != nil || len(all) != 1 || all[0].User != "alice" {
		t.Errorf("TN-11 AllByTopic: %v %v", all, err)
	}
	all, err = table.Collect(s.Subs.ByTopic.All(c, tn.Subscription{Topic: "grpB"}, table.IncludeHidden(), table.Limit(1), table.Desc()))
	if err != nil || len(all) != 2 || all[0].User != "bob" {
		t.Errorf("TN-11 AllByTopic IncludeDeleted, descending: %v %v", all, err)
	}
	_, err = s.Subs.ByTopic.List(c, tn.Subscription{Topic: "grpB", UpdatedAt: since})
	wantInvalid(t, err, "UpdatedAt")
	wantIs(t, s.Subs.Create(c, &tn.Subscription{Topic: "nope", User: "alice"}), table.ErrNotFound)
	wantIs(t, s.Subs.Create(c, &tn.Subscription{Topic: "grpB", User: "alice"}), table.ErrAlreadyExists)
	if err := s.Subs.Delete(c, "grpB", "alice"); err != nil {
		t.Fatal(err)
	}
	_, err = s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: "grpB", User: "alice"})
	wantIs(t, err, table.ErrNotFound)
	_, err = s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: "grpB", User: ""})
	wantInvalid(t, err, "User")
	_, err = s.Subs.ByUser.List(c, tn.Subscription{User: "alice"}, table.Limit(-1))
	wantInvalid(t, err, "limit")
}
