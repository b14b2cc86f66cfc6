package table_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// shade is an enumeration with no method of its own: NewEnum is all it
// declares, and the engine knows its values by its type.
type shade string

var shades = table.NewEnum("shade", shade("light"), shade("dark"))

// A paint is listed by shade: the sort key's leading field is a shade.
type paint struct {
	ID    string `dynamo:"id"`
	Shade shade  `dynamo:"shade"`
	Name  string `dynamo:"name"`
}

// Issue 42: an enumeration is declared once (NewEnum) and written nowhere
// else. With no Valid or Check method on its type, its values still hold
// where the engine meets the type: a key field of a declared read, a
// patch that sets the field, and table.CheckEnum with no values (what an
// entity's Validate calls). Each refusal is an unknown-value
// *ValidationError naming the attribute and listing the values, before
// any request; known values read and write on DynamoDB Local.
func TestEnumKnownByType(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("shades")).Schema())
	paints := table.NewEntity(tb, table.Def[paint]{Type: "Paint",
		Keys:      table.Template{PK: "PAINT#{id}", SK: "PAINT"},
		IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "PAINTS", SK: "SHADE#{shade}#{id}"}},
		Validate:  func(p *paint) error { return table.CheckEnum("shade", p.Shade) },
	})
	byShade := table.NewPattern(paints, table.PatternDef[paint]{ID: "T-40", Name: "shades.Paints.ByShade",
		Index: table.GSI1, Reads: table.ReadPage, SortPrefix: true})
	c := ctx(t)

	wantUnknown := func(what string, err error, value string) {
		t.Helper()
		var ve *table.ValidationError
		if !errors.As(err, &ve) || ve.Field != "shade" || !ve.Unknown || ve.Value != value ||
			!slices.Equal(ve.Allowed, []string{"light", "dark"}) {
			t.Errorf("%s: %v, want an unknown-value ValidationError on shade %q listing light, dark", what, err, value)
		}
	}
	rc.Reset()
	_, err := byShade.List(c, paint{Shade: "grey"})
	wantUnknown("List by an unknown shade", err, "grey")
	wantUnknown("Create with an unknown shade", paints.Create(c, &paint{ID: "p0", Shade: "grey"}), "grey")
	wantUnknown("CheckEnum with no values", table.CheckEnum("shade", shade("grey")), "grey")
	if rc.Total() != 0 {
		t.Errorf("bad input sent %v, want nothing", rc.Ops())
	}

	for _, p := range []paint{{ID: "p1", Shade: "dark", Name: "ink"}, {ID: "p2", Shade: "light", Name: "chalk"}} {
		if err := paints.Create(c, &p); err != nil {
			t.Fatal(err)
		}
	}
	page, err := byShade.List(c, paint{Shade: "dark"})
	if err != nil || len(page.Items) != 1 || page.Items[0].Name != "ink" {
		t.Fatalf("List dark = %+v, %v; want ink", page.Items, err)
	}
	k := paints.Key(paint{ID: "p1"})
	rc.Reset()
	_, err = paints.Patch(c, k, table.Patch{Set: map[string]any{"name": "ink", "shade": "grey"}})
	if !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("Patch shade grey: %v, want ErrInvalidInput", err)
	}
	if rc.Total() != 0 {
		t.Errorf("a bad patch sent %v, want nothing", rc.Ops())
	}
	if got, err := paints.Get(c, k); err != nil || got.Shade != "dark" {
		t.Errorf("after the refused patch: %+v, %v; want shade dark", got, err)
	}

	// One enumeration per type: the same values again are fine, others panic.
	table.NewEnum("shade", shades.Values()...)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "declared twice") {
			t.Errorf("NewEnum of other values for shade: panic %v, want one saying it is declared twice", r)
		}
	}()
	table.NewEnum("shade", shade("light"))
}
