package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestNoPatternRestatesATemplate parses the applications' store packages
// (query/*; a file added later is read too) and fails on every key built
// by hand instead of through its entity's declaration (the templates
// build and parse every key: table.Entity.Key, Partition, the declared
// patterns): keys.Escape (a template says "{x:esc}"), strings.Join with
// the key delimiter, or a concatenation with a string holding it
// ("ROLE#" + role). TestKeyDriftFindsRestatements proves the checks fail
// on what they describe.
func TestNoPatternRestatesATemplate(t *testing.T) {
	files, err := filepath.Glob("../../query/*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	read := 0
	used := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		read++
		for _, d := range keyDrift(fset, af) {
			where := strings.TrimPrefix(d.pos.Filename, "../../") + " " + d.fn
			if _, ok := notKeys[where]; ok {
				used[where] = true
				continue
			}
			t.Errorf("%s", strings.TrimPrefix(d.String(), "../../"))
		}
	}
	if read == 0 {
		t.Fatal("no store source read")
	}
	for where := range notKeys {
		if !used[where] {
			t.Errorf("notKeys lists %q, which builds nothing the check reports: remove it", where)
		}
	}
	t.Logf("%d files of query/ read", read)
}

// notKeys are the functions of a store (file and function) whose
// concatenation with the key delimiter builds no key of the table, each
// with why. (migrate/verify.go joined, which rebuilds a legacy composite
// attribute such as ListBackup's "accountId#resourceType" to compare it,
// left query/ with package migrate.)
var notKeys = map[string]string{}

// TestKeyDriftFindsRestatements runs the checks of
// TestNoPatternRestatesATemplate on a source that breaks each of them,
// and on one that builds every key from its template.
func TestKeyDriftFindsRestatements(t *testing.T) {
	const bad = `package x

import (
	"strings"

	"github.com/singletable/singletable/keys"
)

func j(parts ...string) string { return strings.Join(parts, keys.Delimiter) }
func role(r string) string     { return "ROLE#" + r + "#" }
func tag(k string) string      { return "TAG" + keys.Delimiter + keys.Escape(k) }
`
	want := []string{
		"strings.Join with the key delimiter",
		`a concatenation with "ROLE#"`,
		`a concatenation with "#"`,
		"a concatenation with keys.Delimiter",
		"keys.Escape",
	}
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, "bad.go", bad, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range keyDrift(fset, af) {
		got = append(got, d.String())
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, w) }) {
			t.Errorf("no finding says %q; findings:\n%s", w, strings.Join(got, "\n"))
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d findings, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	const good = `package x

import (
	"fmt"

	"github.com/singletable/singletable/table"
)

var RoleIndex = table.Template{PK: "MEMBERS#{accountId}", SK: "ROLE#{role}#{userId}"}

func role(r string) (string, error) { return RoleIndex.SortPrefix(map[string]string{"role": r}) }
func msg(n int) string              { return "want " + fmt.Sprint(n) + " items" }
`
	af, err = parser.ParseFile(fset, "good.go", good, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := keyDrift(fset, af); len(got) != 0 {
		t.Errorf("keys built from templates reported: %v", got)
	}
}

// A drift is a key shape stated outside its declaration: where, in which
// function ("" outside one), and what.
type drift struct {
	pos token.Position
	fn  string
	msg string
}

func (d drift) String() string {
	if d.fn == "" {
		return d.pos.String() + ": " + d.msg
	}
	return d.pos.String() + ": in " + d.fn + ": " + d.msg
}

// keyDrift returns the drifts in the parsed store file f: every key
// built by hand.
func keyDrift(fset *token.FileSet, f *ast.File) []drift {
	var out []drift
	fn := ""
	report := func(n ast.Node, format string, args ...any) {
		out = append(out, drift{pos: fset.Position(n.Pos()), fn: fn, msg: fmt.Sprintf(format, args...)})
	}
	visit := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			fn := n.Fun
			if ix, ok := fn.(*ast.IndexExpr); ok {
				fn = ix.X
			}
			switch {
			case isSelector(fn, "keys", "Escape"):
				report(n, "keys.Escape in a store: a template escapes with {x:esc}")
			case isSelector(fn, "strings", "Join") && len(n.Args) == 2 && isDelimiter(n.Args[1]):
				report(n, "strings.Join with the key delimiter in a store: build the key with its template")
			}
		case *ast.BinaryExpr:
			if n.Op != token.ADD {
				return true
			}
			for _, x := range []ast.Expr{n.X, n.Y} {
				if isSelector(x, "keys", "Delimiter") {
					report(n, "a concatenation with keys.Delimiter in a store: build the key with its template")
				} else if lit, ok := x.(*ast.BasicLit); ok && lit.Kind == token.STRING && isDelimiter(lit) {
					s, _ := strconv.Unquote(lit.Value)
					report(n, "a concatenation with %q in a store: build the key with its template", s)
				}
			}
		}
		return true
	}
	for _, d := range f.Decls {
		fn = ""
		if fd, ok := d.(*ast.FuncDecl); ok {
			fn = fd.Name.Name
		}
		ast.Inspect(d, visit)
	}
	return out
}

// isSelector reports whether e is pkg.name.
func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// isDelimiter reports whether e is keys.Delimiter or a string literal
// holding the key delimiter.
func isDelimiter(e ast.Expr) bool {
	if isSelector(e, "keys", "Delimiter") {
		return true
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	s, err := strconv.Unquote(lit.Value)
	return err == nil && strings.Contains(s, "#")
}
