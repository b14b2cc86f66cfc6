package codec

import (
	"encoding"
	"maps"
	"reflect"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// Encoding fixes on top of guregu's encoder, so that what is stored is
// what the caller gave, and what a write leaves is what was stored:
//
//   - Top-level fields follow guregu: an empty string, a nil or empty
//     slice, map or set is omitted (sparse GSI keys stay absent;
//     Def.AlwaysWrite and the `allowempty` tag write them).
//   - Inside a map, at any depth (map fields, maps in lists, in `any`, in
//     nested structs), every entry is written as the Go value holds it: ""
//     as an empty string, nil as NULL, an empty []byte as empty binary,
//     empty lists and maps as such. guregu drops these entries; DynamoDB
//     stores them outside keys, and a key present in a Go map is data.
//   - Update, Replace and Upsert rewrite an attribute the caller changed
//     from the stored value, not from a fresh encoding (KeepStored): a part
//     of it the change did not touch keeps its stored form (a string set
//     read into `any` stays a set, a nested empty string a struct field
//     cannot tell from absence stays stored), an entry the Go value could
//     not represent stays, and only what the caller changed is new.
//     Whole-item writes (Create, Put, PutOp, BatchPut) of an item that
//     carries its read image ([ReadState]) do the same against it
//     (keepReadForms), so an item read and written back is stored
//     unchanged; an item without one is written as encoded.
//   - A Patch or Change value is encoded by the same encoder, in a T
//     (fieldenc.go): it is stored exactly as Create stores the field (its
//     tags, `unixtime` included), a `set` field's non-empty slice is SS or
//     NS, an empty one removes the attribute (DynamoDB has no empty set).

// KeepEmptyMapStrings fixes av, guregu's encoding of struct value v: the
// maps at any depth keep their empty entries (see keepEmpties). Only the
// fields that may hold a map are visited (the others it leaves as they
// are), so a type without one costs a cached lookup.
func KeepEmptyMapStrings(av Item, v reflect.Value) {
	tf := fieldsOfType(v.Type())
	for _, name := range tf.mapFields {
		fi := tf.fields[name]
		f, err := v.FieldByIndexErr(fi.Index)
		if err != nil {
			continue
		}
		if cur, ok := av[name]; ok {
			av[name] = keepEmpties(f, cur)
		} else if f.Kind() == reflect.Map && f.Len() > 0 && f.Type().Key().Kind() == reflect.String {
			av[name] = keepEmpties(f, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}})
		}
	}
}

var (
	guregMarshaler     = reflect.TypeFor[dynamo.Marshaler]()
	guregItemMarshaler = reflect.TypeFor[dynamo.ItemMarshaler]()
	textMarshaler      = reflect.TypeFor[encoding.TextMarshaler]()
	avMarshaler        = reflect.TypeFor[attributevalue.Marshaler]()
)

// customEncoded reports whether t (or *t) encodes itself: its encoding is
// left as it made it.
func customEncoded(t reflect.Type) bool {
	if v, ok := customTypes.Load(t); ok {
		return v.(bool)
	}
	pt := reflect.PointerTo(t)
	custom := false
	for _, it := range []reflect.Type{guregMarshaler, guregItemMarshaler, textMarshaler, avMarshaler} {
		custom = custom || t.Implements(it) || pt.Implements(it)
	}
	customTypes.Store(t, custom)
	return custom
}

var customTypes, mapTypes sync.Map // reflect.Type -> bool

var emptyWrappers sync.Map // reflect.Type -> the struct type emptyElem encodes it in

// mayHoldMap reports whether a value of type t can hold a map guregu
// encodes (at any depth, through an interface too): only those need
// keepEmpties.
func mayHoldMap(t reflect.Type) bool {
	if v, ok := mapTypes.Load(t); ok {
		return v.(bool)
	}
	var walk func(t reflect.Type, seen map[reflect.Type]bool) bool
	walk = func(t reflect.Type, seen map[reflect.Type]bool) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		if customEncoded(t) {
			return false
		}
		switch t.Kind() {
		case reflect.Map, reflect.Interface:
			return true
		case reflect.Pointer, reflect.Slice, reflect.Array:
			return walk(t.Elem(), seen)
		case reflect.Struct:
			for i := range t.NumField() {
				if f := t.Field(i); (f.IsExported() || f.Anonymous) && walk(f.Type, seen) {
					return true
				}
			}
		}
		return false
	}
	holds := walk(t, map[reflect.Type]bool{})
	mapTypes.Store(t, holds)
	return holds
}

