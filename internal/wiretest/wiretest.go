// Package wiretest checks that the store methods of the applications'
// packages report their access pattern: every exported method taking a
// context.Context whose doc comment cites a catalog ID (FH-6, PF-3, ...)
// must start with [table.Table.Call] (or return [table.CallSeq2] or
// [table.CallPages]) naming one of the IDs it cites and itself as
// "pkg.Type.Method", and end the call with its named error result. A method that cites no ID must be
// listed as exempt, so that a new method cannot slip by unwired. A
// declared pattern ([table.Pattern]) carries its ID and name by
// construction: [CheckDeclared] holds each to its place in the store.
package wiretest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"iter"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/singletable/singletable/table"
)

// Package is one store package to check.
type Package struct {
	Dir    string // directory, relative to the caller
	Name   string // package name, the method names' first part ("ferryhook")
	Prefix string // catalog ID prefix ("FH")
	// Exempt lists "Type.Method" of exported ctx-taking methods that cite
	// no catalog ID on purpose (maintenance jobs, adoption), with why.
	Exempt map[string]string
	// Ops are the store's declared operations by "Type.field" ([OpsOf]):
	// a method whose body runs in one ([table.Op]) is wired when the op
	// held in the field named as the method (Put: put) is declared with
	// the method's name and one of the IDs its doc cites.
	Ops map[string]table.Op
}

// OpsOf returns the declared operations ([table.Op]) of store (a
// package's *Store) by "Type.field": every field of type table.Op of
// store itself and of an aggregate (an exported pointer-to-struct field of
// store).
func OpsOf(store any) map[string]table.Op {
	out := map[string]table.Op{}
	opType := reflect.TypeFor[table.Op]()
	sv := reflect.ValueOf(store).Elem()
	for i := range sv.NumField() { // the store's own operations (Store.Ingest)
		if sv.Type().Field(i).Type == opType {
			v := sv.Field(i)
			out[sv.Type().Name()+"."+sv.Type().Field(i).Name] = table.Op{ID: v.FieldByName("ID").String(), Name: v.FieldByName("Name").String()}
		}
	}
	for f := range aggregateFields(store) {
		if f.Type != opType {
			continue
		}
		v := f.V // unexported: read, not called
		out[f.Agg.Name()+"."+f.Name] = table.Op{ID: v.FieldByName("ID").String(), Name: v.FieldByName("Name").String()}
	}
	return out
}

// Check returns one message per method that breaks the rule, and the
// number of methods found wired.
func Check(p Package) (problems []string, wired int, err error) {
	fset := token.NewFileSet()
	files, err := sources(fset, p.Dir)
	if err != nil {
		return nil, 0, err
	}
	idRE := regexp.MustCompile(`\b` + regexp.QuoteMeta(p.Prefix) + `-[0-9]+\b`)
	seen := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || !fd.Name.IsExported() || fd.Body == nil {
				continue
			}
			ctxName := contextParam(fd)
			if ctxName == "" {
				continue
			}
			name := recvType(fd) + "." + fd.Name.Name
			if !ast.IsExported(recvType(fd)) {
				continue
			}
			where := fmt.Sprintf("%s: %s.%s", fset.Position(fd.Pos()), p.Name, name)
			var ids []string
			if fd.Doc != nil {
				ids = idRE.FindAllString(fd.Doc.Text(), -1)
			}
			if len(ids) == 0 {
				if _, ok := p.Exempt[name]; ok {
					seen[name] = true
					continue
				}
				problems = append(problems, where+": exported method with a context cites no catalog ID: cite the pattern it serves and call Table.Call with it, or list it in Exempt")
				continue
			}
			if field, ok := opForm(fd, ctxName); ok {
				if msg := checkOp(p, recvType(fd), fd.Name.Name, field, ids); msg != "" {
					problems = append(problems, where+": "+msg)
					continue
				}
				wired++
				continue
			}
			if n := countLit(fd.Body, p.Name+"."+name); n != 1 {
				problems = append(problems, fmt.Sprintf("%s: names itself %d times, want one call", where, n))
				continue
			}
			if msg := checkBody(fd, ctxName, ids, p.Name+"."+name); msg != "" {
				problems = append(problems, where+": "+msg)
				continue
			}
			wired++
		}
	}
	for name := range p.Exempt {
		if !seen[name] {
			problems = append(problems, fmt.Sprintf("%s.%s is listed in Exempt but is not an uncited exported method", p.Name, name))
		}
	}
	return problems, wired, nil
}

