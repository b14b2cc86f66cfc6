package migrate

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// CreateLayout creates the tables of layout m for stack (on-demand), with
// the keys and indexes the manifest gives, and waits until they are
// active: a rehearsal of a migration. TTL is left disabled, so an item a
// rehearsal writes already expired stays for the migration to count.
func CreateLayout(ctx context.Context, client *dynamodb.Client, stack string, m *Manifest) error {
	for _, lt := range m.Tables {
		numeric := func(a string) bool {
			if slices.Contains(lt.Numeric, a) {
				return true
			}
			for _, ix := range lt.Indexes {
				if slices.Contains(ix.Numeric, a) {
					return true
				}
			}
			return false
		}
		attrs := map[string]bool{lt.PK: true}
		keySchema := []types.KeySchemaElement{{AttributeName: aws.String(lt.PK), KeyType: types.KeyTypeHash}}
		if lt.SK != "" {
			attrs[lt.SK] = true
			keySchema = append(keySchema, types.KeySchemaElement{AttributeName: aws.String(lt.SK), KeyType: types.KeyTypeRange})
		}
		var gsis []types.GlobalSecondaryIndex
		for _, ix := range lt.Indexes {
			ks := []types.KeySchemaElement{{AttributeName: aws.String(ix.PK), KeyType: types.KeyTypeHash}}
			attrs[ix.PK] = true
			if ix.SK != "" {
				ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(ix.SK), KeyType: types.KeyTypeRange})
				attrs[ix.SK] = true
			}
			gsis = append(gsis, types.GlobalSecondaryIndex{IndexName: aws.String(ix.Name), KeySchema: ks,
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}})
		}
		var defs []types.AttributeDefinition
		for _, a := range slices.Sorted(maps.Keys(attrs)) {
			typ := types.ScalarAttributeTypeS
			if numeric(a) {
				typ = types.ScalarAttributeTypeN
			}
			defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: typ})
		}
		name := stack + "-" + lt.Suffix
		if _, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), KeySchema: keySchema,
			AttributeDefinitions: defs, GlobalSecondaryIndexes: gsis, BillingMode: types.BillingModePayPerRequest}); err != nil {
			return fmt.Errorf("create legacy table %s: %w", name, err)
		}
		if err := dynamodb.NewTableExistsWaiter(client).Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, 2*time.Minute); err != nil {
			return fmt.Errorf("create legacy table %s: %w", name, err)
		}
	}
	return nil
}
