package podcastflow_test

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

// PF-7, issue 26 §4: PodcastFlow's own scripts rewrite the platform
// settings without ever touching the version attribute. One landing
// between an admin's read and ReplaceSettings used to be overwritten (its
// requestsPerMinute lost); now the replace fails with ErrConflict and the
// script's value stays, whether the script sent a whole PutItem or an
// UpdateItem of the one attribute. A fresh read then replaces cleanly and
// keeps it.
func TestReplaceSettingsKeepsScriptWrites_PF7(t *testing.T) {
	t.Parallel()
	key := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "PLATFORM"}, "SK": &types.AttributeValueMemberS{Value: "SETTINGS"}}
	scripts := map[string]func(t *testing.T, s *dynamodb.Client, name string){
		"PutItem": func(t *testing.T, c *dynamodb.Client, name string) {
			out, err := c.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(name), Key: key, ConsistentRead: aws.Bool(true)})
			if err != nil {
				t.Fatal(err)
			}
			item := map[string]types.AttributeValue{} // the script's own item: the document's attributes only
			for a, v := range out.Item {
				if a != "_v" && a != "_type" && a != "_wt" {
					item[a] = v
				}
			}
			item["requestsPerMinute"] = &types.AttributeValueMemberN{Value: "1200"}
			item["updatedAt"] = &types.AttributeValueMemberS{Value: "2026-11-25T10:00:00.000Z"}
			if _, err := c.PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(name), Item: item}); err != nil {
				t.Fatal(err)
			}
		},
		"UpdateItem": func(t *testing.T, c *dynamodb.Client, name string) {
			if _, err := c.UpdateItem(t.Context(), &dynamodb.UpdateItemInput{TableName: aws.String(name), Key: key,
				UpdateExpression:          aws.String("SET requestsPerMinute = :r, updatedAt = :u"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":r": &types.AttributeValueMemberN{Value: "1200"}, ":u": &types.AttributeValueMemberS{Value: "2026-11-25T10:00:00.000Z"}},
			}); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, script := range scripts {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			ctx := t.Context()
			if err := s.Platform.InitSettings(ctx, platformSettings()); err != nil {
				t.Fatal(err)
			}
			admin, err := s.Platform.Settings.Get(ctx, pf.PlatformSettings{})
			if err != nil {
				t.Fatal(err)
			}
			script(t, s.Table().Client(), s.Table().Name()) // between the admin's read and write
			admin.MaintenanceMode = true
			if err := s.Platform.ReplaceSettings(ctx, &admin); !errors.Is(err, table.ErrConflict) {
				t.Fatalf("ReplaceSettings after the script's %s = %v, want ErrConflict", name, err)
			}
			got, err := s.Platform.Settings.Get(ctx, pf.PlatformSettings{})
			if err != nil {
				t.Fatal(err)
			}
			if got.RequestsPerMinute != 1200 || got.MaintenanceMode {
				t.Fatalf("after the refused replace: requestsPerMinute %d maintenance %v; want the script's 1200 and false", got.RequestsPerMinute, got.MaintenanceMode)
			}
			got.MaintenanceMode = true // the admin re-reads and retries
			if err := s.Platform.ReplaceSettings(ctx, &got); err != nil {
				t.Fatal(err)
			}
			final, err := s.Platform.Settings.Get(ctx, pf.PlatformSettings{})
			if err != nil {
				t.Fatal(err)
			}
			if final.RequestsPerMinute != 1200 || !final.MaintenanceMode || final.Version != got.Version {
				t.Fatalf("after the retry: %+v", final)
			}
			// UpdateSettings, the read-modify-write form, merges by itself.
			up, err := s.Platform.UpdateSettings(ctx, func(p *pf.PlatformSettings) error {
				p.RequireMFA = true
				return nil
			})
			if err != nil || up.RequestsPerMinute != 1200 || !up.RequireMFA {
				t.Fatalf("UpdateSettings: %+v, %v", up, err)
			}
		})
	}
}
