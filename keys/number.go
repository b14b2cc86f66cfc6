package keys

import "strconv"

// maxUintDigits is the number of decimal digits of the largest uint64.
const maxUintDigits = 20

// MustUint is like [Uint] but panics on error: use it for values the
// program made itself (constants, the clock), never for input.
func MustUint(n uint64, width int) string {
	s, err := Uint(n, width)
	if err != nil {
		panic(err)
	}
	return s
}

// Uint returns n in decimal, zero-padded to width digits, so that for a fixed
// width byte order is numeric order: MustUint(7, 4) == "0007" sorts before
// MustUint(10, 4) == "0010", where "7" would sort after "10".
//
// It returns an *[EncodingError] matching [ErrInvalidKey] for a value it
// cannot encode (see [MustUint] for values known to be valid).
func Uint(n uint64, width int) (string, error) {
	if width < 1 || width > maxUintDigits {
		return "", &EncodingError{Encoding: "uint", Value: strconv.FormatUint(n, 10),
			Reason: "width " + strconv.Itoa(width) + " is not in [1, 20]"}
	}
	var buf [maxUintDigits]byte
	if !putUint(buf[:width], n) {
		return "", &EncodingError{Encoding: "uint", Value: strconv.FormatUint(n, 10),
			Reason: "does not fit in " + strconv.Itoa(width) + " digits"}
	}
	return string(buf[:width]), nil
}

// putUint writes n zero-padded into all of dst and reports whether it fit.
func putUint(dst []byte, n uint64) bool {
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = byte('0' + n%10)
		n /= 10
	}
	return n == 0
}

// ParseUint parses a string of 1 to 20 decimal digits, leading zeros
// allowed, as written by [MustUint]. Signs, spaces and other characters give an
// *[EncodingError] matching [ErrInvalidKey]. It does not check the width.
func ParseUint(s string) (uint64, error) {
	if s == "" || len(s) > maxUintDigits {
		return 0, &EncodingError{Encoding: "uint", Value: s, Reason: "is not 1 to 20 digits"}
	}
	n, ok := parseDigits(s)
	if !ok {
		return 0, &EncodingError{Encoding: "uint", Value: s, Reason: "is not a decimal number in the uint64 range"}
	}
	return n, nil
}

// parseDigits parses s, made of ASCII digits only, and reports false on any
// other byte or on overflow.
func parseDigits(s string) (uint64, bool) {
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if n > (1<<64-1-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// intOffset maps int64 onto uint64 preserving order (offset binary).
const intOffset = 1 << 63

// Int returns n as 20 decimal digits whose byte order is numeric order,
// negative numbers included: the offset-binary value n + 2^63, zero-padded.
// Int(-1) == "09223372036854775807" sorts before Int(0) ==
// "09223372036854775808".
func Int(n int64) string {
	var buf [maxUintDigits]byte
	putUint(buf[:], uint64(n)^intOffset)
	return string(buf[:])
}

// ParseInt parses the 20 digits written by [Int]. Anything else gives an
// *[EncodingError] matching [ErrInvalidKey].
func ParseInt(s string) (int64, error) {
	if len(s) != maxUintDigits {
		return 0, &EncodingError{Encoding: "int", Value: s, Reason: "is not 20 digits"}
	}
	u, ok := parseDigits(s)
	if !ok {
		return 0, &EncodingError{Encoding: "int", Value: s, Reason: "is not a decimal number in the uint64 range"}
	}
	return int64(u ^ intOffset), nil
}
