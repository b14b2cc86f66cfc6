package table_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// CheckedKey builds a key from an ID a caller gave (a request's path, a
// form) after the key fields' own checks, called with the attribute's
// name: a bad or empty ID is a *table.ValidationError before any request.
// Key builds the key of an item read back, and runs no field's own check.
// (InvoiceID checks itself: see ExamplePatternDef_Check.)
func ExampleEntity_CheckedKey() {
	t, done := tabletest.ForExample("ExampleEntity_CheckedKey")
	defer done()
	ctx := context.Background()
	invoices := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), table.Def[Invoice]{
		Type: "Invoice", Keys: table.Template{PK: "INVOICE#{invoiceId}", SK: "INVOICE"}})
	_ = invoices.Create(ctx, &Invoice{ID: "inv_1", Total: 42})

	k, err := invoices.CheckedKey(Invoice{ID: "inv_1"})
	fmt.Println(k, err)
	o, err := invoices.Get(ctx, k)
	fmt.Println(o.Total, err)

	for _, id := range []InvoiceID{"1", ""} {
		_, err = invoices.CheckedKey(Invoice{ID: id}) // refused before any request
		var ve *table.ValidationError
		fmt.Println(errors.As(err, &ve), ve.Field, ve.Reason)
	}
	fmt.Println(invoices.Key(Invoice{ID: "1"})) // no own check: a read-back key
	// Output:
	// {INVOICE#inv_1 INVOICE} <nil>
	// 42 <nil>
	// true invoiceId "1" does not start with inv_
	// true invoiceId "" does not start with inv_
	// {INVOICE#1 INVOICE}
}
