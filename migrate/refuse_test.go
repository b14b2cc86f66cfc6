package migrate_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/singletable/singletable/migrate"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Options Run and Verify cannot start with are a *table.ValidationError
// naming the field, before any request.
func TestRunRefusesBadOptions(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), table.NewSchema("shop-refused"))
	s := newShop(tb)
	other := newShop(table.New(tabletest.NewClient(t, rc.Option()), table.NewSchema("elsewhere")))
	m := readShopManifest(t)
	for _, tc := range []struct {
		name  string
		o     migrate.Options
		field string
	}{
		{"no stack", migrate.Options{Manifest: m, Targets: s.targets()}, "Stack"},
		{"no manifest", migrate.Options{Stack: "shop", Targets: s.targets()}, "Manifest"},
		{"no targets", migrate.Options{Stack: "shop", Manifest: m}, "tables[0].entity"},
		{"a name without a target", migrate.Options{Stack: "shop", Manifest: m, Targets: migrate.Targets{"Author": migrate.Into(s.authors)}}, "tables[1].entity"},
		{"the zero target", migrate.Options{Stack: "shop", Manifest: m, Targets: migrate.Targets{"Author": {}, "Book": migrate.Into(s.books)}}, "tables[0].entity"},
		{"an entity of another table", migrate.Options{Stack: "shop", Manifest: m, Targets: migrate.Targets{"Author": migrate.Into(other.authors), "Book": migrate.Into(s.books)}}, "Targets[Author]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := migrate.Run(context.Background(), tb, tc.o)
			_, verr := migrate.Verify(context.Background(), tb, tc.o)
			for what, err := range map[string]error{"Run": err, "Verify": verr} {
				var ve *table.ValidationError
				if !errors.As(err, &ve) || ve.Field != tc.field || !errors.Is(err, table.ErrInvalidInput) {
					t.Errorf("%s: %v, want a *table.ValidationError on %s", what, err, tc.field)
				}
			}
		})
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("%d requests sent (%v), want 0", n, rc.Ops())
	}
}

// ReadManifest refuses a manifest it cannot run, naming the field.
func TestReadManifestRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ json, field string }{
		{`{"tables": []}`, "name"},
		{`{"name": "x", "tables": [{"pk": "id", "entity": "A"}]}`, "tables[0].table"},
		{`{"name": "x", "tables": [{"table": "a", "pk": "id", "entity": "A"}, {"table": "a", "pk": "id", "entity": "A"}]}`, "tables[1].table"},
		{`{"name": "x", "tables": [{"table": "a", "entity": "A"}]}`, "tables[0].pk"},
		{`{"name": "x", "tables": [{"table": "a", "pk": "id"}]}`, "tables[0].entity"},
		{`{"name": "x", "tables": [{"table": "a", "pk": "id", "entity": "A", "tree": {"path": "p"}}]}`, "tables[0].tree"},
		{`{"name": "x", "tables": [{"table": "a", "pk": "id", "entity": "A", "ttl": {"attribute": "exp", "unit": "h"}}]}`, "tables[0].ttl.unit"},
	} {
		_, err := migrate.ReadManifest(strings.NewReader(tc.json))
		var ve *table.ValidationError
		if !errors.As(err, &ve) || ve.Field != tc.field {
			t.Errorf("%s: %v, want a *table.ValidationError on %s", tc.json, err, tc.field)
		}
	}
	if _, err := migrate.ReadManifest(strings.NewReader(`{"name": "x", "tabels": []}`)); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("an unknown field: %v, want ErrInvalidInput", err)
	}
}
