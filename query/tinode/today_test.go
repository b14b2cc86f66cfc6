package tinode_test

import (
	"context"
	"errors"

	"fmt"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// counted returns a store on s's table whose requests rc counts.
func counted(t *testing.T, s *tinode.Store) (*tinode.Store, *tabletest.RequestCounter) {
	t.Helper()
	rc := &tabletest.RequestCounter{}
	client := tabletest.NewClient(t, rc.Option())
	return tinode.New(table.New(client, s.Table().Schema())), rc
}

// subCnt reads the topic's SubCnt and counts its live subscriptions.
func subCnt(t *testing.T, s *tinode.Store, topic tn.TopicName) (stored, live int) {
	t.Helper()
	top, err := s.Topics.ByName.Get(ctx(t), tn.Topic{Id: topic})
	if err != nil {
		t.Fatal(err)
	}
	subs, err := table.Collect(s.Subs.ByTopic.All(ctx(t), tn.Subscription{Topic: topic}))
	if err != nil {
		t.Fatal(err)
	}
	return top.SubCnt, len(subs)
}

// TestUnreadCount_TN21 sums SeqId - ReadSeqId over readable live
// subscriptions, one GSI1 Query and one BatchGetItem for the page.
func TestUnreadCount_TN21(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustTopic(t, s, "grpA", "alice", "bob")
	mustTopic(t, s, "grpB", "alice")
	mustTopic(t, s, "grpC", "alice")
	mustTopic(t, s, "grpD", "alice")
	for _, tp := range []tn.TopicName{"grpA", "grpA", "grpA", "grpB", "grpB", "grpC", "grpD"} {
		if err := s.Messages.Save(c, &tn.Message{Topic: tp, From: "bob"}); err != nil {
			t.Fatal(err)
		}
	}
	// alice read 1 of grpA's 3; grpC's subscription cannot read; grpD is
	// soft-deleted
	if _, err := s.Subs.Update(c, tinode.SubRef{Topic: "grpA", User: "alice"}, func(s *tn.Subscription) error { s.ReadSeqId = 1; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Subs.Update(c, tinode.SubRef{Topic: "grpC", User: "alice"}, func(s *tn.Subscription) error { s.ModeGiven = tn.ModeJoin; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.Subs.SoftDelete(c, "grpD", "alice"); err != nil {
		t.Fatal(err)
	}
	cs, reqs := counted(t, s)
	n, err := cs.Subs.UnreadCount(c, "alice")
	if err != nil || n != 2+2 {
		t.Fatalf("TN-21 unread = %d, %v; want 4 (grpA 3-1, grpB 2)", n, err)
	}
	if got := reqs.Total(); got != 2 {
		t.Errorf("TN-21 took %d requests (%v), want 2", got, reqs)
	}
	if n, err := s.Subs.UnreadCount(c, "bob"); err != nil || n != 3 {
		t.Fatalf("bob's unread = %d, %v; want 3", n, err)
	}
}

// TestOwnedTopics_TN22 lists a user's group topics from GSI1, no Scan.
func TestOwnedTopics_TN22(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	for _, name := range []tn.TopicName{"grpB", "grpA", "grpC"} {
		top := tn.Topic{Id: name, Owner: "alice"}
		if err := s.Topics.Create(c, &top); err != nil {
			t.Fatal(err)
		}
	}
	other := tn.Topic{Id: "grpZ", Owner: "bob"}
	if err := s.Topics.Create(c, &other); err != nil {
		t.Fatal(err)
	}
	p2p := tn.Topic{Id: "p2pAB"}
	if err := s.Topics.Create(c, &p2p); err != nil {
		t.Fatal(err)
	}
	got, err := table.Collect(s.Topics.Owned.All(c, tn.Topic{Owner: "alice"}, table.Limit(2)))
	if err != nil {
		t.Fatal(err)
	}
	var names []tn.TopicName
	for _, tp := range got {
		names = append(names, tp.Id)
	}
	if d := cmp.Diff([]tn.TopicName{"grpA", "grpB", "grpC"}, names); d != "" {
		t.Errorf("TN-22 topics alice owns (-want +got):\n%s", d)
	}
	// a new owner moves the topic to their list in the same write
	if _, err := s.Topics.Update(c, "grpC", func(tp *tn.Topic) error { tp.Owner = "bob"; return nil }); err != nil {
		t.Fatal(err)
	}
	p, err := s.Topics.Owned.List(c, tn.Topic{Owner: "bob"})
	if err != nil || len(p.Items) != 2 {
		t.Fatalf("bob owns %+v, %v; want grpC and grpZ", p.Items, err)
	}
	_, err = s.Topics.Owned.List(c, tn.Topic{Owner: ""})
	wantInvalid(t, err, "Id")
}

// TestJoins_TN23 joins a user's subscriptions with their topics and a
// topic's with their users: 2 requests per page.
func TestJoins_TN23(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustUser(t, s, "alice")
	mustUser(t, s, "bob")
	mustTopic(t, s, "grpA", "alice", "bob")
	mustTopic(t, s, "grpB", "alice")
	cs, reqs := counted(t, s)
	p, err := cs.Subs.TopicsOfUser(c, tn.Subscription{User: "alice"})
	if err != nil || len(p.Items) != 2 {
		t.Fatalf("TN-23 topics of alice: %+v, %v", p.Items, err)
	}
	for _, st := range p.Items {
		if st.Sub.Topic != st.Topic.Id || st.Sub.User != "alice" {
			t.Errorf("TN-23 joined %s with topic %s", st.Sub.Id, st.Topic.Id)
		}
	}
	if got := reqs.Total(); got != 2 {
		t.Errorf("TN-23 topics of a user took %d requests, want 2", got)
	}
	us, err := table.Collect(table.Every(c, s.Subs.UsersOfTopic, tn.Subscription{Topic: "grpA"}, table.Limit(1)))
	if err != nil || len(us) != 2 || us[0].User.Id != "alice" || us[1].User.Id != "bob" || us[1].Sub.User != "bob" {
		t.Fatalf("TN-23 users of grpA: %+v, %v", us, err)
	}
}

// TestSubCnt_TN24 keeps SubCnt exact under concurrent subscribes,
// soft deletes and deletes.
func TestSubCnt_TN24(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustTopic(t, s, "grpA", "owner")
	const n = 24
	var wg sync.WaitGroup
	errs := make(chan error, 3*n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := tn.UserID(fmt.Sprintf("u%02d", i))
			sub := tn.Subscription{Topic: "grpA", User: u, ModeWant: tn.ModeCPublic, ModeGiven: tn.ModeCPublic}
			if err := s.Subs.Create(c, &sub); err != nil {
				errs <- err
				return
			}
			switch i % 3 {
			case 1:
				errs <- s.Subs.Delete(c, "grpA", u)
			case 2:
				if err := s.Subs.SoftDelete(c, "grpA", u); err != nil {
					errs <- err
					return
				}
				errs <- s.Subs.Delete(c, "grpA", u) // deleting a soft-deleted one counts nothing
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	stored, live := subCnt(t, s, "grpA")
	if stored != live || live != 1+n/3 {
		t.Fatalf("TN-24 SubCnt = %d, live subscriptions %d, want both %d", stored, live, 1+n/3)
	}
	if _, err := s.Topics.Update(c, "grpA", func(tp *tn.Topic) error { tp.SubCnt = 99; return nil }); err == nil {
		t.Fatal("Topics.Update changed SubCnt")
	}
	// a soft delete advances UpdatedAt, so syncing clients see it
	before, _ := s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: "grpA", User: "owner"})
	time.Sleep(2 * time.Millisecond)
	if err := s.Subs.SoftDelete(c, "grpA", "owner"); err != nil {
		t.Fatal(err)
	}
	after, err := s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: "grpA", User: "owner"})
	if err != nil || after.DeletedAt == nil || !after.UpdatedAt.After(before.UpdatedAt) {
		t.Fatalf("soft-deleted subscription %+v, %v: want DeletedAt set and UpdatedAt advanced", after, err)
	}
	if stored, live := subCnt(t, s, "grpA"); stored != live {
		t.Fatalf("SubCnt %d, live %d", stored, live)
	}
}

// TestShare_TN25 subscribes 150 users in two chunks; existing
// subscriptions are reported and kept.
func TestShare_TN25(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustTopic(t, s, "grpA", "u007")
	var subs []*tn.Subscription
	for i := range 150 {
		subs = append(subs, &tn.Subscription{Topic: "grpA", User: tn.UserID(fmt.Sprintf("u%03d", i)), ModeWant: tn.ModeCPublic, ModeGiven: tn.ModeCPublic})
	}
	cs, reqs := counted(t, s)
	res, err := cs.Subs.Share(c, "grpA", subs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Created) != 149 || len(res.Existing) != 1 || res.Existing[0] != "u007" {
		t.Fatalf("TN-25 created %d, existing %v", len(res.Created), res.Existing)
	}
	if got := reqs.Total(); got != 3 {
		t.Errorf("TN-25 took %d requests, want 3 (2 chunks, one retried without the existing subscription)", got)
	}
	kept, _ := s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: "grpA", User: "u007"})
	if kept.ModeWant != tn.ModeCFull {
		t.Errorf("existing subscription overwritten: %+v", kept)
	}
	if stored, live := subCnt(t, s, "grpA"); stored != 150 || live != 150 {
		t.Fatalf("SubCnt %d, live %d, want 150", stored, live)
	}
	_, err = s.Subs.Share(c, "grpNone", subs[:1])
	wantInvalid(t, err, "subs[0].Topic")
	none := []*tn.Subscription{{Topic: "grpNone", User: "x", ModeWant: tn.ModeCPublic, ModeGiven: tn.ModeCPublic}}
	_, err = s.Subs.Share(c, "grpNone", none)
	wantIs(t, err, table.ErrNotFound)
}

// TestCreateP2P_TN26 keeps the invited user's existing subscription
// (undeleting it) and writes the initiator's as given.
func TestCreateP2P_TN26(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	// bob's subscription is left from an earlier life of the topic (an
	// import of TinodeSubscriptions before its topic, say): soft-deleted,
	// with his own Private and modes.
	note := tn.JSON("bob's note")
	bobOld := &tn.Subscription{Topic: "p2pAB", User: "bob", ModeWant: tn.ModeCPublic, ModeGiven: tn.ModeCPublic, Private: note}
	if err := s.Topics.Create(c, &tn.Topic{Id: "p2pAB"}, bobOld); err != nil {
		t.Fatal(err)
	}
	if err := s.Subs.SoftDelete(c, "p2pAB", "bob"); err != nil {
		t.Fatal(err)
	}
	tk, _ := tinode.TopicKey(s, "p2pAB")
	sc := s.Table().Schema()
	if _, err := s.Table().Client().DeleteItem(c, &dynamodb.DeleteItemInput{TableName: aws.String(sc.Name),
		Key: map[string]types.AttributeValue{sc.PK: &types.AttributeValueMemberS{Value: tk.PK}, sc.SK: &types.AttributeValueMemberS{Value: tk.SK}}}); err != nil {
		t.Fatal(err)
	}
	initiator := &tn.Subscription{Topic: "p2pAB", User: "alice", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull}
	invited := &tn.Subscription{Topic: "p2pAB", User: "bob", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull, Private: tn.JSON("overwritten")}
	kept, err := s.Topics.CreateP2P(c, &tn.Topic{Id: "p2pAB"}, initiator, invited)
	if err != nil || !kept {
		t.Fatalf("TN-26 create p2p: kept=%v, %v", kept, err)
	}
	bob, err := s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: "p2pAB", User: "bob"})
	if err != nil || bob.DeletedAt != nil || bob.State != tn.StateOK || bob.ModeWant != tn.ModeCPublic || !bob.Private.Equal(note) {
		t.Fatalf("TN-26 bob's subscription %+v, %v: want kept (modes, Private) and undeleted", bob, err)
	}
	alice, err := s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: "p2pAB", User: "alice"})
	if err != nil || alice.ModeWant != tn.ModeCFull {
		t.Fatalf("alice's subscription %+v, %v", alice, err)
	}
	if stored, live := subCnt(t, s, "p2pAB"); stored != 2 || live != 2 {
		t.Fatalf("SubCnt %d, live %d, want 2", stored, live)
	}
	// a second p2p create is refused; a fresh pair creates both
	if _, err := s.Topics.CreateP2P(c, &tn.Topic{Id: "p2pAB"}, initiator, invited); !errors.Is(err, table.ErrAlreadyExists) {
		t.Fatalf("create p2p twice: %v", err)
	}
	ini := &tn.Subscription{Topic: "p2pCD", User: "carol", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull}
	inv := &tn.Subscription{Topic: "p2pCD", User: "dave", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull}
	if kept, err := s.Topics.CreateP2P(c, &tn.Topic{Id: "p2pCD"}, ini, inv); err != nil || kept {
		t.Fatalf("fresh p2p: kept=%v, %v", kept, err)
	}
	_, err = s.Topics.CreateP2P(c, &tn.Topic{Id: "p2pCD"}, ini, ini)
	wantInvalid(t, err, "User")
}

