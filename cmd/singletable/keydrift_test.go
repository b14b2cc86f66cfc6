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

// TestNoPatternRestatesATemplate parses the applications' entity and store
// packages (entity/*, query/*; a file added later is read too) and fails
// on every key shape stated outside its declaration:
//
//   - a keys.NewPattern with the shape of a side of a template some
//     entity declares restates it (build the key with the template:
//     table.Template.Key, Partition, SortPrefix, Parse); one with the shape
//     of no declared side is a key no entity declares;
//   - in a store (query/*), a key built by hand: keys.Escape (a template
//     says "{x:esc}"), strings.Join with the key delimiter, or a
//     concatenation with a string holding it ("ROLE#" + role).
//
// Every application's templates are read from its Defs (the ones the
// engine writes with), ListBackup's included, and each must declare some.
// TestKeyDriftFindsRestatements proves the checks fail on what they
// describe.
func TestNoPatternRestatesATemplate(t *testing.T) {
	declared := map[string][]string{} // shape -> "app: template side"
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range apps {
			if !yield(n) {
				return
			}
		}
	}) {
		n := 0
		for _, tb := range openApp(apps[name]) {
			for _, e := range tb.Entities() {
				em := e.Model()
				sides := []string{em.Keys.PK, em.Keys.SK}
				for _, ix := range em.Indexes {
					sides = append(sides, ix.PK, ix.SK)
				}
				for _, s := range sides {
					for _, sh := range templateShapes(s) {
						if d := name + " " + strconv.Quote(s); !slices.Contains(declared[sh], d) {
							declared[sh] = append(declared[sh], d)
						}
						n++
					}
				}
			}
		}
		if n == 0 {
			t.Errorf("%s declares no template: the check would not see its keys", name)
		}
	}
	files, err := filepath.Glob("../../entity/*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../../query/*/*.go")
	files = append(files, more...)
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
		store := strings.HasPrefix(f, "../../query/")
		for _, d := range keyDrift(fset, af, declared, store) {
			where := strings.TrimPrefix(d.pos.Filename, "../../") + " " + d.fn
			if _, ok := notKeys[where]; ok {
				used[where] = true
				continue
			}
			t.Errorf("%s", strings.TrimPrefix(d.String(), "../../"))
		}
	}
	if read == 0 {
		t.Fatal("no entity or store source read")
	}
	for where := range notKeys {
		if !used[where] {
			t.Errorf("notKeys lists %q, which builds nothing the check reports: remove it", where)
		}
	}
	t.Logf("%d files of entity/ and query/ read against %d declared template shapes", read, len(declared))
}

// notKeys are the functions of a store (file and function) whose
// concatenation with the key delimiter builds no key of the table, each
// with why.
var notKeys = map[string]string{
	"query/listbackup/verify.go joined": "rebuilds a composite attribute of ListBackup's own (legacy) layout, \"accountId#resourceType\", from the migrated copy's attributes, to compare it with the legacy item's",
}

// TestKeyDriftFindsRestatements runs the checks of
// TestNoPatternRestatesATemplate on a source that breaks each of them,
// and on one that builds every key from its template.
func TestKeyDriftFindsRestatements(t *testing.T) {
	declared := map[string][]string{}
	for _, s := range []string{"USER#{userId}", "ROLE#{role}#{userId}", "TAG#{tagKey:esc}#{tagValue:esc}"} {
		for _, sh := range templateShapes(s) {
			declared[sh] = append(declared[sh], "x "+strconv.Quote(s))
		}
	}
	const bad = `package x

import (
	"strings"

	"github.com/singletable/singletable/keys"
)

var UserPK = keys.NewPattern[keys.PK]("USER", "userId")
var TagSK = keys.NewPattern[keys.SK]("TAG", "tagKey", "tagValue")
var Odd = keys.NewPattern[keys.PK]("NOSUCH", "x")

func j(parts ...string) string { return strings.Join(parts, keys.Delimiter) }
func role(r string) string     { return "ROLE#" + r + "#" }
func tag(k string) string      { return "TAG" + keys.Delimiter + keys.Escape(k) }
`
	want := []string{
		`keys.NewPattern USER#{} restates the template x "USER#{userId}"`,
		`keys.NewPattern TAG#{}#{} restates the template x "TAG#{tagKey:esc}#{tagValue:esc}"`,
		"keys.NewPattern NOSUCH#{} has the shape of no declared template",
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
	for _, d := range keyDrift(fset, af, declared, true) {
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
	// An entity package may escape (a unique value is not a key); a
	// pattern is refused there too.
	if got := keyDrift(fset, af, declared, false); len(got) != 3 {
		t.Errorf("entity package: %d findings, want the 3 patterns: %v", len(got), got)
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
	if got := keyDrift(fset, af, declared, true); len(got) != 0 {
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

// keyDrift returns the drifts in the parsed file f: every keys.NewPattern
// (a restated template, or a key no entity declares), and when store is
// set every key built by hand. declared maps a shape ([templateShapes]) to
// the template sides of that shape, each named with its application.
func keyDrift(fset *token.FileSet, f *ast.File, declared map[string][]string, store bool) []drift {
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
			case isSelector(fn, "keys", "NewPattern"):
				shape, ok := patternShape(n.Args)
				switch {
				case !ok:
					report(n, "a keys.NewPattern whose segments are not string literals: state the key as a table.Template")
				case len(declared[shape]) > 0:
					report(n, "keys.NewPattern %s restates the template %s: build and parse the key with the template", shape, strings.Join(declared[shape], " or "))
				default:
					report(n, "keys.NewPattern %s has the shape of no declared template: declare the key as a table.Template", shape)
				}
			case store && isSelector(fn, "keys", "Escape"):
				report(n, "keys.Escape in a store: a template escapes with {x:esc}")
			case store && isSelector(fn, "strings", "Join") && len(n.Args) == 2 && isDelimiter(n.Args[1]):
				report(n, "strings.Join with the key delimiter in a store: build the key with its template")
			}
		case *ast.BinaryExpr:
			if !store || n.Op != token.ADD {
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

// patternShape returns the shape ("LIT#{}#{}") of keys.NewPattern's
// arguments, false when one is not a string literal.
func patternShape(args []ast.Expr) (string, bool) {
	var parts []string
	for i, a := range args {
		lit, ok := a.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return "", false
		}
		if i == 0 {
			parts = append(parts, s)
		} else {
			parts = append(parts, "{}")
		}
	}
	return strings.Join(parts, "#"), true
}

// templateShapes returns the shapes of a template side: each reference
// as the segments it writes, "{}" each; with a trailing shard segment,
// also the shape without it (the partition a reader of every shard names).
func templateShapes(s string) []string {
	var parts []string
	sharded := false
	for _, seg := range strings.Split(s, "#") {
		if !strings.HasPrefix(seg, "{") {
			parts = append(parts, seg)
			continue
		}
		_, mod, _ := strings.Cut(strings.Trim(seg, "{}"), ":")
		switch {
		case mod == "split":
			parts = append(parts, "{}", "{}")
		case strings.HasPrefix(mod, "shard"):
			sharded = true
			parts = append(parts, "{}")
		default:
			parts = append(parts, "{}")
		}
	}
	out := []string{strings.Join(parts, "#")}
	if sharded {
		out = append(out, strings.Join(parts[:len(parts)-1], "#"))
	}
	return out
}
