package keys_test

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/singletable/singletable/keys"
)

// validSegment is an independent statement of the segment rule.
func validSegment(s string) bool {
	return s != "" && utf8.ValidString(s) && !strings.Contains(s, keys.Delimiter) &&
		!strings.ContainsFunc(s, unicode.IsControl)
}

func FuzzEscape(f *testing.F) {
	for _, seed := range []string{"", "plain", "a#b", "100%", "%23", "%2", "%zz", "\x00\x7f", "x\u0085", "\xff\xfe", "日本#", "%C3%A9"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := keys.Escape(s)
		if s != "" && !validSegment(e) {
			t.Fatalf("Escape(%q) = %q is not a valid segment", s, e)
		}
		if strings.Contains(e, keys.Delimiter) {
			t.Fatalf("Escape(%q) = %q contains the delimiter", s, e)
		}
		if u, err := keys.Unescape(e); err != nil || u != s {
			t.Fatalf("Unescape(Escape(%q)) = %q, %v", s, u, err)
		}
		// Unescape accepts only canonical input, so decoding is injective.
		if u, err := keys.Unescape(s); err == nil {
			if keys.Escape(u) != s {
				t.Fatalf("Unescape(%q) = %q but Escape(%q) = %q", s, u, u, keys.Escape(u))
			}
		} else if !errors.Is(err, keys.ErrInvalidKey) {
			t.Fatalf("Unescape(%q) error %v does not match ErrInvalidKey", s, err)
		}
	})
}

func FuzzTimestamp(f *testing.F) {
	f.Add(int64(0), int64(0), "1970-01-01T00:00:00.000000000Z")
	f.Add(int64(1700000000), int64(123456789), "2023-11-14T22:13:20.123456789Z")
	f.Add(int64(-62135596800), int64(0), "2024-02-30T00:00:00.000000000Z")
	f.Add(int64(253402300799), int64(999999999), "2024-01-31T24:00:00.000000000Z")
	f.Add(int64(951782400), int64(1), "2000-02-29T23:59:59.999999999Z")
	f.Fuzz(func(t *testing.T, sec, nsec int64, raw string) {
		tm := time.Unix(sec, nsec)
		if y := tm.UTC().Year(); y >= 0 && y <= 9999 {
			s := keys.MustTimestamp(tm)
			back, err := keys.ParseTimestamp(s)
			if err != nil || !back.Equal(tm) {
				t.Fatalf("ParseTimestamp(Timestamp(%v)) = %v, %v", tm, back, err)
			}
			if d, err := keys.ParseDate(keys.MustDate(tm)); err != nil || keys.MustDate(d) != keys.MustDate(tm) {
				t.Fatalf("ParseDate(Date(%v)) = %v, %v", tm, d, err)
			}
		}
		if ms := tm.UnixMilli(); ms >= 0 && ms <= 9_999_999_999_999 {
			back, err := keys.ParseUnixMilli(keys.MustUnixMilli(tm))
			if err != nil || back.UnixMilli() != ms {
				t.Fatalf("ParseUnixMilli(UnixMilli(%v)) = %v, %v", tm, back, err)
			}
		}
		// The strict parser agrees with the standard library and is exact.
		got, err := keys.ParseTimestamp(raw)
		if err != nil {
			if !errors.Is(err, keys.ErrInvalidKey) {
				t.Fatalf("ParseTimestamp(%q) error %v does not match ErrInvalidKey", raw, err)
			}
			return
		}
		std, stdErr := time.Parse(keys.TimestampLayout, raw)
		if stdErr != nil || !std.Equal(got) {
			t.Fatalf("ParseTimestamp(%q) = %v; time.Parse = %v, %v", raw, got, std, stdErr)
		}
		if keys.MustTimestamp(got) != raw {
			t.Fatalf("Timestamp(ParseTimestamp(%q)) = %q", raw, keys.MustTimestamp(got))
		}
	})
}
