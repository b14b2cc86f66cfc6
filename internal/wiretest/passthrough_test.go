package wiretest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// passThroughExempt lists "pkg.Type.Method" of store methods the rule
// flags that stay on purpose, with why.
var passThroughExempt = map[string]string{
	"listbackup.AccountScope.Get": "a request handler holds the account scope alone (issue 11), not the Store's Accounts: " +
		"this is its one way to read its own account (LB-9), and the ID is the scope's, not the caller's",
}

// TestNoPassThroughReads fails on a store method that only forwards to
// one read, which a declared pattern ([table.Pattern]) or [table.Every]
// gives its caller without a method (issue 42: "No store method is a
// pass-through of one declared pattern"). In the four applications'
// store packages, an exported method of an exported type is flagged when
// its body, inside a table.Run, Run2, RunSeq or RunPages closure or an
// Op.Do closure or not, is
//
//   - at most one key build (an assignment) and its `if err != nil {
//     return ... }`, then a single return of one read call: a method
//     named Get, List, All, ListAll, Query, Between or AllBetween, or
//     table.Every (a pass-through read); or
//   - a table.RunPages or table.RunSeq whose closure only returns a call
//     of another method of the same receiver (an iterator twin of a page
//     read: callers use table.Every or table.Pages).
//
// A method with a rule (a check, a filter of the result, a default) or a
// second request has more statements and is not flagged.
func TestNoPassThroughReads(t *testing.T) {
	used := map[string]bool{}
	for _, dir := range []string{"ferryhook", "listbackup", "podcastflow", "tinode"} {
		hits, err := passThroughsIn(filepath.Join("../../query", dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			if _, ok := passThroughExempt[dir+"."+h.name]; ok {
				used[dir+"."+h.name] = true
				continue
			}
			t.Errorf("%s: %s.%s is %s: declare the pattern (a store field) or let callers use table.Every or table.Pages, or give it a rule", h.pos, dir, h.name, h.why)
		}
	}
	for name := range passThroughExempt {
		if !used[name] {
			t.Errorf("%s is exempt but no longer a pass-through: drop it from passThroughExempt", name)
		}
	}
}

// TestNoPassThroughReadsBites: the rule flags a pass-through and a twin,
// not a method with two reads or a rule.
func TestNoPassThroughReadsBites(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       string // "" not flagged, else the reason's first word
	}{
		{"get in Run", `return table.Run(ctx, s.get, func(ctx context.Context) (T, error) { return s.e.things.Get(ctx, k) })`, "a"},
		{"key build in Run", `return table.Run(ctx, s.get, func(ctx context.Context) (T, error) {
			k, err := key(s.e.things, T{ID: id}, id.Validate("id"))
			if err != nil {
				return T{}, err
			}
			return s.v().Get(ctx, k)
		})`, "a"},
		{"bare list", `return s.e.things.List(ctx, q, opts...)`, "a"},
		{"pattern get", `return s.ByID.Get(ctx, T{ID: id})`, "a"},
		{"every", `return table.Every(ctx, s.Due, now)`, "a"},
		{"twin", `return table.RunPages(ctx, s.allDue, func(ctx context.Context, o ...table.ListOption) (table.Page[T], error) {
			return s.Due(ctx, now, o...)
		}, opts...)`, "an"},
		{"rule after read", `return table.Run(ctx, s.get, func(ctx context.Context) (T, error) {
			x, err := s.e.things.Get(ctx, k)
			if err == nil && x.Deleted() {
				return T{}, ErrGone
			}
			return x, err
		})`, ""},
		{"two reads", `return table.Run(ctx, s.get, func(ctx context.Context) (T, error) {
			if _, err := s.e.users.Get(ctx, u); err != nil {
				return T{}, err
			}
			return s.e.things.Get(ctx, k)
		})`, ""},
		{"check before read", `return table.Run(ctx, s.get, func(ctx context.Context) (T, error) {
			if st == "" {
				return T{}, table.Invalid("status", "required")
			}
			return s.e.things.List(ctx, q)
		})`, ""},
		{"write", `return s.create.Do(ctx, func(ctx context.Context) error { return s.e.things.Create(ctx, x) })`, ""},
		{"pages over a helper", `return table.RunPages(ctx, s.all, func(ctx context.Context, o ...table.ListOption) (table.Page[T], error) {
			return s.merge(ctx, a, b, o)
		}, opts...)`, "an"},
		{"seq twin over a helper", `return table.RunSeq(ctx, s.all, func(ctx context.Context) iter.Seq2[T, error] {
			return s.pages(ctx, topic, since, opts)
		})`, "an"},
		{"seq with a rule", `return table.RunSeq(ctx, s.all, func(ctx context.Context) iter.Seq2[T, error] {
			if since < 0 {
				return table.Fail[T](table.Invalid("since", "negative"))
			}
			return s.pages(ctx, topic, since, opts)
		})`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := fmt.Sprintf("package p\n\nfunc (s *S) M(ctx context.Context) (T, error) {\n%s\n}\n\nfunc (s *S) n(ctx context.Context) (T, error) { return s.e.things.Get(ctx, k) }\n", tc.body)
			f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if why := passThrough(fd); why != "" && fd.Name.IsExported() {
						got = append(got, why)
					}
				}
			}
			switch {
			case tc.want == "" && len(got) > 0:
				t.Errorf("flagged as %q, want not flagged", got)
			case tc.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tc.want+" ")):
				t.Errorf("flagged as %q, want one flag starting %q", got, tc.want)
			}
		})
	}
}

