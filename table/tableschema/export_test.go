package tableschema_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tableschema"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run go test -update once): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

func TestSchemaExportsGolden(t *testing.T) {
	t.Parallel()
	s := table.NewSchema("app-table")
	ct, err := tableschema.CreateTableJSON(s)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "createtable.json", ct)
	cf, err := tableschema.CloudFormation(s, "AppTable")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "cloudformation.json", cf)
	lower, err := tableschema.CloudFormation(table.NewSchema("ferryhook-main", table.WithIndexCount(3), table.WithLowercaseKeys()), "Main")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "cloudformation-lowercase.json", lower)
	ttl, err := tableschema.TTLSpecificationJSON(s)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "ttl.json", ttl)
}

// The Terraform export: a golden file, and its structure checked (braces
// balance, one attribute block per key attribute, one block per GSI).
func TestSchemaTerraform(t *testing.T) {
	t.Parallel()
	s := table.NewSchema("app-table")
	tf := tableschema.Terraform(s, "app")
	golden(t, "terraform.tf", tf)
	src := string(tf)
	if o, c := strings.Count(src, "{"), strings.Count(src, "}"); o != c {
		t.Fatalf("%d opening and %d closing braces", o, c)
	}
	if n := strings.Count(src, "\n  attribute {"); n != 2+2*len(s.Indexes) {
		t.Errorf("%d attribute blocks, want %d", n, 2+2*len(s.Indexes))
	}
	if n := strings.Count(src, "global_secondary_index {"); n != len(s.Indexes) {
		t.Errorf("%d GSI blocks, want %d", n, len(s.Indexes))
	}
	for _, want := range []string{`resource "aws_dynamodb_table" "app" {`, `hash_key     = "PK"`, `attribute_name = "ttl"`, "prevent_destroy = true"} {
		if !strings.Contains(src, want) {
			t.Errorf("missing %q", want)
		}
	}
}
