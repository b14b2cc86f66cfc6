package keys

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// FoldEmail returns the form of an email address that uniqueness and
// lookups compare: surrounding space trimmed, Unicode NFKC (so the NFC and
// NFD spellings of one address, and its compatibility forms such as
// fullwidth letters, are one address), then lower case. Mailbox providers
// treat local parts case-insensitively in practice, and a sign-up under
// "Ann@Example.com" must collide with "ann@example.com". Store what the
// user typed if a service needs it; key and guard on FoldEmail.
//
// Normalization comes from golang.org/x/text/unicode/norm, the maintained
// implementation of Unicode's algorithm.
func FoldEmail(s string) string {
	return strings.ToLower(norm.NFKC.String(strings.TrimSpace(s)))
}
