package podcastflow_test

import (
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestUserTimestamps_PF1: a user's createdAt is set by its create and
// never changed after (a profile migrated with its createdAt keeps it:
// the store's former helper overwrote it on create), updatedAt moves on
// every write but a login's bookkeeping, and both are stored as the
// document's JavaScript writers store them: ISO strings, milliseconds.
func TestUserTimestamps_PF1(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	now := time.Date(2026, 11, 22, 10, 0, 0, 123456789, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	set := func(t time.Time) { mu.Lock(); now = t; mu.Unlock() }
	tb := tabletest.NewTable(t, podcastflow.Schema(""), func(o *table.Options) { o.Now = clock })
	s := podcastflow.New(tb)
	ctx := t.Context()
	storedTimes := func(id string) (string, string) {
		t.Helper()
		out, err := tb.Client().GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(tb.Name()), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "USER#" + id}, "SK": &types.AttributeValueMemberS{Value: "PROFILE"}}})
		if err != nil || out.Item == nil {
			t.Fatalf("GetItem USER#%s: %v", id, err)
		}
		str := func(name string) string {
			v, _ := out.Item[name].(*types.AttributeValueMemberS)
			if v == nil {
				return "<not a string>"
			}
			return v.Value
		}
		return str("createdAt"), str("updatedAt")
	}
	check := func(what, id, wantC, wantU string) {
		t.Helper()
		if c, u := storedTimes(id); c != wantC || u != wantU {
			t.Errorf("%s: stored createdAt %q, updatedAt %q; want %q, %q", what, c, u, wantC, wantU)
		}
	}

	if err := s.Users.Create(ctx, user("fresh", "", pf.RoleMaster)); err != nil {
		t.Fatal(err)
	}
	check("create", "fresh", "2026-11-22T10:00:00.123Z", "2026-11-22T10:00:00.123Z")

	migrated := user("migrated", "", pf.RoleMaster)
	migrated.CreatedAt = time.Date(2024, 3, 4, 5, 6, 7, 890000000, time.UTC)
	if err := s.Users.Create(ctx, migrated); err != nil {
		t.Fatal(err)
	}
	check("create with a createdAt", "migrated", "2024-03-04T05:06:07.89Z", "2024-03-04T05:06:07.89Z")

	set(now.Add(time.Minute))
	if _, err := s.Users.Update(ctx, "fresh", func(u *pf.UserProfile) error { u.Name = "Renamed"; return nil }); err != nil {
		t.Fatal(err)
	}
	check("update", "fresh", "2026-11-22T10:00:00.123Z", "2026-11-22T10:01:00.123Z")

	set(now.Add(time.Minute))
	if _, err := s.Users.SetStatus(ctx, "fresh", pf.UserSuspended); err != nil {
		t.Fatal(err)
	}
	check("a status change", "fresh", "2026-11-22T10:00:00.123Z", "2026-11-22T10:02:00.123Z")

	set(now.Add(time.Minute))
	if _, err := s.Users.RecordLogin(ctx, "fresh", now); err != nil {
		t.Fatal(err)
	}
	check("a login (bookkeeping)", "fresh", "2026-11-22T10:00:00.123Z", "2026-11-22T10:02:00.123Z")
}
