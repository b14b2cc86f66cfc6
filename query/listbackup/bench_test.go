package listbackup_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// rawActivity is the activity as a hand-written aws-sdk-go-v2 layer would
// store it, with the same keys, indexes and TTL.
type rawActivity struct {
	PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK, GSI3PK, GSI3SK string
	Type                                                   string         `dynamodbav:"_type"`
	Version                                                int64          `dynamodbav:"_v"`
	TTL                                                    int64          `dynamodbav:"ttl"`
	AccountID                                              string         `dynamodbav:"accountId"`
	EventID                                                string         `dynamodbav:"eventId"`
	UserID                                                 string         `dynamodbav:"userId,omitempty"`
	EventType                                              string         `dynamodbav:"eventType"`
	ResourceType                                           string         `dynamodbav:"resourceType"`
	Resource                                               string         `dynamodbav:"resource"`
	ResourceID                                             string         `dynamodbav:"resourceId,omitempty"`
	Action                                                 string         `dynamodbav:"action"`
	Details                                                map[string]any `dynamodbav:"details,omitempty"`
	Timestamp                                              int64          `dynamodbav:"timestamp"`
	CreatedAt                                              time.Time      `dynamodbav:"createdAt"`
}

// checkPage decodes a hand-written list's page and checks it is full.
func checkPage(items []map[string]types.AttributeValue) error {
	var as []rawActivity
	if err := attributevalue.UnmarshalListOfMaps(items, &as); err != nil {
		return err
	}
	if len(as) != 50 || !strings.HasPrefix(as[0].EventID, "e") {
		return fmt.Errorf("%d items", len(as))
	}
	return nil
}

// BenchmarkActivities pairs ListBackup's activity feed (LB-18): append an
// activity (one conditional PutItem with three GSI keys and a TTL) and
// list the newest 50 of an account (one Query), against the same requests
// written by hand with aws-sdk-go-v2.
func BenchmarkActivities(b *testing.B) {
	tb := tabletest.NewTable(b, listbackup.Schema("bench"))
	s := listbackup.New(tb)
	ctx := context.Background()
	client, name := tb.Client(), aws.String(tb.Name())
	var n atomic.Int64
	base := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	libAppend := func() error {
		i := n.Add(1)
		return s.Activities.Record(ctx, &lb.Activity{AccountID: "lib", EventID: lb.EventID(fmt.Sprint("e", i)), UserID: "u1",
			EventType: "source.created", ResourceType: lb.ResSource, Action: lb.ActionCreate, ResourceID: "s1",
			CreatedAt: base.Add(time.Duration(i) * time.Millisecond), Details: lb.ActivityDetails{After: lb.Object{"name": "x"}}})
	}
	// rawItem is the next activity as a hand-written layer would put it.
	rawItem := func() (map[string]types.AttributeValue, error) {
		i := n.Add(1)
		at := base.Add(time.Duration(i) * time.Millisecond)
		id := fmt.Sprint("e", i)
		k := listbackup.Key(lb.Activity{AccountID: "raw", CreatedAt: at, EventID: lb.EventID(id)})
		if k.Err() != nil {
			return nil, k.Err()
		}
		sk := keys.MustTimestamp(at) + "#" + id
		return attributevalue.MarshalMap(rawActivity{PK: k.PK, SK: k.SK, GSI1PK: "ACTUSER#u1", GSI1SK: sk, GSI2PK: "ACTRES#raw#source", GSI2SK: sk,
			GSI3PK: "ACTEVT#raw#source.created", GSI3SK: sk, Type: listbackup.TypeActivity, Version: 1,
			TTL: at.Add(lb.ActivityRetention).Unix(), AccountID: "raw", EventID: id, UserID: "u1", EventType: "source.created",
			ResourceType: "source", Resource: "source", ResourceID: "s1", Action: "create",
			Details: map[string]any{"after": map[string]any{"name": "x"}}, Timestamp: at.Unix(), CreatedAt: at})
	}
	rawAppend := func() error {
		item, err := rawItem()
		if err != nil {
			return err
		}
		_, err = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: name, Item: item,
			ConditionExpression: aws.String("attribute_not_exists(PK)")})
		return err
	}
	for range 300 { // both feeds hold more than a page, and the JIT is warm
		if err := libAppend(); err != nil {
			b.Fatal(err)
		}
		if err := rawAppend(); err != nil {
			b.Fatal(err)
		}
	}
	libList := func() error {
		p, err := s.Activities.ByAccount.Between(ctx, lb.Activity{AccountID: "lib"}, lb.Activity{AccountID: "lib"}, table.Limit(50))
		if err == nil && len(p.Items) != 50 {
			err = fmt.Errorf("%d items", len(p.Items))
		}
		return err
	}
	rawList := func() error {
		pk, _ := lb.ActivityKeys.Partition(map[string]string{"accountId": "raw"})
		out, err := client.Query(ctx, &dynamodb.QueryInput{TableName: name,
			KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :sk)"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":pk": &types.AttributeValueMemberS{Value: string(pk)}, ":sk": &types.AttributeValueMemberS{Value: "EVT#"}},
			ScanIndexForward: aws.Bool(false), Limit: aws.Int32(50)})
		if err != nil {
			return err
		}
		return checkPage(out.Items)
	}
	// The same paths written by hand with the library's guarantees: the
	// create also replaces an expired, not yet deleted item and carries a
	// write token (a lost response is resolved by reading it back); the
	// list leaves out items past their TTL. The gap between the plain and
	// the "same" pairs is those guarantees' cost on DynamoDB Local.
	var tok atomic.Int64
	rawAppendSame := func() error {
		item, err := rawItem()
		if err != nil {
			return err
		}
		item["_wt"] = &types.AttributeValueMemberSS{Value: []string{fmt.Sprintf("raw.%016x", tok.Add(1))}}
		_, err = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: name, Item: item,
			ConditionExpression:      aws.String("attribute_not_exists(#pk)"), // an expired item in the way: sent again on "... OR #ttl BETWEEN :tiny AND :now", as the library does
			ExpressionAttributeNames: map[string]string{"#pk": "PK"}})
		return err
	}
	rawListSame := func() error {
		pk, _ := lb.ActivityKeys.Partition(map[string]string{"accountId": "raw"})
		out, err := client.Query(ctx, &dynamodb.QueryInput{TableName: name,
			KeyConditionExpression:   aws.String("PK = :pk AND begins_with(SK, :sk)"),
			FilterExpression:         aws.String("(attribute_not_exists(#ttl) OR #ttl > :now OR #ttl <= :zero)"),
			ExpressionAttributeNames: map[string]string{"#ttl": "ttl"},
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":pk": &types.AttributeValueMemberS{Value: string(pk)}, ":sk": &types.AttributeValueMemberS{Value: "EVT#"},
				":now": &types.AttributeValueMemberN{Value: fmt.Sprint(time.Now().Unix())}, ":zero": &types.AttributeValueMemberN{Value: "0"}},
			ScanIndexForward: aws.Bool(false), Limit: aws.Int32(50)})
		if err != nil {
			return err
		}
		return checkPage(out.Items)
	}
	b.Run("append/paired", func(b *testing.B) { tabletest.Paired(b, libAppend, rawAppend) })
	b.Run("list50/paired", func(b *testing.B) { tabletest.Paired(b, libList, rawList) })
	b.Run("append-same/paired", func(b *testing.B) { tabletest.Paired(b, libAppend, rawAppendSame) })
	b.Run("list50-same/paired", func(b *testing.B) { tabletest.Paired(b, libList, rawListSame) })
}
