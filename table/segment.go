package table

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/singletable/singletable/keys"
)

// Segment is the rule for a value that becomes one segment of a key (an
// ID, a topic name, a credential's value), declared once per kind of
// value an application keys by: not empty, at most MaxBytes bytes, valid
// UTF-8, no control character, and no key delimiter '#' unless Escaped.
// An application bounds its IDs tighter than DynamoDB's key limits so
// that every key built from them stays below those limits:
//
//	var ids = table.Segment{MaxBytes: 128}
//	func (id UserID) Validate(field string) error { return ids.Check(field, string(id)) }
//
// A Segment is a value, safe for concurrent use.
type Segment struct {
	// MaxBytes bounds the value's length in bytes (0: [keys.MaxSKBytes]).
	MaxBytes int
	// Escaped accepts the delimiter: the value is escaped ([keys.Escape],
	// a template's ":esc") before it becomes a segment.
	Escaped bool
}

// Check returns nil if v can be the segment, else a *[ValidationError]
// naming field, with Key set and [Segment.Reason] as its reason.
func (s Segment) Check(field, v string) error {
	if r := s.Reason(v); r != "" {
		return &ValidationError{Field: field, Reason: r, Key: true}
	}
	return nil
}

// Reason says why v cannot be the segment: "empty", "longer than N
// bytes", "not valid UTF-8", "contains the key delimiter '#'" or
// "contains a control character"; "" if it can.
func (s Segment) Reason(v string) string {
	max := s.MaxBytes
	if max == 0 {
		max = keys.MaxSKBytes
	}
	switch {
	case v == "":
		return "empty"
	case len(v) > max:
		return fmt.Sprintf("longer than %d bytes", max)
	case !utf8.ValidString(v):
		return "not valid UTF-8"
	case !s.Escaped && strings.Contains(v, keys.Delimiter):
		return "contains the key delimiter '#'"
	case strings.IndexFunc(v, unicode.IsControl) >= 0:
		return "contains a control character"
	}
	return ""
}
