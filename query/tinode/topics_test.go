package tinode_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// TestTopicCRUD_TN8 creates a topic with its first subscriptions in one
// transaction, gets, updates and soft-deletes it.
func TestTopicCRUD_TN8(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustTopic(t, s, "grp#1", "alice", "bob")
	top := tn.Topic{Id: "grp#1"}
	wantIs(t, s.Topics.Create(c, &top), table.ErrAlreadyExists)
	dupSub := tn.Topic{Id: "grp2"}
	wantIs(t, s.Topics.Create(c, &dupSub, &tn.Subscription{Topic: "grp2", User: "x"}, &tn.Subscription{Topic: "grp2", User: "x"}), table.ErrDuplicateItem)
	_, err := s.Topics.ByName.Get(c, tn.Topic{Id: "grp2"})
	wantIs(t, err, table.ErrNotFound)

	up, err := s.Topics.Update(c, "grp#1", func(t *tn.Topic) error {
		t.Public = tn.JSON(map[string]any{"fn": "Group", "n": 1})
		t.Owner = "alice"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Topics.ByName.Get(c, tn.Topic{Id: "grp#1"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(up, got); d != "" {
		t.Errorf("after update (-want +got):\n%s", d)
	}
	_, err = s.Topics.Update(c, "grp#1", func(t *tn.Topic) error { t.SeqId = 99; return nil })
	wantInvalid(t, err, "SeqId")
	if _, err := s.Topics.SoftDelete(c, "grp#1"); err != nil {
		t.Fatal(err)
	}
	got, _ = s.Topics.ByName.Get(c, tn.Topic{Id: "grp#1"})
	if got.State != tn.StateDeleted || got.DeletedAt == nil {
		t.Errorf("soft delete: state %v, deletedAt %v", got.State, got.DeletedAt)
	}
	wantIs(t, s.Messages.Save(c, &tn.Message{Topic: "grp#1", Content: tn.JSON("x")}), table.ErrNotFound)
	_, err = s.Topics.ByName.Get(c, tn.Topic{Id: ""})
	wantInvalid(t, err, "Topic")
}

// TestTopicLoad_TN8_TN11_TN13 reads the topic, its subscriptions and its
// newest messages with one Query.
func TestTopicLoad_TN8_TN11_TN13(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustTopic(t, s, "p2pAB", "a", "b")
	for i := range 12 {
		if err := s.Messages.Save(c, &tn.Message{Topic: "p2pAB", From: "a", Content: tn.JSON(i)}); err != nil {
			t.Fatal(err)
		}
	}
	v, err := s.Topics.Load(c, "p2pAB", table.Limit(1+2+5))
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int
	for _, m := range v.Messages {
		seqs = append(seqs, m.SeqId)
	}
	if v.Topic.SeqId != 12 || len(v.Subs) != 2 {
		t.Errorf("topic seq %d, %d subs", v.Topic.SeqId, len(v.Subs))
	}
	if d := cmp.Diff([]int{12, 11, 10, 9, 8}, seqs); d != "" {
		t.Errorf("newest messages (-want +got):\n%s", d)
	}
	if v.Cursor == "" {
		t.Error("no cursor for older messages")
	}
	v, err = s.Topics.Load(c, "p2pAB", table.After(v.Cursor), table.Limit(3), table.Asc())
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{7, 6, 5}, seqsOf(v.Messages)); d != "" {
		t.Errorf("older messages, always descending (-want +got):\n%s", d)
	}
	_, err = s.Topics.Load(c, "nope")
	wantIs(t, err, table.ErrNotFound)
}

// TestTopicHardDelete_TN18 (TN-18) deletes a topic with its subscriptions and
// messages in batches; the other topic is untouched, and a second call
// after the topic is gone reports table.ErrNotFound.
func TestTopicHardDelete_TN18(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	var members []tn.UserID
	for i := range 30 {
		members = append(members, tn.UserID(fmt.Sprintf("u%02d", i)))
	}
	mustTopic(t, s, "grpBig", members...)
	mustTopic(t, s, "grpBig2", "u00")
	for i := range 180 {
		if err := s.Messages.Import(c, &tn.Message{Topic: "grpBig", SeqId: i + 1, Content: tn.JSON(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Messages.Save(c, &tn.Message{Topic: "grpBig2", Content: tn.JSON("keep")}); err != nil {
		t.Fatal(err)
	}
	if err := s.Topics.Delete(c, "grpBig"); err != nil {
		t.Fatal(err)
	}
	_, err := s.Topics.ByName.Get(c, tn.Topic{Id: "grpBig"})
	wantIs(t, err, table.ErrNotFound)
	page, err := s.Table().QueryItems(c, table.Query{PK: "TOPIC#grpBig"})
	if err != nil || len(page.Items) != 0 {
		t.Fatalf("partition left: %d items, %v", len(page.Items), err)
	}
	subs, err := table.Collect(s.Subs.ByUser.All(c, tn.Subscription{User: "u00"}))
	if err != nil || len(subs) != 1 || subs[0].Topic != "grpBig2" {
		t.Fatalf("u00 subscriptions after delete: %v %v", subs, err)
	}
	wantIs(t, s.Topics.Delete(c, "grpBig"), table.ErrNotFound)
}

// TestTopicHardDeleteResumes_TN18 (TN-18) stops a hard delete midway (context
// deadline) and finishes it with a second call.
func TestTopicHardDeleteResumes_TN18(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustTopic(t, s, "grpR", "a")
	for i := range 300 {
		if err := s.Messages.Import(c, &tn.Message{Topic: "grpR", SeqId: i + 1, Content: tn.JSON(i)}); err != nil {
			t.Fatal(err)
		}
	}
	short, cancel := contextWithTimeout(c, 30*time.Millisecond)
	err := s.Topics.Delete(short, "grpR")
	cancel()
	if err == nil {
		t.Log("delete finished within the short deadline; resuming is then a no-op check")
	}
	if err := s.Topics.Delete(c, "grpR"); err != nil && !errorsIs(err, table.ErrNotFound) {
		t.Fatal(err)
	}
	page, err := s.Table().QueryItems(c, table.Query{PK: "TOPIC#grpR"})
	if err != nil || len(page.Items) != 0 {
		t.Fatalf("partition left: %d items, %v", len(page.Items), err)
	}
}