func recvType(fd *ast.FuncDecl) string {
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func contextParam(fd *ast.FuncDecl) string {
	for _, p := range fd.Type.Params.List {
		if sel, ok := p.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Context" {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "context" && len(p.Names) > 0 {
				return p.Names[0].Name
			}
		}
	}
	return ""
}

// patternArgs reports whether args[i], args[i+1] are the string literals
// of a cited ID and the method's name.
func patternArgs(args []ast.Expr, i int, ids []string, method string) string {
	if len(args) < i+2 {
		return "too few arguments"
	}
	pat, ok1 := stringLit(args[i])
	m, ok2 := stringLit(args[i+1])
	if !ok1 || !ok2 {
		return "the pattern and method must be string literals"
	}
	if !slices.Contains(ids, pat) {
		return fmt.Sprintf("calls pattern %q, but its doc cites %v", pat, ids)
	}
	if m != method {
		return fmt.Sprintf("names itself %q, want %q", m, method)
	}
	return ""
}

func stringLit(e ast.Expr) (string, bool) {
	bl, ok := e.(*ast.BasicLit)
	if !ok || bl.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(bl.Value)
	return s, err == nil
}

func selName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return selName(x.X)
	}
	return ""
}

func checkBody(fd *ast.FuncDecl, ctxName string, ids []string, method string) string {
	stmts := fd.Body.List
	if len(stmts) == 0 {
		return "empty body"
	}
	// An iterator: return table.CallSeq2(ctx, t, "ID", "method", func...),
	// or table.CallPages with the same first arguments.
	if r, ok := stmts[0].(*ast.ReturnStmt); ok && len(r.Results) == 1 {
		if c, ok := r.Results[0].(*ast.CallExpr); ok && (selName(c.Fun) == "CallSeq2" || selName(c.Fun) == "CallPages") {
			return patternArgs(c.Args, 2, ids, method)
		}
	}
	const want = "must start with `ctx, call := <table>.Call(ctx, \"<ID>\", \"<pkg.Type.Method>\")` and `defer func() { call.End(err) }()`"
	as, ok := stmts[0].(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return want
	}
	c, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok || selName(c.Fun) != "Call" {
		return want
	}
	if x, ok := as.Lhs[0].(*ast.Ident); !ok || x.Name != ctxName {
		return "the call's context must replace " + ctxName
	}
	if msg := patternArgs(c.Args, 1, ids, method); msg != "" {
		return msg
	}
	callVar, _ := as.Lhs[1].(*ast.Ident)
	if callVar == nil || len(stmts) < 2 {
		return want
	}
	ds, ok := stmts[1].(*ast.DeferStmt)
	if !ok {
		return want
	}
	errName := errResult(fd)
	// defer call.End(nil) is right only without an error result.
	var end *ast.CallExpr
	if fl, ok := ds.Call.Fun.(*ast.FuncLit); ok && len(fl.Body.List) == 1 {
		if es, ok := fl.Body.List[0].(*ast.ExprStmt); ok {
			end, _ = es.X.(*ast.CallExpr)
		}
	} else {
		end = ds.Call
	}
	if end == nil || selName(end.Fun) != "End" || len(end.Args) != 1 {
		return want
	}
	if sel, ok := end.Fun.(*ast.SelectorExpr); !ok || selName(sel.X) != callVar.Name {
		return want
	}
	arg, _ := end.Args[0].(*ast.Ident)
	switch {
	case errName == "" && (arg == nil || arg.Name != "nil"):
		return "without an error result, end with call.End(nil)"
	case errName == "-":
		return "name the error result (err) so that the call ends with it"
	case errName != "" && (arg == nil || arg.Name != errName):
		return fmt.Sprintf("must end the call with its error result %s: defer func() { call.End(%s) }()", errName, errName)
	}
	return ""
}

