package codec

import (
	"reflect"
	"strings"
	"sync"
)

// One walk of a Go type's `dynamo` tags, by the rules guregu/dynamo
// encodes with (an exported field's tag name, else its Go name; "-"
// skipped; embedded structs without a name flattened), cached per type.
// The attribute-name checks (Patch, filters, MustField, templates), the
// decoder plan and the encoding fixes all read it.

// fieldInfo is one attribute of a struct type.
type fieldInfo struct {
	Index      []int
	Typ        reflect.Type
	set        bool // the `set` tag option
	unixtime   bool // the `unixtime` tag option
	stringMap  bool // map with string keys and string values
	ViaPointer bool // reached through an embedded pointer
}

// typeFields is the walk's result for one type.
type typeFields struct {
	fields map[string]fieldInfo
	// shadowed is true when two fields claim one attribute name (guregu's
	// precedence rules then apply: the decoder plan leaves such types to it).
	shadowed bool
	// mapFields are the attributes whose field may hold a map
	// (mayHoldMap): the only ones KeepEmptyMapStrings fixes.
	mapFields []string
}

var typeFieldsCache sync.Map // reflect.Type -> *typeFields

// fieldsOfType returns the attributes of struct type t.
func fieldsOfType(t reflect.Type) *typeFields {
	if v, ok := typeFieldsCache.Load(t); ok {
		return v.(*typeFields)
	}
	tf := &typeFields{fields: map[string]fieldInfo{}}
	var walk func(t reflect.Type, prefix []int, viaPtr bool, seen map[reflect.Type]bool)
	walk = func(t reflect.Type, prefix []int, viaPtr bool, seen map[reflect.Type]bool) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("dynamo"), ",")
			if name == "-" {
				continue
			}
			idx := append(append([]int(nil), prefix...), i)
			if f.Anonymous && name == "" {
				walk(f.Type, idx, viaPtr || f.Type.Kind() == reflect.Pointer, seen)
				continue
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if _, dup := tf.fields[name]; dup {
				tf.shadowed = true
			}
			ft := f.Type
			o := "," + opts + ","
			tf.fields[name] = fieldInfo{Index: idx, Typ: ft, ViaPointer: viaPtr,
				set: strings.Contains(o, ",set,"), unixtime: strings.Contains(o, ",unixtime,"),
				stringMap: ft.Kind() == reflect.Map && ft.Key().Kind() == reflect.String && ft.Elem().Kind() == reflect.String}
		}
	}
	walk(t, nil, false, map[reflect.Type]bool{})
	for name, fi := range tf.fields {
		if mayHoldMap(fi.Typ) {
			tf.mapFields = append(tf.mapFields, name)
		}
	}
	typeFieldsCache.Store(t, tf)
	return tf
}

// FieldsOf returns the attributes of struct type t by name.
func FieldsOf(t reflect.Type) map[string]fieldInfo { return fieldsOfType(t).fields }

// HasAttr reports whether items of type T have attribute name.
func HasAttr[T any](name string) bool {
	_, ok := FieldsOf(reflect.TypeFor[T]())[name]
	return ok
}
