package codec

import (
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/guregu/dynamo/v2"
)

// EncodeFields returns the attributes of set (attribute name -> value)
// as a write of struct type t stores them, for a patch: what guregu's
// encoding of a t holding those values (with the encoding fixes, which
// leave such fields alone) would hold under those names, an empty value
// left out. It encodes a struct of only the set fields, each declared as
// in t (its type and tags), instead of a whole t. ok is false, and
// nothing is encoded, when that might differ from the whole t's
// encoding or a value does not fit its field: a name t has no field for,
// in always (written even when empty), or shadowed; a field reached
// through an embedded struct or that can hold a map, a nested struct or
// an interface; a t that encodes itself. The caller then encodes a whole
// t (and reports the error it meets).
func EncodeFields(t reflect.Type, set map[string]any, always ...[]string) (out Item, ok bool) {
	if len(set) == 0 || customEncoded(t) {
		return nil, false
	}
	names := make([]string, 0, len(set))
	for name := range set {
		for _, a := range always {
			if slices.Contains(a, name) {
				return nil, false
			}
		}
		names = append(names, name)
	}
	if len(names) > 1 {
		slices.Sort(names)
	}
	st := setStructOf(t, names)
	if st == nil {
		return nil, false
	}
	p := reflect.New(st.typ)
	for i, name := range names {
		if AssignField(p.Elem(), st.fields[i], set[name]) != nil {
			return nil, false
		}
	}
	av, err := dynamo.MarshalItem(p.Interface())
	if err != nil {
		return nil, false
	}
	return av, true
}

// setStruct is a struct type of some fields of another, declared as
// there, and their fieldInfo in it.
type setStruct struct {
	typ    reflect.Type
	fields []fieldInfo // in the order of the names it was built for
}

type setStructKey struct {
	t     reflect.Type
	names string // sorted, NUL-separated
}

var setStructs sync.Map // setStructKey -> *setStruct (nil: not eligible)

// setStructOf returns the struct of t's fields names (sorted), or nil
// when one is not eligible (see EncodeFields).
func setStructOf(t reflect.Type, names []string) *setStruct {
	key := setStructKey{t: t}
	for i, n := range names {
		if i > 0 {
			key.names += "\x00"
		}
		key.names += n
	}
	if v, ok := setStructs.Load(key); ok {
		return v.(*setStruct)
	}
	var st *setStruct
	tf := fieldsOfType(t)
	var sfs []reflect.StructField
	for _, name := range names {
		fi, ok := tf.fields[name]
		if !ok || tf.shadowed || len(fi.Index) != 1 || !plainField(fi.Typ) {
			sfs = nil
			break
		}
		f := t.Field(fi.Index[0])
		sfs = append(sfs, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
	}
	if sfs != nil {
		typ := reflect.StructOf(sfs)
		st = &setStruct{typ: typ}
		for _, name := range names {
			st.fields = append(st.fields, fieldsOfType(typ).fields[name])
		}
	}
	setStructs.Store(key, st)
	return st
}

var timeType = reflect.TypeFor[time.Time]()

// plainField reports whether a field of type t is encoded the same alone
// as within its struct, the encoding fixes having nothing to add: a
// scalar, a time, a type that encodes itself, or a pointer, slice or
// array of those.
func plainField(t reflect.Type) bool {
	if customEncoded(t) || t == timeType {
		return true
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return plainField(t.Elem())
	}
	return false
}