// TestDeleteList_TN27_TN28 deletes lists of SeqIds for one user and for
// everyone, with the deletion log, DelId and ClearId, and reads the log.
func TestDeleteList_TN27_TN28(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustTopic(t, s, "grpA", "alice", "bob")
	for range 10 {
		if err := s.Messages.Save(c, &tn.Message{Topic: "grpA", From: "bob", Content: tn.JSON("hi")}); err != nil {
			t.Fatal(err)
		}
	}
	// alice hides 1..3 and 7 for herself: DelId 1, her ClearId 3
	id, err := s.Messages.DeleteList(c, "grpA", "alice", []tn.Range{{Low: 7}, {Low: 1, Hi: 3}, {Low: 3}})
	if err != nil || id != 1 {
		t.Fatalf("TN-27 delete for alice: %d, %v", id, err)
	}
	sub, _ := s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: "grpA", User: "alice"})
	if sub.DelId != 1 || sub.ClearId != 3 {
		t.Fatalf("alice's subscription DelId %d ClearId %d, want 1 and 3", sub.DelId, sub.ClearId)
	}
	m, _ := s.Messages.Get(c, "grpA", 7)
	if d := cmp.Diff(tn.DeletedFor{{User: "alice", DelId: 1}}, m.DeletedFor); d != "" || m.DeletedAt != nil {
		t.Fatalf("message 7 (-want +got):\n%s", d)
	}
	// everyone loses 5..6 and 9: DelId 2; concurrently bob deletes 10 for himself
	var wg sync.WaitGroup
	ids := make([]int, 2)
	errs := make([]error, 2)
	wg.Add(2)
	go func() {
		defer wg.Done()
		ids[0], errs[0] = s.Messages.DeleteList(c, "grpA", "", []tn.Range{{Low: 5, Hi: 7}, {Low: 9}})
	}()
	go func() {
		defer wg.Done()
		ids[1], errs[1] = s.Messages.DeleteList(c, "grpA", "bob", []tn.Range{{Low: 10}})
	}()
	wg.Wait()
	if errs[0] != nil || errs[1] != nil || ids[0]+ids[1] != 5 {
		t.Fatalf("concurrent deletions: ids %v, errors %v; want DelIds 2 and 3", ids, errs)
	}
	top, _ := s.Topics.ByName.Get(c, tn.Topic{Id: "grpA"})
	if top.DelId != 3 || top.ClearId != 0 {
		t.Fatalf("topic DelId %d ClearId %d, want 3 and 0 (1..4 are not all deleted for everyone)", top.DelId, top.ClearId)
	}
	for seq := 5; seq <= 9; seq++ {
		m, _ := s.Messages.Get(c, "grpA", seq)
		gone := seq == 5 || seq == 6 || seq == 9
		if (m.DeletedAt != nil) != gone || (gone && (m.Content != nil || m.DelId != ids[0])) {
			t.Errorf("message %d: DeletedAt %v, DelId %d, Content %s", seq, m.DeletedAt, m.DelId, m.Content)
		}
	}
	// 1..4 for everyone extends the topic's ClearId to 4 (the ranges of
	// the deletion that reaches it count)
	if _, err := s.Messages.DeleteList(c, "grpA", "", []tn.Range{{Low: 1, Hi: 5}}); err != nil {
		t.Fatal(err)
	}
	if top, _ := s.Topics.ByName.Get(c, tn.Topic{Id: "grpA"}); top.ClearId != 4 || top.DelId != 4 {
		t.Fatalf("topic ClearId %d DelId %d, want 4 and 4", top.ClearId, top.DelId)
	}
	// TN-28: alice's client hides deletions 1 (hers), 2 and 4 (everyone's), not bob's 3
	log, err := table.Collect(table.Pages(c, func(ctx context.Context, o ...table.ListOption) (table.Page[tn.DelMessage], error) {
		return s.Messages.Deletions(ctx, "grpA", "alice", 0, o...)
	}, table.Asc(), table.Limit(1)))
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, d := range log {
		got = append(got, d.DelId)
		if !d.Applied {
			t.Errorf("deletion %d not applied", d.DelId)
		}
	}
	if d := cmp.Diff([]int{1, ids[0], 4}, got); d != "" {
		t.Errorf("TN-28 alice's deletions (-want +got):\n%s", d)
	}
	p, err := s.Messages.Deletions(c, "grpA", "bob", 3)
	if err != nil || len(p.Items) != 2 || p.Items[0].DelId != 4 || p.Items[1].DelId != 3 {
		t.Fatalf("TN-28 bob's deletions since 3, newest first: %+v, %v", p.Items, err)
	}
	// bad input fails before any request
	_, err = s.Messages.DeleteList(c, "grpA", "", []tn.Range{{Low: 3, Hi: 2}})
	wantInvalid(t, err, "ranges[0]")
	_, err = s.Messages.DeleteList(c, "grpA", "", nil)
	wantInvalid(t, err, "ranges")
	_, err = s.Messages.DeleteList(c, "grpA", "carol", []tn.Range{{Low: 1}})
	wantIs(t, err, table.ErrNotFound)
	// the topic's load never meets the log
	if v, err := s.Topics.Load(c, "grpA"); err != nil || len(v.Messages) != 10 {
		t.Fatalf("load after deletions: %d messages, %v", len(v.Messages), err)
	}
}

