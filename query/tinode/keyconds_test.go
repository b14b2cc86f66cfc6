package tinode_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// queryLog records the key condition of every Query a client sends.
type queryLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *queryLog) option(o *dynamodb.Options) {
	o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
		return st.Initialize.Add(middleware.InitializeMiddlewareFunc("queryLog", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			if q, ok := in.Parameters.(*dynamodb.QueryInput); ok {
				var vals []string
				for k, v := range q.ExpressionAttributeValues {
					if s, ok := v.(*types.AttributeValueMemberS); ok && strings.Contains(aws.ToString(q.KeyConditionExpression), k) {
						vals = append(vals, k+"="+s.Value)
					}
				}
				slices.Sort(vals)
				l.mu.Lock()
				l.seen = append(l.seen, fmt.Sprintf("%s %s %s", aws.ToString(q.IndexName), aws.ToString(q.KeyConditionExpression), strings.Join(vals, " ")))
				l.mu.Unlock()
			}
			return next.HandleInitialize(ctx, in)
		}), middleware.After)
	})
}

func (l *queryLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.seen
	l.seen = nil
	return out
}

// TestKeyConditionsTyped: the key conditions of the reads whose keys are
// built from the typed declaration (Entity.Key, Partition, Prefix, Range,
// SortPrefix) are byte for byte those the map-of-strings builders of
// entity/tn sent (the want list was captured on main before they were
// removed); a tag guard's owner key is parsed by Entity.FromKey.
func TestKeyConditionsTyped(t *testing.T) {
	t.Parallel()
	log := &queryLog{}
	tb := tabletest.NewTable(t, table.NewSchema("tinode"))
	s := tinode.New(table.New(tabletest.NewClient(t, log.option), tb.Schema()))
	c := ctx(t)
	mustUser(t, s, "alice", "email:alice@example.com")
	mustTopic(t, s, "grpA", "alice")
	for range 3 {
		if err := s.Messages.Save(c, &tn.Message{Topic: "grpA", From: "alice", Content: tn.JSON("hi")}); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, 11, 22, 8, 0, 0, 123456789, time.UTC)
	log.take()
	var got []string
	step := func(name string, err error) {
		t.Helper()
		if err != nil {
			t.Logf("%s: %v", name, err)
		}
		for _, q := range log.take() {
			got = append(got, name+": "+q)
		}
	}
	_, err := s.Subs.ByUser.List(c, tn.Subscription{User: "alice"})
	step("Subs.ListByUser", err)
	_, err = s.Subs.ByUser.List(c, tn.Subscription{User: "alice", UpdatedAt: at})
	step("Subs.ListByUser since", err)
	_, err = s.Creds.List(c, "alice", "", false)
	step("Creds.List", err)
	_, err = s.Creds.List(c, "alice", "email", false)
	step("Creds.List email", err)
	_, err = s.Creds.Unvalidated(c, at, 10)
	step("Creds.Unvalidated", err)
	_, err = s.Files.DeleteUnused(c, at, 10)
	step("Files.DeleteUnused before", err)
	_, err = s.Files.DeleteUnused(c, time.Time{}, 10)
	step("Files.DeleteUnused", err)
	_, err = s.Auth.GetByScheme(c, "alice", "basic")
	step("Auth.GetByScheme", err)
	_, err = s.Auth.GetByScheme(c, "alice", "a#b%c")
	step("Auth.GetByScheme escaped", err)
	_, err = s.Messages.History(c, tinode.HistoryFilter{Topic: "grpA", Seq: tinode.SeqRange{Since: 2, Before: 3}})
	step("Messages.History", err)
	_, err = s.Messages.History(c, tinode.HistoryFilter{Topic: "grpA"})
	step("Messages.History all", err)
	_, err = s.Messages.Deletions(c, "grpA", "", 2)
	step("Messages.Deletions", err)
	_, err = s.Topics.Load(c, "grpA")
	step("Topics.Load", err)
	if u, err := s.Users.LookupTag(c, "email:alice@example.com"); err != nil || u.Source != "alice" {
		t.Errorf("LookupTag = %+v, %v; want alice (the guard's owner key parsed by Entity.FromKey)", u, err)
	}
	if m, err := s.Users.FindByTags(c, "email:alice@example.com"); err != nil || len(m) != 1 || m[0].User.Id != "alice" {
		t.Errorf("Users.FindByTags = %+v, %v; want alice", m, err)
	}
	if m, err := s.Topics.FindByTags(c, "email:alice@example.com"); err != nil || len(m) != 0 {
		t.Errorf("Topics.FindByTags = %+v, %v; want none (a user holds the tag)", m, err)
	}
	log.take()
	err = s.Auth.DeleteAllByUser(c, "alice")
	step("Auth.DeleteAllByUser", err)
	want := []string{
		"Subs.ListByUser: GSI1 #pk = :pk AND #sk BETWEEN :a AND :b :a=SUBUPD# :b=SUBUPD$ :pk=USER#alice",
		"Subs.ListByUser since: GSI1 #pk = :pk AND #sk BETWEEN :a AND :b :a=SUBUPD#2026-11-22T08:00:00.123456789Z :b=SUBUPD$ :pk=USER#alice",
		"Creds.List:  #pk = :pk AND begins_with(#sk, :a) :a=CRED# :pk=USER#alice",
		"Creds.List email:  #pk = :pk AND begins_with(#sk, :a) :a=CRED#email# :pk=USER#alice",
		"Creds.Unvalidated: GSI2 #pk = :pk AND #sk BETWEEN :a AND :b :a=CREDUNV# :b=CREDUNV#2026-11-22T08:00:00.123456789Z :pk=CREDUNV",
		"Auth.GetByScheme: GSI1 #pk = :pk AND begins_with(#sk, :a) :a=AUTH#basic# :pk=USER#alice",
		"Auth.GetByScheme escaped: GSI1 #pk = :pk AND begins_with(#sk, :a) :a=AUTH#a%23b%25c# :pk=USER#alice",
		"Messages.History:  #pk = :pk AND #sk BETWEEN :a AND :b :a=MSG#0000000002 :b=MSG#0000000002 :pk=TOPIC#grpA",
		"Messages.History all:  #pk = :pk AND #sk BETWEEN :a AND :b :a=MSG#0000000001 :b=MSG#9999999999 :pk=TOPIC#grpA",
		"Messages.Deletions:  #pk = :pk AND #sk BETWEEN :a AND :b :a=DEL#0000000002 :b=DEL#9999999999 :pk=TOPIC#grpA",
		"Topics.Load:  #pk = :pk AND #sk BETWEEN :a AND :b :a=MSG# :b=TOPIC :pk=TOPIC#grpA",
		"Auth.DeleteAllByUser: GSI1 #pk = :pk AND begins_with(#sk, :a) :a=AUTH# :pk=USER#alice",
	}
	for i := range tinode.DefaultIndexShards {
		want = append(want,
			fmt.Sprintf("Files.DeleteUnused before: GSI2 #pk = :pk AND #sk BETWEEN :a AND :b :a=FILEUNUSED# :b=FILEUNUSED#2026-11-22T08:00:00.123456789Z :pk=FILEUNUSED#%d", i),
			fmt.Sprintf("Files.DeleteUnused: GSI2 #pk = :pk AND begins_with(#sk, :a) :a=FILEUNUSED# :pk=FILEUNUSED#%d", i))
	}
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("key conditions (-want +got):\n%s", diff)
	}
}
