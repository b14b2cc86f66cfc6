package table_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Code written once against table.Items serves a back-office job (the
// whole entity) and a request handler (one tenant's view): through the
// view, another tenant's item is not found, even by an index.
func ExampleItems() {
	t, done := tabletest.ForExample("ExampleItems")
	defer done()
	ctx := context.Background()
	docs := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), docDef)
	_ = docs.Create(ctx, &doc{ID: "d1", Account: "alice", Title: "plans"})

	title := func(docs table.Items[doc]) (string, error) {
		d, err := docs.GetByIndex(ctx, table.Query{Index: table.GSI1, PK: "DOCS", SK: table.SKEquals("DOC#d1")})
		return d.Title, err
	}
	fmt.Println(title(docs))
	fmt.Println(title(docs.In("alice")))
	_, err := title(docs.In("bob"))
	fmt.Println(errors.Is(err, table.ErrNotFound))
	// Output:
	// plans <nil>
	// plans <nil>
	// true
}
