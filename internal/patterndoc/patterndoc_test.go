package patterndoc_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/internal/patterndoc"
	"github.com/singletable/singletable/table"
)

const memos = `package memos

// Memos is a store.
type Memos struct{}

// Create creates a memo.
func (Memos) Create() {}

// Count counts memos (LB-3).
func (Memos) Count() {}

// Purge purges memos (LB-4, the purge side).
func (Memos) Purge() {}

// Other serves no pattern.
func (Memos) Other() {}
`

// TestPatternsReadOps: a method declared as an operation (table.NewOp) is
// an access-pattern method with the declaration's ID, whether or not its
// doc comment cites one (with the comment's IDs too); a method whose doc
// cites IDs is one; a method with neither is not. No request is sent:
// the table is never called.
func TestPatternsReadOps(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "memos.go"), []byte(memos), 0o644); err != nil {
		t.Fatal(err)
	}
	tb := table.New(dynamodb.New(dynamodb.Options{Region: "us-east-1"}), table.NewSchema("memos"))
	table.NewOp(tb, "LB-1", "memos.Memos.Create")
	table.NewOp(tb, "LB-2", "memos.Memos.Purge")
	table.NewOp(tb, "LB-9", "other.Memos.Create") // another package's
	pkg, got, err := patterndoc.Patterns(dir, tb)
	if err != nil {
		t.Fatal(err)
	}
	want := []patterndoc.Method{
		{IDs: []string{"LB-1"}, Name: "Memos.Create", Synopsis: "Create creates a memo."},
		{IDs: []string{"LB-2", "LB-4"}, Name: "Memos.Purge", Synopsis: "Purge purges memos (LB-4, the purge side)."},
		{IDs: []string{"LB-3"}, Name: "Memos.Count", Synopsis: "Count counts memos (LB-3)."},
	}
	if pkg != "memos" {
		t.Errorf("package %q, want memos", pkg)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Patterns (-want +got):\n%s", diff)
	}

}
