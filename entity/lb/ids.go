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

// idFormat is the format of every ID: one key segment (table.Segment) of
// at most MaxIDBytes, no '#'.
var idFormat = table.IDFormat{Segment: table.Segment{MaxBytes: MaxIDBytes}}

// CheckID returns a *table.ValidationError naming field unless v can be a
// key segment: non-empty, at most MaxIDBytes, valid UTF-8, no control
// character and no '#'. The ID types are declared ([UserIDs], ...) and
// checked by the engine; CheckID is for the plain strings keys hold.
func CheckID(field, v string) error { return idFormat.Check(field, v) }

// The ID types, declared once (table.NewIDs): the engine checks every
// field of these types on each write and in keys, naming the attribute;
// UserIDs.Check(id) names the field given here.
var (
	UserIDs            = table.NewIDs[UserID]("userId", idFormat)
	AccountIDs         = table.NewIDs[AccountID]("accountId", idFormat)
	TeamIDs            = table.NewIDs[TeamID]("teamId", idFormat)
	SourceIDs          = table.NewIDs[SourceID]("sourceId", idFormat)
	EventIDs           = table.NewIDs[EventID]("eventId", idFormat)
	JobIDs             = table.NewIDs[JobID]("jobId", idFormat)
	ConnectionIDs      = table.NewIDs[ConnectionID]("connectionId", idFormat)
	TokenFamilyIDs     = table.NewIDs[TokenFamilyID]("tokenFamily", idFormat)
	TagIDs             = table.NewIDs[TagID]("tagId", idFormat)
	NotificationIDs    = table.NewIDs[NotificationID]("notificationId", idFormat)
	ScheduleIDs        = table.NewIDs[ScheduleID]("scheduleId", idFormat)
	SyncIDs            = table.NewIDs[SyncID]("syncId", idFormat)
	APIKeyIDs          = table.NewIDs[APIKeyID]("apiKeyId", idFormat)
	WebhookIDs         = table.NewIDs[WebhookID]("webhookId", idFormat)
	PlanIDs            = table.NewIDs[PlanID]("planId", idFormat)
	SourceGroupIDs     = table.NewIDs[SourceGroupID]("groupId", idFormat)
	MFACodeIDs         = table.NewIDs[MFACodeID]("codeId", idFormat)
	CatalogPlatformIDs = table.NewIDs[CatalogPlatformID]("platformId", idFormat)
	PlatformSourceIDs  = table.NewIDs[PlatformSourceID]("platformSourceId", idFormat)
	EntityTagIDs       = table.NewIDs[EntityTagID]("entityTagId", idFormat)
)

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
