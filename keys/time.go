package keys

import (
	"strconv"
	"time"
)

// unixMilliDigits is the width of [MustUnixMilli]; 13 digits reach
// 2286-11-20T17:46:39.999Z.
const (
	unixMilliDigits = 13
	maxUnixMilli    = 9_999_999_999_999
)

// MustUnixMilli is like [UnixMilli] but panics on error: use it for values the
// program made itself (constants, the clock), never for input.
func MustUnixMilli(t time.Time) string {
	s, err := UnixMilli(t)
	if err != nil {
		panic(err)
	}
	return s
}

// UnixMilli returns t as milliseconds since the Unix epoch, zero-padded to 13
// digits, so that byte order is time order for 1970-01-01 to 2286-11-20:
// MustUnixMilli(time.UnixMilli(1700000000000)) == "1700000000000". Sub-millisecond
// precision is dropped (rounded toward the past).
//
// It returns an *[EncodingError] matching [ErrInvalidKey] for a value it
// cannot encode (see [MustUnixMilli] for values known to be valid).
func UnixMilli(t time.Time) (string, error) {
	ms := t.UnixMilli()
	if ms < 0 || ms > maxUnixMilli {
		return "", &EncodingError{Encoding: "unix-milli", Value: t.UTC().Format(time.RFC3339Nano),
			Reason: "is outside 1970-01-01 to 2286-11-20"}
	}
	var buf [unixMilliDigits]byte
	putUint(buf[:], uint64(ms))
	return string(buf[:]), nil
}

// ParseUnixMilli parses the 13 digits written by [MustUnixMilli] and returns the
// time in UTC. Anything else gives an *[EncodingError] matching
// [ErrInvalidKey].
func ParseUnixMilli(s string) (time.Time, error) {
	if len(s) != unixMilliDigits {
		return time.Time{}, &EncodingError{Encoding: "unix-milli", Value: s, Reason: "is not 13 digits"}
	}
	ms, ok := parseDigits(s)
	if !ok {
		return time.Time{}, &EncodingError{Encoding: "unix-milli", Value: s, Reason: "is not 13 digits"}
	}
	return time.UnixMilli(int64(ms)).UTC(), nil
}

// Layouts of [MustDate] and [MustTimestamp], for [time.Time.Format] and
// [time.Parse].
const (
	DateLayout      = "2006-01-02"
	TimestampLayout = "2006-01-02T15:04:05.000000000Z"
)

// MustDate is like [Date] but panics on error: use it for values the
// program made itself (constants, the clock), never for input.
func MustDate(t time.Time) string {
	s, err := Date(t)
	if err != nil {
		panic(err)
	}
	return s
}

// Date returns the calendar day of t in UTC as YYYY-MM-DD ([DateLayout]),
// e.g. "2024-01-31"; byte order is date order. Convert t to UTC first on
// purpose: a key must not depend on the caller's time zone.
//
// It returns an *[EncodingError] matching [ErrInvalidKey] for a value it
// cannot encode (see [MustDate] for values known to be valid).
func Date(t time.Time) (string, error) {
	var buf [len(DateLayout)]byte
	if err := putDate(buf[:], t.UTC(), "date"); err != nil {
		return "", err
	}
	return string(buf[:]), nil
}

// ParseDate parses a date written by [MustDate] and returns midnight UTC of that
// day. It is strict: exactly YYYY-MM-DD with a real day, so "2024-1-5" and
// "2024-02-30" give an *[EncodingError] matching [ErrInvalidKey].
func ParseDate(s string) (time.Time, error) {
	if len(s) != len(DateLayout) {
		return time.Time{}, &EncodingError{Encoding: "date", Value: s, Reason: "is not YYYY-MM-DD"}
	}
	y, m, d, ok := parseDate(s)
	if !ok {
		return time.Time{}, &EncodingError{Encoding: "date", Value: s, Reason: "is not a valid YYYY-MM-DD date"}
	}
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC), nil
}

