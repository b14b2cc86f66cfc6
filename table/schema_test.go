package table_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/table"
)

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
