package codec

import (
	"fmt"
	"reflect"
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
