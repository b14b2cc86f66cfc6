package keys

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

const upperHex = "0123456789ABCDEF"

// Escape returns s with '%', the [Delimiter] '#', control characters and the
// bytes of invalid UTF-8 replaced by %XX (two upper-case hex digits per
// byte), so that Escape(s) is a valid segment for any non-empty s:
//
//	Escape("c#")    == "c%23"
//	Escape("100%")  == "100%25"
//	Escape("plain") == "plain"
//
// Use it in designed mappings whose values may contain the delimiter, such
// as tags. Escaping is injective: ("A#", "B") and ("A", "#B") give the
// different keys A%23#B and A#%23B. [Unescape] reverses it. A string with
// nothing to escape is returned as is, without allocating.
func Escape(s string) string {
	i := 0
	for i < len(s) {
		if escapeLen(s[i:]) > 0 {
			break
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		if n := escapeLen(s[i:]); n > 0 {
			for _, c := range []byte(s[i : i+n]) {
				b.WriteByte('%')
				b.WriteByte(upperHex[c>>4])
				b.WriteByte(upperHex[c&0x0f])
			}
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String()
}

// escapeLen returns how many bytes at the start of s (a non-empty string)
// Escape replaces: the bytes of one rune that must be escaped, or 0.
func escapeLen(s string) int {
	c := s[0]
	if c < utf8.RuneSelf {
		if c == '%' || c == Delimiter[0] || c < 0x20 || c == 0x7f {
			return 1
		}
		return 0
	}
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 {
		return 1 // one byte of invalid UTF-8
	}
	if unicode.IsControl(r) {
		return size
	}
	return 0
}

// Unescape reverses [Escape]. It accepts only what Escape returns: a '%'
// must be followed by two upper-case hex digits that encode a byte Escape
// would have escaped, and s must not contain a raw delimiter or a byte that
// needs escaping. Anything else gives an *[EncodingError] matching
// [ErrInvalidKey]. So Unescape(s) succeeds exactly when s == Escape(v), and
// then returns v.
func Unescape(s string) (string, error) {
	if strings.IndexByte(s, '%') < 0 {
		if Escape(s) != s {
			return "", &EncodingError{Encoding: "escape", Value: s, Reason: "contains a character that must be escaped"}
		}
		return s, nil
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", &EncodingError{Encoding: "escape", Value: s, Reason: "has a truncated %XX escape"}
		}
		hi, lo := unhex(s[i+1]), unhex(s[i+2])
		if hi < 0 || lo < 0 {
			return "", &EncodingError{Encoding: "escape", Value: s, Reason: "has a % not followed by two upper-case hex digits"}
		}
		b = append(b, byte(hi<<4|lo))
		i += 2
	}
	v := string(b)
	if Escape(v) != s {
		return "", &EncodingError{Encoding: "escape", Value: s, Reason: "is not in canonical escaped form"}
	}
	return v, nil
}

// unhex returns the value of the upper-case hex digit c, or -1.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}