// MustTimestamp is like [Timestamp] but panics on error: use it for values the
// program made itself (constants, the clock), never for input.
func MustTimestamp(t time.Time) string {
	s, err := Timestamp(t)
	if err != nil {
		panic(err)
	}
	return s
}

// Timestamp returns t in UTC with nanoseconds, always in the fixed width of
// [TimestampLayout], e.g. "2024-01-31T09:30:00.000000000Z". Because the
// width never varies, byte order is time order. [time.RFC3339Nano] is not
// sortable: it drops trailing zeros, so "09:30:00Z" sorts after the later
// "09:30:00.5Z" ('Z' > '.').
//
// It returns an *[EncodingError] matching [ErrInvalidKey] for a value it
// cannot encode (see [MustTimestamp] for values known to be valid).
func Timestamp(t time.Time) (string, error) {
	t = t.UTC()
	var buf [len(TimestampLayout)]byte
	if err := putDate(buf[:], t, "timestamp"); err != nil {
		return "", err
	}
	h, mi, sec := t.Clock()
	buf[10] = 'T'
	putUint(buf[11:13], uint64(h))
	buf[13] = ':'
	putUint(buf[14:16], uint64(mi))
	buf[16] = ':'
	putUint(buf[17:19], uint64(sec))
	buf[19] = '.'
	putUint(buf[20:29], uint64(t.Nanosecond()))
	buf[29] = 'Z'
	return string(buf[:]), nil
}

// ParseTimestamp parses a timestamp written by [MustTimestamp] and returns it in
// UTC. It is strict: exactly the layout, nine fractional digits, a real day,
// hours 00-23, no leap second; anything else gives an *[EncodingError]
// matching [ErrInvalidKey].
func ParseTimestamp(s string) (time.Time, error) {
	bad := func(reason string) (time.Time, error) {
		return time.Time{}, &EncodingError{Encoding: "timestamp", Value: s, Reason: reason}
	}
	if len(s) != len(TimestampLayout) {
		return bad("is not " + strconv.Itoa(len(TimestampLayout)) + " bytes in the layout " + TimestampLayout)
	}
	y, mo, d, ok := parseDate(s[:10])
	if !ok || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != '.' || s[29] != 'Z' {
		return bad("is not in the layout " + TimestampLayout)
	}
	h, ok1 := parseDigits(s[11:13])
	mi, ok2 := parseDigits(s[14:16])
	sec, ok3 := parseDigits(s[17:19])
	ns, ok4 := parseDigits(s[20:29])
	if !ok1 || !ok2 || !ok3 || !ok4 || h > 23 || mi > 59 || sec > 59 {
		return bad("is not a valid time in the layout " + TimestampLayout)
	}
	return time.Date(y, time.Month(mo), d, int(h), int(mi), int(sec), int(ns), time.UTC), nil
}

// putDate writes YYYY-MM-DD of t (already in UTC) into dst[:10].
func putDate(dst []byte, t time.Time, encoding string) error {
	y, m, d := t.Date()
	if y < 0 || y > 9999 {
		return &EncodingError{Encoding: encoding, Value: t.Format(time.RFC3339Nano), Reason: "has a year outside 0000 to 9999"}
	}
	putUint(dst[0:4], uint64(y))
	dst[4] = '-'
	putUint(dst[5:7], uint64(m))
	dst[7] = '-'
	putUint(dst[8:10], uint64(d))
	return nil
}

// parseDate parses YYYY-MM-DD (s is 10 bytes) and checks the day exists.
func parseDate(s string) (y, m, d int, ok bool) {
	if s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	yy, ok1 := parseDigits(s[0:4])
	mm, ok2 := parseDigits(s[5:7])
	dd, ok3 := parseDigits(s[8:10])
	if !ok1 || !ok2 || !ok3 || mm < 1 || mm > 12 || dd < 1 || int(dd) > daysIn(int(yy), int(mm)) {
		return 0, 0, 0, false
	}
	return int(yy), int(mm), int(dd), true
}

// daysIn returns the number of days of month m (1-12) of year y.
func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
