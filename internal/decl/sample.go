package decl

import (
	"fmt"
	"reflect"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
)

// FillSample makes up the item rv (a settable struct) from its field
// types, as table.Entity.Sample documents: codec.FillSample's values, the
// example of every key transform that needs a shape, what the sparse
// indexes' When conditions need, no secret (the paths in secrets), then
// the fields named in set (by attribute name, or Go field name for a
// field stored only in the key). entity names the type in errors.
func (d *Decl) FillSample(rv reflect.Value, entity string, secrets []string, set map[string]any) error {
	codec.FillSample(rv, "", 0)
	tps := []keytmpl.Template{d.PK, d.SK}
	for _, pair := range d.Indexes {
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
	for _, conds := range d.When {
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
	for _, path := range secrets {
		if f, ok := codec.FieldByPath(rv, path); ok {
			f.SetString("") // a sample never holds a secret
		}
	}
	for name, v := range set {
		f, ok := codec.FieldByName(rv, name)
		if !ok {
			return fmt.Errorf("%w: sample %s: no field %q", codec.ErrInvalidInput, entity, name)
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
			return fmt.Errorf("%w: sample %s: %q is a %s, not a %s", codec.ErrInvalidInput, entity, name, val.Type(), f.Type())
		}
	}
	return nil
}
