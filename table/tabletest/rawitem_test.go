package tabletest_test

import (
	"context"
	"reflect"
	"strings"
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

// Unchanged passes while the attributes it read stay as stored (a skipped
// one may change, a new one may appear) and reports each step that
// changed or removed one.
func TestUnchanged(t *testing.T) {
	t.Parallel()
	tbl := tabletest.NewTable(t, table.NewSchema("raw"))
	k := table.Key{PK: "A#1", SK: "B"}
	put := func(attrs map[string]string) {
		item := table.Item{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}}
		for n, v := range attrs {
			item[n] = &types.AttributeValueMemberS{Value: v}
		}
		if _, err := tbl.Client().PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(tbl.Name()), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	put(map[string]string{"kept": "1", "moves": "1", "gone": "1"})
	r := &recorder{}
	check := tabletest.Unchanged(r, tbl, k, "moves")
	put(map[string]string{"kept": "1", "moves": "2", "gone": "1", "added": "1"})
	check("skipped and added")
	if len(r.errors) != 0 {
		t.Fatalf("a skipped attribute changed, one added: %q, want no error", r.errors)
	}
	put(map[string]string{"kept": "2", "moves": "2"})
	check("changed and removed")
	if len(r.errors) != 1 || !strings.HasPrefix(r.errors[0], "changed and removed: stored attributes changed") ||
		!strings.Contains(r.errors[0], "kept") || !strings.Contains(r.errors[0], "gone") {
		t.Fatalf("errors %q, want one naming kept and gone", r.errors)
	}
}
