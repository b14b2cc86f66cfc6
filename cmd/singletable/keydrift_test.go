package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestNoPatternRestatesATemplate enumerates every keys.NewPattern left in
// the applications' entity and store packages (parsed from the source, so
// a pattern added later is found too) and requires each to have the shape
// of a side of a template some entity declares: the same literal segments
// and as many variable ones. A template that changes without its pattern,
// or a pattern of a key no entity declares, fails here. Since issue 33 the
// key helpers build from the templates themselves; the patterns left are
// listed in the log.
func TestNoPatternRestatesATemplate(t *testing.T) {
	declared := map[string]string{} // shape -> template
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range apps {
			if !yield(n) {
				return
			}
		}
	}) {
		for _, tb := range openApp(apps[name]) {
			for _, e := range tb.Entities() {
				em := e.Model()
				sides := []string{em.Keys.PK, em.Keys.SK}
				for _, ix := range em.Indexes {
					sides = append(sides, ix.PK, ix.SK)
				}
				for _, s := range sides {
					for _, sh := range templateShapes(s) {
						declared[sh] = s
					}
				}
			}
		}
	}
	files, err := filepath.Glob("../../entity/*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../../query/*/*.go")
	files = append(files, more...)
	var left []string
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := call.Fun
			if ix, ok := fn.(*ast.IndexExpr); ok {
				fn = ix.X
			}
			sel, ok := fn.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "NewPattern" {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "keys" {
				return true
			}
			shape, ok := patternShape(call.Args)
			pos := fset.Position(call.Pos())
			where := strings.TrimPrefix(pos.String(), "../../")
			if !ok {
				t.Errorf("%s: a keys.NewPattern whose segments are not string literals: state the key as a table.Template", where)
				return true
			}
			left = append(left, where+" "+shape)
			if _, ok := declared[shape]; !ok {
				t.Errorf("%s: keys.NewPattern %s has the shape of no declared template side: build the key from the template instead", where, shape)
			}
			return true
		})
	}
	t.Logf("%d keys.NewPattern left, each the shape of a declared template:\n%s", len(left), strings.Join(left, "\n"))
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
