package wiretest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/singletable/singletable/table"
)

// TestDeclaredWritesInPlace fails when a declared write of a store
// ([table.WriteDef]) cannot be found by its app and name: its Name is not
// the store field holding it ("listbackup.Labels.Create"), its ID is not
// the app's, a write declared on the store's tables is no field, or a
// func field taking a context holds no declared write.
func TestDeclaredWritesInPlace(t *testing.T) {
	for _, app := range openedStores() {
		tables := app.tables
		problems, declared := CheckWrites(app.p, app.store, tables...)
		for _, m := range problems {
			t.Error(m)
		}
		n := 0
		for _, tb := range tables {
			n += len(tb.Writes()) + len(tb.Uniques())
		}
		if declared != n {
			t.Errorf("%s: %d declared writes in place, %d declared on its tables", app.p.Name, declared, n)
		}
		t.Logf("%s: %d declared writes in place", app.p.Name, declared)
	}
}

type wtItem struct {
	ID string `dynamo:"id"`
}

type wtLabels struct {
	Create func(context.Context, *wtItem) error // declared as itself: in place
	Tag    func(context.Context, *wtItem) error // declared under another name
	Drop   func(context.Context, string) error  // never set
	Count  func(context.Context) (int, error)   // set, but no declared write
	Rename func(context.Context, string) error  // declared with another app's ID
	Note   func(string) string                  // no context: not a write
}

type wtStore struct{ Labels *wtLabels }

// TestCheckWritesBites: CheckWrites reports a write declared under a name
// that is not its field's, a func field left unset or holding no declared
// write, another app's ID, and a declared write that is no field.
func TestCheckWritesBites(t *testing.T) {
	tb := table.New(nil, table.NewSchema("writes"))
	items := table.NewEntity(tb, table.Def[wtItem]{Type: "Item", Keys: table.Template{PK: "ITEM#{id}", SK: "ITEM"}})
	key := func(id string) wtItem { return wtItem{ID: id} }
	store := &wtStore{Labels: &wtLabels{
		Create: table.Create(items, table.WriteDef[wtItem]{ID: "XX-1", Name: "opstore.wtLabels.Create", Doc: "Creates a label."}),
		Tag:    table.Create(items, table.WriteDef[wtItem]{ID: "XX-2", Name: "opstore.wtLabels.Tagg", Doc: "Tags."}),
		Count:  func(context.Context) (int, error) { return 0, nil },
		Rename: table.Delete(items, table.WriteDef[wtItem]{ID: "YY-3", Name: "opstore.wtLabels.Rename", Doc: "Renames."}, key),
		Note:   strings.ToUpper,
	}}
	problems, declared := CheckWrites(Package{Name: "opstore", Prefix: "XX"}, store, tb)
	if declared != 1 {
		t.Errorf("%d writes in place, want 1 (Create)", declared)
	}
	for _, want := range []string{
		"opstore.wtLabels.Tag: no write is declared with its name",
		"opstore.wtLabels.Drop: declared write field not set",
		"opstore.wtLabels.Count: no write is declared with its name",
		`opstore.wtLabels.Rename: ID "YY-3" is not a XX catalog ID`,
		"opstore.wtLabels.Tagg (XX-2) is a write declared on the store's tables but no func field",
	} {
		if !slices.ContainsFunc(problems, func(m string) bool { return strings.Contains(m, want) }) {
			t.Errorf("no problem %q in %q", want, problems)
		}
	}
	if len(problems) != 5 {
		t.Errorf("%d problems, want 5: %q", len(problems), problems)
	}
}
