// Package legacytest rehearses a migration (package migrate) in tests: it
// creates a stack of legacy tables on DynamoDB Local and fills them, the
// prologue the migration tests of migrate, query/listbackup and cmd/singletable
// share.
package legacytest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/migrate"
)

// Stack creates the tables of layout m under a fresh stack name made of
// prefix, and returns the name; the tables, and those of the suffixes in
// also (tables the test adds), are deleted when tb ends.
func Stack(ctx context.Context, tb testing.TB, client *dynamodb.Client, prefix string, m *migrate.Manifest, also ...string) string {
	tb.Helper()
	stack := fmt.Sprintf("%s%d", prefix, time.Now().UnixNano()%1_000_000)
	if err := migrate.CreateLayout(ctx, client, stack, m); err != nil {
		tb.Fatal(err)
	}
	for _, lt := range m.Tables {
		also = append(also, lt.Suffix)
	}
	tb.Cleanup(func() {
		for _, suffix := range also {
			client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(stack + "-" + suffix)})
		}
	})
	return stack
}

// Put writes the items of each table (by its suffix) into the legacy
// tables of stack with BatchWriteItem, unprocessed items sent again, and
// returns how many it wrote.
func Put[D ~map[string][]map[string]types.AttributeValue](tb testing.TB, client *dynamodb.Client, stack string, d D) int {
	tb.Helper()
	n := 0
	for suffix, items := range d {
		for i := 0; i < len(items); i += 25 {
			var reqs []types.WriteRequest
			for _, it := range items[i:min(i+25, len(items))] {
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
			}
			in := map[string][]types.WriteRequest{stack + "-" + suffix: reqs}
			for len(in) > 0 {
				out, err := client.BatchWriteItem(context.Background(), &dynamodb.BatchWriteItemInput{RequestItems: in})
				if err != nil {
					tb.Fatalf("legacy %s: %v", suffix, err)
				}
				in = out.UnprocessedItems
			}
		}
		n += len(items)
	}
	return n
}
