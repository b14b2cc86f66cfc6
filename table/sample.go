package table

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
)

// sampleTime is the time every sampled time field holds.
var sampleTime = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

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
	fillSample(rv, "", 0)
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
			if f, ok := fieldByName(rv, p.Attr); ok && f.Kind() == reflect.String {
				f.SetString(p.Tf.Example(p.Attr))
			}
		}
	}
	// sparse indexes hold the sample: what a When condition needs unset
	// is zero, what it needs set is true
	for _, conds := range e.decl.when {
		for _, c := range conds {
			if f, ok := fieldByName(rv, c.attr); ok {
				if c.neg {
					f.Set(reflect.Zero(f.Type()))
				} else if f.Kind() == reflect.Bool {
					f.SetBool(true)
				}
			}
		}
	}
	for _, path := range e.def.Secrets {
		if f, ok := fieldByPath(rv, path); ok {
			f.SetString("") // a sample never holds a secret
		}
	}
	for name, v := range set {
		f, ok := fieldByName(rv, name)
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

// fieldByName returns the top-level field of struct v stored as attribute
// name, or named name in Go.
func fieldByName(v reflect.Value, name string) (reflect.Value, bool) {
	if fi, ok := codec.FieldsOf(v.Type())[name]; ok && !fi.ViaPointer {
		return v.FieldByIndex(fi.Index), true
	}
	if f, ok := v.Type().FieldByName(name); ok && f.IsExported() {
		return v.FieldByIndex(f.Index), true
	}
	return reflect.Value{}, false
}

// fieldByPath returns the string field at the attribute path
// ("credentials.accessToken": the accessToken attribute of the struct the
// credentials attribute holds), following pointers.
func fieldByPath(v reflect.Value, path string) (reflect.Value, bool) {
	for part := range strings.SplitSeq(path, ".") {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, false
		}
		f, ok := fieldByName(v, part)
		if !ok {
			return reflect.Value{}, false
		}
		v = f
	}
	return v, v.Kind() == reflect.String
}

// fillSample fills v with sample values; name is its attribute name.
func fillSample(v reflect.Value, name string, depth int) {
	if depth > 4 || !v.CanSet() {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(name + "1")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes: left empty
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fillSample(s.Index(0), name, depth+1)
		v.Set(s)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(sampleTime))
			return
		}
		if v.Type() == reflect.TypeFor[types.AttributeValueMemberS]() {
			return
		}
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			n, _, _ := strings.Cut(f.Tag.Get("dynamo"), ",")
			if n == "" || n == "-" {
				n = f.Name
			}
			fillSample(v.Field(i), n, depth+1)
		}
	}
}
