package fh

import "github.com/singletable/singletable/table"

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

// idFormat is the document's ID format: prefix followed by nanoid(16)
// (nanoid's URL alphabet, A-Za-z0-9_-).
func idFormat(prefix string) table.IDFormat {
	return table.IDFormat{Prefix: prefix, Random: nanoidLen}
}

// Typed identifiers: each is its prefix followed by nanoid(16).
type (
	UserID       string // a user: usr_...
	SourceID     string // a source: src_...
	ConnectionID string // a connection: conn_...
	APIKeyID     string // an API key record (not the secret key itself): key_...
)

// The ID types, declared once (table.NewIDs): UserIDs.New() mints one
// from crypto/rand, UserIDs.Parse(s) checks one; the engine checks every
// field of these types on each write and in keys.
var (
	UserIDs       = table.NewIDs[UserID]("userId", idFormat(UserIDPrefix))
	SourceIDs     = table.NewIDs[SourceID]("sourceId", idFormat(SourceIDPrefix))
	ConnectionIDs = table.NewIDs[ConnectionID]("connectionId", idFormat(ConnectionIDPrefix))
	APIKeyIDs     = table.NewIDs[APIKeyID]("keyId", idFormat(APIKeyIDPrefix))
)

// EventID identifies an event: evt_ followed by nanoid(16), as the document
// and its running service mint them, or a located ID
// ([NewLocatedEventID]) as the library mints them. Its rule is its own
// (two forms), so it is no declared ID type: it checks itself (Validate).
type EventID string

// eventIDs is the document's form of an EventID; random is nanoid(16)
// alone.
var eventIDs, random = idFormat(EventIDPrefix), idFormat("")

// NewEventID returns a fresh random event ID in the document's format.
func NewEventID() EventID { return EventID(eventIDs.New()) }

// ParseEventID returns s as an EventID, or a *table.ValidationError.
func ParseEventID(s string) (EventID, error) {
	return EventID(s), EventID(s).Validate()
}

// Validate reports whether id is well formed: the document's evt_ +
// nanoid(16), or a located ID.
func (id EventID) Validate() error {
	if len(id) == LocatedEventIDLen {
		if _, _, _, ok := id.Location(); ok {
			return nil
		}
		return table.Invalid("eventId", "%q is not a located event ID", string(id))
	}
	return eventIDs.Check("eventId", string(id))
}

// LocatedEventIDLen is the length of a located event ID: evt_, 8
// characters of receivedAt (Unix milliseconds, 48 bits), 2 of the bucket
// (12 bits), the 16 characters of the source ID after src_, and
// nanoid(16) (96 random bits, as in the document's IDs). The three
// numbers are base64url (RFC 4648, A-Z a-z 0-9 - _: the nanoid alphabet)
// of the big-endian value. The document's IDs (and the running service's)
// are 20 characters long, so the two never mix.
const LocatedEventIDLen = len(EventIDPrefix) + 8 + 2 + nanoidLen + nanoidLen

// MaxEventBucket is the largest bucket a located event ID holds.
const MaxEventBucket = 1<<12 - 1

const base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

var base64urlValue = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(base64url); i++ {
		t[base64url[i]] = int8(i)
	}
	return t
}()

// NewLocatedEventID returns a fresh event ID that holds where the event is
// stored: its source, its receivedAt and its bucket (0: the document's
// events partition SRC#{sourceId}; b > 0: bucket b - 1 of a write-sharded
// source, SRC#{sourceId}#{b-1}), so that the event is read by ID with one
// GetItem, and 96 random bits. A source ID not in the document's format,
// a time before 1970 or past year 10889, or a bucket outside
// 0..MaxEventBucket gives an ID in the document's format instead.
func NewLocatedEventID(source SourceID, receivedAt UnixMillis, bucket int) EventID {
	if !SourceIDs.Valid(source) || receivedAt < 0 || receivedAt >= 1<<48 || bucket < 0 || bucket > MaxEventBucket {
		return NewEventID()
	}
	b := make([]byte, 0, LocatedEventIDLen)
	b = append(b, EventIDPrefix...)
	for shift := 42; shift >= 0; shift -= 6 {
		b = append(b, base64url[(int64(receivedAt)>>shift)&63])
	}
	b = append(b, base64url[bucket>>6&63], base64url[bucket&63])
	b = append(b, source[len(SourceIDPrefix):]...)
	b = append(b, random.New()...)
	return EventID(b)
}

// Location returns what a located event ID holds: the event's source,
// receivedAt and bucket (see [NewLocatedEventID]). ok is false for any
// other ID, such as the document's evt_ + nanoid(16).
func (id EventID) Location() (source SourceID, receivedAt UnixMillis, bucket int, ok bool) {
	s := string(id)
	if len(s) != LocatedEventIDLen || s[:len(EventIDPrefix)] != EventIDPrefix {
		return "", 0, 0, false
	}
	s = s[len(EventIDPrefix):]
	var ms int64
	for i := 0; i < 8; i++ {
		v := base64urlValue[s[i]]
		if v < 0 {
			return "", 0, 0, false
		}
		ms = ms<<6 | int64(v)
	}
	b0, b1 := base64urlValue[s[8]], base64urlValue[s[9]]
	if b0 < 0 || b1 < 0 {
		return "", 0, 0, false
	}
	source = SourceID(SourceIDPrefix + s[10:10+nanoidLen])
	if !SourceIDs.Valid(source) || random.Check("eventId", s[10+nanoidLen:]) != nil {
		return "", 0, 0, false
	}
	return source, UnixMillis(ms), int(b0)<<6 | int(b1), true
}

// secretKeyLen is the number of random characters of a plaintext API key
// (6 bits each: 192 bits).
const secretKeyLen = 32

// SecretKeyPrefix starts every plaintext API key, so that a leaked key is
// recognizable by secret scanners.
const SecretKeyPrefix = "fh_"

// NewSecretKey returns a fresh plaintext API key: fh_ followed by 32
// characters of the URL alphabet from crypto/rand (192 bits). It is shown
// to its owner once and never stored; only its hash and prefix are.
func NewSecretKey() string {
	return table.IDFormat{Prefix: SecretKeyPrefix, Random: secretKeyLen}.New()
}
