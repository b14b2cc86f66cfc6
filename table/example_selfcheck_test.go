package table_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// InvoiceID is a typed ID that checks itself.
type InvoiceID string

// Validate refuses an ID without the "inv_" prefix.
func (id InvoiceID) Validate(field string) error {
	if !strings.HasPrefix(string(id), "inv_") {
		return table.Invalid(field, "%q does not start with inv_", id)
	}
	return nil
}

// Invoice is an invoice.
type Invoice struct {
	ID    InvoiceID `dynamo:"invoiceId"`
	Total int       `dynamo:"total"`
}

// A key field whose type checks itself (a typed ID's Validate(field), an
// enumeration of table.NewEnum) is checked by every read of a declared
// pattern, with the attribute's name, before any request: the pattern
// declares no Check for it.
func ExamplePatternDef_Check() {
	t, done := tabletest.ForExample("ExamplePatternDef_Check")
	defer done()
	ctx := context.Background()
	invoices := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), table.Def[Invoice]{
		Type: "Invoice", Keys: table.Template{PK: "INVOICE#{invoiceId}", SK: "INVOICE"}})
	byID := table.NewPattern(invoices, table.PatternDef[Invoice]{ID: "EX-3", Name: "example.Invoices.ByID",
		Doc: "An invoice.", Reads: table.ReadOne})
	_ = invoices.Create(ctx, &Invoice{ID: "inv_1", Total: 42})
	o, err := byID.Get(ctx, Invoice{ID: "inv_1"})
	fmt.Println(o.Total, err)
	_, err = byID.Get(ctx, Invoice{ID: "1"}) // refused before any request
	var ve *table.ValidationError
	fmt.Println(errors.As(err, &ve), ve.Field, ve.Reason)
	// Output:
	// 42 <nil>
	// true invoiceId "1" does not start with inv_
}

// Shipment is a warehouse's shipment, sorted by state.
type Shipment struct {
	Warehouse string `dynamo:"warehouse"`
	State     string `dynamo:"state"`
	ID        string `dynamo:"shipmentId"`
}

// A sort-key field is checked only when set: unset, a List reads the whole
// partition. A pattern whose reads need it names it in Require: a call
// that leaves it unset is refused before any request.
func ExamplePatternDef_Require() {
	t, done := tabletest.ForExample("ExamplePatternDef_Require")
	defer done()
	ctx := context.Background()
	shipments := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), table.Def[Shipment]{
		Type: "Shipment", Keys: table.Template{PK: "WAREHOUSE#{warehouse}", SK: "STATE#{state}#{shipmentId}"}})
	byState := table.NewPattern(shipments, table.PatternDef[Shipment]{ID: "EX-4", Name: "example.Shipments.ByState",
		Doc: "A warehouse's shipments in one state.", Reads: table.ReadPage, SortPrefix: true,
		Require: []string{"state"}})
	_ = shipments.Create(ctx, &Shipment{Warehouse: "w1", State: "packed", ID: "s1"})
	_ = shipments.Create(ctx, &Shipment{Warehouse: "w1", State: "shipped", ID: "s2"})
	p, err := byState.List(ctx, Shipment{Warehouse: "w1", State: "packed"})
	fmt.Println(len(p.Items), p.Items[0].ID, err)
	_, err = byState.List(ctx, Shipment{Warehouse: "w1"}) // refused before any request
	var ve *table.ValidationError
	fmt.Println(errors.As(err, &ve), ve.Field, ve.Reason)
	// Output:
	// 1 s1 <nil>
	// true state required
}
