package table

import (
	"fmt"
	"reflect"
)

// Sample is what an entity's declarations give for one item made up from
// its field types: the item as a write would store it (keys, index keys,
// entity type, TTL; no Validate, no Touch, nothing sent), and its unique
// values. Tools show it before the table holds a single item (NoSQL
// Workbench facets, pattern documents); tests pin an entity's stored keys
// with it.
type Sample struct {
	Item    Item
	Uniques []Unique
}

// Sample makes up an item of T from its field types (every string holds
// its attribute name followed by "1", numbers 1, times 2024-01-02T03:04:05Z,
// booleans false, one element per list; pointers stay nil and secrets
// empty; what an index's When condition needs unset is zero, a boolean it
// needs set is true; a transform that needs a shape, such as ":split",
// gives its example), overrides the fields named in
// set (by attribute name, or Go field name for a field stored only in the
// key), and encodes it as a write would (see [Sample]).
func (e *Entity[T]) Sample(set map[string]any) (Sample, error) {
	var item T
	if err := e.decl.FillSample(reflect.ValueOf(&item).Elem(), e.def.Type, e.def.Secrets, set); err != nil {
		return Sample{}, err
	}
	w, err := e.prepare(&item, 1, false)
	if err != nil {
		return Sample{}, fmt.Errorf("sample %s: %w", e.def.Type, err)
	}
	return Sample{Item: w.item, Uniques: w.uniques}, nil
}
