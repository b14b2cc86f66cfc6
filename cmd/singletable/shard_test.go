package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Users written before the all-items index partitions were sharded (one
// shard: USERS, ROLE#{role}, STATUS#{status}) move to their shards with
// "singletable adopt" (PF-4, PF-13, PF-14); a second run changes nothing.
func TestAdoptMovesPodcastFlowUsersToTheirShards_PF4_PF13_PF14(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tb := tabletest.NewTable(t, podcastflow.Schema("pfshard"))
	old := podcastflow.New(tb, func(o *podcastflow.Options) { o.IndexShards = 1 })
	var ids []string
	for i := range 12 {
		id := fmt.Sprintf("u%02d", i)
		ids = append(ids, "USER#"+id)
		u := &pf.UserProfile{UserID: pf.UserID(id), Email: id + "@example.com", Name: "U " + id, Role: pf.RoleMaster}
		if err := old.Users.Create(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	out, err := runCmd(t, "adopt", "-app", "podcastflow", "-table", tb.Name(), "-endpoint", tabletest.Endpoint(t), "-quiet")
	if err != nil || !strings.Contains(out, "seen 12, changed 12, unchanged 0") {
		t.Fatalf("adopt: %v\n%s", err, out)
	}
	s := podcastflow.New(tb)
	var got []string
	for u, err := range s.Users.AllUsers.All(ctx, pf.UserProfile{}, table.Limit(5)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, "USER#"+string(u.UserID))
	}
	if diff := cmp.Diff(ids, got); diff != "" {
		t.Errorf("users after adoption (-want +got):\n%s", diff)
	}
	for _, id := range ids {
		raw, err := tabletest.Client(t).GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(tb.Name()),
			Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: id}, "SK": &types.AttributeValueMemberS{Value: pf.SKProfile}}})
		if err != nil {
			t.Fatal(err)
		}
		n := table.Shard(strings.TrimPrefix(id, "USER#"), podcastflow.DefaultIndexShards)
		for attr, base := range map[string]string{"GSI2PK": "ROLE#master", "GSI3PK": "STATUS#active", "GSI4PK": "USERS"} {
			want := table.ShardPK(base, n, podcastflow.DefaultIndexShards)
			if v, _ := raw.Item[attr].(*types.AttributeValueMemberS); v == nil || v.Value != want {
				t.Errorf("%s %s = %v, want %s", id, attr, raw.Item[attr], want)
			}
		}
	}
	out, err = runCmd(t, "adopt", "-app", "podcastflow", "-table", tb.Name(), "-endpoint", tabletest.Endpoint(t), "-quiet")
	if err != nil || !strings.Contains(out, "seen 12, changed 0, unchanged 12") {
		t.Fatalf("second adopt: %v\n%s", err, out)
	}
}
