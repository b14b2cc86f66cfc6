package fh

import (
	"errors"
	"net/mail"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// Limits of free-text fields.
const (
	// MaxNameLen is the longest name of a user, source, connection or API
	// key, in characters.
	MaxNameLen = 200
	// MaxEmailLen is the longest email address (RFC 5321).
	MaxEmailLen = 254
	// MaxURLLen is the longest destination URL.
	MaxURLLen = 2048
)

// NormalizeEmail returns the form of an email address uniqueness and
// lookups compare: [keys.FoldEmail] (trimmed, Unicode NFKC, lower case),
// shared by the three applications that have emails.
func NormalizeEmail(s string) string { return keys.FoldEmail(s) }

// checkEmail reports why e is not an email address. Case is kept as the
// user typed it where a deployment stores it so (the running service
// does); uniqueness and lookups compare [NormalizeEmail] forms.
func checkEmail(field, e string) error {
	switch {
	case e == "":
		return table.Invalid(field, "required")
	case len(e) > MaxEmailLen:
		return table.Invalid(field, "longer than %d bytes", MaxEmailLen)
	case e != strings.TrimSpace(e):
		return table.Invalid(field, "%q has surrounding space", e)
	case strings.ContainsAny(e, "#"):
		return table.Invalid(field, "%q holds '#', the key delimiter", e)
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || !strings.Contains(e[strings.LastIndexByte(e, '@')+1:], ".") {
		return table.Invalid(field, "%q is not an email address", e)
	}
	return nil
}

// checkName reports why s is not a required display name.
func checkName(field, s string) error {
	if strings.TrimSpace(s) == "" {
		return table.Invalid(field, "required")
	}
	return checkText(field, s, MaxNameLen)
}

// checkText reports why s is not valid UTF-8 text of at most max
// characters without control characters (max 0: no limit).
func checkText(field, s string, max int) error {
	if !utf8.ValidString(s) {
		return table.Invalid(field, "not valid UTF-8")
	}
	if max > 0 && utf8.RuneCountInString(s) > max {
		return table.Invalid(field, "longer than %d characters", max)
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return table.Invalid(field, "holds a control character")
		}
	}
	return nil
}

// checkURL reports why s is not an absolute http(s) URL.
func checkURL(field, s string) error {
	if s == "" {
		return table.Invalid(field, "required")
	}
	if len(s) > MaxURLLen {
		return table.Invalid(field, "longer than %d bytes", MaxURLLen)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return table.Invalid(field, "%q is not an absolute http or https URL", s)
	}
	return nil
}

func checkJSON(field string, j JSONText) error {
	if !j.Valid() {
		return table.Invalid(field, "not valid JSON")
	}
	return nil
}

func checkCount(field string, n int64) error {
	if n < 0 {
		return table.Invalid(field, "negative")
	}
	return nil
}

// first returns the first non-nil error.
// first returns the first error of errs and, joined after it, the others:
// errors.As finds the first, and the engine's update path can tell
// whether any of them concerns a field the write changes (a legacy value
// carried through never refuses a write, a new invalid one always does).
func first(errs ...error) error {
	return errors.Join(errs...)
}

// ValidateEmail reports why e is not a normalized email address the
// library stores, as a *table.ValidationError naming "email".
func ValidateEmail(e string) error { return checkEmail("email", e) }

// ValidateSourceChange checks the fields a partial update of a source
// sets (nil: not set), before any request: the name, the secret, a known
// signing algorithm.
func ValidateSourceChange(name, secret *string, alg *SigningAlgorithm) error {
	var errs []error
	if name != nil {
		errs = append(errs, checkName("name", *name))
	}
	if secret != nil {
		errs = append(errs, checkText("signingSecret", *secret, 1024))
	}
	if alg != nil && *alg != "" {
		errs = append(errs, SigningAlgorithms.Check(*alg))
	}
	return first(errs...)
}

// ValidateConnectionChange checks the fields a partial update of a
// connection sets (nil: not set), before any request.
func ValidateConnectionChange(name, url, secret *string, filters, transform, retry *JSONText) error {
	var errs []error
	if name != nil {
		errs = append(errs, checkName("name", *name))
	}
	if url != nil {
		errs = append(errs, checkURL("destinationUrl", *url))
	}
	if secret != nil {
		errs = append(errs, checkText("signingSecret", *secret, 1024))
	}
	for _, j := range []struct {
		field string
		v     *JSONText
	}{{"filters", filters}, {"transform", transform}, {"retryConfig", retry}} {
		if j.v != nil {
			errs = append(errs, checkJSON(j.field, *j.v))
		}
	}
	return first(errs...)
}
