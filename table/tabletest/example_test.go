package tabletest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// In a test, pass the test's *testing.T. An Example has none, so this one
// runs the kit with a minimal stand-in that runs cleanups when the example
// ends.
func Example() {
	t := newExampleT("ExampleOrders")
	defer t.finish()

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

// exampleT stands in for a *testing.T outside a test function. Only the
// methods the kit calls are implemented; the embedded nil TB is never used.
type exampleT struct {
	testing.TB
	name     string
	cleanups []func()
}

func newExampleT(name string) *exampleT { return &exampleT{name: name} }

func (e *exampleT) Name() string                 { return e.name }
func (e *exampleT) Helper()                      {}
func (e *exampleT) Logf(string, ...any)          {}
func (e *exampleT) Errorf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }
func (e *exampleT) Fatalf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }
func (e *exampleT) Cleanup(f func())             { e.cleanups = append(e.cleanups, f) }
func (e *exampleT) finish() {
	for i := len(e.cleanups) - 1; i >= 0; i-- {
		e.cleanups[i]()
	}
}
