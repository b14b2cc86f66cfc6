// Package keystest holds the stored-keys test the store packages of
// query/ share: what their entities store, pinned by golden files
// ([tabletest.StoredKeys]) with and without index shards.
package keystest

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Table returns a table of schema on a client that sends nothing, with a
// fixed cursor key: enough to derive the keys of sample items.
func Table(schema table.Schema) *table.Table {
	client := dynamodb.New(dynamodb.Options{Region: "us-east-1"}) // nothing is sent
	return table.New(client, schema, func(o *table.Options) { o.CursorKey = []byte("stored keys") })
}

// Unchanged pins what the entities of a store package store for the
// sample items set describes: newStore binds them on a [Table] of schema
// with the package's defaults (golden file stored_keys), then on another
// with the option unsharded (stored_keys_unsharded: one index shard is
// the layout before Options.IndexShards, byte for byte).
func Unchanged[S, O any](t *testing.T, schema table.Schema, set map[string]map[string]any, newStore func(*table.Table, ...func(*O)) S, unsharded func(*O)) {
	t.Helper()
	tbl := Table(schema)
	newStore(tbl)
	tabletest.StoredKeys(t, "stored_keys", tbl, set)
	one := Table(schema)
	newStore(one, unsharded)
	tabletest.StoredKeys(t, "stored_keys_unsharded", one, set)
}
