package table

import (
	"fmt"
	"reflect"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
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
	rv := reflect.ValueOf(&item).Elem()
	codec.FillSample(rv, "", 0)
	// a transform that needs a shape gets its example
	tps := []keytmpl.Template{e.decl.pk, e.decl.sk}
	for _, pair := range e.decl.indexes {
		tps = append(tps, pair[0], pair[1])
	}
	for _, tp := range tps {
		for _, p := range tp {
			if p.Tf.Example == nil {
				continue
			}
			if f, ok := codec.FieldByName(rv, p.Attr); ok && f.Kind() == reflect.String {
				f.SetString(p.Tf.Example(p.Attr))
			}
		}
	}
	// sparse indexes hold the sample: what a When condition needs unset
	// is zero, what it needs set is true
	for _, conds := range e.decl.When {
		for _, c := range conds {
			if f, ok := codec.FieldByName(rv, c.Attr); ok {
				if c.Neg {
					f.Set(reflect.Zero(f.Type()))
				} else if f.Kind() == reflect.Bool {
					f.SetBool(true)
				}
			}
		}
	}
	for _, path := range e.def.Secrets {
		if f, ok := codec.FieldByPath(rv, path); ok {
			f.SetString("") // a sample never holds a secret
		}
	}
	for name, v := range set {
		f, ok := codec.FieldByName(rv, name)
		if !ok {
			return Sample{}, fmt.Errorf("%w: sample %s: no field %q", ErrInvalidInput, e.def.Type, name)
		}
		val := reflect.ValueOf(v)
		switch {
		case v == nil:
			f.Set(reflect.Zero(f.Type()))
		case val.Type().AssignableTo(f.Type()):
			f.Set(val)
		case val.Type().ConvertibleTo(f.Type()):
			f.Set(val.Convert(f.Type()))
		default:
			return Sample{}, fmt.Errorf("%w: sample %s: %q is a %s, not a %s", ErrInvalidInput, e.def.Type, name, val.Type(), f.Type())
		}
	}
	w, err := e.prepare(&item, 1, false)
	if err != nil {
		return Sample{}, fmt.Errorf("sample %s: %w", e.def.Type, err)
	}
	return Sample{Item: w.item, Uniques: w.uniques}, nil
}
