package tabletest_test

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

// RawItem reads an item under the schema's own key attribute names (here
// lower-case), byte for byte as stored, and nil where there is none.
func TestRawItem(t *testing.T) {
	t.Parallel()
	tbl := tabletest.NewTable(t, table.NewSchema("raw", table.WithLowercaseKeys()))
	item := table.Item{
		"pk":    &types.AttributeValueMemberS{Value: "A#1"},
		"sk":    &types.AttributeValueMemberS{Value: "B"},
		"n":     &types.AttributeValueMemberN{Value: "1.5"},
		"empty": &types.AttributeValueMemberNULL{Value: true},
	}
	if _, err := tbl.Client().PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(tbl.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	got := tabletest.RawItem(t, tbl, table.Key{PK: "A#1", SK: "B"})
	if d := cmp.Diff(item, got, cmp.Exporter(func(reflect.Type) bool { return true })); d != "" {
		t.Errorf("RawItem (-stored +got):\n%s", d)
	}
	if got := tabletest.RawItem(t, tbl, table.Key{PK: "A#1", SK: "C"}); got != nil {
		t.Errorf("RawItem of a missing key = %v, want nil", got)
	}
}
