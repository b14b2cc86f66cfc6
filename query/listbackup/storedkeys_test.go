package listbackup_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/query/listbackup"
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
		listbackup.TypeUser:    {"email": "Ann@Example.COM", "username": "Ann"},
		listbackup.TypeAccount: {"accountPath": "/root1/child1"},
	}
	key := func(o *table.Options) { o.CursorKey = []byte("stored keys") }
	tbl := table.New(client, listbackup.Schema("lb"), key)
	listbackup.New(tbl)
	tabletest.StoredKeys(t, "stored_keys", tbl, set)
	// One shard is the layout before Options.IndexShards, byte for byte.
	unsharded := table.New(client, listbackup.Schema("lb"), key)
	listbackup.New(unsharded, func(o *listbackup.Options) { o.IndexShards = 1 })
	tabletest.StoredKeys(t, "stored_keys_unsharded", unsharded, set)
}
