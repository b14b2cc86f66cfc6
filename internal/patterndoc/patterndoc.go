// Package patterndoc reads an application store package's access patterns
// (the patterns it declares, [table.Table.Patterns], and its exported
// methods with the catalog IDs their doc comments cite) and keeps the
// measured cost of each: the requests it sends and the capacity they
// consume on DynamoDB Local.
//
// Both the `singletable doc` command (which renders them) and the request
// cost tests of the store packages (which measure and enforce them) use it,
// so the document, the measurement and the enforcement read one source.
package patterndoc

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/singletable/singletable/table"
)

// CatalogID matches a catalog row's ID in a doc comment (FH-3, TN-27, ...).
var CatalogID = regexp.MustCompile(`\b(FH|PF|TN|LB)-\d+\b`)

// Method is one access-pattern method of a store package: an exported
// method whose doc comment cites catalog IDs, or a read of a declared
// pattern.
type Method struct {
	// IDs are the catalog IDs its doc cites (a declared pattern's: its
	// ID), sorted, without duplicates.
	IDs []string
	// Name is "Type.Method", or "Type.Field.Method" for a declared pattern
	// ("Users.ByOrganization.List").
	Name string
	// Synopsis is the first sentence of its doc comment (a declared
	// pattern's: its Doc and the request the method sends).
	Synopsis string
	// Declared is true for a read of a declared pattern and for a
	// declared write ([table.WriteDef]).
	Declared bool
}

// Patterns returns the package name and the access-pattern methods of the
// store package in dir: the reads of the patterns declared on tables
// (those named in the package, see [Declared]), the methods declared as
// operations on tables ([table.NewOp]: the declaration's ID, with any its
// doc comment cites too), the declared writes and unique reads
// ([table.WriteDef], [table.UniqueDef]: a store field, not a method,
// listed from the declaration: its ID, its name and its Doc), and the
// other methods whose doc comments cite IDs
// ([Methods]), ordered by their first ID, then name. A declared operation
// names a method of the package (internal/wiretest holds the two to one
// another); one naming no method is left out.
func Patterns(dir string, tables ...*table.Table) (string, []Method, error) {
	pkg, docs, err := parse(dir)
	if err != nil {
		return "", nil, err
	}
	ops := map[string][]string{}
	var out []Method
	for _, t := range tables {
		for _, o := range t.Ops() {
			if name, ok := strings.CutPrefix(o.Name, pkg+"."); ok {
				ops[name] = append(ops[name], o.ID)
			}
		}
		for _, w := range declaredFields(t) {
			if name, ok := strings.CutPrefix(w.Name, pkg+"."); ok && !slices.ContainsFunc(out, func(m Method) bool { return m.Name == name }) {
				ids := slices.Concat([]string{w.ID}, w.Also)
				slices.SortFunc(ids, CompareIDs)
				out = append(out, Method{IDs: slices.Compact(ids), Name: name, Synopsis: w.Doc, Declared: true})
			}
		}
	}
	for _, m := range docs {
		m.IDs = append(m.IDs, ops[m.Name]...)
		if len(m.IDs) == 0 {
			continue
		}
		slices.SortFunc(m.IDs, CompareIDs)
		m.IDs = slices.Compact(m.IDs)
		out = append(out, m)
	}
	out = append(out, Declared(pkg, tables...)...)
	sortMethods(out)
	return pkg, out, nil
}

// declaredField is a store field declared on a table with its one-line
// Doc: a write ([table.WriteDef]) or a unique read ([table.UniqueDef]).
type declaredField struct {
	ID, Name, Doc string
	Also          []string
}

// declaredFields returns t's declared writes ([table.Table.Writes]), then
// its declared unique reads ([table.Table.Uniques]).
func declaredFields(t *table.Table) []declaredField {
	var out []declaredField
	for _, w := range t.Writes() {
		out = append(out, declaredField{ID: w.ID, Name: w.Name, Doc: w.Doc, Also: w.Also})
	}
	for _, u := range t.Uniques() {
		out = append(out, declaredField{ID: u.ID, Name: u.Name, Doc: u.Doc, Also: u.Also})
	}
	return out
}

// Declared returns the reads of the patterns declared on tables whose
// Name is in package pkg ("podcastflow.Users.ByOrganization"): one Method
// per read, named without the package ("Users.ByOrganization.List"),
// citing the declaration's ID.
func Declared(pkg string, tables ...*table.Table) []Method {
	var out []Method
	for _, t := range tables {
		for _, p := range t.Patterns() {
			name, ok := strings.CutPrefix(p.Name, pkg+".")
			if !ok {
				continue
			}
			for _, m := range p.Methods {
				syn := strings.TrimSpace(p.Doc+" "+m.Request) + "."
				out = append(out, Method{IDs: []string{p.ID}, Name: name + "." + m.Name, Synopsis: syn, Declared: true})
			}
		}
	}
	return out
}

func sortMethods(ms []Method) {
	slices.SortFunc(ms, func(x, y Method) int {
		if c := CompareIDs(x.IDs[0], y.IDs[0]); c != 0 {
			return c
		}
		return strings.Compare(x.Name, y.Name)
	})
}

