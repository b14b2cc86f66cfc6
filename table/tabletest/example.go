package tabletest

import (
	"context"
	"fmt"
	"testing"
)

// ForExample returns a testing.TB for Example functions, which have no
// *testing.T, so that they can use [NewTable] and [Client] like tests do,
// and the function that runs its cleanups (defer it). A failure panics.
//
//	func ExampleStore() {
//		t, done := tabletest.ForExample("ExampleStore")
//		defer done()
//		tbl := tabletest.NewTable(t, table.NewSchema("shop"))
//		...
//	}
func ForExample(name string) (testing.TB, func()) {
	e := &exampleTB{name: name}
	return e, e.finish
}

// exampleTB implements the methods the kit calls; the embedded nil TB is
// never used.
type exampleTB struct {
	testing.TB
	name     string
	cleanups []func()
}

func (e *exampleTB) Name() string                 { return e.name }
func (e *exampleTB) Helper()                      {}
func (e *exampleTB) Logf(string, ...any)          {}
func (e *exampleTB) Log(...any)                   {}
func (e *exampleTB) Errorf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }
func (e *exampleTB) Fatalf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }
func (e *exampleTB) Fatal(args ...any)            { panic(fmt.Sprint(args...)) }
func (e *exampleTB) Cleanup(f func())             { e.cleanups = append(e.cleanups, f) }
func (e *exampleTB) Context() context.Context     { return context.Background() }

func (e *exampleTB) finish() {
	for i := len(e.cleanups) - 1; i >= 0; i-- {
		e.cleanups[i]()
	}
}
