package table

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// attrSets caches the attribute names of struct types.
var attrSets sync.Map // reflect.Type -> map[string]bool

// attrNames returns the attribute names items of type T have, by the
// rules guregu/dynamo encodes with: an exported field's `dynamo` tag name,
// else its Go name; "-" skipped; embedded structs without a name flattened.
func attrNames[T any]() map[string]bool {
	t := reflect.TypeFor[T]()
	if v, ok := attrSets.Load(t); ok {
		return v.(map[string]bool)
	}
	names := map[string]bool{}
	collectAttrs(t, names, map[reflect.Type]bool{})
	attrSets.Store(t, names)
	return names
}

func collectAttrs(t reflect.Type, names map[string]bool, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("dynamo")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			collectAttrs(f.Type, names, seen)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names[name] = true
	}
}

// checkAttr refuses an attribute name that items of T do not have (a typo
// such as "txet" for "text" would otherwise store a new attribute, or
// filter on one that never matches), before any request. The table's own
// attributes (keys, type, TTL, version) are accepted where the caller
// allows them.
func (e *Entity[T]) checkAttr(what, name string) error {
	if attrNames[T]()[name] {
		return nil
	}
	s := e.t.schema
	if name == s.TTLAttr && name != "" {
		return nil
	}
	return &ValidationError{Entity: e.def.Type, Field: name, Reason: fmt.Sprintf("%s: not an attribute of %s (a typo?)", what, e.def.Type)}
}
