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
// declared field of a store (a pattern, a write, a unique read), or its
// declaration's Doc, writes out the request its declaration generates
// (docs/patterns): two statements of one thing, of which only the
// generated one is checked.
func TestDeclaredFieldsDocumentedOnce(t *testing.T) {
	for _, app := range openedStores() {
		problems, read, err := Restated(app.p.Dir, Declared(app.tables...))
		if err != nil {
			t.Fatal(err)
		}
		problems = append(problems, RestatedDocs(app.tables...)...)
		for _, p := range problems {
			t.Error(p)
		}
		if read == 0 {
			t.Errorf("%s: no declared field read", app.p.Dir)
		}
		t.Logf("%s: %d declared fields read", app.p.Dir, read)
	}
}

// openedStore is an application's store opened on tables of no client,
// for the checks that read its declarations.
type openedStore struct {
	p      Package
	store  any
	tables []*table.Table // the store's table first
}

// openedStores opens the four applications' stores.
func openedStores() []openedStore {
	fhMain, fhEvents := table.New(nil, ferryhook.MainSchema("")), table.New(nil, ferryhook.EventsSchema(""))
	pf, lb, tn := table.New(nil, podcastflow.Schema("")), table.New(nil, listbackup.Schema("")), table.New(nil, table.NewSchema(""))
	return []openedStore{
		{Package{Dir: "../../query/ferryhook", Name: "ferryhook", Prefix: "FH"}, ferryhook.New(fhMain, fhEvents), []*table.Table{fhMain, fhEvents}},
		{Package{Dir: "../../query/podcastflow", Name: "podcastflow", Prefix: "PF"}, podcastflow.New(pf), []*table.Table{pf}},
		{Package{Dir: "../../query/listbackup", Name: "listbackup", Prefix: "LB"}, listbackup.New(lb), []*table.Table{lb}},
		{Package{Dir: "../../query/tinode", Name: "tinode", Prefix: "TN"}, tinode.New(tn), []*table.Table{tn}},
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

type restatedNote struct {
	ID     string `dynamo:"id"`
	Author string `dynamo:"author"`
}

// TestRestatedDocsFindsRequests runs RestatedDocs on declarations whose
// Doc writes out a request and on ones whose Doc does not.
func TestRestatedDocsFindsRequests(t *testing.T) {
	tb := table.New(nil, table.NewSchema("restated"))
	notes := table.NewEntity(tb, table.Def[restatedNote]{Type: "Note",
		Keys:      table.Template{PK: "NOTE#{id}", SK: "NOTE"},
		IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "AUTHOR#{author}", SK: "NOTE#{id}"}}})
	table.NewPattern(notes, table.PatternDef[restatedNote]{ID: "XX-1", Name: "notes.Notes.ByAuthor",
		Doc: "An author's notes: Query GSI1 PK = AUTHOR#{author}.", Index: table.GSI1, Reads: table.ReadPage})
	table.NewPattern(notes, table.PatternDef[restatedNote]{ID: "XX-2", Name: "notes.Notes.ByID",
		Doc: "A note by ID.", Reads: table.ReadOne})
	table.Create(notes, table.WriteDef[restatedNote]{ID: "XX-3", Name: "notes.Notes.Create",
		Doc: "Creates a note: one PutItem of NOTE#{id} / NOTE."})
	table.Create(notes, table.WriteDef[restatedNote]{ID: "XX-4", Name: "notes.Notes.Add",
		Doc: "Creates a note, never overwriting one."})
	problems := RestatedDocs(tb)
	if len(problems) != 2 || !strings.HasPrefix(problems[0], "notes.Notes.ByAuthor: ") || !strings.HasPrefix(problems[1], "notes.Notes.Create: ") {
		t.Errorf("RestatedDocs = %q, want ByAuthor's and Create's Doc reported, and no other", problems)
	}
}
