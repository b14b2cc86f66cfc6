package table_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Order and Line form an item collection: ORDER#{id} holds the order and
// its lines.
type Order struct {
	ID     string `dynamo:"id"`
	Status string `dynamo:"status"`
	Total  int64  `dynamo:"total"`
}

type Line struct {
	Order string `dynamo:"order"`
	N     int    `dynamo:"n"`
	SKU   string `dynamo:"sku"`
}

var (
	orderTmpl = table.Def[Order]{Type: "Order", Keys: table.Template{PK: "ORDER#{id}", SK: "ORDER"}}
	lineTmpl  = table.Def[Line]{Type: "Line", Keys: table.Template{PK: "ORDER#{order}", SK: "LINE#{n}"}}
)

// Patch changes chosen attributes in one UpdateItem, with conditions; a
// failed condition is ErrConditionFailed, a missing item ErrNotFound.
func ExampleEntity_Patch() {
	t, done := tabletest.ForExample("ExampleEntity_Patch")
	defer done()
	ctx := context.Background()
	orders := table.NewEntity(tabletest.NewTable(t, table.NewSchema("shop")), orderTmpl)
	_ = orders.Create(ctx, &Order{ID: "o1", Status: "open", Total: 10})
	k := table.Key{PK: "ORDER#o1", SK: "ORDER"}

	o, err := orders.Patch(ctx, k, table.Patch{Set: map[string]any{"status": "paid"}, Add: map[string]int64{"total": 5}, IfEqual: map[string]any{"status": "open"}})
	fmt.Println(o.Status, o.Total, err)
	_, err = orders.Patch(ctx, k, table.Patch{Set: map[string]any{"status": "paid"}, IfEqual: map[string]any{"status": "open"}})
	fmt.Println(errors.Is(err, table.ErrConditionFailed))
	_, err = orders.Patch(ctx, k, table.Patch{Set: map[string]any{"stauts": "x"}})
	fmt.Println(errors.Is(err, table.ErrInvalidInput)) // a typo, refused before any request
	// Output:
	// paid 15 <nil>
	// true
	// true
}

// Transact writes several items atomically: here an order and its first
// line; a second create of the same order cancels the whole transaction.
func ExampleTable_Transact() {
	t, done := tabletest.ForExample("ExampleTable_Transact")
	defer done()
	ctx := context.Background()
	tbl := tabletest.NewTable(t, table.NewSchema("shop"))
	orders, lines := table.NewEntity(tbl, orderTmpl), table.NewEntity(tbl, lineTmpl)

	create := func(id string) error {
		o, err := orders.CreateOp(&Order{ID: id, Status: "open"})
		if err != nil {
			return err
		}
		l, err := lines.CreateOp(&Line{Order: id, N: 1, SKU: "sku-1"})
		if err != nil {
			return err
		}
		return tbl.Transact(ctx, append(o, l...)...)
	}
	fmt.Println(create("o1"))
	err := create("o1")
	var te *table.TxError
	fmt.Println(errors.As(err, &te), te.Failed()[0].Code)
	// Output:
	// <nil>
	// true ConditionalCheckFailed
}

// BatchWrite writes many items in chunks of 25, retrying unprocessed ones;
// ReadCollection reads a collection that mixes entity types in one Query.
func ExampleTable_ReadCollection() {
	t, done := tabletest.ForExample("ExampleTable_ReadCollection")
	defer done()
	ctx := context.Background()
	tbl := tabletest.NewTable(t, table.NewSchema("shop"))
	orders, lines := table.NewEntity(tbl, orderTmpl), table.NewEntity(tbl, lineTmpl)

	ops := []table.TxOp{}
	o, _ := orders.PutOp(&Order{ID: "o2", Status: "open", Total: 3})
	ops = append(ops, o)
	for n := 1; n <= 3; n++ {
		op, _ := lines.PutOp(&Line{Order: "o2", N: n, SKU: fmt.Sprint("sku-", n)})
		ops = append(ops, op)
	}
	fmt.Println(tbl.BatchWrite(ctx, ops...))

	var order Order
	var skus []string
	_, err := tbl.ReadCollection(ctx, table.Query{PK: "ORDER#o2"},
		table.Into(orders, func(o Order) { order = o }),
		table.Into(lines, func(l Line) { skus = append(skus, l.SKU) }))
	fmt.Println(order.Status, skus, err)
	// Output:
	// <nil>
	// open [sku-1 sku-2 sku-3] <nil>
}

// PreparePatch builds a patch of one item once; each Op gives the action
// with new Set values (and the current time where the patch stamps or
// checks it), for a hot path that sends the same patch in many
// transactions. WithoutOldItem leaves out the item a failed condition
// would return: the caller reads it when it must explain a failure.
func ExampleEntity_PreparePatch() {
	t, done := tabletest.ForExample("ExampleEntity_PreparePatch")
	defer done()
	ctx := context.Background()
	tbl := tabletest.NewTable(t, table.NewSchema("shop"))
	orders, lines := table.NewEntity(tbl, orderTmpl), table.NewEntity(tbl, lineTmpl)
	_ = orders.Create(ctx, &Order{ID: "o1", Status: "open"})

	// Every line added counts on its order, while the order is open.
	count, err := orders.PreparePatch(table.Key{PK: "ORDER#o1", SK: "ORDER"},
		table.Patch{Add: map[string]int64{"total": 1}, IfEqual: map[string]any{"status": "open"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for n := 1; n <= 3; n++ {
		line, _ := lines.CreateOp(&Line{Order: "o1", N: n, SKU: fmt.Sprint("sku-", n)})
		op, _ := count.Op(nil)
		if err := tbl.Transact(ctx, append(line, op.WithoutOldItem())...); err != nil {
			fmt.Println(err)
		}
	}
	o, _ := orders.Get(ctx, table.Key{PK: "ORDER#o1", SK: "ORDER"})
	fmt.Println(o.Total)
	// Output:
	// 3
}
