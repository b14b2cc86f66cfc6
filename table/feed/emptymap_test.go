package feed_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// An item holding empty maps (at the top, inside a map, inside a list),
// an empty list and strings that read "{}" comes back from the stream
// exactly as the table stores it. DynamoDB Local writes an empty map in a
// stream record as {}, which the SDK's streams client alone reads as the
// attribute before it (or nil in a list); StreamsClient repairs it.
func TestStreamEmptyMaps(t *testing.T) {
	t.Parallel()
	tbl := tabletest.NewTable(t, table.NewSchema("feed", table.WithStream(types.StreamViewTypeNewAndOldImages)))
	ctx := context.Background()
	empty := func() *types.AttributeValueMemberM { return &types.AttributeValueMemberM{Value: table.Item{}} }
	s := func(v string) *types.AttributeValueMemberS { return &types.AttributeValueMemberS{Value: v} }
	item := table.Item{
		"PK": s("X#1"), "SK": s("X"),
		"a":      &types.AttributeValueMemberM{Value: table.Item{"fn": s("ada")}}, // the attribute before the empty map
		"b":      empty(),
		"braces": s("{}"),
		"list":   &types.AttributeValueMemberL{Value: []types.AttributeValue{empty(), &types.AttributeValueMemberL{Value: []types.AttributeValue{}}, s("{}")}},
		"nested": &types.AttributeValueMemberM{Value: table.Item{"inner": empty(), "x": &types.AttributeValueMemberN{Value: "1.50"}}},
		"z":      empty(),
	}
	put := func(it table.Item) {
		t.Helper()
		if _, err := tbl.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tbl.Name()), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	put(item)
	second := table.Item{"PK": s("X#1"), "SK": s("X"), "b": &types.AttributeValueMemberM{Value: table.Item{"k": s("v")}}, "c": empty()}
	put(second)
	stored, err := tbl.Client().GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(tbl.Name()), Key: table.Item{"PK": s("X#1"), "SK": s("X")}, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	recs := readAll(t, tbl)
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	all := cmp.Exporter(func(reflect.Type) bool { return true })
	if d := cmp.Diff(item, recs[0].New, all); d != "" {
		t.Errorf("INSERT image (-stored +stream):\n%s", d)
	}
	if d := cmp.Diff(item, recs[1].Old, all); d != "" {
		t.Errorf("MODIFY old image (-stored +stream):\n%s", d)
	}
	if d := cmp.Diff(stored.Item, recs[1].New, all); d != "" {
		t.Errorf("MODIFY new image (-stored +stream):\n%s", d)
	}
}
