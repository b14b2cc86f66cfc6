package table

import (
	"context"
	"fmt"
	"reflect"

	"github.com/singletable/singletable/internal/codec"
)

// Field is a typed reference to the attribute of entity type T that holds
// values of type V: declare it once, next to the type, and a change built
// from it cannot name a missing attribute (checked when it is declared) or
// carry a value of the wrong type (checked by the compiler).
//
//	var DocTitle = table.MustField[Doc, string]("title")
//	doc, err := docs.Change(ctx, k, table.Set(DocTitle, "New title"))
type Field[T, V any] struct{ name string }

// MustField returns the field of T named name. It panics if items of T
// have no such attribute, or if the attribute's Go field cannot hold a V
// (its type is neither V nor *V, nor a named type of V's kind V converts
// to, such as an enum declared on string): both are programming errors,
// found when the package initialises, never at the first request.
func MustField[T, V any](name string) Field[T, V] {
	var zero T
	f, ok := codec.FieldsOf(reflect.TypeFor[T]())[name]
	if !ok {
		panic(fmt.Sprintf("table.MustField: %T has no attribute %q", zero, name))
	}
	if v := reflect.TypeFor[V](); !codec.FieldHolds(f.Typ, v) {
		panic(fmt.Sprintf("table.MustField[%T, %v]: attribute %q is a %v, not a %v", zero, v, name, f.Typ, v))
	}
	return Field[T, V]{name: name}
}

// Name returns the attribute name.
func (f Field[T, V]) Name() string { return f.name }

// Change is one typed change of an item of T, for [Entity.Change].
type Change[T any] struct{ apply func(*Patch) }

// Set sets field f to v.
func Set[T, V any](f Field[T, V], v V) Change[T] {
	return Change[T]{func(p *Patch) { codec.SetEntry(&p.Set, f.name, v) }}
}

// Remove deletes field f's attribute.
func Remove[T, V any](f Field[T, V]) Change[T] {
	return Change[T]{func(p *Patch) { p.Remove = append(p.Remove, f.name) }}
}

// Incr adds delta to the integer field f, atomically (a missing attribute
// counts as 0; an overflow fails the condition).
func Incr[T any, V ~int | ~int64 | ~int32](f Field[T, V], delta V) Change[T] {
	return Change[T]{func(p *Patch) {
		if p.Add == nil {
			p.Add = map[string]int64{}
		}
		p.Add[f.name] = int64(delta)
	}}
}

// If makes the change conditional on field f holding v.
func If[T, V any](f Field[T, V], v V) Change[T] {
	return Change[T]{func(p *Patch) { codec.SetEntry(&p.IfEqual, f.name, v) }}
}

// IfNot makes the change conditional on field f being absent or not v.
func IfNot[T, V any](f Field[T, V], v V) Change[T] {
	return Change[T]{func(p *Patch) { codec.SetEntry(&p.IfNotEqual, f.name, v) }}
}

// Change applies typed changes to the item with key k in one UpdateItem
// (no read first: the one-request change peers make with a raw
// UpdateItem), and returns the item as stored afterwards. It is
// [Entity.Patch] built from typed [Field]s, with its rules: a missing or
// expired item is [ErrNotFound], fields keys or guards derive from are
// refused (use [Entity.Update]), Touch moves updatedAt, and a lost
// response is recognised by its write token.
func (e *Entity[T]) Change(ctx context.Context, k Key, changes ...Change[T]) (T, error) {
	var p Patch
	for _, c := range changes {
		c.apply(&p)
	}
	return e.patch(ctx, "change", k, p, nil)
}

// checkAttr refuses an attribute name that items of T do not have (a typo
// such as "txet" for "text" would otherwise store a new attribute, or
// filter on one that never matches), before any request. The table's TTL
// attribute is accepted.
func (e *Entity[T]) checkAttr(what, name string) error {
	if codec.HasAttr[T](name) || (name != "" && name == e.t.schema.TTLAttr) {
		return nil
	}
	return &ValidationError{Entity: e.def.Type, Field: name, Reason: fmt.Sprintf("%s: not an attribute of %s (a typo?)", what, e.def.Type)}
}
