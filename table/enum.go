package table

import (
	"fmt"
	"slices"
	"strings"
)

// ParseEnum returns s as an E if it is one of allowed, or else a
// *[ValidationError] naming field and listing the allowed values. Entity
// packages build their typed enums' Parse functions on it.
func ParseEnum[E ~string](field, s string, allowed ...E) (E, error) {
	if slices.Contains(allowed, E(s)) {
		return E(s), nil
	}
	return "", unknownValue(field, s, allowed)
}

// CheckEnum returns nil if v is one of allowed, or else a
// *[ValidationError] naming field and listing the allowed values.
func CheckEnum[E comparable](field string, v E, allowed ...E) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	return unknownValue(field, fmt.Sprint(v), allowed)
}

// unknownValue is the *ValidationError of an unknown enum value got.
func unknownValue[E any](field, got string, allowed []E) error {
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = fmt.Sprint(a)
	}
	return &ValidationError{Field: field, Reason: fmt.Sprintf("unknown value %q (want one of %s)", got, strings.Join(names, ", ")),
		Unknown: true, Value: got, Allowed: names}
}