// errResult returns the name of the last result when it is an error ("-"
// when unnamed), or "".
func errResult(fd *ast.FuncDecl) string {
	r := fd.Type.Results
	if r == nil || len(r.List) == 0 {
		return ""
	}
	last := r.List[len(r.List)-1]
	if id, ok := last.Type.(*ast.Ident); !ok || id.Name != "error" {
		return ""
	}
	if len(last.Names) == 0 || last.Names[len(last.Names)-1].Name == "_" {
		return "-"
	}
	return last.Names[len(last.Names)-1].Name
}

// countLit counts the string literals lit in body.
func countLit(body ast.Node, lit string) int {
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		if s, ok := x.(ast.Expr); ok {
			if v, ok := stringLit(s); ok && v == lit {
				n++
			}
		}
		return true
	})
	return n
}

// CheckDeclared returns one message per declared pattern of store (a
// package's *Store) that a user could not find by its app and name, or
// whose ID is not the package's: every exported field of type
// *table.Pattern[T] of an aggregate (an exported pointer-to-struct field
// of store) must be set and declared with ID of the package's prefix and
// Name "pkg.Type.Field" (its place: "podcastflow.Users.ByOrganization"),
// and every pattern declared on tables must be such a field. It returns
// the number of patterns found so. A declared pattern opens its calls
// with its ID by construction ([table.Pattern]), so this is what is left
// to check.
func CheckDeclared(p Package, store any, tables ...*table.Table) (problems []string, declared int) {
	idRE := regexp.MustCompile(`^` + regexp.QuoteMeta(p.Prefix) + `-[0-9]+$`)
	infoType := reflect.TypeFor[table.PatternInfo]()
	found := map[string]bool{}
	for pf := range aggregateFields(store) {
		info, ok := pf.Type.MethodByName("Info")
		if !pf.IsExported() || pf.Type.Kind() != reflect.Pointer || !strings.HasPrefix(pf.Type.Elem().Name(), "Pattern[") ||
			pf.Type.Elem().PkgPath() != infoType.PkgPath() || !ok || info.Type.NumOut() != 1 || info.Type.Out(0) != infoType {
			continue
		}
		where := fmt.Sprintf("%s.%s.%s", p.Name, pf.Agg.Name(), pf.Name)
		pv := pf.V
		if pv.IsNil() {
			problems = append(problems, where+": declared pattern field not set")
			continue
		}
		in := pv.MethodByName("Info").Call(nil)[0].Interface().(table.PatternInfo)
		switch {
		case in.Name != where:
			problems = append(problems, fmt.Sprintf("%s: declared as %q, want its place %q", where, in.Name, where))
		case !idRE.MatchString(in.ID):
			problems = append(problems, fmt.Sprintf("%s: ID %q is not a %s catalog ID", where, in.ID, p.Prefix))
		default:
			declared++
		}
		found[in.Name] = true
	}
	for _, t := range tables {
		for _, in := range t.Patterns() {
			if !found[in.Name] {
				problems = append(problems, fmt.Sprintf("%s (%s) is declared on table %s but is no field of the store's aggregates", in.Name, in.ID, t.Name()))
			}
		}
	}
	return problems, declared
}

// runFuncs are the functions of package table that run a body in the
// op they take second: table.Run and table.Run2, and the iterator forms
// table.RunSeq and table.RunPages.
var runFuncs = map[string]bool{"Run": true, "Run2": true, "RunSeq": true, "RunPages": true}

