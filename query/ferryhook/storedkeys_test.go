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
	set := map[string]map[string]any{"User": {"email": "Ann@Example.COM"}}
	// pin binds a store made with profile to tables of schema options so
	// and compares them with the golden files <golden>main, <golden>events.
	pin := func(golden string, profile []func(*ferryhook.Options), so ...table.SchemaOption) {
		t.Helper()
		main := table.New(client, ferryhook.MainSchema("fh-main", so...), key)
		events := table.New(client, ferryhook.EventsSchema("fh-events", so...), key)
		ferryhook.New(main, events, profile...)
		tabletest.StoredKeys(t, golden+"main", main, set)
		tabletest.StoredKeys(t, golden+"events", events, nil)
	}
	pin("stored_keys_", nil)
	pin("stored_keys_service_", []func(*ferryhook.Options){ferryhook.ServiceProfile()}, table.WithLowercaseKeys())
	// The scaled profile (issue 22) declares every entity with the same
	// keys: it adds its counter shards, and Ingest moves an event into one
	// of its source's partitions SRC#{sourceId}#{n}, the rest of the key
	// as derived (TestShardEventsWhileIngesting_FH7_FH8).
	pin("stored_keys_", []func(*ferryhook.Options){ferryhook.ScaledProfile()})
}