// keepEmpties returns av, guregu's encoding of rv, with the entries guregu
// dropped from maps (at any depth) put back; av itself when nothing was.
func keepEmpties(rv reflect.Value, av types.AttributeValue) types.AttributeValue {
	if av == nil || !rv.IsValid() || !mayHoldMap(rv.Type()) {
		return av
	}
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return av
		}
		rv = rv.Elem()
		if !mayHoldMap(rv.Type()) {
			return av
		}
	}
	switch rv.Kind() {
	case reflect.Struct:
		m, ok := av.(*types.AttributeValueMemberM)
		tf := fieldsOfType(rv.Type())
		if !ok || tf.shadowed {
			return av
		}
		var out map[string]types.AttributeValue
		for name, fi := range tf.fields {
			e, ok := m.Value[name]
			if !ok {
				continue
			}
			f, err := rv.FieldByIndexErr(fi.Index)
			if err != nil {
				continue
			}
			if fixed := keepEmpties(f, e); fixed != e {
				if out == nil {
					out = maps.Clone(m.Value)
				}
				out[name] = fixed
			}
		}
		if out == nil {
			return av
		}
		return &types.AttributeValueMemberM{Value: out}
	case reflect.Map:
		m, ok := av.(*types.AttributeValueMemberM)
		if !ok || rv.Type().Key().Kind() != reflect.String {
			return av // a set, or keys guregu spells its own way
		}
		var out map[string]types.AttributeValue
		iter := rv.MapRange()
		for iter.Next() {
			k := iter.Key().String()
			e, ok := m.Value[k]
			fixed := e
			if ok {
				fixed = keepEmpties(iter.Value(), e)
			} else {
				fixed = emptyElem(iter.Value())
			}
			if !ok || fixed != e {
				if out == nil {
					out = maps.Clone(m.Value)
				}
				out[k] = fixed
			}
		}
		if out == nil {
			return av
		}
		return &types.AttributeValueMemberM{Value: out}
	case reflect.Slice, reflect.Array:
		l, ok := av.(*types.AttributeValueMemberL)
		if !ok || len(l.Value) != rv.Len() {
			return av // []byte, a set
		}
		var out []types.AttributeValue
		for i, e := range l.Value {
			if fixed := keepEmpties(rv.Index(i), e); fixed != e {
				if out == nil {
					out = slices.Clone(l.Value)
				}
				out[i] = fixed
			}
		}
		if out == nil {
			return av
		}
		return &types.AttributeValueMemberL{Value: out}
	}
	return av
}

// emptyElem encodes v, a map entry guregu dropped: with guregu's
// allowempty, null and allowemptyelem options, so "" is an empty string and
// nil is NULL.
func emptyElem(v reflect.Value) types.AttributeValue {
	if !v.IsValid() {
		return &types.AttributeValueMemberNULL{Value: true}
	}
	for v.Kind() == reflect.Interface {
		if v.IsNil() {
			return &types.AttributeValueMemberNULL{Value: true}
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.String && !customEncoded(v.Type()) {
		return &types.AttributeValueMemberS{Value: v.String()} // the usual case, without a detour
	}
	var st reflect.Type
	if c, ok := emptyWrappers.Load(v.Type()); ok {
		st = c.(reflect.Type)
	} else {
		st = reflect.StructOf([]reflect.StructField{{Name: "V", Type: v.Type(), Tag: `dynamo:"v,allowempty,null,allowemptyelem"`}})
		emptyWrappers.Store(v.Type(), st)
	}
	sv := reflect.New(st)
	sv.Elem().Field(0).Set(v)
	item, err := dynamo.MarshalItem(sv.Interface())
	if err != nil || item["v"] == nil {
		return &types.AttributeValueMemberNULL{Value: true}
	}
	return keepEmpties(v, item["v"])
}

// KeepStored returns the value an Update or Replace writes for an
// attribute whose encoding the caller changed from old (the encoding of
// the item as read) to nw: nw, except that every part of stored (the
// attribute as DynamoDB holds it) that the change did not touch keeps its
// stored form: a part encoded the same before and after is written as
// stored, and a map entry absent from both encodings (the Go value could
// not represent it) is kept.
func KeepStored(stored, old, nw types.AttributeValue) types.AttributeValue {
	if stored == nil || nw == nil {
		return nw
	}
	if Equal(old, nw) {
		return stored
	}
	switch n := nw.(type) {
	case *types.AttributeValueMemberM:
		s, ok := stored.(*types.AttributeValueMemberM)
		if !ok {
			return nw
		}
		var o map[string]types.AttributeValue
		switch ov := old.(type) {
		case nil:
		case *types.AttributeValueMemberM:
			o = ov.Value
		default:
			return nw
		}
		out := make(map[string]types.AttributeValue, len(n.Value))
		for k, v := range n.Value {
			out[k] = KeepStored(s.Value[k], o[k], v)
		}
		for k, v := range s.Value {
			_, inNew := n.Value[k]
			_, inOld := o[k]
			if !inNew && !inOld {
				out[k] = v
			}
		}
		return &types.AttributeValueMemberM{Value: out}
	case *types.AttributeValueMemberL:
		s, ok1 := stored.(*types.AttributeValueMemberL)
		o, ok2 := old.(*types.AttributeValueMemberL)
		if !ok1 || !ok2 || len(s.Value) != len(n.Value) || len(o.Value) != len(n.Value) {
			return nw
		}
		out := make([]types.AttributeValue, len(n.Value))
		for i, v := range n.Value {
			out[i] = KeepStored(s.Value[i], o.Value[i], v)
		}
		return &types.AttributeValueMemberL{Value: out}
	}
	return nw
}
