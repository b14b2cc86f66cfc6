package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/singletable/singletable/internal/patterndoc"
)

// costDrift compares an application's store methods that cite catalog IDs
// and the reads of its declared patterns with its recorded costs (docs/patterns/<app>.requests.json, under root):
// unmeasured are the methods with no recorded cost (the documents would
// say "not measured"), stale the recorded methods that no longer cite an
// ID (or no longer exist). Both sorted.
func costDrift(root, app string) (unmeasured, stale []string, err error) {
	_, methods, err := patterndoc.Patterns(filepath.Join(root, appPackages[app]), openApp(apps[app])...)
	if err != nil {
		return nil, nil, err
	}
	costs, err := patterndoc.ReadCosts(patterndoc.File(root, app))
	if err != nil {
		return nil, nil, err
	}
	cites := map[string]bool{}
	for _, m := range methods {
		cites[m.Name] = true
		if _, ok := costs[m.Name]; !ok {
			unmeasured = append(unmeasured, m.Name)
		}
	}
	for name := range costs {
		if !cites[name] {
			stale = append(stale, name)
		}
	}
	slices.Sort(unmeasured)
	slices.Sort(stale)
	return unmeasured, stale, nil
}

// TestEveryCitedMethodMeasured fails when a store method whose doc comment
// cites a catalog ID has no measured cost, so the generated documents
// (docs/patterns/*.md, docs/costs.md) never say "not measured" again, and
// when the record keeps a method that no longer cites one. The cure is a
// measurement in the application's request cost test
// (query/<app>/requests_test.go, TestRequestCosts_*), recorded with
// SINGLETABLE_UPDATE_DOCS=1.
func TestEveryCitedMethodMeasured(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, app := range appNames() {
		unmeasured, stale, err := costDrift(root, app)
		if err != nil {
			t.Fatalf("%s: %v", app, err)
		}
		fix := "measure each in " + appPackages[app] + "/requests_test.go (TestRequestCosts_*), then run that test and this package's with SINGLETABLE_UPDATE_DOCS=1"
		if len(unmeasured) > 0 {
			t.Errorf("%s: %d methods cite catalog IDs but have no measured cost in %s: %s; %s",
				app, len(unmeasured), patterndoc.File("", app), strings.Join(unmeasured, ", "), fix)
		}
		if len(stale) > 0 {
			t.Errorf("%s: %s records %s, which cite no catalog ID in %s; rerun its request cost test with SINGLETABLE_UPDATE_DOCS=1",
				app, patterndoc.File("", app), strings.Join(stale, ", "), appPackages[app])
		}
	}
	// What the documents are generated from agrees: no "not measured" in
	// them (TestAccessPatternDocs and TestReadmeRequests keep the files
	// equal to it).
	for _, app := range appNames() {
		doc, err := runCmd(t, "doc", "-app", app, "-src", root)
		if err != nil {
			t.Fatalf("%s: %v\n%s", app, err, doc)
		}
		if n := strings.Count(doc, "not measured"); n > 0 {
			t.Errorf("docs/patterns/%s.md would say \"not measured\" %d times", app, n)
		}
	}
	tbl, err := requestsTable(root)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(tbl, "not measured"); n > 0 {
		t.Errorf("docs/costs.md's request table would say \"not measured\" %d times", n)
	}
}

// TestCostDriftFindsUnmeasuredMethods: costDrift finds what a module tree
// leaves unmeasured and what its record keeps of methods gone: a store
// with three methods, two citing catalog IDs, one of which is recorded,
// beside a record of a method that cites none and one that no longer
// exists.
func TestCostDriftFindsUnmeasuredMethods(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, appPackages["ferryhook"])
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	src := `package ferryhook

// Sources is a store.
type Sources struct{}

// Get returns a source (FH-5).
func (s *Sources) Get() {}

// Pause pauses a source (FH-11 sources.update).
func (s *Sources) Pause() {}

// Helper cites nothing.
func (s *Sources) Helper() {}
`
	if err := os.WriteFile(filepath.Join(pkg, "sources.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "docs", "patterns"), 0o755); err != nil {
		t.Fatal(err)
	}
	rec := patterndoc.Costs{
		"Sources.Get":    {Requests: 1, Ops: map[string]int{"GetItem": 1}, Read: 0.5},
		"Sources.Helper": {Requests: 1, Ops: map[string]int{"GetItem": 1}, Read: 0.5},
		"Sources.Gone":   {Requests: 1, Ops: map[string]int{"GetItem": 1}, Read: 0.5},
	}
	// The application's declared patterns (Sources.ByUser.List) and
	// writes (APIKeys.Delete) are read from its declarations, not from the
	// source: their records are the real ones, measured.
	real, err := patterndoc.ReadCosts(patterndoc.File(filepath.Join("..", ".."), "ferryhook"))
	if err != nil {
		t.Fatal(err)
	}
	declaredWrites := map[string]bool{}
	for _, tb := range openApp(apps["ferryhook"]) {
		for _, w := range tb.Writes() {
			declaredWrites[strings.TrimPrefix(w.Name, "ferryhook.")] = true
		}
	}
	for name, c := range real {
		if strings.Count(name, ".") == 2 || declaredWrites[name] {
			rec[name] = c
		}
	}
	if err := patterndoc.WriteCosts(patterndoc.File(root, "ferryhook"), rec); err != nil {
		t.Fatal(err)
	}
	unmeasured, stale, err := costDrift(root, "ferryhook")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Sources.Pause"}; !slices.Equal(unmeasured, want) {
		t.Errorf("unmeasured %v, want %v", unmeasured, want)
	}
	if want := []string{"Sources.Gone", "Sources.Helper"}; !slices.Equal(stale, want) {
		t.Errorf("stale %v, want %v", stale, want)
	}

	// Measured (and the stale records dropped), nothing is left.
	rec["Sources.Pause"] = patterndoc.Cost{Requests: 2, Ops: map[string]int{"GetItem": 1, "UpdateItem": 1}, Read: 1, Write: 1}
	delete(rec, "Sources.Helper")
	delete(rec, "Sources.Gone")
	if err := patterndoc.WriteCosts(patterndoc.File(root, "ferryhook"), rec); err != nil {
		t.Fatal(err)
	}
	unmeasured, stale, err = costDrift(root, "ferryhook")
	if err != nil {
		t.Fatal(err)
	}
	if len(unmeasured) != 0 || len(stale) != 0 {
		t.Errorf("after measuring: unmeasured %v, stale %v, want none", unmeasured, stale)
	}
}