// TestFinishDeletes_TN27 completes a deletion whose message rewrite was
// cut off after the log entry was written.
func TestFinishDeletes_TN27(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustTopic(t, s, "grpA", "alice")
	for range 5 {
		if err := s.Messages.Save(c, &tn.Message{Topic: "grpA", Content: tn.JSON("x")}); err != nil {
			t.Fatal(err)
		}
	}
	// the deciding transaction goes through; the rewrite's first Query fails
	fault := &tabletest.Errors{Op: "Query", Code: "ValidationException", Times: 1}
	cut := tinode.New(table.New(tabletest.NewClient(t, fault.Option()), s.Table().Schema()))
	if _, err := cut.Messages.DeleteList(c, "grpA", "", []tn.Range{{Low: 2, Hi: 5}}); err == nil {
		t.Fatal("the injected failure did not stop DeleteList")
	}
	if m, _ := s.Messages.Get(c, "grpA", 3); m.DeletedAt != nil {
		t.Fatal("message 3 deleted although the rewrite failed")
	}
	log, err := s.Messages.Deletions(c, "grpA", "", 0)
	if err != nil || len(log.Items) != 1 || log.Items[0].Applied {
		t.Fatalf("log after the cut: %+v, %v; want one entry not applied", log.Items, err)
	}
	n, err := s.Messages.FinishDeletes(c, "grpA")
	if err != nil || n != 1 {
		t.Fatalf("TN-27 finish: %d, %v", n, err)
	}
	for seq := 1; seq <= 5; seq++ {
		m, _ := s.Messages.Get(c, "grpA", seq)
		if (m.DeletedAt != nil) != (seq >= 2 && seq <= 4) {
			t.Errorf("message %d DeletedAt %v", seq, m.DeletedAt)
		}
	}
	if n, err := s.Messages.FinishDeletes(c, "grpA"); err != nil || n != 0 {
		t.Fatalf("second finish: %d, %v; want nothing left", n, err)
	}
}

