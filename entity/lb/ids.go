package lb

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"

	"github.com/singletable/singletable/table"
)

// MaxIDBytes bounds IDs, so that every key built from them stays far below
// DynamoDB's key limits.
const MaxIDBytes = 128

// Typed identifiers. The documents use UUID v4 strings; any value that can
// be a key segment is accepted (see CheckID), so existing IDs load.
type (
	UserID         string // userId
	AccountID      string // accountId
	TeamID         string // teamId
	SourceID       string // sourceId
	EventID        string // an activity's eventId
	JobID          string // jobId
	ConnectionID   string // connectionId
	TokenFamilyID  string // a refresh token's tokenFamily
	TagID          string // tagId
	NotificationID string // notificationId
	ScheduleID     string // scheduleId
	SyncID         string // a sync run's syncId
	APIKeyID       string // apiKeyId
	WebhookID      string // webhookId
	PlanID         string // planId
)

// idSegment is the rule of every ID and key value (table.Segment): at
// most MaxIDBytes, no '#'.
var idSegment = table.Segment{MaxBytes: MaxIDBytes}

// CheckID returns a *table.ValidationError naming field unless v can be a
// key segment: non-empty, at most MaxIDBytes, valid UTF-8, no control
// character and no '#'.
func CheckID(field, v string) error { return idSegment.Check(field, v) }

// Validate checks that id can be part of a key (see CheckID).
func (id UserID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id AccountID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id TeamID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id SourceID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id EventID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id JobID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id ConnectionID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id TokenFamilyID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id TagID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id NotificationID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id ScheduleID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id SyncID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id APIKeyID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id WebhookID) Validate(field string) error { return CheckID(field, string(id)) }

// Validate checks that id can be part of a key (see CheckID).
func (id PlanID) Validate(field string) error { return CheckID(field, string(id)) }

// NewUUID returns a random UUID v4 (crypto/rand), the documents' ID format.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// NewSecret returns n random bytes (crypto/rand) as unpadded base64url: an
// OAuth state, an API key or a refresh token.
func NewSecret(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Hash returns the SHA-256 hex of a plaintext secret: what is stored for API
// keys and refresh tokens instead of the secret itself.
func Hash(plaintext string) string {
	s := sha256.Sum256([]byte(plaintext))
	return hex.EncodeToString(s[:])
}

// CheckHash returns a *table.ValidationError naming field unless h is 64
// lower-case hex digits (a SHA-256 from Hash).
func CheckHash(field, h string) error {
	if len(h) != 64 {
		return table.Invalid(field, "want 64 hex digits, got %d characters", len(h))
	}
	for _, r := range h {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return table.Invalid(field, "not lower-case hex")
		}
	}
	return nil
}
