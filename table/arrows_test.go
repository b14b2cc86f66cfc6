package table_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// layers are the engine's internal packages, lowest first: each imports
// nothing of table and no layer above it (see TestArrowsOneWay).
var layers = []string{"/internal/codec", "/internal/secret", "/internal/keytmpl", "/internal/stream", "/internal/expr", "/internal/ddb", "/internal/decl", "/internal/counter", "/internal/job"}

// TestArrowsOneWay: the engine imports nothing of this module but keys
// and its own layers (internal packages that import nothing of table, a
// lower layer nothing of a higher one), and neither table nor
// its kit depends on the examples' environment or on the applications;
// tableschema (what only the command uses) sits on the engine alone, and
// the capacity meter on the test kit's basics, never under them.
func TestArrowsOneWay(t *testing.T) {
	t.Parallel()
	const mod = "github.com/singletable/singletable"
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		var ours []string
		for _, p := range strings.Fields(string(out)) {
			if p == mod || strings.HasPrefix(p, mod+"/") {
				ours = append(ours, p)
			}
		}
		return ours
	}
	engine := []string{mod + "/keys"}
	for _, l := range layers {
		engine = append(engine, mod+l)
	}
	isLayer := func(p string) bool { return slices.Contains(engine[1:], p) }
	got := deps(mod + "/table")
	slices.Sort(got)
	want := slices.Sorted(slices.Values(append([]string{mod + "/table"}, engine...)))
	if !slices.Equal(got, want) {
		t.Errorf("table depends on %v, want only %v", got, want)
	}
	for i, l := range layers {
		for _, p := range deps(mod + l) {
			if p == mod+"/table" || strings.HasPrefix(p, mod+"/table/") {
				t.Errorf("layer %s depends on %s", l[1:], p)
			}
			for _, above := range layers[i+1:] {
				if p == mod+above {
					t.Errorf("layer %s depends on %s, a layer above it", l[1:], p)
				}
			}
			if p != mod+l && p != mod+"/keys" && !isLayer(p) {
				t.Errorf("layer %s depends on %s", l[1:], p)
			}
		}
	}
	for _, kit := range []string{"/table/tabletest", "/table/tabletest/capacity"} {
		for _, p := range deps(mod + kit) {
			if p == mod+"/internal/exampleenv" || strings.HasPrefix(p, mod+"/query") || strings.HasPrefix(p, mod+"/entity") {
				t.Errorf("%s depends on %s", kit[1:], p)
			}
		}
	}
	// The basics do not need the meter; the meter is built on them.
	for _, p := range deps(mod + "/table/tabletest") {
		if p == mod+"/table/tabletest/capacity" {
			t.Errorf("table/tabletest depends on %s", p)
		}
	}
	// A public package's API imports no internal one, but for the local
	// DynamoDB the test kit starts: the repository's own bookkeeping
	// (internal/patterncost, internal/patterndoc) imports the kit, never
	// the other way.
	for _, pkg := range []string{"/table/tableschema", "/table/tabletest", "/table/tabletest/capacity"} {
		for _, p := range deps(mod + pkg) {
			if strings.HasPrefix(p, mod+"/internal/") && p != mod+"/internal/dynamolocal" && !isLayer(p) {
				t.Errorf("%s depends on %s", pkg[1:], p)
			}
		}
	}
	// What only deployment and review need depends on the engine, not on
	// the test kit or the applications.
	got = deps(mod + "/table/tableschema")
	slices.Sort(got)
	if want := slices.Sorted(slices.Values(append([]string{mod + "/table", mod + "/table/tableschema"}, engine...))); !slices.Equal(got, want) {
		t.Errorf("table/tableschema depends on %v, want only %v", got, want)
	}
}