// TestAuthSchemes_TN29 deletes all records of one scheme in one
// transaction and changes a record's unique value in one transaction.
func TestAuthSchemes_TN29(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	for _, u := range []tn.AuthUnique{"token:a1", "token:a2", "basic:alice"} {
		if err := s.Auth.Add(c, &tn.AuthRecord{Unique: u, UserID: "alice", AuthLvl: tn.LevelAuth}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Auth.Add(c, &tn.AuthRecord{Unique: "token:b1", UserID: "bob", AuthLvl: tn.LevelAuth}); err != nil {
		t.Fatal(err)
	}
	cs, reqs := counted(t, s)
	n, err := cs.Auth.DeleteScheme(c, "alice", "token")
	if err != nil || n != 2 || reqs.Of("TransactWriteItems") != 1 {
		t.Fatalf("TN-29 delete scheme: %d, %v, %d transactions", n, err, reqs.Of("TransactWriteItems"))
	}
	left, err := table.Collect(s.Auth.ByUser.All(c, tn.AuthRecord{UserID: "alice"}))
	if err != nil || len(left) != 1 || left[0].Unique != "basic:alice" {
		t.Fatalf("alice's records after: %+v, %v", left, err)
	}
	if _, err := s.Auth.ByUnique.Get(c, tn.AuthRecord{Unique: "token:b1"}); err != nil {
		t.Fatalf("bob's token went too: %v", err)
	}
	reqs.Reset()
	rec, err := cs.Auth.Update(c, "basic:alice", tn.AuthRecord{Unique: "basic:alice2", UserID: "alice", AuthLvl: tn.LevelAuth})
	if err != nil || rec.Unique != "basic:alice2" || reqs.Of("TransactWriteItems") != 1 {
		t.Fatalf("TN-29 change unique: %+v, %v, %d transactions", rec, err, reqs.Of("TransactWriteItems"))
	}
	if _, err := s.Auth.ByUnique.Get(c, tn.AuthRecord{Unique: "basic:alice"}); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("old unique still there: %v", err)
	}
	_, err = s.Auth.DeleteScheme(c, "alice", "")
	wantInvalid(t, err, "scheme")
}

// TestCredentials_TN30 upserts, confirms, fails, looks up and deletes
// credentials, unique among validated ones, and finds users left
// unvalidated without a Scan.
func TestCredentials_TN30(t *testing.T) {
	t.Parallel()
	clk := &clock{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	s := newStore(t, clk.opt)
	c := ctx(t)
	up := func(user tn.UserID, method, value, resp string) bool {
		t.Helper()
		created, err := s.Creds.Upsert(c, &tn.Credential{User: user, Method: method, Value: value, Resp: resp})
		if err != nil {
			t.Fatalf("upsert %s %s:%s: %v", user, method, value, err)
		}
		return created
	}
	if !up("alice", "email", "a@example.com", "123") {
		t.Fatal("first upsert not reported new")
	}
	if up("alice", "email", "a@example.com", "456") {
		t.Fatal("same value reported new")
	}
	// bob may have the same value pending; alice replaces hers with another
	up("bob", "email", "a@example.com", "999")
	clk.now = clk.now.Add(time.Hour)
	up("alice", "email", "alice@example.com", "777")
	up("alice", "tel", "+15551234", "1")
	active, err := s.Creds.GetActive(c, "alice", "email")
	if err != nil || active.Value != "alice@example.com" || active.Resp != "777" {
		t.Fatalf("active email: %+v, %v", active, err)
	}
	all, _ := s.Creds.List(c, "alice", "", false)
	if len(all) != 2 {
		t.Fatalf("alice's credentials %+v, want the email and the phone (the replaced email gone)", all)
	}
	// failed attempts count, concurrently too
	var wg sync.WaitGroup
	for range 5 {
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = s.Creds.Fail(c, "alice", "email") }()
	}
	wg.Wait()
	if a, _ := s.Creds.GetActive(c, "alice", "email"); a.Retries != 5 {
		t.Fatalf("Retries = %d, want 5", a.Retries)
	}
	// users unvalidated before 12:30: bob only (alice's pending ones are newer)
	users, err := s.Creds.Unvalidated(c, clk.now.Add(-30*time.Minute), 10)
	if err != nil || len(users) != 1 || users[0] != "bob" {
		t.Fatalf("unvalidated before 12:30: %v, %v", users, err)
	}
	// bob confirms a@example.com: validated values are unique
	if _, err := s.Creds.Confirm(c, "bob", "email"); err != nil {
		t.Fatal(err)
	}
	if id, err := s.Creds.UserByCred(c, "email", "a@example.com"); err != nil || id != "bob" {
		t.Fatalf("TN-30 user by credential: %q, %v", id, err)
	}
	if _, err := s.Creds.UserByCred(c, "email", "alice@example.com"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("unvalidated credential found a user: %v", err)
	}
	if _, err := s.Creds.Upsert(c, &tn.Credential{User: "carol", Method: "email", Value: "a@example.com"}); !errors.Is(err, table.ErrUniqueViolation) {
		t.Fatalf("pending a validated value: %v", err)
	}
	users, _ = s.Creds.Unvalidated(c, clk.now.Add(time.Hour), 10)
	if d := cmp.Diff([]tn.UserID{"alice"}, users); d != "" {
		t.Errorf("unvalidated after bob confirmed (-want +got):\n%s", d)
	}
	// two users race to confirm the same value: one wins
	up("dave", "email", "x@example.com", "1")
	up("erin", "email", "x@example.com", "2")
	errs := make([]error, 2)
	wg.Add(2)
	go func() { defer wg.Done(); _, errs[0] = s.Creds.Confirm(c, "dave", "email") }()
	go func() { defer wg.Done(); _, errs[1] = s.Creds.Confirm(c, "erin", "email") }()
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) || !(errors.Is(errs[0], table.ErrUniqueViolation) || errors.Is(errs[1], table.ErrUniqueViolation)) {
		t.Fatalf("concurrent confirms: %v / %v; want one success and one table.ErrUniqueViolation", errs[0], errs[1])
	}
	// deleting a validated credential releases its value
	if err := s.Creds.Delete(c, "bob", "email", "a@example.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Creds.UserByCred(c, "email", "a@example.com"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("deleted credential still finds a user: %v", err)
	}
	if err := s.Creds.Delete(c, "alice", "", ""); err != nil {
		t.Fatal(err)
	}
	if all, _ := s.Creds.List(c, "alice", "", false); len(all) != 0 {
		t.Fatalf("alice's credentials after delete all: %+v", all)
	}
	_, err = s.Creds.Upsert(c, &tn.Credential{User: "alice", Method: "", Value: "v"})
	wantInvalid(t, err, "Method")
	_, err = s.Creds.Unvalidated(c, clk.now, 0)
	wantInvalid(t, err, "limit")
}

