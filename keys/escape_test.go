package keys_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/singletable/singletable/keys"
)

func TestEscape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"plain", "plain"},
		{"c#", "c%23"},
		{"#", "%23"},
		{"100%", "100%25"},
		{"%23", "%2523"},
		{"a\nb", "a%0Ab"},
		{"\x7f", "%7F"},
		{"x\u0085y", "x%C2%85y"}, // C1 control, both bytes escaped
		{"bad\xff", "bad%FF"},    // invalid UTF-8
		{"日本#語", "日本%23語"},
		{"Tag With Spaces", "Tag With Spaces"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got := keys.Escape(tt.in)
			if got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
			back, err := keys.Unescape(got)
			if err != nil || back != tt.in {
				t.Errorf("Unescape(%q) = %q, %v; want %q", got, back, err, tt.in)
			}
			if tt.in != "" {
				if !validSegment(got) {
					t.Errorf("Escape(%q) = %q is not a valid segment", tt.in, got)
				}
			}
		})
	}
}

func TestUnescapeInvalid(t *testing.T) {
	t.Parallel()
	tests := []string{
		"a#b",    // raw delimiter
		"%",      // truncated
		"%2",     // truncated
		"%2g",    // not hex
		"%2a",    // lower-case hex
		"%41",    // 'A' needs no escaping
		"%C3%A9", // "é" needs no escaping: not canonical
		"a\tb",   // raw control character
		"\xff",   // raw invalid UTF-8
	}
	for _, in := range tests {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			got, err := keys.Unescape(in)
			if err == nil {
				t.Fatalf("Unescape(%q) = %q, want error", in, got)
			}
			if !errors.Is(err, keys.ErrInvalidKey) {
				t.Errorf("errors.Is(%v, ErrInvalidKey) = false", err)
			}
			var ee *keys.EncodingError
			if !errors.As(err, &ee) || ee.Encoding != "escape" {
				t.Errorf("error %v is not an escape EncodingError", err)
			}
		})
	}
}

// TestEscapeNoCollision: tuples that differ only in where a '#' sits give
// different keys once escaped.
func TestEscapeNoCollision(t *testing.T) {
	t.Parallel()
	key := func(a, b string) string { return strings.Join([]string{"CHAT", a, b}, keys.Delimiter) }
	k1 := key(keys.Escape("A#"), "B")
	k2 := key("A", keys.Escape("#B"))
	if k1 == k2 {
		t.Fatalf("escaped (\"A#\", \"B\") and (\"A\", \"#B\") give one key %q", k1)
	}
	if k1 != "CHAT#A%23#B" || k2 != "CHAT#A#%23B" {
		t.Errorf("keys = %q, %q; want CHAT#A%%23#B, CHAT#A#%%23B", k1, k2)
	}
	// Unescaped, both would collide.
	if key("A#", "B") != key("A", "#B") {
		t.Errorf("the unescaped tuples should collide, which is why values are escaped")
	}
}
