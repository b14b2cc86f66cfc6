package tn

import (
	"strings"
	"time"
)

// AuthUnique identifies an auth record: "{scheme}:{value}", such as
// "basic:alice". It is unique across users.
type AuthUnique string

// NewAuthUnique returns "{scheme}:{value}".
func NewAuthUnique(scheme, value string) AuthUnique { return AuthUnique(scheme + ":" + value) }

// Split returns the scheme (before the first ':') and the value.
func (u AuthUnique) Split() (scheme, value string) {
	s, v, _ := strings.Cut(string(u), ":")
	return s, v
}

// Scheme returns the authentication scheme ("basic", "token", ...).
func (u AuthUnique) Scheme() string { s, _ := u.Split(); return s }

// Validate requires a non-empty scheme, a ':' and a non-empty value.
func (u AuthUnique) Validate(field string) error {
	if err := idSegment.Check(field, string(u)); err != nil {
		return err
	}
	s, v, ok := strings.Cut(string(u), ":")
	if !ok || s == "" || v == "" {
		return invalidKey(field, "%q is not scheme:value", string(u))
	}
	return nil
}

// AuthRecord is an authentication secret (TinodeAuth). Attribute names are
// the original table's: userid, unique, secret, authLvl, expires.
type AuthRecord struct {
	Unique AuthUnique `dynamo:"unique" json:"unique"`
	UserID UserID     `dynamo:"userid" json:"userid"`
	// Secret is the shared secret, such as a bcrypt hash, stored as binary.
	Secret  []byte    `dynamo:"secret" json:"secret"`
	AuthLvl AuthLevel `dynamo:"authLvl" json:"authLvl"`
	// Expires is when the record stops being valid; zero never. The
	// authenticator checks it: the record is kept after it, so that its
	// unique value stays reserved.
	Expires time.Time `dynamo:"expires" json:"expires"`
}

// Validate checks the record before any write.
func (a *AuthRecord) Validate() error {
	if !a.AuthLvl.Valid() {
		return invalid("authLvl", "unknown level %d", int(a.AuthLvl))
	}
	if len(a.Secret) > 4096 {
		return invalid("secret", "longer than 4096 bytes")
	}
	return nil
}
