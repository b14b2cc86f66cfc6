package ferryhook_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/query/ferryhook"
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
	key := func(o *table.Options) { o.CursorKey = []byte("stored keys") }
	main := table.New(client, ferryhook.MainSchema("fh-main"), key)
	events := table.New(client, ferryhook.EventsSchema("fh-events"), key)
	ferryhook.New(main, events)
	set := map[string]map[string]any{"User": {"email": "Ann@Example.COM"}}
	tabletest.StoredKeys(t, "stored_keys_main", main, set)
	tabletest.StoredKeys(t, "stored_keys_events", events, nil)
	svcMain := table.New(client, ferryhook.MainSchema("fh-main", table.WithLowercaseKeys()), key)
	svcEvents := table.New(client, ferryhook.EventsSchema("fh-events", table.WithLowercaseKeys()), key)
	ferryhook.New(svcMain, svcEvents, ferryhook.ServiceProfile())
	tabletest.StoredKeys(t, "stored_keys_service_main", svcMain, set)
	tabletest.StoredKeys(t, "stored_keys_service_events", svcEvents, nil)
	// The scaled profile (issue 22) stores every entity under the same
	// keys: its shards are the only items it adds.
	scMain := table.New(client, ferryhook.MainSchema("fh-main"), key)
	scEvents := table.New(client, ferryhook.EventsSchema("fh-events"), key)
	ferryhook.New(scMain, scEvents, ferryhook.ScaledProfile())
	tabletest.StoredKeys(t, "stored_keys_main", scMain, set)
	tabletest.StoredKeys(t, "stored_keys_events", scEvents, nil)
}
