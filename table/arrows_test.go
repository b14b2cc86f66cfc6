package table_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestArrowsOneWay: the engine imports nothing of this module but keys
// (pages, cursors and sealing live in table itself), and neither table nor
// its kit depends on the examples' environment or on the applications.
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
	for _, p := range deps(mod + "/table/tabletest") {
		if p == mod+"/internal/exampleenv" || strings.HasPrefix(p, mod+"/query") || strings.HasPrefix(p, mod+"/entity") {
			t.Errorf("table/tabletest depends on %s", p)
		}
	}
}
