package podcastflow_test

import (
	"testing"

	"github.com/singletable/singletable/internal/keystest"
	"github.com/singletable/singletable/query/podcastflow"
)

// TestStoredKeysUnchanged pins the primary key, index keys, entity type,
// TTL and unique values every entity derives for a sample item (golden
// files in testdata, written before the closures became declarations):
// how an entity is declared may change, what it stores may not.
func TestStoredKeysUnchanged(t *testing.T) {
	t.Parallel()
	set := map[string]map[string]any{
		podcastflow.TypeBillingRecord: {"Date": "2024-01-02", "status": "overdue"},
		podcastflow.TypeUserProfile:   {"email": "Ann@Example.COM"},
	}
	keystest.Unchanged(t, podcastflow.Schema("pf"), set, podcastflow.New, func(o *podcastflow.Options) { o.IndexShards = 1 })
}
