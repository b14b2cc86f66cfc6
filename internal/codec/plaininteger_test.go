package codec

import (
	"strconv"
	"strings"
	"testing"
)

// TestPlainIntegerAgreesWithParse checks checkNumber's fast path: every
// text plainInteger accepts is one the parsing check accepts too, and
// the texts it leaves to the parse (signs, fractions, exponents, too many
// digits, garbage) get the parse's answer.
func TestPlainIntegerAgreesWithParse(t *testing.T) {
	t.Parallel()
	digits38 := strings.Repeat("9", 38)
	cases := []struct {
		n     string
		plain bool
	}{
		{"0", true}, {"-0", true}, {"7", true}, {"007", true}, {"-42", true},
		{strconv.FormatInt(1<<63-1, 10), true}, {strconv.FormatInt(-1<<63, 10), true},
		{digits38, true}, {"-" + digits38, true},
		{digits38 + "9", false}, {"1" + strings.Repeat("0", 38), false},
		{"", false}, {"-", false}, {"+5", false}, {"--1", false}, {"1.5", false},
		{"1e3", false}, {"1E+126", false}, {"12a", false}, {" 1", false}, {"NaN", false},
	}
	for _, c := range cases {
		if got := plainInteger(c.n); got != c.plain {
			t.Errorf("plainInteger(%q) = %v, want %v", c.n, got, c.plain)
		}
		slow := checkParsedNumber(c.n)
		if c.plain && slow != "" {
			t.Errorf("plainInteger(%q) accepts what the parse refuses: %s", c.n, slow)
		}
		if got := checkNumber(c.n); got != slow {
			t.Errorf("checkNumber(%q) = %q, the parse says %q", c.n, got, slow)
		}
	}
	if checkNumber(digits38+"9") == "" || checkNumber("-") == "" || checkNumber("12a") == "" {
		t.Error("a number DynamoDB refuses passed checkNumber")
	}
}
