package listbackup_test

import (
	"testing"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/internal/wiretest"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table/tabletest"
)

// TestOtelListbackupCalls: store methods report their catalog ID, their
// requests sit under them, and a method calling another (an account
// scope's Get through Accounts.ByID) nests.
func TestOtelListbackupCalls(t *testing.T) {
	traced, exp := wiretest.Traced(t)
	s := listbackup.New(tabletest.NewTable(t, listbackup.Schema("listbackup"), traced))
	c := ctx(t)
	must(t, s.Accounts.Create(c, &lb.Account{AccountID: "root", AccountName: "Acme", AccountPath: "/acme/", AccountType: lb.AccountConglomerate}))
	spans := exp.GetSpans()
	wiretest.Call(t, spans, "listbackup.Accounts.Create", "LB-63")
	exp.Reset()

	if _, err := s.Accounts.ByID.Get(c, lb.Account{AccountID: "root"}); err != nil {
		t.Fatal(err)
	}
	spans = exp.GetSpans()
	wiretest.Request(t, spans, wiretest.Call(t, spans, "listbackup.Accounts.ByID.Get", "LB-5"), "GetItem")
	exp.Reset()

	scope, err := s.ForAccount("root")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scope.Get(c); err != nil {
		t.Fatal(err)
	}
	spans = exp.GetSpans()
	outer := wiretest.Call(t, spans, "listbackup.AccountScope.Get", "LB-9")
	inner := wiretest.Call(t, spans, "listbackup.Accounts.ByID.Get", "LB-5")
	wiretest.Child(t, outer, inner)
	wiretest.Request(t, spans, inner, "GetItem")
}
