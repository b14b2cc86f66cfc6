package table_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// folder is a tree entity: its path is its sort key on GSI1.
type folder struct {
	ID     string   `dynamo:"id"`
	Path   string   `dynamo:"path"`
	Labels []string `dynamo:"labels"`
}

var folderDef = table.Def[folder]{
	Type:      "Folder",
	Keys:      table.Template{PK: "FOLDER#{id}", SK: "FOLDER"},
	IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "TREE", SK: "PATH#{path:esc}"}},
}

func declareFolderPatterns(tb *table.Table) (*table.Entity[folder], *table.Pattern[folder]) {
	folders := table.NewEntity(tb, folderDef)
	return folders, table.NewPattern(folders, table.PatternDef[folder]{ID: "T-20", Name: "folders.Folders.Subtree",
		Doc: "The folders at or below a path, with a label when one is given.", Reads: table.ReadPage, Index: table.GSI1,
		SortPrefix: true, WholeKeyBegins: true, FilterContains: []string{"labels"}})
}

// TestPatternWholeKeyBeginsFilterContains: WholeKeyBegins reads every
// sort key beginning with the whole key the fields build (a path and the
// paths below it), FilterContains keeps the items whose list holds the
// one value given; both byte for byte the requests of Entity.List with
// SKBeginsWith and Query.FilterContains. Two values to contain are a
// *ValidationError before any request.
func TestPatternWholeKeyBeginsFilterContains(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("pfilter"))
	seed, _ := declareFolderPatterns(tb)
	c := ctx(t)
	for _, x := range []folder{
		{ID: "f1", Path: "/a/", Labels: []string{"red"}},
		{ID: "f2", Path: "/a/b/", Labels: []string{"red", "blue"}},
		{ID: "f3", Path: "/ab/", Labels: []string{"blue"}},
		{ID: "f4", Path: "/a/c/", Labels: []string{"blue"}},
	} {
		if err := seed.Create(c, &x); err != nil {
			t.Fatal(err)
		}
	}
	var viewLog, handleLog tabletest.RequestLog
	_, subtree := declareFolderPatterns(loggedTable(t, tb, &viewLog))
	folders := table.NewEntity(loggedTable(t, tb, &handleLog), folderDef)
	ids := func(fs []folder) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.ID)
		}
		return out
	}
	viewLog.Mark("subtree")
	handleLog.Mark("subtree")
	page, err := subtree.List(c, folder{Path: "/a/"})
	if err != nil || !slices.Equal(ids(page.Items), []string{"f1", "f2", "f4"}) {
		t.Errorf("Subtree /a/ = %v, %v; want [f1 f2 f4] (not /ab/)", ids(page.Items), err)
	}
	q := table.Query{Index: table.GSI1, PK: "TREE", SK: table.SKBeginsWith("PATH#/a/")}
	if _, err := folders.List(c, q); err != nil {
		t.Fatal(err)
	}
	viewLog.Mark("labelled")
	handleLog.Mark("labelled")
	page, err = subtree.List(c, folder{Path: "/a/", Labels: []string{"blue"}})
	if err != nil || !slices.Equal(ids(page.Items), []string{"f2", "f4"}) {
		t.Errorf("Subtree /a/ blue = %v, %v; want [f2 f4]", ids(page.Items), err)
	}
	q.FilterContains = map[string]any{"labels": "blue"}
	if _, err := folders.List(c, q); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(handleLog.String(), viewLog.String()); diff != "" {
		t.Errorf("requests of the pattern (+) and of the entity (-) differ:\n%s", diff)
	}
	if !strings.Contains(viewLog.String(), "begins_with") || !strings.Contains(viewLog.String(), "contains(") {
		t.Errorf("requests: %s", viewLog.String())
	}

	viewLog.Mark("two")
	before := viewLog.String()
	var ve *table.ValidationError
	if _, err := subtree.List(c, folder{Path: "/a/", Labels: []string{"red", "blue"}}); !errors.As(err, &ve) || ve.Field != "labels" {
		t.Errorf("two values to contain = %v, want a *ValidationError naming labels", err)
	}
	if viewLog.String() != before {
		t.Errorf("a request was sent for two values: %s", viewLog.String())
	}
	var list string
	for _, m := range subtree.Info().Methods {
		if m.Name == "List" {
			list = m.Request
		}
	}
	if want := "Query GSI1 PK = TREE, SK begins_with PATH#{path:esc} up to its first field not set (or whole), filter contains(labels)"; list != want {
		t.Errorf("Info List request = %q, want %q", list, want)
	}
	for name, def := range map[string]table.PatternDef[folder]{
		"WholeKeyBegins": {ID: "T-21", Name: "folders.Folders.Bad", Reads: table.ReadPage, WholeKeyBegins: true},
		"FilterContains": {ID: "T-22", Name: "folders.Folders.Bad2", Reads: table.ReadPage, FilterContains: []string{"path"}},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), name) {
					t.Errorf("%s misdeclared: panic %v, want one naming it", name, r)
				}
			}()
			table.NewPattern(seed, def)
		}()
	}
}
