package table_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// kcTag: a tag under its account, keyed by its key and value (LB-66's
// shape: TAGS#{accountId} / TAG#{tagKey}#{tagValue}).
type kcTag struct {
	Account string `dynamo:"accountId"`
	Key     string `dynamo:"tagKey"`
	Value   string `dynamo:"tagValue"`
	Color   string `dynamo:"color"`
}

// TestUpdateNamesTheKeyFieldItWouldChange: an update whose change alters
// a field the primary key derives from is a *table.ValidationError naming
// that field (not the bare "key"), Key set, after the one consistent
// GetItem the update needs and with no write; the item is unchanged. A
// change of another field goes through (LB-66: a tag's identity cannot
// change through its Update).
func TestUpdateNamesTheKeyFieldItWouldChange(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("keychange")).Schema())
	tags := table.NewEntity(tb, table.Def[kcTag]{Type: "KCTag",
		Keys: table.Template{PK: "TAGS#{accountId}", SK: "TAG#{tagKey:esc}#{tagValue:esc}"}})
	c := ctx(t)
	stored := kcTag{Account: "acc1", Key: "env", Value: "prod", Color: "red"}
	if err := tags.Create(c, &stored); err != nil {
		t.Fatal(err)
	}
	k, err := tags.CheckedKey(stored)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		field  string
		change func(*kcTag)
	}{
		{"accountId", func(g *kcTag) { g.Account = "acc2" }},
		{"tagKey", func(g *kcTag) { g.Key = "stage" }},
		{"tagValue", func(g *kcTag) { g.Value = "dev" }},
	} {
		rc.Reset()
		_, err := tags.Update(c, k, func(g *kcTag) error { tc.change(g); return nil })
		var ve *table.ValidationError
		if !errors.As(err, &ve) || ve.Field != tc.field || !ve.Key {
			t.Errorf("changing %s: %v, want a key *ValidationError naming %s", tc.field, err, tc.field)
		}
		if got := rc.Ops(); rc.Total() != 1 || got["GetItem"] != 1 {
			t.Errorf("changing %s sent %v, want the one GetItem", tc.field, got)
		}
	}
	got, err := tags.Update(c, k, func(g *kcTag) error { g.Color = "blue"; return nil })
	if err != nil || got.Color != "blue" {
		t.Fatalf("changing color: %+v, %v", got, err)
	}
	again, err := tags.Get(c, k)
	if err != nil || again != (kcTag{Account: "acc1", Key: "env", Value: "prod", Color: "blue"}) {
		t.Errorf("stored %+v, %v; want only the color changed", again, err)
	}
}

// kcRead is kcTag with the read state Replace conditions on.
type kcRead struct {
	Account string          `dynamo:"accountId"`
	Key     string          `dynamo:"tagKey"`
	Color   string          `dynamo:"color"`
	Read    table.ReadState `dynamo:"-"`
}

// TestReplaceNamesTheKeyFieldItWouldChange: a Replace of an item read
// under one key whose key field now gives another is a key
// *table.ValidationError naming that field, with no request.
func TestReplaceNamesTheKeyFieldItWouldChange(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("keychangereplace")).Schema())
	tags := table.NewEntity(tb, table.Def[kcRead]{Type: "KCRead",
		Keys: table.Template{PK: "TAGS#{accountId}", SK: "TAG#{tagKey:esc}"}})
	c := ctx(t)
	if err := tags.Create(c, &kcRead{Account: "acc1", Key: "env", Color: "red"}); err != nil {
		t.Fatal(err)
	}
	got, err := tags.Get(c, tags.Key(kcRead{Account: "acc1", Key: "env"}))
	if err != nil {
		t.Fatal(err)
	}
	got.Key = "stage"
	rc.Reset()
	err = tags.Replace(c, &got)
	var ve *table.ValidationError
	if !errors.As(err, &ve) || ve.Field != "tagKey" || !ve.Key {
		t.Errorf("Replace with tagKey changed: %v, want a key *ValidationError naming tagKey", err)
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("Replace with tagKey changed sent %d requests (%v), want none", n, rc.Ops())
	}
}
