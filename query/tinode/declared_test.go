package tinode_test

import (
	"testing"

	"github.com/singletable/singletable/internal/wiretest"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
)

// TestDeclaredPatternsInPlace_TN1_TN5_TN6_TN7_TN8_TN9_TN10_TN11_TN22_TN31_TN34_TN36 holds each
// declared read of the store to its place: a field of its aggregate named
// as its Name says ("tinode.Users.ByID"), with a TN catalog ID, and no
// pattern declared on the table outside the store's fields. No request
// is sent.
func TestDeclaredPatternsInPlace_TN1_TN5_TN6_TN7_TN8_TN9_TN10_TN11_TN22_TN31_TN34_TN36(t *testing.T) {
	t.Parallel()
	tb := table.New(nil, table.NewSchema("tinode"))
	problems, declared := wiretest.CheckDeclared(wiretest.Package{Name: "tinode", Prefix: "TN"}, tinode.New(tb), tb)
	for _, m := range problems {
		t.Error(m)
	}
	if want := 12; declared != want || len(tb.Patterns()) != want {
		t.Errorf("%d declared patterns in place, %d declared on the table, want %d", declared, len(tb.Patterns()), want)
	}
}
