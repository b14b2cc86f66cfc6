package tinode_test

import (
	"testing"

	"github.com/singletable/singletable/internal/keystest"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestStoredKeysUnchanged pins the primary key, index keys, entity type,
// TTL and unique values every entity derives for a sample item (golden
// files in testdata, written before the closures became declarations):
// how an entity is declared may change, what it stores may not.
func TestStoredKeysUnchanged(t *testing.T) {
	t.Parallel()
	set := map[string]map[string]any{
		tinode.TypeAuth:       {"unique": "basic:al#ice", "userid": "usr#1"},
		tinode.TypeCredential: {"Done": true, "Method": "email", "Value": "a#b:c@x.com"},
		tinode.TypeUser:       {"Tags": []string{"travel#x", "email:a@x.com"}},
		tinode.TypeTopic:      {"Tags": []string{"grp#tag"}, "Owner": "usr#2"},
		tinode.TypeMessage:    {"ExpireTime": 1704164645},
	}
	keystest.Unchanged(t, table.NewSchema("tinode"), set, tinode.New, func(o *tinode.Options) { o.IndexShards = 1 })
	shared := keystest.Table(table.NewSchema("tinode"))
	tinode.New(shared, func(o *tinode.Options) { o.SharedTags = true; o.UniqueTagNamespaces = []string{"alias"} })
	tabletest.StoredKeys(t, "stored_keys_shared_tags", shared, map[string]map[string]any{
		tinode.TypeUser:  {"Tags": []string{"alias:bob", "travel"}},
		tinode.TypeTopic: {"Tags": []string{"alias:grp", "travel"}},
		tinode.TypeAuth:  {"unique": "basic:alice"},
	})
}
