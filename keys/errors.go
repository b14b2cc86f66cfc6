package keys

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrInvalidKey is matched, with [errors.Is], by every error this package
// returns: a bad segment, a key that is too long, a key of another pattern,
// a malformed encoded number, time or escape. The table package aliases it,
// so table.ErrInvalidKey and keys.ErrInvalidKey are the same error.
var ErrInvalidKey = errors.New("singletable: invalid key")

// maxQuoted bounds how much of an offending value an error message shows.
const maxQuoted = 64

// quote returns s quoted for an error message, shortened to maxQuoted bytes.
func quote(s string) string {
	if len(s) > maxQuoted {
		return strconv.Quote(s[:maxQuoted]) + "..."
	}
	return strconv.Quote(s)
}

// SegmentError reports a segment value that cannot be part of a key: empty,
// not valid UTF-8, holding a control character or the [Delimiter]. It is
// returned by [Pattern.Build], [Pattern.Prefix] and [Pattern.Parse], and it
// matches [ErrInvalidKey].
type SegmentError struct {
	// Pattern is the pattern's template, e.g. "USER#{userId}".
	Pattern string
	// Segment is the name of the offending segment, e.g. "userId".
	Segment string
	// Value is the rejected value.
	Value string
	// Reason says what is wrong with Value.
	Reason string
}

// Error implements error.
func (e *SegmentError) Error() string {
	return fmt.Sprintf("singletable: invalid key %s: segment %s %s (value %s)",
		e.Pattern, e.Segment, e.Reason, quote(e.Value))
}

// Is reports whether target is [ErrInvalidKey].
func (e *SegmentError) Is(target error) bool { return target == ErrInvalidKey }

// LengthError reports a key longer than its pattern's limit in bytes
// ([MaxPKBytes], [MaxSKBytes] or [Pattern.WithMaxBytes]). It matches
// [ErrInvalidKey].
type LengthError struct {
	// Pattern is the pattern's template, e.g. "USER#{userId}".
	Pattern string
	// Bytes is the length of the key, in bytes.
	Bytes int
	// Max is the limit, in bytes.
	Max int
}

// Error implements error.
func (e *LengthError) Error() string {
	return fmt.Sprintf("singletable: invalid key %s: %d bytes, longer than the limit of %d",
		e.Pattern, e.Bytes, e.Max)
}

// Is reports whether target is [ErrInvalidKey].
func (e *LengthError) Is(target error) bool { return target == ErrInvalidKey }

// KeyError reports a key or a call that does not fit a pattern as a whole:
// the wrong number of values, a key with another prefix or another number of
// segments. It matches [ErrInvalidKey].
type KeyError struct {
	// Pattern is the pattern's template, e.g. "USER#{userId}".
	Pattern string
	// Key is the offending key; empty when the error concerns a call to
	// Build or Prefix.
	Key string
	// Reason says what is wrong.
	Reason string
}

// Error implements error.
func (e *KeyError) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("singletable: invalid key %s: %s", e.Pattern, e.Reason)
	}
	return fmt.Sprintf("singletable: invalid key %s: key %s %s", e.Pattern, quote(e.Key), e.Reason)
}

// Is reports whether target is [ErrInvalidKey].
func (e *KeyError) Is(target error) bool { return target == ErrInvalidKey }

// EncodingError reports a value that a sortable encoding or [Unescape]
// cannot accept: an encoded string that does not parse, or a number or time
// outside the encoding's range. It matches [ErrInvalidKey].
type EncodingError struct {
	// Encoding names the encoding: "uint", "int", "unix-milli", "date",
	// "timestamp" or "escape".
	Encoding string
	// Value is the rejected input, formatted as text.
	Value string
	// Reason says what is wrong with Value.
	Reason string
}

// Error implements error.
func (e *EncodingError) Error() string {
	return fmt.Sprintf("singletable: invalid key: %s %s %s", e.Encoding, quote(e.Value), e.Reason)
}

// Is reports whether target is [ErrInvalidKey].
func (e *EncodingError) Is(target error) bool { return target == ErrInvalidKey }
