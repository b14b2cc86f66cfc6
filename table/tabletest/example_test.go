package tabletest_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// In a test, pass the test's *testing.T. An Example has none: ForExample
// gives it a stand-in that runs the cleanups when the example ends.
func Example() {
	t, done := tabletest.ForExample("ExampleOrders")
	defer done()

	tbl := tabletest.NewTable(t, table.NewSchema("shop", table.WithIndexCount(2)))
	d, err := tbl.Describe(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.HasPrefix(tbl.Name(), "shop-ExampleOrders-"))
	fmt.Println(d.TableStatus, len(d.GlobalSecondaryIndexes), "GSIs")
	// Output:
	// true
	// ACTIVE 2 GSIs
}
