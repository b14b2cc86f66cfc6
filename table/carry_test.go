package table_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

type apiKey struct {
	ID    string `dynamo:"id"`
	Hash  string `dynamo:"hash"`
	Owner string `dynamo:"owner"`
	Perms string `dynamo:"perms"`
	Uses  int64  `dynamo:"uses"`
}

var apiKeyCarryDef = table.Def[apiKey]{
	Type:          "Key",
	Key:           func(k *apiKey) (table.Key, error) { return table.Key{PK: "KEY#" + k.ID, SK: "K"}, nil },
	Unique:        func(k *apiKey) []table.Unique { return []table.Unique{{Name: "hash", Value: k.Hash}} },
	Carry:         []string{"id", "owner", "perms"},
	IndexedFields: []string{"hash"},
}

// TestGuardsCarry: Def.Carry puts attributes in the guards, written with
// every write of the owner; a lookup by the unique value still reads the
// owner (the guard is an index, never the truth: issue 26 §1).
func TestGuardsCarry(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	base := tabletest.NewTable(t, table.NewSchema("carry"))
	tb := table.New(tabletest.NewClient(t, rc.Option()), base.Schema())
	keys := table.NewEntity(tb, apiKeyCarryDef)
	c := ctx(t)
	if err := keys.Create(c, &apiKey{ID: "k1", Hash: "h1", Owner: "ann", Perms: "read"}); err != nil {
		t.Fatal(err)
	}
	u := table.Unique{Name: "hash", Value: "h1"}
	rc.Reset()
	got, err := keys.GetByUniqueCarried(c, u)
	if err != nil || got != (apiKey{ID: "k1", Hash: "h1", Owner: "ann", Perms: "read"}) || rc.Total() != 2 || rc.Of("GetItem") != 2 {
		t.Fatalf("carried lookup: %+v, %v, %d requests; want the item as stored in 2 GetItems (a guard is never the truth, issue 26)", got, err, rc.Total())
	}
	k := table.Key{PK: "KEY#k1", SK: "K"}
	// a carried field changes: the guard moves with it, in the same transaction
	rc.Reset()
	if _, err := keys.Update(c, k, func(x *apiKey) error { x.Perms = "admin"; return nil }); err != nil {
		t.Fatal(err)
	}
	if rc.Of("TransactWriteItems") != 1 {
		t.Errorf("an update of a carried field made %d transactions, want 1", rc.Of("TransactWriteItems"))
	}
	if got, _ := keys.GetByUniqueCarried(c, u); got.Perms != "admin" {
		t.Fatalf("guard still carries %+v", got)
	}
	// another field: one UpdateItem, the guard untouched
	rc.Reset()
	if _, err := keys.Update(c, k, func(x *apiKey) error { x.Uses = 7; return nil }); err != nil {
		t.Fatal(err)
	}
	if rc.Of("TransactWriteItems") != 0 || rc.Of("UpdateItem") != 1 {
		t.Errorf("an update of an uncarried field: %d transactions, %d UpdateItem; want 0 and 1", rc.Of("TransactWriteItems"), rc.Of("UpdateItem"))
	}
	if _, err := keys.Patch(c, k, table.Patch{Set: map[string]any{"perms": "root"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Fatalf("patch of a carried field: %v", err)
	}
	// a guard without carried attributes (an entity that declared Carry
	// later) is answered from its owner
	plain := table.NewEntity(tb, table.Def[apiKey]{Type: "Key2", Key: apiKeyCarryDef.Key, Unique: func(k *apiKey) []table.Unique {
		return []table.Unique{{Name: "hash2", Value: k.Hash}}
	}, IndexedFields: []string{"hash"}})
	if err := plain.Create(c, &apiKey{ID: "k2", Hash: "h2", Owner: "bob", Perms: "read", Uses: 3}); err != nil {
		t.Fatal(err)
	}
	later := table.NewEntity(tb, table.Def[apiKey]{Type: "Key2", Key: apiKeyCarryDef.Key, Unique: func(k *apiKey) []table.Unique {
		return []table.Unique{{Name: "hash2", Value: k.Hash}}
	}, Carry: []string{"owner"}, IndexedFields: []string{"hash"}})
	if got, err := later.GetByUniqueCarried(c, table.Unique{Name: "hash2", Value: "h2"}); err != nil || got.Uses != 3 {
		t.Fatalf("fallback to the owner: %+v, %v", got, err)
	}
	if err := keys.Delete(c, k); err != nil {
		t.Fatal(err)
	}
	if _, err := keys.GetByUniqueCarried(c, u); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("deleted key still found: %v", err)
	}
}
