package codec

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/singletable/singletable/keys"
)

// ErrInvalidInput: an item or request failed validation before any
// request was sent (table.ErrInvalidInput is this value).
var ErrInvalidInput = errors.New("singletable: invalid input")

// ValidationError reports bad input: which field, and why. It matches
// [ErrInvalidInput] (and [keys.ErrInvalidKey] when Key is set).
type ValidationError struct {
	// Entity is the entity type, when known.
	Entity string
	// Field names the offending field or key segment.
	Field string
	// Reason says what is wrong with it.
	Reason string
	// Key is true when the field is part of a key.
	Key bool
	// Unknown is true when the field holds a value its enumeration does
	// not list ([ParseEnum], [CheckEnum]); Value is that value and Allowed
	// the list. A write refuses it; [Entity.Import] keeps it, since the
	// source holds it (see [KeptValue]).
	Unknown bool
	Value   string
	Allowed []string
}

// Error implements error.
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("singletable: invalid ")
	if e.Entity != "" {
		b.WriteString(e.Entity)
		b.WriteByte(' ')
	}
	fmt.Fprintf(&b, "%s: %s", e.Field, e.Reason)
	return b.String()
}

// Is reports whether target is ErrInvalidInput, or keys.ErrInvalidKey for key fields.
func (e *ValidationError) Is(target error) bool {
	return target == ErrInvalidInput || (e.Key && target == keys.ErrInvalidKey)
}

// CheckValues returns a *ValidationError naming the first attribute of
// item that DynamoDB would refuse or silently change: a string (or set
// member, or map key) that is not valid UTF-8 (the JSON protocol would
// replace its bytes), or a number that is NaN, infinite, or outside
// DynamoDB's range (38 significant digits, magnitude 1E-130 to
// 9.9999999999999999999999999999999999999E+125).
func CheckValues(entity string, item Item) error {
	for name, v := range item {
		if !utf8.ValidString(name) {
			return &ValidationError{Entity: entity, Field: name, Reason: "attribute name is not valid UTF-8"}
		}
		if reason := Check(v); reason != "" {
			return &ValidationError{Entity: entity, Field: name, Reason: reason}
		}
	}
	return nil
}
