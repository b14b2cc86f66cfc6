package codec

import (
	"strings"
	"testing"
)

// An IDFormat's reasons, as the applications' hand-written checks gave
// them: a prefixed random ID's, and a key segment's (Key set).
func TestIDFormatReasons(t *testing.T) {
	t.Parallel()
	usr := IDFormat{Prefix: "usr_", Random: 16}
	digits := IDFormat{Prefix: "n", Random: 3, Alphabet: "0123456789"}
	seg := IDFormat{Segment: Segment{MaxBytes: 4}}
	for _, c := range []struct {
		f         IDFormat
		v, reason string
		key       bool
	}{
		{usr, "usr_abcdefghijklmnop", "", false},
		{usr, "usr_abc", `"usr_abc" is not usr_ followed by 16 characters`, false},
		{usr, "src_abcdefghijklmnop", `"src_abcdefghijklmnop" is not usr_ followed by 16 characters`, false},
		{usr, "usr_abcdefghijklmno.", `"usr_abcdefghijklmno." holds '.', outside A-Za-z0-9_-`, false},
		{digits, "n042", "", false},
		{digits, "n04a", `"n04a" holds 'a', outside the alphabet "0123456789"`, false},
		{seg, "u1", "", false},
		{seg, "", "empty", true},
		{seg, "u1234", "longer than 4 bytes", true},
	} {
		err := c.f.Check("f", c.v)
		if c.reason == "" {
			if err != nil {
				t.Errorf("%+v Check(%q) = %v, want nil", c.f, c.v, err)
			}
			continue
		}
		ve, ok := err.(*ValidationError)
		if !ok || ve.Field != "f" || ve.Reason != c.reason || ve.Key != c.key {
			t.Errorf("%+v Check(%q) = %#v, want reason %q (key %v)", c.f, c.v, err, c.reason, c.key)
		}
	}
}

// New draws uniformly from an alphabet whose size is no power of two
// (a byte above the largest multiple of 10 is drawn again): 10 characters,
// 8 per ID, 20000 IDs, 16000 expected each.
func TestIDFormatNewUniform(t *testing.T) {
	t.Parallel()
	f := IDFormat{Prefix: "n", Random: 8, Alphabet: "0123456789"}
	counts := map[rune]int{}
	for range 20000 {
		id := f.New()
		if err := f.Check("n", id); err != nil {
			t.Fatal(err)
		}
		for _, r := range id[1:] {
			counts[r]++
		}
	}
	if len(counts) != 10 {
		t.Fatalf("%d distinct characters, want 10", len(counts))
	}
	for r, n := range counts {
		if n < 15000 || n > 17000 {
			t.Errorf("character %q drawn %d times, want about 16000", r, n)
		}
	}
	if id := (IDFormat{Random: 5}).New(); len(id) != 5 || strings.Trim(id, NanoidAlphabet) != "" {
		t.Errorf("New() with no prefix = %q, want 5 characters of nanoid's alphabet", id)
	}
}
