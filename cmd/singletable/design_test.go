package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestWorkbenchOnAnEmptyTable: the design before the first item. On
// tables that hold no item, "singletable workbench" gives a facet for
// every entity "singletable model" lists, keyed by its declared templates
// and with the item its declarations give as data; "singletable doc"
// names every entity and every access pattern (the catalog IDs).
func TestWorkbenchOnAnEmptyTable(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	want := map[string]int{"ferryhook": 6, "podcastflow": 9, "tinode": 11, "listbackup": 28}
	for _, name := range appNames() {
		t.Run(name, func(t *testing.T) {
			out, err := runCmd(t, "model", "-app", name, "-src", root)
			if err != nil {
				t.Fatalf("model: %v\n%s", err, out)
			}
			var m appModel
			if err := json.Unmarshal([]byte(out), &m); err != nil {
				t.Fatal(err)
			}
			var declared []string
			for _, e := range m.Entities {
				declared = append(declared, e.Type)
				if e.Keys == nil || e.Keys.PK == "" || e.Keys.SK == "" {
					t.Errorf("%s: model has no key templates", e.Type)
				}
			}
			slices.Sort(declared)
			if len(declared) != want[name] {
				t.Errorf("model lists %d entities, want %d", len(declared), want[name])
			}
			// Empty tables, named as the command names them.
			mainName := tabletest.TableName(name+"-main", t.Name())
			for _, s := range apps[name].schemas(mainName, "") {
				tb := table.New(tabletest.Client(t), s)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				if err := tb.Create(ctx); err != nil {
					cancel()
					t.Fatal(err)
				}
				cancel()
				t.Cleanup(func() { _ = tb.Delete(context.Background()) })
			}
			out, err = runCmd(t, "workbench", "-app", name, "-table", mainName, "-endpoint", tabletest.Endpoint(t))
			if err != nil {
				t.Fatalf("workbench: %v\n%s", err, out)
			}
			var wb struct {
				DataModel []struct {
					TableFacets []struct {
						FacetName         string
						KeyAttributeAlias struct{ PartitionKeyAlias, SortKeyAlias string }
					}
					TableData []map[string]map[string]any
				}
			}
			if err := json.Unmarshal([]byte(out), &wb); err != nil {
				t.Fatalf("not JSON: %v", err)
			}
			var facets []string
			data := 0
			for _, d := range wb.DataModel {
				for _, f := range d.TableFacets {
					facets = append(facets, f.FacetName)
					if !strings.Contains(f.KeyAttributeAlias.PartitionKeyAlias+f.KeyAttributeAlias.SortKeyAlias, "{") &&
						f.KeyAttributeAlias.PartitionKeyAlias == "" {
						t.Errorf("facet %s has no key alias", f.FacetName)
					}
				}
				data += len(d.TableData)
			}
			slices.Sort(facets)
			if !slices.Equal(facets, declared) {
				t.Errorf("facets on an empty table %v, want the model's %v", facets, declared)
			}
			if data != len(declared) {
				t.Errorf("%d sample items, want one per entity (%d)", data, len(declared))
			}
			t.Logf("%s: %d facets on an empty table, %d entities in the model", name, len(facets), len(declared))
			doc, err := runCmd(t, "doc", "-app", name, "-src", root)
			if err != nil {
				t.Fatalf("doc: %v", err)
			}
			for _, typ := range declared {
				if !strings.Contains(doc, "| `"+typ+"` |") {
					t.Errorf("doc has no row for entity %s", typ)
				}
			}
			for _, p := range m.Patterns {
				if !strings.Contains(doc, p.Method) {
					t.Errorf("doc has no access pattern %s", p.Method)
				}
			}
		})
	}
}
