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
