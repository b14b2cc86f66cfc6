package wiretest

import (
	"slices"
	"strings"
	"testing"

	"github.com/singletable/singletable/table"
)

// TestOpForm: a method whose body runs in a declared table.Op is wired
// when its field is named as the method, and the op is declared with the
// method's name and an ID its doc cites; the other cases are reported.
func TestOpForm(t *testing.T) {
	tb := table.New(nil, table.NewSchema("ops"))
	p := Package{Dir: "testdata/opstore", Name: "opstore", Prefix: "XX", Ops: map[string]table.Op{
		"Usage.put":       table.NewOp(tb, "XX-1", "opstore.Usage.Put"),
		"Usage.increment": table.NewOp(tb, "XX-2", "opstore.Usage.Increment"),
		"Usage.all":       table.NewOp(tb, "XX-2", "opstore.Usage.All"),
		"Usage.drop":      table.NewOp(tb, "XX-1", "opstore.Usage.Drop"),
		"Usage.rename":    table.NewOp(tb, "XX-1", "opstore.Usage.Move"),
	}}
	problems, wired, err := Check(p)
	if err != nil {
		t.Fatal(err)
	}
	if wired != 3 {
		t.Errorf("%d methods wired, want 3 (Put, Increment, All)", wired)
	}
	for _, want := range []string{
		"opstore.Usage.Reset: runs in the op of field put, want the field named as the method (reset)",
		"opstore.Usage.Drop: its op is declared with XX-1, but its doc cites [XX-3]",
		"opstore.Usage.Move: runs in Usage.move, which is no declared table.Op",
		`opstore.Usage.Rename: its op is declared as "opstore.Usage.Move", want "opstore.Usage.Rename"`,
	} {
		if !slices.ContainsFunc(problems, func(m string) bool { return strings.Contains(m, want) }) {
			t.Errorf("no problem %q in %q", want, problems)
		}
	}
	if len(problems) != 4 {
		t.Errorf("%d problems, want 4: %q", len(problems), problems)
	}
}

// TestOpsOf: the declared operations of a store are read from its own
// and its aggregates' table.Op fields, unexported as they are.
func TestOpsOf(t *testing.T) {
	type usage struct {
		put table.Op
		n   int // not an Op: left out
	}
	type Usage = usage
	type Store struct {
		Usage  *Usage
		other  *Usage
		ingest table.Op // the store's own
	}
	tb := table.New(nil, table.NewSchema("ops"))
	store := &Store{Usage: &Usage{put: table.NewOp(tb, "XX-1", "opstore.Usage.Put"), n: 1}, other: &Usage{put: table.NewOp(tb, "XX-9", "opstore.Usage.Other")}, ingest: table.NewOp(tb, "XX-2", "opstore.Store.Ingest")}
	got := OpsOf(store)
	if op, ok := got["usage.put"]; !ok || op.ID != "XX-1" || op.Name != "opstore.Usage.Put" || len(got) != 2 {
		t.Errorf("OpsOf = %+v", got)
	}
	if op := got["Store.ingest"]; op.ID != "XX-2" || op.Name != "opstore.Store.Ingest" {
		t.Errorf("OpsOf = %+v: no Store.ingest", got)
	}
}
