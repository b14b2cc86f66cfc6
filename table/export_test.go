package table_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
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
	ct, err := s.CreateTableJSON()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "createtable.json", ct)
	cf, err := s.CloudFormation("AppTable")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "cloudformation.json", cf)
	lower, err := table.NewSchema("ferryhook-main", table.WithIndexCount(3), table.WithLowercaseKeys()).CloudFormation("Main")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "cloudformation-lowercase.json", lower)
	ttl, err := s.TTLSpecificationJSON()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "ttl.json", ttl)
}

func TestSchemaValidate(t *testing.T) {
	t.Parallel()
	if err := table.NewSchema("app-table").Validate(); err != nil {
		t.Errorf("default schema: %v", err)
	}
	for name, s := range map[string]table.Schema{
		"short name":   table.NewSchema("ab"),
		"bad char":     table.NewSchema("app table"),
		"dup attr":     table.NewSchema("app", table.WithTTLAttribute("x"), func(s *table.Schema) { s.SK = s.PK }),
		"too many GSI": table.NewSchema("app", table.WithIndexCount(21)),
	} {
		var ve *table.ValidationError
		if err := s.Validate(); !errors.As(err, &ve) {
			t.Errorf("%s: got %v, want a ValidationError", name, err)
		}
	}
}

// The Terraform export: a golden file, and its structure checked (braces
// balance, one attribute block per key attribute, one block per GSI).
func TestSchemaTerraform(t *testing.T) {
	t.Parallel()
	s := table.NewSchema("app-table")
	tf := s.Terraform("app")
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