// opForm reports whether fd's body is one statement running in a declared
// operation held in a field of its receiver: `return r.field.Do(ctx, ...)`,
// or `return table.Run(ctx, r.field, ...)` (or table.RunSeq or
// table.RunPages), and returns the field.
func opForm(fd *ast.FuncDecl, ctxName string) (string, bool) {
	if len(fd.Body.List) != 1 {
		return "", false
	}
	r, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(r.Results) != 1 {
		return "", false
	}
	c, ok := r.Results[0].(*ast.CallExpr)
	if !ok || len(c.Args) < 2 {
		return "", false
	}
	var op ast.Expr
	switch fun := c.Fun.(type) {
	case *ast.SelectorExpr:
		if fun.Sel.Name == "Do" {
			op = fun.X
		} else if x, ok := fun.X.(*ast.Ident); ok && x.Name == "table" && runFuncs[fun.Sel.Name] {
			op = c.Args[1]
		}
	case *ast.IndexExpr: // table.Run[R](...)
		if sel, ok := fun.X.(*ast.SelectorExpr); ok && runFuncs[sel.Sel.Name] {
			op = c.Args[1]
		}
	}
	if a, ok := c.Args[0].(*ast.Ident); !ok || a.Name != ctxName || op == nil {
		return "", false
	}
	sel, ok := op.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	if x, ok := sel.X.(*ast.Ident); !ok || len(fd.Recv.List[0].Names) == 0 || x.Name != fd.Recv.List[0].Names[0].Name {
		return "", false
	}
	return sel.Sel.Name, true
}

// checkOp checks that the op in field of type typ is declared for method
// with one of the IDs its doc cites.
func checkOp(p Package, typ, method, field string, ids []string) string {
	want := strings.ToLower(method[:1]) + method[1:]
	if token.IsKeyword(want) {
		want += "_" // Import: import_
	}
	if field != want {
		return fmt.Sprintf("runs in the op of field %s, want the field named as the method (%s)", field, want)
	}
	op, ok := p.Ops[typ+"."+field]
	switch {
	case !ok:
		return fmt.Sprintf("runs in %s.%s, which is no declared table.Op of the store (Package.Ops, OpsOf)", typ, field)
	case op.Name != p.Name+"."+typ+"."+method:
		return fmt.Sprintf("its op is declared as %q, want %q", op.Name, p.Name+"."+typ+"."+method)
	case !slices.Contains(ids, op.ID):
		return fmt.Sprintf("its op is declared with %s, but its doc cites %v", op.ID, ids)
	}
	return ""
}

// aggField is one field of one aggregate of a store (an exported, set,
// pointer-to-struct field of the store's struct), with its value.
type aggField struct {
	reflect.StructField
	Agg reflect.Type  // the aggregate's struct type ("Users")
	V   reflect.Value // the field's value (unexported ones: read only)
}

// aggregateFields yields every field of every aggregate of store (a
// package's *Store): the walk [OpsOf], [CheckDeclared] and [CheckWrites]
// share.
func aggregateFields(store any) iter.Seq[aggField] {
	return func(yield func(aggField) bool) {
		sv := reflect.ValueOf(store).Elem()
		for i := range sv.NumField() {
			agg := sv.Field(i)
			if !sv.Type().Field(i).IsExported() || agg.Kind() != reflect.Pointer || agg.Type().Elem().Kind() != reflect.Struct || agg.IsNil() {
				continue
			}
			at := agg.Type().Elem()
			for j := range at.NumField() {
				if !yield(aggField{StructField: at.Field(j), Agg: at, V: agg.Elem().Field(j)}) {
					return
				}
			}
		}
	}
}

// sources parses the non-test Go files of the package in dir, with
// their comments.
func sources(fset *token.FileSet, dir string) ([]*ast.File, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}
