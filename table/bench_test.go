package table_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// order is an entity-sized struct (15 attributes) for codec and
// round-trip benchmarks; both tag styles so each codec reads its own.
type order struct {
	PK        string    `dynamo:"PK" dynamodbav:"PK"`
	SK        string    `dynamo:"SK" dynamodbav:"SK"`
	ID        string    `dynamo:"id" dynamodbav:"id"`
	Customer  string    `dynamo:"customer" dynamodbav:"customer"`
	Email     string    `dynamo:"email" dynamodbav:"email"`
	Status    string    `dynamo:"status" dynamodbav:"status"`
	Total     int64     `dynamo:"total" dynamodbav:"total"`
	Currency  string    `dynamo:"currency" dynamodbav:"currency"`
	Items     int       `dynamo:"items" dynamodbav:"items"`
	Notes     string    `dynamo:"notes" dynamodbav:"notes"`
	Tags      []string  `dynamo:"tags" dynamodbav:"tags"`
	Paid      bool      `dynamo:"paid" dynamodbav:"paid"`
	Weight    float64   `dynamo:"weight" dynamodbav:"weight"`
	CreatedAt time.Time `dynamo:"createdAt" dynamodbav:"createdAt"`
	UpdatedAt time.Time `dynamo:"updatedAt" dynamodbav:"updatedAt"`
}

var orderDef = table.Def[order]{
	Type: "Order",
	Key: func(o *order) (table.Key, error) {
		return table.Key{PK: "CUST#" + o.Customer, SK: "ORDER#" + o.ID}, nil
	},
}

func sampleOrder(i int) order {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return order{ID: fmt.Sprintf("o%05d", i), Customer: "c1", Email: "c1@example.com", Status: "paid",
		Total: 12999, Currency: "EUR", Items: 3, Notes: "leave at the door", Tags: []string{"gift", "express"},
		Paid: true, Weight: 1.25, CreatedAt: now, UpdatedAt: now}
}

func BenchmarkCodec(b *testing.B) {
	o := sampleOrder(1)
	o.PK, o.SK = "CUST#c1", "ORDER#o00001"
	item, _ := attributevalue.MarshalMap(o)
	b.Run("encode/guregu", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := dynamo.MarshalItem(o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode/attributevalue", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := attributevalue.MarshalMap(o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/guregu", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var out order
			if err := dynamo.UnmarshalItem(item, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode/attributevalue", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var out order
			if err := attributevalue.UnmarshalMap(item, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRoundTrip compares the library with the raw aws-sdk-go-v2 calls
// a careful engineer would write, on the same DynamoDB Local in one run.
func BenchmarkRoundTrip(b *testing.B) {
	ctx := context.Background()
	tb := tabletest.NewTable(b, table.NewSchema("bench"))
	orders := table.NewEntity(tb, orderDef)
	client := tb.Client()
	name := aws.String(tb.Name())
	for i := range 100 {
		o := sampleOrder(i)
		if err := orders.Put(ctx, &o); err != nil {
			b.Fatal(err)
		}
	}
	key := table.Key{PK: "CUST#c1", SK: "ORDER#00001"}
	key.SK = "ORDER#o00001"
	b.Run("Put/library", func(b *testing.B) {
		o := sampleOrder(1)
		for b.Loop() {
			if err := orders.Put(ctx, &o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Put/raw", func(b *testing.B) {
		o := sampleOrder(1)
		o.PK, o.SK = key.PK, key.SK
		for b.Loop() {
			item, err := attributevalue.MarshalMap(o)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: name, Item: item}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Get/library", func(b *testing.B) {
		for b.Loop() {
			if _, err := orders.Get(ctx, key); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Get/raw", func(b *testing.B) {
		k := map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: key.PK}, "SK": &types.AttributeValueMemberS{Value: key.SK}}
		for b.Loop() {
			out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: name, Key: k})
			if err != nil || out.Item == nil {
				b.Fatal(err)
			}
			var o order
			if err := attributevalue.UnmarshalMap(out.Item, &o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Query100/library", func(b *testing.B) {
		for b.Loop() {
			p, err := orders.Query(ctx, table.Query{PK: "CUST#c1", SK: table.SKBeginsWith("ORDER#"), Limit: 100})
			if err != nil || len(p.Items) != 100 {
				b.Fatal(len(p.Items), err)
			}
		}
	})
	b.Run("Query100/raw", func(b *testing.B) {
		for b.Loop() {
			out, err := client.Query(ctx, &dynamodb.QueryInput{
				TableName:                 name,
				KeyConditionExpression:    aws.String("PK = :pk AND begins_with(SK, :sk)"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "CUST#c1"}, ":sk": &types.AttributeValueMemberS{Value: "ORDER#"}},
				Limit:                     aws.Int32(100),
			})
			if err != nil || len(out.Items) != 100 {
				b.Fatal(err)
			}
			var os []order
			if err := attributevalue.UnmarshalListOfMaps(out.Items, &os); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDecodeEntity measures the library's own decode path (the one
// Get and Query use) on the same item as BenchmarkCodec.
func BenchmarkDecodeEntity(b *testing.B) {
	o := sampleOrder(1)
	o.PK, o.SK = "CUST#c1", "ORDER#o00001"
	item, _ := attributevalue.MarshalMap(o)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := table.DecodeForBench[order](item); err != nil {
			b.Fatal(err)
		}
	}
}
