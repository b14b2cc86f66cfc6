package table_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// The fields an order's payment checks, declared once next to the type.
var (
	orderStatus = table.MustField[Order, string]("status")
	orderTotal  = table.MustField[Order, int64]("total")
	orderCheck  = table.Project(orderStatus, orderTotal)
)

// Peek reads an item only to check a few fields: one strongly consistent
// GetItem of those fields, returning a read-only view (no Order to write
// back over the whole item); the change is written with Change, on
// condition that the field still holds what was read.
func ExampleEntity_Peek() {
	t, done := tabletest.ForExample("ExampleEntity_Peek")
	defer done()
	ctx := context.Background()
	orders := table.NewEntity(tabletest.NewTable(t, table.NewSchema("shop")), orderTmpl)
	_ = orders.Create(ctx, &Order{ID: "o1", Status: "open", Total: 15})
	k := table.Key{PK: "ORDER#o1", SK: "ORDER"}

	f, err := orders.Peek(ctx, k, orderCheck)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(table.FieldValue(f, orderStatus), table.FieldValue(f, orderTotal), f.Version())
	if table.FieldValue(f, orderStatus) == "open" {
		o, err := orders.Change(ctx, k, table.Set(orderStatus, "paid"), table.If(orderStatus, "open"))
		fmt.Println(o.Status, o.Total, err)
	}
	_, err = orders.Peek(ctx, table.Key{PK: "ORDER#o2", SK: "ORDER"}, orderCheck)
	fmt.Println(errors.Is(err, table.ErrNotFound))
	// Output:
	// open 15 1
	// paid 15 <nil>
	// true
}