// Methods parses the non-test Go files of the package in dir and returns
// its package name and its methods that cite catalog IDs, ordered by their
// first ID, then name.
func Methods(dir string) (string, []Method, error) {
	pkg, docs, err := parse(dir)
	if err != nil {
		return "", nil, err
	}
	var out []Method
	for _, m := range docs {
		if len(m.IDs) > 0 {
			slices.SortFunc(m.IDs, CompareIDs)
			m.IDs = slices.Compact(m.IDs)
			out = append(out, m)
		}
	}
	sortMethods(out)
	return pkg, out, nil
}

// parse returns the package name of the non-test Go files in dir and
// every exported method of its exported types, with the IDs its doc
// comment cites (maybe none) and its synopsis.
func parse(dir string) (string, []Method, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", nil, err
	}
	var files []*ast.File
	var pkgName string
	for _, de := range entries {
		n := de.Name()
		if de.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments)
		if err != nil {
			return "", nil, err
		}
		pkgName = f.Name.Name
		files = append(files, f)
	}
	slices.SortFunc(files, func(x, y *ast.File) int { return strings.Compare(fset.File(x.Pos()).Name(), fset.File(y.Pos()).Name()) })
	p, err := doc.NewFromFiles(fset, files, "example.com/"+pkgName)
	if err != nil {
		return "", nil, err
	}
	var out []Method
	for _, t := range p.Types {
		for _, m := range t.Methods {
			out = append(out, Method{IDs: CatalogID.FindAllString(m.Doc, -1), Name: t.Name + "." + m.Name, Synopsis: p.Synopsis(m.Doc)})
		}
	}
	return pkgName, out, nil
}

// CompareIDs orders catalog IDs by application, then number.
func CompareIDs(x, y string) int {
	xa, xn, _ := strings.Cut(x, "-")
	ya, yn, _ := strings.Cut(y, "-")
	if c := strings.Compare(xa, ya); c != 0 {
		return c
	}
	var a, b int
	fmt.Sscan(xn, &a)
	fmt.Sscan(yn, &b)
	return a - b
}

// Cost is what one call of a method sent, measured on DynamoDB Local.
type Cost struct {
	// Requests is the number of requests (the SDK's retries of one call
	// count once).
	Requests int `json:"requests"`
	// Ops counts them per operation ("GetItem": 1, ...).
	Ops map[string]int `json:"ops"`
	// Read and Write are the capacity units DynamoDB reported consumed.
	Read  float64 `json:"rcu"`
	Write float64 `json:"wcu"`
	// Note says what the measured call did, when it matters (a page of
	// 3 items, an iteration over 2 pages).
	Note string `json:"note,omitempty"`

	// Metered by capacity.Meter by DynamoDB's capacity rules (not DynamoDB
	// Local's report, which halves transactions): HotKey is the partition
	// key the call loads most against DynamoDB's per-partition limits,
	// as "table SRC#{id}" or "GSI1 SCHED#DUE" (ID-like segments replaced);
	// HotRead and HotWrite its units; MeteredRead and MeteredWrite the
	// units over every key of the table and its GSIs (the bill); Rate the
	// calls per second one such key sustains (1,000 WCU / HotWrite, 3,000
	// RCU / HotRead, the lower).
	HotKey       string  `json:"hotKey,omitempty"`
	HotRead      float64 `json:"hotRcu,omitempty"`
	HotWrite     float64 `json:"hotWcu,omitempty"`
	MeteredRead  float64 `json:"meteredRcu,omitempty"`
	MeteredWrite float64 `json:"meteredWcu,omitempty"`
	Rate         float64 `json:"rate,omitempty"`
}

// Hot renders the hottest key of a metered cost: "table SRC#{id} 4 WCU,
// 250/s"; "" when the cost was not metered.
func (c Cost) Hot() string {
	if c.HotKey == "" {
		return ""
	}
	var u []string
	if c.HotWrite > 0 {
		u = append(u, num(c.HotWrite)+" WCU")
	}
	if c.HotRead > 0 {
		u = append(u, num(c.HotRead)+" RCU")
	}
	return fmt.Sprintf("%s %s, %s/s", c.HotKey, strings.Join(u, " + "), rate(c.Rate))
}

func num(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%.1f", f)
}

// rate renders calls per second with thousands separators.
func rate(f float64) string {
	n := int64(f)
	s := fmt.Sprintf("%d", n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Costs are the measured costs of an application's methods, by
// "Type.Method".
type Costs map[string]Cost

// File is where the measured costs of app are kept, under the module root.
func File(root, app string) string {
	return filepath.Join(root, "docs", "patterns", app+".requests.json")
}

// ReadCosts reads a costs file; a missing file is an empty set.
func ReadCosts(path string) (Costs, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Costs{}, nil
	}
	if err != nil {
		return nil, err
	}
	var c Costs
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// WriteCosts writes c to path, keys sorted, one method per line group.
func WriteCosts(path string, c Costs) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// OpsString renders a cost's operations compactly: "GetItem", "Query+GetItem",
// "2×TransactWriteItems".
func (c Cost) OpsString() string {
	names := make([]string, 0, len(c.Ops))
	for op := range c.Ops {
		names = append(names, op)
	}
	slices.Sort(names)
	parts := make([]string, 0, len(names))
	for _, op := range names {
		if n := c.Ops[op]; n == 1 {
			parts = append(parts, op)
		} else {
			parts = append(parts, fmt.Sprintf("%d×%s", n, op))
		}
	}
	return strings.Join(parts, " + ")
}
