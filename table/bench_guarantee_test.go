package table_test

// What the guarantees under faults cost (issue 9): each library write
// beside the raw aws-sdk-go-v2 request a careful hand-written service
// would send for the same job, in the same run (tabletest.Compare).
//
//	go test -run '^$' -bench 'Guarantee' -benchtime 2s ./table/

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

func BenchmarkGuarantee(b *testing.B) {
	tb := tabletest.NewTable(b, table.NewSchema("bench"))
	orders := table.NewEntity(tb, orderDef)
	client, name := tb.Client(), tb.Name()
	ctx := context.Background()
	var seq atomic.Int64
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	key := func(id string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"PK": s("CUST#c1"), "SK": s("ORDER#" + id)}
	}

	// Create: a conditional PutItem with the write token and the type,
	// version and TTL-aware condition, vs a raw conditional PutItem.
	b.Run("Create", func(b *testing.B) {
		tabletest.Compare(b, 50, func() error {
			o := sampleOrder(int(seq.Add(1)))
			return orders.Create(ctx, &o)
		}, func() error {
			o := sampleOrder(int(seq.Add(1)))
			item := map[string]types.AttributeValue{"PK": s("CUST#c1"), "SK": s("ORDER#" + o.ID), "id": s(o.ID), "customer": s(o.Customer),
				"email": s(o.Email), "status": s(o.Status), "total": &types.AttributeValueMemberN{Value: strconv.FormatInt(o.Total, 10)},
				"currency": s(o.Currency), "notes": s(o.Notes), "createdAt": s(o.CreatedAt.Format("2006-01-02T15:04:05Z07:00"))}
			_, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: item,
				ConditionExpression: aws.String("attribute_not_exists(PK)")})
			return err
		})
	})

	fixed := sampleOrder(0)
	if err := orders.Create(ctx, &fixed); err != nil {
		b.Fatal(err)
	}
	// Add: an UpdateItem ADD with the token set, type, liveness and
	// overflow conditions, vs a raw ADD conditioned on existence.
	b.Run("Add", func(b *testing.B) {
		k := table.Key{PK: "CUST#c1", SK: "ORDER#" + fixed.ID}
		tabletest.Compare(b, 50, func() error {
			_, err := orders.Add(ctx, k, "items", 1)
			return err
		}, func() error {
			_, err := client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(name), Key: key(fixed.ID),
				UpdateExpression: aws.String("ADD #n :one"), ConditionExpression: aws.String("attribute_exists(PK)"),
				ExpressionAttributeNames:  map[string]string{"#n": "items"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
				ReturnValues:              types.ReturnValueUpdatedNew})
			return err
		})
	})
	// Update: a consistent GetItem and an UpdateItem of the difference
	// conditioned on the values read and the version, vs a raw consistent
	// GetItem and a SET of the field conditioned on its old value.
	b.Run("Update", func(b *testing.B) {
		k := table.Key{PK: "CUST#c1", SK: "ORDER#" + fixed.ID}
		n := 0
		tabletest.Compare(b, 50, func() error {
			n++
			_, err := orders.Update(ctx, k, func(o *order) error { o.Notes = fmt.Sprint("lib ", n); return nil })
			return err
		}, func() error {
			n++
			out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(name), Key: key(fixed.ID), ConsistentRead: aws.Bool(true)})
			if err != nil {
				return err
			}
			_, err = client.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(name), Key: key(fixed.ID),
				UpdateExpression: aws.String("SET notes = :new"), ConditionExpression: aws.String("notes = :old"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":new": s(fmt.Sprint("raw ", n)), ":old": out.Item["notes"]}})
			return err
		})
	})
}
