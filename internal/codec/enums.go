package codec

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// enums are the enumerations declared with table.NewEnum, by their
// string type: a field of such a type checks its own value (a patch's
// value, a key field of a read) with no method of its own.
var enums sync.Map // reflect.Type -> enumEntry

type enumEntry struct {
	values string
	check  func(field, v string) error
}

// RegisterEnum records check as the enumeration of type t, whose values
// are values (joined, to compare declarations). Declaring the same values
// again is a no-op; other values for t panic: an enumeration is declared
// once.
func RegisterEnum(t reflect.Type, values string, check func(field, v string) error) {
	prev, loaded := enums.LoadOrStore(t, enumEntry{values, check})
	if loaded && prev.(enumEntry).values != values {
		panic(fmt.Sprintf("table: NewEnum for %v declared twice, with values %s and %s", t, prev.(enumEntry).values, values))
	}
}

// EnumCheck returns the check of t's enumeration, or nil when t has none.
func EnumCheck(t reflect.Type) func(field, v string) error {
	if e, ok := enums.Load(t); ok {
		return e.(enumEntry).check
	}
	return nil
}

// UnknownValue is the *ValidationError (table.CheckEnum, Enum.Parse) of an unknown enum value got.
func UnknownValue[E any](field, got string, allowed []E) error {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = fmt.Sprint(a)
	}
	return &ValidationError{Field: field, Reason: fmt.Sprintf("unknown value %q (want one of %s)", got, strings.Join(names, ", ")),
		Unknown: true, Value: got, Allowed: names}
}

// ParseEnum returns s as an E if it is one of allowed, or else the
// *ValidationError of UnknownValue (table.ParseEnum).
func ParseEnum[E ~string](field, s string, allowed ...E) (E, error) {
	if slices.Contains(allowed, E(s)) {
		return E(s), nil
	}
	return "", UnknownValue(field, s, allowed)
}

// CheckEnum returns nil if v is one of allowed, or else the
// *ValidationError of UnknownValue; with no allowed values, the check of
// the enumeration declared for v's type, if any (table.CheckEnum).
func CheckEnum[E comparable](field string, v E, allowed ...E) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	if check := EnumCheck(reflect.TypeFor[E]()); len(allowed) == 0 && check != nil {
		return check(field, fmt.Sprint(v))
	}
	return UnknownValue(field, fmt.Sprint(v), allowed)
}