type passThroughHit struct{ pos, name, why string }

// passThroughsIn returns the flagged methods of the package in dir.
func passThroughsIn(dir string) ([]passThroughHit, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var hits []passThroughHit
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Body == nil || !fd.Name.IsExported() || !ast.IsExported(recvType(fd)) {
				continue
			}
			if why := passThrough(fd); why != "" {
				hits = append(hits, passThroughHit{fset.Position(fd.Pos()).String(), recvType(fd) + "." + fd.Name.Name, why})
			}
		}
	}
	return hits, nil
}

// readMethods are the names of the reads a pass-through forwards to.
var readMethods = map[string]bool{"Get": true, "List": true, "All": true, "ListAll": true, "Query": true, "Between": true, "AllBetween": true}

// passThrough returns why fd is a pass-through read or an iterator twin,
// or "".
func passThrough(fd *ast.FuncDecl) string {
	recv := ""
	if names := fd.Recv.List[0].Names; len(names) > 0 {
		recv = names[0].Name
	}
	stmts := fd.Body.List
	for {
		c := singleReturnCall(stmts)
		if c == nil {
			break
		}
		fn, run := runClosure(c)
		if fn == nil {
			break
		}
		if run == "RunPages" || run == "RunSeq" {
			if in := singleReturnCall(fn.Body.List); in != nil {
				if sel, ok := in.Fun.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == recv && recv != "" {
						return "an iterator twin of " + sel.Sel.Name
					}
				}
			}
		}
		stmts = fn.Body.List
	}
	// At most one key build and its error check before the read.
	if len(stmts) == 3 {
		as, ok1 := stmts[0].(*ast.AssignStmt)
		is, ok2 := stmts[1].(*ast.IfStmt)
		if !ok1 || !ok2 || !errCheck(as, is) {
			return ""
		}
		stmts = stmts[2:]
	}
	c := singleReturnCall(stmts)
	if c == nil || !isRead(c) {
		return ""
	}
	return "a pass-through of " + exprString(c.Fun)
}

// singleReturnCall returns the call of stmts when they are one `return
// call(...)`.
func singleReturnCall(stmts []ast.Stmt) *ast.CallExpr {
	if len(stmts) != 1 {
		return nil
	}
	r, ok := stmts[0].(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 {
		return nil
	}
	c, _ := r.Results[0].(*ast.CallExpr)
	return c
}

// runClosure returns the closure c runs in a declared operation
// (table.Run, Run2, RunSeq, RunPages; op.Do), and the function's name.
func runClosure(c *ast.CallExpr) (*ast.FuncLit, string) {
	fun := c.Fun
	if ix, ok := fun.(*ast.IndexExpr); ok { // table.Run[R](...)
		fun = ix.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	i := -1
	if x, ok := sel.X.(*ast.Ident); ok && x.Name == "table" && runFuncs[sel.Sel.Name] {
		i = 2
	} else if sel.Sel.Name == "Do" {
		i = 1
	}
	if i < 0 || len(c.Args) <= i {
		return nil, ""
	}
	fn, _ := c.Args[i].(*ast.FuncLit)
	return fn, sel.Sel.Name
}

// errCheck reports whether as assigns err and is is `if err != nil {
// return ... }` with nothing else.
func errCheck(as *ast.AssignStmt, is *ast.IfStmt) bool {
	if len(as.Lhs) == 0 || is.Init != nil || is.Else != nil || len(is.Body.List) != 1 {
		return false
	}
	if id, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident); !ok || id.Name != "err" {
		return false
	}
	if _, ok := is.Body.List[0].(*ast.ReturnStmt); !ok {
		return false
	}
	b, ok := is.Cond.(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ {
		return false
	}
	x, ok1 := b.X.(*ast.Ident)
	y, ok2 := b.Y.(*ast.Ident)
	return ok1 && ok2 && x.Name == "err" && y.Name == "nil"
}

// isRead reports whether c calls a read: a method named as one of
// readMethods, or table.Every.
func isRead(c *ast.CallExpr) bool {
	fun := c.Fun
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if x, ok := sel.X.(*ast.Ident); ok && x.Name == "table" {
		return sel.Sel.Name == "Every"
	}
	return readMethods[sel.Sel.Name]
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.CallExpr:
		return exprString(x.Fun) + "()"
	case *ast.IndexExpr:
		return exprString(x.X)
	}
	return "?"
}
