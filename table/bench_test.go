package table_test

import (
	"context"
	"fmt"
	"strings"
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
	Keys: table.Template{PK: "CUST#{customer}", SK: "ORDER#{id}"},
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

var roundTripRuns int

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
	key := table.Key{PK: "CUST#c1", SK: "ORDER#o00001"}
	lo := sampleOrder(1)
	ro := sampleOrder(1)
	ro.PK, ro.SK = key.PK, key.SK
	rawKey := map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: key.PK}, "SK": &types.AttributeValueMemberS{Value: key.SK}}
	ops := []struct {
		name string
		run  func() error
	}{
		{"Put/library", func() error { return orders.Put(ctx, &lo) }},
		{"Put/raw", func() error {
			item, err := attributevalue.MarshalMap(ro)
			if err != nil {
				return err
			}
			_, err = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: name, Item: item})
			return err
		}},
		{"Get/library", func() error { _, err := orders.Get(ctx, key); return err }},
		{"Get/raw", func() error {
			out, err := client.GetItem(ctx, &dynamodb.GetItemInput{TableName: name, Key: rawKey})
			if err != nil || out.Item == nil {
				return fmt.Errorf("get: %v", err)
			}
			var o order
			return attributevalue.UnmarshalMap(out.Item, &o)
		}},
		{"Query100/library", func() error {
			p, err := orders.List(ctx, table.Query{PK: "CUST#c1", SK: table.SKBeginsWith("ORDER#"), Limit: 100})
			if err == nil && len(p.Items) != 100 {
				err = fmt.Errorf("%d items", len(p.Items))
			}
			return err
		}},
		{"Query100/raw", func() error {
			out, err := client.Query(ctx, &dynamodb.QueryInput{
				TableName:                 name,
				KeyConditionExpression:    aws.String("PK = :pk AND begins_with(SK, :sk)"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: "CUST#c1"}, ":sk": &types.AttributeValueMemberS{Value: "ORDER#"}},
				Limit:                     aws.Int32(100),
			})
			if err != nil || len(out.Items) != 100 {
				return fmt.Errorf("query: %v", err)
			}
			var os []order
			return attributevalue.UnmarshalListOfMaps(out.Items, &os)
		}},
		{"BatchWrite1000/library", func() error {
			items := make([]*order, 1000)
			for i := range items {
				o := sampleOrder(1000 + i)
				o.Customer = "bw"
				items[i] = &o
			}
			return orders.BatchPut(ctx, items)
		}},
		{"BatchWrite1000/raw", func() error {
			reqs := make([]types.WriteRequest, 0, 1000)
			for i := range 1000 {
				o := sampleOrder(1000 + i)
				o.PK, o.SK = "CUST#bwraw", fmt.Sprintf("ORDER#o%05d", 1000+i)
				item, err := attributevalue.MarshalMap(o)
				if err != nil {
					return err
				}
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item}})
			}
			for len(reqs) > 0 {
				chunk := reqs[:min(25, len(reqs))]
				reqs = reqs[len(chunk):]
				for len(chunk) > 0 {
					out, err := client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{*name: chunk}})
					if err != nil {
						return err
					}
					chunk = out.UnprocessedItems[*name]
				}
			}
			return nil
		}},
	}
	// Warm DynamoDB Local's JIT on every path first, so the first
	// sub-benchmark does not pay for it.
	for i := range 200 {
		for _, op := range ops {
			if strings.HasPrefix(op.name, "BatchWrite") && i >= 3 {
				continue // 40 requests each: a few rounds warm it
			}
			if err := op.run(); err != nil {
				b.Fatal(err)
			}
		}
	}
	// Alternate which of each pair runs first from one -count round to
	// the next, so the server's continuing warm-up favors neither side.
	roundTripRuns++
	if roundTripRuns%2 == 0 {
		for i := 0; i+1 < len(ops); i += 2 {
			ops[i], ops[i+1] = ops[i+1], ops[i]
		}
	}
	for _, op := range ops {
		b.Run(op.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := op.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// Paired: each iteration runs the library call and the raw call back to
	// back (alternating which goes first), so both see the same server
	// state; reports each side's time and raw/library, the library's
	// throughput relative to raw.
	for i := 0; i+1 < len(ops); i += 2 {
		lib, raw := ops[i], ops[i+1]
		if strings.HasSuffix(lib.name, "/raw") {
			lib, raw = raw, lib
		}
		b.Run("Paired/"+strings.TrimSuffix(lib.name, "/library"), func(b *testing.B) {
			tabletest.Paired(b, lib.run, raw.run)
		})
	}
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
