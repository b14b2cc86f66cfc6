package codec

import (
	"encoding"
	"reflect"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/guregu/dynamo/v2"
)

// Items are encoded with guregu/dynamo (it omits empty values, which keeps
// sparse GSI keys absent) and decoded with a decoder plan per type
// (plan_decode.go: exact attribute names, the table's own attributes
// skipped, guregu's result), unless the type or one of its fields decodes
// itself with guregu's or attributevalue's interfaces: then guregu decodes
// it, so custom types behave the same both ways.

var (
	guregUnmarshaler     = reflect.TypeFor[dynamo.Unmarshaler]()
	guregItemUnmarshaler = reflect.TypeFor[dynamo.ItemUnmarshaler]()
	textUnmarshaler      = reflect.TypeFor[encoding.TextUnmarshaler]()
	avUnmarshaler        = reflect.TypeFor[attributevalue.Unmarshaler]()
)

var fastDecode sync.Map // reflect.Type -> bool

// CanDecodeFast reports whether attributevalue decodes t exactly as guregu
// would: no field (at any depth) implements a decoding interface of
// either library, and no field is an interface.
func CanDecodeFast(t reflect.Type) bool {
	if v, ok := fastDecode.Load(t); ok {
		return v.(bool)
	}
	ok := plainType(t, map[reflect.Type]bool{})
	fastDecode.Store(t, ok)
	return ok
}

func plainType(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	if t.Kind() == reflect.Pointer {
		return plainType(t.Elem(), seen)
	}
	if t == reflect.TypeFor[[]byte]() {
		return true
	}
	pt := reflect.PointerTo(t)
	for _, it := range []reflect.Type{guregUnmarshaler, guregItemUnmarshaler, textUnmarshaler, avUnmarshaler} {
		if t.Implements(it) || pt.Implements(it) {
			return t == reflect.TypeFor[time.Time]()
		}
	}
	switch t.Kind() {
	case reflect.Interface, reflect.Func, reflect.Chan, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return false
	case reflect.Slice, reflect.Array:
		return plainType(t.Elem(), seen)
	case reflect.Map:
		return t.Key().Kind() == reflect.String && plainType(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			if tag := f.Tag.Get("dynamo"); tag != "" && tag != "-" && hasGuregOnlyOption(tag) {
				return false
			}
			if !plainType(f.Type, seen) {
				return false
			}
		}
	}
	return true
}

// hasGuregOnlyOption reports tag options attributevalue would read
// differently (`unixtime` is shared; `set` and `omitempty` only affect
// encoding).
func hasGuregOnlyOption(tag string) bool {
	for i := 0; i < len(tag); i++ {
		if tag[i] == ',' {
			opts := tag[i+1:]
			return opts != "" && opts != "omitempty" && opts != "set" && opts != "unixtime" &&
				opts != "omitempty,set" && opts != "set,omitempty" && opts != "omitempty,unixtime" && opts != "unixtime,omitempty"
		}
	}
	return false
}

// DecodeItem decodes raw into out (a pointer) with the type's decoder plan
// (plan_decode.go): exact attribute names, guregu's result, the table's
// own attributes skipped. Types that decode themselves (guregu's,
// attributevalue's or encoding.TextUnmarshaler interfaces, at any depth)
// go to guregu whole, so custom types behave the same both ways.
func DecodeItem(raw Item, out any) error {
	rv := reflect.ValueOf(out).Elem()
	t := rv.Type()
	if CanDecodeFast(t) {
		if p := planFor(t); p != nil {
			return p.decode(raw, rv)
		}
	}
	return dynamo.UnmarshalItem(raw, out)
}
