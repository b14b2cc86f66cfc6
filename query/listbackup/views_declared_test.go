package listbackup_test

import (
	"slices"
	"testing"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

// TestAccountViewsDeclareNothing holds an account view (Store.ForAccount,
// made per request) to the store's declarations: the table's operations
// and declared writes are New's, in count and order, however many views
// of however many accounts are made, and a view costs no more allocations
// than its handles (no write registered again).
func TestAccountViewsDeclareNothing(t *testing.T) {
	tb := table.New(nil, listbackup.Schema("views"))
	s := listbackup.New(tb)
	ops, writes := tb.Ops(), tb.Writes()
	for _, acct := range []lb.AccountID{"acct-1", "acct-2", "acct-1"} {
		if _, err := s.ForAccount(acct); err != nil {
			t.Fatal(err)
		}
	}
	if got := tb.Ops(); !slices.Equal(got, ops) {
		t.Errorf("Ops after views: %d %v, want New's %d %v", len(got), got, len(ops), ops)
	}
	if got := tb.Writes(); len(got) != len(writes) || !slices.EqualFunc(got, writes, func(a, b table.WriteInfo) bool {
		return a.ID == b.ID && a.Name == b.Name && a.Kind == b.Kind && a.Doc == b.Doc && slices.Equal(a.Also, b.Also)
	}) {
		t.Errorf("Writes after views: %d, want New's %d", len(got), len(writes))
	}
	if allocs := testing.AllocsPerRun(100, func() { _, _ = s.ForAccount("acct-1") }); allocs > 61 {
		t.Errorf("ForAccount: %v allocations, want at most 61 (the view's handles)", allocs)
	}
}
