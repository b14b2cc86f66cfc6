package lb

import (
	"time"

	"github.com/singletable/singletable/table"
)

// MFACodeID identifies an MFACode.
type MFACodeID string

// MFACode is a one-time code sent to a user, as ListBackup's own code
// keeps it (its mfa-codes table): it expires minutes after it is made.
type MFACode struct {
	CodeID MFACodeID `dynamo:"codeId"`
	UserID UserID    `dynamo:"userId"`
	// Code is the code sent; sealed at rest (Def.Secrets).
	Code string `dynamo:"code"`
	// Method is how it was sent (SMS, EMAIL), Destination where.
	Method      string `dynamo:"method,omitempty"`
	Destination string `dynamo:"destination,omitempty"`
	// Purpose is what it confirms (MFA_SETUP, PASSWORD_RESET, ...).
	Purpose   string    `dynamo:"purpose,omitempty"`
	Verified  bool      `dynamo:"verified"`
	CreatedAt time.Time `dynamo:"createdAt"`
	// ExpiresAt is the code's expiry (epoch seconds, the table's TTL).
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}