// TestTodaysFields keeps the fields today's Tinode adds, and topic tags
// share the tag guards with users (Find by tag returns the topic).
func TestTodaysFields(t *testing.T) {
	t.Parallel()
	clk := &clock{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	s := newStore(t, clk.opt)
	c := ctx(t)
	at := clk.now.Add(-time.Hour)
	u := tn.User{Id: "alice", Trusted: tn.JSON(map[string]bool{"verified": true}), StateAt: &at, Tags: []string{"alias:alice"}}
	if err := s.Users.Create(c, &u); err != nil {
		t.Fatal(err)
	}
	got, err := s.Users.ByID.Get(c, tn.User{Id: "alice"})
	if err != nil || !got.Trusted.Equal(u.Trusted) || got.StateAt == nil || !got.StateAt.Equal(at) || !got.CreatedAt.Equal(clk.now) {
		t.Fatalf("user %+v, %v: want Trusted, StateAt and CreatedAt from the table's clock", got, err)
	}
	top := tn.Topic{Id: "grpA", Owner: "alice", Trusted: tn.JSON(map[string]bool{"staff": true}), Aux: tn.JSON(map[string]any{"pins": []int{3}}), Tags: []string{"topic:go"}}
	if err := s.Topics.Create(c, &top); err != nil {
		t.Fatal(err)
	}
	gt, err := s.Topics.ByName.Get(c, tn.Topic{Id: "grpA"})
	if err != nil || !gt.Aux.Equal(top.Aux) || !gt.Trusted.Equal(top.Trusted) || len(gt.Tags) != 1 {
		t.Fatalf("topic %+v, %v", gt, err)
	}
	// a tag a user holds cannot go to a topic, and the reverse
	clash := tn.Topic{Id: "grpB", Tags: []string{"alias:alice"}}
	if err := s.Topics.Create(c, &clash); !errors.Is(err, table.ErrUniqueViolation) {
		t.Fatalf("topic took a user's tag: %v", err)
	}
	if _, err := s.Users.AddTags(c, "alice", "topic:go"); !errors.Is(err, table.ErrUniqueViolation) {
		t.Fatalf("user took a topic's tag: %v", err)
	}
	found, err := s.Topics.FindByTags(c, "topic:go", "alias:alice", "nobody")
	if err != nil || len(found) != 1 || found[0].Topic.Id != "grpA" || found[0].Tags[0] != "topic:go" {
		t.Fatalf("topics by tag: %+v, %v", found, err)
	}
	users, err := s.Users.FindByTags(c, "topic:go", "alias:alice")
	if err != nil || len(users) != 1 || users[0].User.Id != "alice" {
		t.Fatalf("users by tag: %+v, %v", users, err)
	}
}

// TestSharedTags: under Options.SharedTags a tag has many holders (users
// and topics, each once) while the unique namespaces stay unique; the
// default (every tag unique) is TestTodaysFields' and TN-2/TN-3's.
func TestSharedTags(t *testing.T) {
	t.Parallel()
	s := tinode.New(tabletest.NewTable(t, table.NewSchema("tinode")), func(o *tinode.Options) {
		o.SharedTags, o.UniqueTagNamespaces = true, []string{"alias"}
	})
	c := ctx(t)
	for _, u := range []tn.User{{Id: "ann", Tags: []string{"lang:go", "alias:ann"}}, {Id: "bob", Tags: []string{"lang:go", "city"}}} {
		if err := s.Users.Create(c, &u); err != nil {
			t.Fatal(err)
		}
	}
	top := tn.Topic{Id: "grpGo", Tags: []string{"lang:go"}}
	if err := s.Topics.Create(c, &top); err != nil {
		t.Fatal(err)
	}
	if err := s.Users.Create(c, &tn.User{Id: "eve", Tags: []string{"alias:ann"}}); !errors.Is(err, table.ErrUniqueViolation) {
		t.Fatalf("a second alias:ann: %v", err)
	}
	found, err := s.Users.FindByTags(c, "lang:go", "alias:ann")
	if err != nil || len(found) != 2 || found[0].User.Id != "ann" || len(found[0].Tags) != 2 || found[1].User.Id != "bob" {
		t.Fatalf("users by lang:go, alias:ann: %+v, %v", found, err)
	}
	topics, err := s.Topics.FindByTags(c, "lang:go")
	if err != nil || len(topics) != 1 || topics[0].Topic.Id != "grpGo" {
		t.Fatalf("topics by lang:go: %+v, %v", topics, err)
	}
	// removing a tag removes its entry in the same transaction
	if _, err := s.Users.RemoveTags(c, "bob", "lang:go"); err != nil {
		t.Fatal(err)
	}
	if found, _ := s.Users.FindByTags(c, "lang:go"); len(found) != 1 || found[0].User.Id != "ann" {
		t.Fatalf("after bob dropped lang:go: %+v", found)
	}
	if ut, err := s.Users.LookupTag(c, "alias:ann"); err != nil || ut.Source != "ann" {
		t.Fatalf("unique namespace lookup: %+v, %v", ut, err)
	}
	_, err = s.Users.LookupTag(c, "lang:go")
	wantInvalid(t, err, "tag")
}
