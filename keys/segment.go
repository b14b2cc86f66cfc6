package keys

import (
	"unicode"
	"unicode/utf8"
)

// Reasons a segment value is rejected; they end up in [SegmentError.Reason].
const (
	reasonEmpty     = "is empty"
	reasonUTF8      = "is not valid UTF-8"
	reasonControl   = "contains a control character"
	reasonDelimiter = "contains the delimiter " + `"` + Delimiter + `"`
)

// checkSegment returns why v cannot be a segment value, or "" if it can. It
// does not allocate.
func checkSegment(v string) string {
	if v == "" {
		return reasonEmpty
	}
	for i := 0; i < len(v); {
		c := v[i]
		if c < utf8.RuneSelf {
			switch {
			case c == Delimiter[0]:
				return reasonDelimiter
			case c < 0x20 || c == 0x7f:
				return reasonControl
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(v[i:])
		if r == utf8.RuneError && size == 1 {
			return reasonUTF8
		}
		if unicode.IsControl(r) {
			return reasonControl
		}
		i += size
	}
	return ""
}
