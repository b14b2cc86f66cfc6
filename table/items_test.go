package table_test

import (
	"context"
	"errors"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Both an entity and its view of one tenant are table.Items.
var (
	_ table.Items[doc] = (*table.Entity[doc])(nil)
	_ table.Items[doc] = (*table.Scoped[doc])(nil)
)

// renameDoc is code written once against table.Items: a back-office job
// hands it the entity, a request handler its tenant's view.
func renameDoc(ctx context.Context, docs table.Items[doc], id, title string) (doc, error) {
	d, err := docs.GetByIndex(ctx, table.Query{Index: table.GSI1, PK: "DOCS", SK: table.SKEquals("DOC#" + id)})
	if err != nil {
		return d, err
	}
	return docs.Update(ctx, table.Key{PK: "DOC#" + id, SK: "DOC"}, func(d *doc) error { d.Title = title; return nil })
}

// Scoped.GetByIndex finds the tenant's own item through an index with the
// same two requests as Entity.GetByIndex (a Query of one item, a consistent
// GetItem), and answers table.ErrNotFound for another tenant's item, as
// for a missing one; code over table.Items runs unchanged on both handles.
func TestScopedGetByIndex(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("items")).Schema())
	docs := table.NewEntity(tb, docDef)
	alice, mallory := docs.In("acct-alice"), docs.In("acct-mallory")
	c := ctx(t)
	if err := alice.Create(c, &doc{ID: "d1", Account: "acct-alice", Title: "plans"}); err != nil {
		t.Fatal(err)
	}
	q := table.Query{Index: table.GSI1, PK: "DOCS", SK: table.SKEquals("DOC#d1")}

	rc.Reset()
	got, err := alice.GetByIndex(c, q)
	if err != nil || got.Title != "plans" || got.Account != "acct-alice" {
		t.Fatalf("alice.GetByIndex = %+v, %v", got, err)
	}
	if rc.Of("Query") != 1 || rc.Of("GetItem") != 1 || rc.Total() != 2 {
		t.Errorf("alice.GetByIndex sent %v, want one Query and one GetItem", rc.Ops())
	}
	rc.Reset()
	if _, err := mallory.GetByIndex(c, q); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("mallory.GetByIndex of alice's doc = %v, want ErrNotFound", err)
	}
	if rc.Total() != 2 {
		t.Errorf("mallory.GetByIndex sent %v, want the same two requests", rc.Ops())
	}
	rc.Reset()
	if _, err := table.Items[doc](docs.In("")).GetByIndex(c, q); err == nil {
		t.Error("GetByIndex on an empty scope succeeded")
	}
	if rc.Total() != 0 {
		t.Errorf("an empty scope sent %v, want nothing", rc.Ops())
	}

	// The same function, handed each handle.
	if _, err := renameDoc(c, mallory, "d1", "owned"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("renameDoc through mallory's view = %v, want ErrNotFound", err)
	}
	if d, err := renameDoc(c, alice, "d1", "final"); err != nil || d.Title != "final" {
		t.Errorf("renameDoc through alice's view = %+v, %v", d, err)
	}
	if d, err := renameDoc(c, docs, "d1", "audited"); err != nil || d.Title != "audited" {
		t.Errorf("renameDoc through the entity = %+v, %v", d, err)
	}
	if _, err := renameDoc(c, docs, "d9", "x"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("renameDoc of a missing doc = %v, want ErrNotFound", err)
	}
}
