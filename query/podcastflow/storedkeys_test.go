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
		// UserID is stored as userId since issue 42 (it was key-only);
		// the sample value stays the one the golden was written with.
		podcastflow.TypeUserPreferences: {"userId": "UserID1"},
	}
	keystest.Unchanged(t, podcastflow.Schema("pf"), set, podcastflow.New, func(o *podcastflow.Options) { o.IndexShards = 1 })
}
