package tabletest

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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
