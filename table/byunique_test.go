package table_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestByUnique: a declared read by a unique value is one call named by
// its declaration that checks the value (a *ValidationError, no
// request), normalizes it and sends GetByUnique's two GetItems; an
// unheld value is ErrNotFound; the table lists it once, among its
// unique reads (Table.Uniques), not its writes.
func TestByUnique(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("byunique")).Schema(),
		func(o *table.Options) { o.Tracer = rec })
	members := table.NewEntity(tb, memberDef)
	d := table.UniqueDef{ID: "M-2", Name: "core.Members.GetByEmail", Doc: "The member holding an email.", Unique: "email",
		Check: func(v string) error {
			if !strings.Contains(v, "@") {
				return table.Invalid("email", "%q is not an email address", v)
			}
			return nil
		},
		Normalize: func(v string) string { return strings.TrimSpace(strings.ToLower(v)) }}
	getByEmail := table.ByUnique(members, d, table.Consistent())
	table.ByUnique(members, d) // declared twice (a second store): listed once
	c := ctx(t)

	if err := members.Create(c, &member{ID: "m1", Email: "ann@x.io", Status: "active"}); err != nil {
		t.Fatal(err)
	}
	before := rc.Total()
	got, err := getByEmail(c, "  Ann@X.io")
	if err != nil || got.ID != "m1" {
		t.Fatalf("GetByEmail(Ann@X.io) = %q, %v; want m1 (normalized)", got.ID, err)
	}
	if n := rc.Total() - before; n != 2 || rc.Of("GetItem") != 2 {
		t.Errorf("GetByEmail sent %d requests (%v), want 2 GetItem", n, rc.Ops())
	}
	if _, err := getByEmail(c, "bob@x.io"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("GetByEmail of a free email = %v, want ErrNotFound", err)
	}
	before = rc.Total()
	var ve *table.ValidationError
	if _, err := getByEmail(c, "not-an-email"); !errors.As(err, &ve) || ve.Field != "email" || rc.Total() != before {
		t.Errorf("GetByEmail(not-an-email) = %v after %d requests, want a *ValidationError naming email and none", err, rc.Total()-before)
	}

	names := map[string]int{}
	for _, call := range rec.calls {
		names[call.Pattern+" "+call.Method]++
	}
	if diff := cmp.Diff(map[string]int{"M-2 core.Members.GetByEmail": 3}, names); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	want := []table.UniqueInfo{{ID: "M-2", Name: "core.Members.GetByEmail", Doc: "The member holding an email."}}
	if diff := cmp.Diff(want, tb.Uniques()); diff != "" {
		t.Errorf("Uniques (-want +got):\n%s", diff)
	}
	if w := tb.Writes(); len(w) != 0 {
		t.Errorf("Writes = %v, want none (a unique read is no write)", w)
	}
}
