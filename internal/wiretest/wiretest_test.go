package wiretest

import "testing"

// wiredPackages are the store packages whose methods report their access
// pattern through Table.Call. A package joins when all of its cited
// methods are wired.
var wiredPackages = []Package{
	{Dir: "../../query/ferryhook", Name: "ferryhook", Prefix: "FH", Exempt: map[string]string{
		"Users.ResetUsage":   "billing-period maintenance, no catalog pattern",
		"Users.EnsureGuards": "adoption of service-written users",
	}},
	{Dir: "../../query/podcastflow", Name: "podcastflow", Prefix: "PF"},
	{Dir: "../../query/tinode", Name: "tinode", Prefix: "TN"},
	{Dir: "../../query/listbackup", Name: "listbackup", Prefix: "LB", Exempt: map[string]string{
		"Store.Migrate":         "table migration (the legacy tables), not an access pattern",
		"Store.VerifyMigration": "migration check",
		"Store.Verify":          "migration check",
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
