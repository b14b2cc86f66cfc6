package table

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/singletable/singletable/internal/codec"
)

// ParseEnum returns s as an E if it is one of allowed, or else a
// *[ValidationError] naming field and listing the allowed values. Entity
// packages build their typed enums' Parse functions on it.
func ParseEnum[E ~string](field, s string, allowed ...E) (E, error) {
	return codec.ParseEnum(field, s, allowed...)
}

// CheckEnum returns nil if v is one of allowed, or else a
// *[ValidationError] naming field and listing the allowed values. With no
// allowed values it checks v against the enumeration declared for its
// type ([NewEnum]): `table.CheckEnum("status", a.Status)`.
func CheckEnum[E comparable](field string, v E, allowed ...E) error {
	return codec.CheckEnum(field, v, allowed...)
}

// Enum is one enumeration, declared once: a string type's values as a
// document lists them, and the field its errors name. It gives what each
// enumeration needs (the values, a check, a parse) so that an entity
// package declares
//
//	type Role string
//	const (RoleAdmin Role = "admin"; RoleClient Role = "client")
//	var Roles = table.NewEnum("role", RoleAdmin, RoleClient)
//
// and writes nothing else for it: the engine knows the values of every
// field of type Role. A value outside the set is refused where a value is
// written or asked for: a write that sets such a field (the item's field
// checks, [Def.Required]), a patch, a key field of a declared read
// ([PatternDef.Check]), and `table.CheckEnum("role", u.Role)` ([CheckEnum]
// with no values). It is kept on read: the type is a string, so an item another
// writer stored with a newer value reads back with that value, and a
// write-back keeps it unless the caller changes it. An Enum is immutable
// and safe for concurrent use.
type Enum[E ~string] struct {
	field  string
	values []E
}

// NewEnum declares the enumeration of values, named field in its errors.
// A type has one enumeration: NewEnum of other values for E panics.
func NewEnum[E ~string](field string, values ...E) Enum[E] {
	e := Enum[E]{field: field, values: slices.Clone(values)}
	codec.RegisterEnum(reflect.TypeFor[E](), fmt.Sprint(values), func(field, v string) error { return e.CheckField(field, E(v)) })
	return e
}

// Values returns the values, in their declared order (a copy).
func (e Enum[E]) Values() []E { return slices.Clone(e.values) }

// Field returns the field its errors name.
func (e Enum[E]) Field() string { return e.field }

// Valid reports whether v is one of the values.
func (e Enum[E]) Valid(v E) bool { return slices.Contains(e.values, v) }

// Parse returns s as an E if it is one of the values, else a
// *[ValidationError] naming the field and listing the values.
func (e Enum[E]) Parse(s string) (E, error) { return ParseEnum(e.field, s, e.values...) }

// Check returns nil if v is one of the values, else a *[ValidationError]
// naming the field and listing the values.
func (e Enum[E]) Check(v E) error { return e.CheckField(e.field, v) }

// CheckField is Check naming field instead (a field that holds the
// enumeration's values under another name: a default role).
func (e Enum[E]) CheckField(field string, v E) error {
	if e.Valid(v) {
		return nil
	}
	return codec.UnknownValue(field, string(v), e.values)
}
