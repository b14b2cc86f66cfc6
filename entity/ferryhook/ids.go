package ferryhook

import (
	"crypto/rand"

	"github.com/singletable/singletable/table"
)

// nanoidAlphabet is nanoid's URL alphabet: A-Za-z0-9_- (64 characters).
const nanoidAlphabet = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"

// nanoidLen is the length of the random part of every ID.
const nanoidLen = 16

// ID prefixes, as the document fixes them.
const (
	UserIDPrefix       = "usr_"
	SourceIDPrefix     = "src_"
	ConnectionIDPrefix = "conn_"
	APIKeyIDPrefix     = "key_"
	EventIDPrefix      = "evt_"
)

// nanoid returns n characters of the URL alphabet drawn from crypto/rand.
// The alphabet has exactly 64 characters, so the low 6 bits of a random
// byte pick one uniformly: no rejection is needed and there is no bias.
func nanoid(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("ferryhook: crypto/rand failed: " + err.Error()) // never on supported platforms
	}
	for i := range b {
		b[i] = nanoidAlphabet[b[i]&63]
	}
	return string(b)
}

var inAlphabet = func() (t [256]bool) {
	for i := 0; i < len(nanoidAlphabet); i++ {
		t[nanoidAlphabet[i]] = true
	}
	return t
}()

// checkID reports why s is not prefix followed by nanoid(16).
func checkID(field, prefix, s string) error {
	if len(s) != len(prefix)+nanoidLen || s[:len(prefix)] != prefix {
		return table.Invalid(field, "%q is not %s followed by %d characters", s, prefix, nanoidLen)
	}
	for i := len(prefix); i < len(s); i++ {
		if !inAlphabet[s[i]] {
			return table.Invalid(field, "%q holds %q, outside A-Za-z0-9_-", s, s[i])
		}
	}
	return nil
}

// UserID identifies a user: usr_ followed by nanoid(16).
type UserID string

// NewUserID returns a fresh random user ID.
func NewUserID() UserID { return UserID(UserIDPrefix + nanoid(nanoidLen)) }

// ParseUserID returns s as a UserID, or a *table.ValidationError.
func ParseUserID(s string) (UserID, error) { return UserID(s), checkID("userId", UserIDPrefix, s) }

// Validate reports whether id is well formed.
func (id UserID) Validate() error { return checkID("userId", UserIDPrefix, string(id)) }

// SourceID identifies a source: src_ followed by nanoid(16).
type SourceID string

// NewSourceID returns a fresh random source ID.
func NewSourceID() SourceID { return SourceID(SourceIDPrefix + nanoid(nanoidLen)) }

// ParseSourceID returns s as a SourceID, or a *table.ValidationError.
func ParseSourceID(s string) (SourceID, error) {
	return SourceID(s), checkID("sourceId", SourceIDPrefix, s)
}

// Validate reports whether id is well formed.
func (id SourceID) Validate() error { return checkID("sourceId", SourceIDPrefix, string(id)) }

// ConnectionID identifies a connection: conn_ followed by nanoid(16).
type ConnectionID string

// NewConnectionID returns a fresh random connection ID.
func NewConnectionID() ConnectionID { return ConnectionID(ConnectionIDPrefix + nanoid(nanoidLen)) }

// ParseConnectionID returns s as a ConnectionID, or a *table.ValidationError.
func ParseConnectionID(s string) (ConnectionID, error) {
	return ConnectionID(s), checkID("connectionId", ConnectionIDPrefix, s)
}

// Validate reports whether id is well formed.
func (id ConnectionID) Validate() error {
	return checkID("connectionId", ConnectionIDPrefix, string(id))
}

// APIKeyID identifies an API key record: key_ followed by nanoid(16). It
// is not the secret key itself.
type APIKeyID string

// NewAPIKeyID returns a fresh random API key ID.
func NewAPIKeyID() APIKeyID { return APIKeyID(APIKeyIDPrefix + nanoid(nanoidLen)) }

// ParseAPIKeyID returns s as an APIKeyID, or a *table.ValidationError.
func ParseAPIKeyID(s string) (APIKeyID, error) {
	return APIKeyID(s), checkID("keyId", APIKeyIDPrefix, s)
}

// Validate reports whether id is well formed.
func (id APIKeyID) Validate() error { return checkID("keyId", APIKeyIDPrefix, string(id)) }

// EventID identifies an event: evt_ followed by nanoid(16).
type EventID string

// NewEventID returns a fresh random event ID.
func NewEventID() EventID { return EventID(EventIDPrefix + nanoid(nanoidLen)) }

// ParseEventID returns s as an EventID, or a *table.ValidationError.
func ParseEventID(s string) (EventID, error) {
	return EventID(s), checkID("eventId", EventIDPrefix, s)
}

// Validate reports whether id is well formed.
func (id EventID) Validate() error { return checkID("eventId", EventIDPrefix, string(id)) }

// secretKeyLen is the number of random characters of a plaintext API key
// (6 bits each: 192 bits).
const secretKeyLen = 32

// SecretKeyPrefix starts every plaintext API key, so that a leaked key is
// recognizable by secret scanners.
const SecretKeyPrefix = "fh_"

// NewSecretKey returns a fresh plaintext API key: fh_ followed by 32
// characters of the URL alphabet from crypto/rand (192 bits). It is shown
// to its owner once and never stored; only its hash and prefix are.
func NewSecretKey() string { return SecretKeyPrefix + nanoid(secretKeyLen) }
