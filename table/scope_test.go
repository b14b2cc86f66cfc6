package table_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// doc is an account-owned entity: its ID alone names it (a by-ID key), the
// account is an attribute.
type doc struct {
	ID      string `dynamo:"id"`
	Account string `dynamo:"accountId"`
	Title   string `dynamo:"title"`
	Views   int64  `dynamo:"views"`
}

var docDef = table.Def[doc]{
	Type:      "Doc",
	Keys:      table.Template{PK: "DOC#{id}", SK: "DOC"},
	Scope:     "accountId",
	IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "DOCS", SK: "DOC#{id}"}},
}

// A handle for one account never reaches another account's items, on
// reads and writes, whatever ID the caller passes; the legitimate owner's
// calls work side by side.
func TestScopedHandleIsolatesTenants(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	docs := table.NewEntity(f.t, docDef)
	alice, mallory := docs.In("acct-alice"), docs.In("acct-mallory")
	if err := alice.Create(c, &doc{ID: "d1", Account: "acct-alice", Title: "plans"}); err != nil {
		t.Fatal(err)
	}
	if err := mallory.Create(c, &doc{ID: "d2", Account: "acct-alice", Title: "planted"}); !errors.Is(err, table.ErrInvalidInput) {
		t.Fatalf("create for another tenant = %v, want ErrInvalidInput", err)
	}
	k := table.Key{PK: "DOC#d1", SK: "DOC"}
	// Attack: mallory knows alice's document ID.
	if _, err := mallory.Get(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Get = %v, want ErrNotFound", err)
	}
	if _, err := mallory.Update(c, k, func(d *doc) error { d.Title = "owned"; return nil }); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Update = %v, want ErrNotFound", err)
	}
	if _, err := mallory.Patch(c, k, table.Patch{Set: map[string]any{"title": "owned"}}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Patch = %v, want ErrNotFound", err)
	}
	if _, err := mallory.Add(c, k, "views", 1); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Add = %v, want ErrNotFound", err)
	}
	if err := mallory.Delete(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Delete = %v, want ErrNotFound", err)
	}
	page, err := mallory.List(c, table.Query{Index: table.GSI1, PK: "DOCS"})
	if err != nil || len(page.Items) != 0 {
		t.Errorf("Query = %v, %v; want nothing of alice's", page.Items, err)
	}
	// A change may not move an item to another tenant.
	if _, err := alice.Update(c, k, func(d *doc) error { d.Account = "acct-mallory"; return nil }); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("moving the item out = %v, want ErrInvalidInput", err)
	}
	if _, err := alice.Patch(c, k, table.Patch{Set: map[string]any{"accountId": "acct-mallory"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("patching the tenant = %v, want ErrInvalidInput", err)
	}
	// Nothing changed; the owner works normally.
	got, err := alice.Get(c, k)
	if err != nil || got.Title != "plans" || got.Views != 0 {
		t.Fatalf("alice's doc after the attack: %+v, %v", got, err)
	}
	if _, err := alice.Update(c, k, func(d *doc) error { d.Title = "final"; return nil }); err != nil {
		t.Fatal(err)
	}
	if n, err := alice.Add(c, k, "views", 2); err != nil || n != 2 {
		t.Fatalf("alice Add = %d, %v", n, err)
	}
	page, err = alice.List(c, table.Query{Index: table.GSI1, PK: "DOCS"})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("alice Query = %v, %v", page.Items, err)
	}
	if err := alice.Delete(c, k); err != nil {
		t.Fatal(err)
	}
	if _, err := docs.Get(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("after alice's delete: %v", err)
	}
}

var (
	docTitle = table.MustField[doc, string]("title")
	docViews = table.MustField[doc, int64]("views")
)

// Typed changes: one UpdateItem, names checked when declared, values by
// the compiler.
func TestTypedChange(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	docs := table.NewEntity(f.t, docDef)
	if err := docs.Create(c, &doc{ID: "d", Account: "a", Title: "old"}); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "DOC#d", SK: "DOC"}
	got, err := docs.Change(c, k, table.Set(docTitle, "new"), table.Incr(docViews, 3), table.If(docTitle, "old"))
	if err != nil || got.Title != "new" || got.Views != 3 {
		t.Fatalf("Change = %+v, %v", got, err)
	}
	if _, err := docs.Change(c, k, table.Set(docTitle, "newer"), table.If(docTitle, "old")); !errors.Is(err, table.ErrConditionFailed) {
		t.Fatalf("Change on a stale condition = %v, want ErrConditionFailed", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("MustField accepted an attribute the type does not have")
		}
	}()
	table.MustField[doc, string]("titel")
}

// TestFixedAttributes: Def.Fixed attributes and the Def.Scope attribute
// are set at creation and never changed by Update or Patch, scoped or not.
func TestFixedAttributes(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("fixed"))
	type doc struct {
		ID     string `dynamo:"id"`
		Tenant string `dynamo:"tenant"`
		Owner  string `dynamo:"owner"`
		Title  string `dynamo:"title"`
	}
	docs := table.NewEntity(tb, table.Def[doc]{
		Type:  "Doc",
		Keys:  table.Template{PK: "DOC#{id}", SK: "D"},
		Scope: "tenant",
		Fixed: []string{"owner"},
	})
	c := ctx(t)
	if err := docs.Create(c, &doc{ID: "d1", Tenant: "t1", Owner: "ann", Title: "x"}); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "DOC#d1", SK: "D"}
	for field, change := range map[string]func(*doc) error{
		"tenant": func(d *doc) error { d.Tenant = "t2"; return nil },
		"owner":  func(d *doc) error { d.Owner = "bob"; return nil },
	} {
		var ve *table.ValidationError
		if _, err := docs.Update(c, k, change); !errors.As(err, &ve) || ve.Field != field {
			t.Errorf("update of %s: %v, want a *table.ValidationError naming it", field, err)
		}
		if _, err := docs.Patch(c, k, table.Patch{Set: map[string]any{field: "z"}}); !errors.As(err, &ve) || ve.Field != field {
			t.Errorf("patch of %s: %v", field, err)
		}
	}
	got, err := docs.Update(c, k, func(d *doc) error { d.Title = "y"; return nil })
	if err != nil || got.Tenant != "t1" || got.Owner != "ann" || got.Title != "y" {
		t.Fatalf("legitimate update: %+v, %v", got, err)
	}
}
