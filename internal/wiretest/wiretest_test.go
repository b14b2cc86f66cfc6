package wiretest

import (
	"testing"

	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
)

// wiredPackages are the store packages whose methods report their access
// pattern through Table.Call. A package joins when all of its cited
// methods are wired.
var wiredPackages = []Package{
	{Dir: "../../query/ferryhook", Name: "ferryhook", Prefix: "FH", Ops: OpsOf(ferryhook.New(table.New(nil, ferryhook.MainSchema("")), table.New(nil, ferryhook.EventsSchema("")))), Exempt: map[string]string{
		"Users.ResetUsage":   "billing-period maintenance, no catalog pattern",
		"Users.EnsureGuards": "adoption of service-written users",
	}},
	{Dir: "../../query/podcastflow", Name: "podcastflow", Prefix: "PF", Ops: OpsOf(podcastflow.New(table.New(nil, podcastflow.Schema(""))))},
	{Dir: "../../query/tinode", Name: "tinode", Prefix: "TN", Ops: OpsOf(tinode.New(table.New(nil, table.NewSchema(""))))},
	{Dir: "../../query/listbackup", Name: "listbackup", Prefix: "LB", Ops: listbackupOps(), Exempt: map[string]string{
		"Store.Migrate":          "table migration (the legacy tables), not an access pattern",
		"Store.VerifyMigration":  "migration check",
		"Store.Verify":           "migration check",
		"JobQueueHandler.Handle": "a stream handler, called per change by a feed.Router (LB-84 is cited on its type and proved by TestJobQueueLifecycle_LB84): nothing on a creation, a read and a conditional write per counted retry",
	}},
}

// TestCallWiring fails when a store method of a wired package that cites
// a catalog ID does not start a call with that ID and its own name, or
// when an exported method with a context cites none and is not exempt.
func TestCallWiring(t *testing.T) {
	for _, p := range wiredPackages {
		problems, wired, err := Check(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range problems {
			t.Error(m)
		}
		t.Logf("%s: %d methods wired, %d exempt", p.Name, wired, len(p.Exempt))
	}
}

// TestDeclaredPatternsInPlace fails when a declared pattern of a store
// cannot be found by its app and name: its Name is not the store field
// holding it ("podcastflow.Users.ByOrganization"), its ID is not the
// app's, or a pattern declared on the store's table is no field of it.
func TestDeclaredPatternsInPlace(t *testing.T) {
	fhMain, fhEvents := table.New(nil, ferryhook.MainSchema("")), table.New(nil, ferryhook.EventsSchema(""))
	for _, app := range []struct {
		p      Package
		open   func(*table.Table) any
		tb     *table.Table
		others []*table.Table // the store's other tables
	}{
		{p: Package{Name: "ferryhook", Prefix: "FH"}, open: func(tb *table.Table) any { return ferryhook.New(tb, fhEvents) },
			tb: fhMain, others: []*table.Table{fhEvents}},
		{p: Package{Name: "podcastflow", Prefix: "PF"}, open: func(tb *table.Table) any { return podcastflow.New(tb) },
			tb: table.New(nil, podcastflow.Schema(""))},
		{p: Package{Name: "listbackup", Prefix: "LB"}, open: func(tb *table.Table) any { return listbackup.New(tb) },
			tb: table.New(nil, listbackup.Schema(""))},
	} {
		tables := append([]*table.Table{app.tb}, app.others...)
		problems, declared := CheckDeclared(app.p, app.open(app.tb), tables...)
		for _, m := range problems {
			t.Error(m)
		}
		n := 0
		for _, tb := range tables {
			n += len(tb.Patterns())
		}
		if declared == 0 || declared != n {
			t.Errorf("%s: %d declared patterns in place, %d declared on its tables", app.p.Name, declared, n)
		}
		t.Logf("%s: %d declared patterns in place", app.p.Name, declared)
	}
}

// listbackupOps returns the declared operations of ListBackup's store and
// of its account scope (Store.ForAccount), whose Get runs in one too.
func listbackupOps() map[string]table.Op {
	s := listbackup.New(table.New(nil, listbackup.Schema("")))
	ops := OpsOf(s)
	scope, err := s.ForAccount("a1")
	if err != nil {
		panic(err)
	}
	for k, v := range OpsOf(&struct{ AccountScope *listbackup.AccountScope }{scope}) {
		ops[k] = v
	}
	return ops
}
