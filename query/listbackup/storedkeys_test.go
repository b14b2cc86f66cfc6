package listbackup_test

import (
	"testing"

	"github.com/singletable/singletable/internal/keystest"
	"github.com/singletable/singletable/query/listbackup"
)

// TestStoredKeysUnchanged pins the primary key, index keys, entity type,
// TTL and unique values every entity derives for a sample item (golden
// files in testdata, written before the closures became declarations):
// how an entity is declared may change, what it stores may not.
func TestStoredKeysUnchanged(t *testing.T) {
	t.Parallel()
	set := map[string]map[string]any{
		listbackup.TypeUser:    {"email": "Ann@Example.COM", "username": "Ann"},
		listbackup.TypeAccount: {"accountPath": "/root1/child1"},
	}
	keystest.Unchanged(t, listbackup.Schema("lb"), set, listbackup.New, func(o *listbackup.Options) { o.IndexShards = 1 })
}
