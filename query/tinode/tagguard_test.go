package tinode_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestTagLookupsAskTheUser_TN4_TN19_TN30: a tag's guard is an index, never
// the truth (issue 26 §1). A user whose tags another writer changed with a
// raw UpdateItem, or whom it deleted, is found by none of LookupTag,
// FindByTag (TN-4) or FindByTags (TN-19); each orphan guard is reported to
// the Observer and removed, so the tag can be taken again. Credentials'
// Upsert pre-check (TN-30) likewise does not refuse a value whose
// validated credential is gone.
func TestTagLookupsAskTheUser_TN4_TN19_TN30(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var orphans []*table.OrphanGuardError
	s := newStore(t, func(o *table.Options) {
		o.Observer = func(_ context.Context, ev table.Event) {
			var oe *table.OrphanGuardError
			if ev.Op == table.OpOrphanGuard && errors.As(ev.Err, &oe) {
				mu.Lock()
				orphans = append(orphans, oe)
				mu.Unlock()
			}
		}
	})
	c := ctx(t)
	mustUser(t, s, "alice", "email:a@x.io")
	mustUser(t, s, "bob", "email:b@x.io")
	mustUser(t, s, "carol", "email:c@x.io")
	mustUser(t, s, "dave", "email:d@x.io")
	if u, err := s.Users.FindByTag(c, "email:a@x.io"); err != nil || u.Id != "alice" {
		t.Fatalf("FindByTag live: %+v %v", u, err)
	}
	tb := s.Table()
	key := func(id tn.UserID) map[string]types.AttributeValue {
		k, err := tinode.UserKey(s, id)
		if err != nil {
			t.Fatal(err)
		}
		return map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}}
	}
	// alice and dave: tags changed behind their guards; carol: deleted.
	for _, id := range []tn.UserID{"alice", "dave"} {
		if _, err := tb.Client().UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String(tb.Name()), Key: key(id),
			UpdateExpression:          aws.String("SET Tags = :t"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":t": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "email:other@x.io"}}}}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tb.Client().DeleteItem(c, &dynamodb.DeleteItemInput{TableName: aws.String(tb.Name()), Key: key("carol")}); err != nil {
		t.Fatal(err)
	}
	if ut, err := s.Users.LookupTag(c, "email:a@x.io"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("TN-4 LookupTag of a tag its user gave up: %+v, %v", ut, err)
	}
	if u, err := s.Users.FindByTag(c, "email:c@x.io"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("TN-4 FindByTag of a deleted user: %+v, %v", u, err)
	}
	ms, err := s.Users.FindByTags(c, "email:d@x.io", "email:b@x.io")
	if err != nil || len(ms) != 1 || ms[0].User.Id != "bob" {
		t.Fatalf("TN-19 FindByTags: %+v, %v; want bob only", ms, err)
	}
	mu.Lock()
	got := append([]*table.OrphanGuardError(nil), orphans...)
	mu.Unlock()
	if len(got) != 3 || got[0].OwnerMissing || !got[1].OwnerMissing || got[2].OwnerMissing {
		t.Fatalf("orphan reports %+v: want alice (changed), carol (missing), dave (changed)", got)
	}
	for _, o := range got {
		if !o.Removed {
			t.Errorf("orphan %s kept: %v", o.Guard.Value, o.DeleteErr)
		}
	}
	// The tags are free again.
	mustUser(t, s, "erin", "email:a@x.io", "email:c@x.io", "email:d@x.io")
	if u, err := s.Users.FindByTag(c, "email:c@x.io"); err != nil || u.Id != "erin" {
		t.Fatalf("FindByTag after erin took the tag: %+v %v", u, err)
	}

	// TN-30: a validated credential deleted behind its guard does not make
	// Upsert refuse the value to another user.
	if _, err := s.Creds.Upsert(c, &tn.Credential{User: "bob", Method: "email", Value: "v@x.io", Resp: "1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Creds.Confirm(c, "bob", "email"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Creds.Upsert(c, &tn.Credential{User: "erin", Method: "email", Value: "v@x.io", Resp: "2"}); !errors.Is(err, table.ErrUniqueViolation) {
		t.Fatalf("Upsert of a value bob validated: %v", err)
	}
	ck, err := tinode.CredKey(s, "bob", "email", "v@x.io")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Client().DeleteItem(c, &dynamodb.DeleteItemInput{TableName: aws.String(tb.Name()), Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: ck.PK}, "SK": &types.AttributeValueMemberS{Value: ck.SK}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Creds.Upsert(c, &tn.Credential{User: "erin", Method: "email", Value: "v@x.io", Resp: "2"}); err != nil {
		t.Fatalf("TN-30 Upsert refused a value whose validated credential is gone: %v", err)
	}
}

// TestSharedTagEntriesAskTheItem_TN19: under Options.SharedTags a shared
// tag's entries are an index too. A user and a topic whose tags another
// writer changed with a raw UpdateItem (the entries left behind) are not
// found by FindByTags (TN-19) for the tag they gave up, and still are for
// the tags they hold.
func TestSharedTagEntriesAskTheItem_TN19(t *testing.T) {
	t.Parallel()
	s := tinode.New(tabletest.NewTable(t, table.NewSchema("tinode")), func(o *tinode.Options) { o.SharedTags = true })
	c := ctx(t)
	for _, u := range []tn.User{{Id: "ann", Tags: []string{"lang:go", "city:oslo"}}, {Id: "bob", Tags: []string{"lang:go"}}} {
		if err := s.Users.Create(c, &u); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Topics.Create(c, &tn.Topic{Id: "grpGo", Tags: []string{"lang:go", "city:oslo"}}); err != nil {
		t.Fatal(err)
	}
	uk, err := tinode.UserKey(s, "ann")
	if err != nil {
		t.Fatal(err)
	}
	tk, err := tinode.TopicKey(s, "grpGo")
	if err != nil {
		t.Fatal(err)
	}
	tb := s.Table()
	for _, k := range []table.Key{uk, tk} {
		if _, err := tb.Client().UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String(tb.Name()),
			Key:                       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}},
			UpdateExpression:          aws.String("SET Tags = :t"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":t": &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberS{Value: "city:oslo"}}}}}); err != nil {
			t.Fatal(err)
		}
	}
	users, err := s.Users.FindByTags(c, "lang:go")
	if err != nil || len(users) != 1 || users[0].User.Id != "bob" {
		t.Fatalf("TN-19 users by a tag ann gave up: %+v, %v; want bob only", users, err)
	}
	users, err = s.Users.FindByTags(c, "lang:go", "city:oslo")
	if err != nil || len(users) != 2 || users[0].User.Id != "ann" || len(users[0].Tags) != 1 || users[0].Tags[0] != "city:oslo" {
		t.Fatalf("TN-19 users by lang:go, city:oslo: %+v, %v; want ann (city:oslo only) and bob", users, err)
	}
	topics, err := s.Topics.FindByTags(c, "lang:go")
	if err != nil || len(topics) != 0 {
		t.Fatalf("TN-19 topics by a tag grpGo gave up: %+v, %v; want none", topics, err)
	}
	topics, err = s.Topics.FindByTags(c, "city:oslo")
	if err != nil || len(topics) != 1 || topics[0].Topic.Id != "grpGo" {
		t.Fatalf("TN-19 topics by city:oslo: %+v, %v; want grpGo", topics, err)
	}
}
