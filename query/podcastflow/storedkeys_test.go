package podcastflow_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestStoredKeysUnchanged pins the primary key, index keys, entity type,
// TTL and unique values every entity derives for a sample item (golden
// files in testdata, written before the closures became declarations):
// how an entity is declared may change, what it stores may not.
func TestStoredKeysUnchanged(t *testing.T) {
	t.Parallel()
	client := dynamodb.New(dynamodb.Options{Region: "us-east-1"}) // nothing is sent
	set := map[string]map[string]any{
		podcastflow.TypeBillingRecord: {"Date": "2024-01-02", "status": "overdue"},
		podcastflow.TypeUserProfile:   {"email": "Ann@Example.COM"},
	}
	key := func(o *table.Options) { o.CursorKey = []byte("stored keys") }
	tbl := table.New(client, podcastflow.Schema("pf"), key)
	podcastflow.New(tbl)
	tabletest.StoredKeys(t, "stored_keys", tbl, set)
}
