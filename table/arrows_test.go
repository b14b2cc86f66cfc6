package table_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestArrowsOneWay: the engine imports nothing of this module but keys
// (pages, cursors and sealing live in table itself), and neither table nor
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
	got := deps(mod + "/table")
	slices.Sort(got)
	if want := []string{mod + "/keys", mod + "/table"}; !slices.Equal(got, want) {
		t.Errorf("table depends on %v, want only %v", got, want)
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
			if strings.HasPrefix(p, mod+"/internal/") && p != mod+"/internal/dynamolocal" {
				t.Errorf("%s depends on %s", pkg[1:], p)
			}
		}
	}
	// What only deployment and review need depends on the engine, not on
	// the test kit or the applications.
	got = deps(mod + "/table/tableschema")
	slices.Sort(got)
	if want := []string{mod + "/keys", mod + "/table", mod + "/table/tableschema"}; !slices.Equal(got, want) {
		t.Errorf("table/tableschema depends on %v, want only %v", got, want)
	}
}
