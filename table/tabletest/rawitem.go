package tabletest

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
)

// RawItem returns the item stored under key k of tbl as DynamoDB holds
// it, read with a strongly consistent GetItem of the plain SDK (not
// through the library: no decoding, no TTL filter), or nil when there is
// none. An error fails the test.
func RawItem(t testing.TB, tbl *table.Table, k table.Key) table.Item {
	t.Helper()
	s := tbl.Schema()
	out, err := tbl.Client().GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName:      aws.String(tbl.Name()),
		ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{
			s.PK: &types.AttributeValueMemberS{Value: k.PK},
			s.SK: &types.AttributeValueMemberS{Value: k.SK},
		},
	})
	if err != nil {
		t.Fatalf("tabletest: raw GetItem %v: %v", k, err)
	}
	return out.Item
}

// Unchanged reads the item stored under key k of tbl ([RawItem]) and
// returns a check that each of its attributes, but those named in skip, is
// still stored byte for byte: call it after each write under test with
// the step's name. An attribute changed or removed is a test error with a
// diff (-before +after); one added is not checked.
func Unchanged(t testing.TB, tbl *table.Table, k table.Key, skip ...string) func(step string) {
	t.Helper()
	stored := RawItem(t, tbl, k)
	return func(step string) {
		t.Helper()
		got := RawItem(t, tbl, k)
		want, have := table.Item{}, table.Item{}
		for n, v := range stored {
			if !slices.Contains(skip, n) {
				want[n], have[n] = v, got[n]
			}
		}
		if d := cmp.Diff(want, have, cmp.Exporter(func(reflect.Type) bool { return true })); d != "" {
			t.Errorf("%s: stored attributes changed (-before +after):\n%s", step, d)
		}
	}
}
