package listbackup_test

import (
	"testing"

	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

// Every entity name of the shipped layouts has a target (what
// ReadManifest checked against a list of its own before package migrate),
// and every target serves a shipped layout.
func TestShippedLayoutsHaveTargets(t *testing.T) {
	t.Parallel()
	targets := listbackup.New(table.New(nil, listbackup.Schema("targets"))).MigrationTargets()
	used := map[string]bool{}
	for _, m := range listbackup.Layouts() {
		if err := targets.Check(m); err != nil {
			t.Errorf("layout %s: %v", m.Name, err)
		}
		for _, lt := range m.Tables {
			used[lt.Entity] = true
		}
	}
	for name := range targets {
		if !used[name] {
			t.Errorf("target %s: no shipped layout names it", name)
		}
	}
}
