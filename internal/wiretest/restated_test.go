package wiretest

import (
	"strings"
	"testing"

	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
)

// TestDeclaredFieldsDocumentedOnce fails when the doc comment of a
// declared field of a store (a pattern, a write, a unique read) writes
// out the request its declaration generates (docs/patterns): two
// statements of one thing, of which only the generated one is checked.
func TestDeclaredFieldsDocumentedOnce(t *testing.T) {
	fhMain, fhEvents := table.New(nil, ferryhook.MainSchema("")), table.New(nil, ferryhook.EventsSchema(""))
	ferryhook.New(fhMain, fhEvents)
	pf := table.New(nil, podcastflow.Schema(""))
	podcastflow.New(pf)
	lb := table.New(nil, listbackup.Schema(""))
	listbackup.New(lb)
	tn := table.New(nil, table.NewSchema(""))
	tinode.New(tn)
	for _, app := range []struct {
		dir    string
		tables []*table.Table
	}{
		{"../../query/ferryhook", []*table.Table{fhMain, fhEvents}},
		{"../../query/podcastflow", []*table.Table{pf}},
		{"../../query/listbackup", []*table.Table{lb}},
		{"../../query/tinode", []*table.Table{tn}},
	} {
		problems, read, err := Restated(app.dir, Declared(app.tables...))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Error(p)
		}
		if read == 0 {
			t.Errorf("%s: no declared field read", app.dir)
		}
		t.Logf("%s: %d declared fields read", app.dir, read)
	}
}

// TestRestatedFindsRequests runs the check of
// TestDeclaredFieldsDocumentedOnce on a source whose declared fields
// write out their requests, and on one whose fields do not.
func TestRestatedFindsRequests(t *testing.T) {
	declared := map[string]bool{"Notes.ByAuthor": true, "Notes.Create": true, "Notes.ByID": true}
	problems, read, err := Restated("testdata/restated", declared)
	if err != nil {
		t.Fatal(err)
	}
	if read != 3 {
		t.Errorf("read %d declared fields, want 3", read)
	}
	want := map[string]bool{"Notes.ByAuthor": false, "Notes.ByID": false}
	for _, p := range problems {
		for name := range want {
			if strings.Contains(p, ": "+name+": ") {
				want[name] = true
			}
		}
		if strings.Contains(p, "Notes.Create") || strings.Contains(p, "Other.") {
			t.Errorf("reported a field whose doc restates nothing, or an undeclared one: %s", p)
		}
	}
	for name, seen := range want {
		if !seen {
			t.Errorf("%s restates its request and was not reported (problems: %q)", name, problems)
		}
	}
}
