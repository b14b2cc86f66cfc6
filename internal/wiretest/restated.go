package wiretest

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strings"

	"github.com/singletable/singletable/table"
)

// restatedRequest matches a request written out by hand in a doc: a key
// condition ("PK = SOURCE#{sourceId}", "SK begins_with SCHED#"), a
// request naming its key ("GetItem TOPIC#{name} / TOPIC", "Query GSI1
// PK = ...") or a key template ("UNIQUE#email#{email}").
var restatedRequest = regexp.MustCompile(`\b(PK|SK)\s*(=|<=|>=|<|>|begins_with|between)|\b(GetItem|Query|UpdateItem|PutItem|DeleteItem)\s+(GSI\d+\s+)?(PK\b|[A-Z][A-Z0-9_]*#)|\b[A-Z][A-Z0-9_]*#\S*\{`)

// RestatedDocs returns one message per declaration on tables (a
// pattern, a write, a unique read) whose Doc, the synopsis of its
// docs/patterns row, writes out its request: the row shows the request
// generated from the declaration beside it.
func RestatedDocs(tables ...*table.Table) []string {
	var problems []string
	check := func(name, doc string) {
		if m := restatedRequest.FindString(doc); m != "" {
			problems = append(problems, fmt.Sprintf("%s: its Doc writes out its request (%q): its docs/patterns row generates it", name, m))
		}
	}
	for _, t := range tables {
		for _, p := range t.Patterns() {
			check(p.Name, p.Doc)
		}
		for _, w := range t.Writes() {
			check(w.Name, w.Doc)
		}
		for _, u := range t.Uniques() {
			check(u.Name, u.Doc)
		}
	}
	return problems
}

// Declared returns the names of the fields declared on tables, without
// their package ("Schedules.BySource"): the patterns, writes and unique
// reads whose Name is "pkg.Type.Field".
func Declared(tables ...*table.Table) map[string]bool {
	out := map[string]bool{}
	add := func(name string) {
		if _, rest, ok := strings.Cut(name, "."); ok {
			out[rest] = true
		}
	}
	for _, t := range tables {
		for _, p := range t.Patterns() {
			add(p.Name)
		}
		for _, w := range t.Writes() {
			add(w.Name)
		}
		for _, u := range t.Uniques() {
			add(u.Name)
		}
	}
	return out
}

// Restated returns one message per declared field (a name of declared,
// "Type.Field") of the package in dir whose doc comment writes out its
// request by hand. A declared field is documented once: its request,
// units and hottest key are generated from its declaration
// (docs/patterns, `singletable doc`), where they cannot drift from what
// it sends; its doc says what the declaration cannot. It also returns
// how many declared fields it read.
func Restated(dir string, declared map[string]bool) (problems []string, read int, err error) {
	fset := token.NewFileSet()
	files, err := sources(fset, dir)
	if err != nil {
		return nil, 0, err
	}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, fl := range st.Fields.List {
					for _, n := range fl.Names {
						name := ts.Name.Name + "." + n.Name
						if !declared[name] {
							continue
						}
						read++
						if fl.Doc == nil {
							continue
						}
						if m := restatedRequest.FindString(fl.Doc.Text()); m != "" {
							problems = append(problems, fmt.Sprintf("%s: %s: its doc writes out its request (%q): the declaration generates it (docs/patterns); say what it cannot", fset.Position(fl.Pos()), name, m))
						}
					}
				}
			}
		}
	}
	return problems, read, nil
}
