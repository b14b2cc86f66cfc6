package lb

import (
	"time"
)

// SKFamily is the sort key of a family item.
const SKFamily = "FAMILY"

// TokenFamily is the one strongly consistent fact about a refresh-token
// family (a library addition; RFC 9700 reuse detection): whether it was
// revoked. Every rotation conditions on it in its own transaction, so
// once it is revoked no token of the family rotates again, whatever the
// state of the individual tokens (their revocation is cleanup). The item
// has no TTL: a family's revocation must outlive every token it could
// have issued (a few hundred bytes per login).
type TokenFamily struct {
	// Family identifies the family; every refresh token of one login carries
	// it.
	Family TokenFamilyID `dynamo:"tokenFamily"`
	// UserID is the user the family's tokens were issued to.
	UserID UserID `dynamo:"userId"`
	// CreatedAt is when the family's first token was issued.
	CreatedAt time.Time `dynamo:"createdAt"`
	// Rotations counts the family's rotations; each rotation writes it,
	// which orders rotations and the revocation of the family.
	Rotations int64 `dynamo:"rotations"`
	// Revoked is set, once and for good, when the family is revoked; rotations
	// are conditioned on it being false.
	Revoked bool `dynamo:"revoked"`
	// RevokedAt is when the family was revoked.
	RevokedAt time.Time `dynamo:"revokedAt,omitempty"`
	// RevokedBy is the user who revoked the family, if one did (reuse
	// detection revokes with none).
	RevokedBy UserID `dynamo:"revokedBy,omitempty"`
	// RevokedReason says why, such as "refresh token reuse detected".
	RevokedReason string `dynamo:"revokedReason,omitempty"`
}
