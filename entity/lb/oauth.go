package lb

import (
	"time"

	"github.com/singletable/singletable/table"
)

// OAuthStateTTL is the life of an OAuth state (15 minutes).
const OAuthStateTTL = 15 * time.Minute

// OAuthStateMetadata is the data an OAuth flow carries to its callback.
type OAuthStateMetadata struct {
	// SourceID is the source being connected, if the flow connects one.
	SourceID SourceID `dynamo:"sourceId,omitempty"`
	// ConnectionID is the connection being created or renewed, if any.
	ConnectionID ConnectionID `dynamo:"connectionId,omitempty"`
	// ReturnURL is where the application sends the user after the flow.
	ReturnURL string `dynamo:"returnUrl,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// OAuthState is the state parameter of one OAuth flow: valid once, for 15
// minutes.
type OAuthState struct {
	// State is the random state parameter of the OAuth flow; the item's key is
	// OAUTHSTATE#{state} and it is consumed once (Entity.Take).
	State string `dynamo:"state"`
	// AccountID is the account the flow runs for.
	AccountID AccountID `dynamo:"accountId"`
	// UserID is the user who started the flow.
	UserID UserID `dynamo:"userId"`
	// Platform is the provider being connected (see Platform).
	Platform   Platform `dynamo:"platform"`
	PlatformID Platform `dynamo:"platformId,omitempty"` // core's name for platform
	// RedirectURI is the redirect URI registered for the flow.
	RedirectURI string `dynamo:"redirectUri"`
	// Metadata is what the callback needs to finish the flow; optional.
	Metadata OAuthStateMetadata `dynamo:"metadata,omitempty"`
	// CreatedAt is when the flow started; the state expires by TTL.
	CreatedAt time.Time `dynamo:"createdAt"`
	// ExpiresAt is epoch seconds (the documents' TTL attribute); the
	// table's TTL attribute holds the same instant.
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Validate checks the state, a key segment of random characters (the IDs
// and the platform check themselves on every write).
func (s *OAuthState) Validate() error {
	if len(s.State) < 16 {
		return &table.ValidationError{Field: "state", Reason: "want at least 16 random characters", Key: true}
	}
	return CheckID("state", s.State)
}

// OAuthTokenSet is the token data of a source; AccessToken and
// RefreshToken are encrypted before they are stored.
type OAuthTokenSet struct {
	// AccessToken is the provider's access token; encrypted at rest
	// (Def.Secrets).
	AccessToken string `dynamo:"accessToken,omitempty"`
	// RefreshToken is the provider's refresh token; encrypted at rest
	// (Def.Secrets).
	RefreshToken string `dynamo:"refreshToken,omitempty"`
	// TokenType is the token type the provider returned, usually "bearer".
	TokenType string `dynamo:"tokenType,omitempty"`
	// ExpiresIn is the access token's life in seconds, as the provider
	// returned it.
	ExpiresIn int64 `dynamo:"expiresIn,omitempty"`
	// Scope is the granted scope, as the provider returned it.
	Scope string `dynamo:"scope,omitempty"`
	// ExpiresAt is when the access token expires.
	ExpiresAt time.Time `dynamo:"expiresAt,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a provider's token response kept whole); they
	// are sealed at rest like the tokens (Def.Secrets "tokens.*").
	Extra table.Extra `dynamo:"-"`
}

// OAuthTokenMetadata is the metadata of a source's tokens.
type OAuthTokenMetadata struct {
	// UserID is the user who connected the provider; optional.
	UserID UserID `dynamo:"userId,omitempty"`
	// PlatformAccountID is the account's id at the provider; optional.
	PlatformAccountID string `dynamo:"platformAccountId,omitempty"`
	// PlatformAccountName is the account's name at the provider; optional.
	PlatformAccountName string `dynamo:"platformAccountName,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// OAuthToken holds a source's OAuth tokens (one per source).
type OAuthToken struct {
	// SourceID is the source the tokens belong to; the item is
	// SOURCE#{sourceId} / OAUTH.
	SourceID SourceID `dynamo:"sourceId"`
	// AccountID is the source's account; its tokens are listed by platform
	// (GSI1 OAUTH#{accountId} / PLATFORM#{platform}#{sourceId}).
	AccountID AccountID `dynamo:"accountId"`
	// Platform is the provider (see Platform).
	Platform Platform `dynamo:"platform"`
	// Tokens are the provider's tokens; the access and refresh tokens are
	// encrypted at rest.
	Tokens OAuthTokenSet `dynamo:"tokens"`
	// Metadata describes the provider account; optional.
	Metadata OAuthTokenMetadata `dynamo:"metadata,omitempty"`
	// CreatedAt is when the tokens were first saved.
	CreatedAt time.Time `dynamo:"createdAt"`
	// UpdatedAt is when the item was last written.
	UpdatedAt time.Time `dynamo:"updatedAt"`
	// LastRefreshedAt is when the tokens were last refreshed at the provider.
	LastRefreshedAt time.Time `dynamo:"lastRefreshedAt,omitempty"`
}

// RefreshToken is a stored refresh token: only its SHA-256 hash is kept
// (the document's refreshToken attribute holds the hash). Tokens of one
// login form a family; rotating a token marks it rotated and issues the
// next one of the family.
type RefreshToken struct {
	TokenHash string `dynamo:"refreshToken"` // SHA-256 hex of the plaintext
	// UserID is the user the token was issued to; a user's tokens are listed
	// under RTUSER#{userId} (GSI1).
	UserID UserID `dynamo:"userId"`
	// AccountID is the account the session is in; optional.
	AccountID AccountID `dynamo:"accountId,omitempty"`
	// TokenFamily is the login the token belongs to; the family's tokens are
	// listed under RTFAMILY#{tokenFamily} (GSI2) and its revocation is the
	// TokenFamily item.
	TokenFamily TokenFamilyID `dynamo:"tokenFamily"`
	// IssuedAt is when the token was issued; the indexes sort by it.
	IssuedAt time.Time `dynamo:"issuedAt"`
	// ExpiresAt is when the token expires; it is also the item's TTL, and an
	// expired token is never returned.
	ExpiresAt time.Time `dynamo:"expiresAt"`
	// LastUsedAt is when the token was last presented.
	LastUsedAt time.Time `dynamo:"lastUsedAt,omitempty"`
	// UserAgent is the client's user agent at issue; optional.
	UserAgent string `dynamo:"userAgent,omitempty"`
	// IPAddress is the client's address at issue; optional.
	IPAddress string `dynamo:"ipAddress,omitempty"`
	// Revoked is set when the token was revoked (the family's revocation is
	// the authority: see TokenFamily).
	Revoked bool `dynamo:"revoked"`
	// RevokedAt is when the token was revoked.
	RevokedAt time.Time `dynamo:"revokedAt,omitempty"`
	// RevokedBy is the user who revoked it, if one did.
	RevokedBy UserID `dynamo:"revokedBy,omitempty"`
	// RevokedReason says why the token was revoked.
	RevokedReason string `dynamo:"revokedReason,omitempty"`
	// RotatedAt and ReplacedBy (library additions) are set when the token
	// was exchanged for the next one of its family: presenting it again is
	// reuse.
	RotatedAt time.Time `dynamo:"rotatedAt,omitempty"`
	// ReplacedBy is the hash of the token this one was exchanged for.
	ReplacedBy string `dynamo:"replacedBy,omitempty"`
	// Version mirrors the item's version attribute (filled on read); a
	// rotation is conditional on it.
	Version int64 `dynamo:"-"`
}

// Validate checks the token's hash and lifetime (the IDs check themselves
// on every write; Required: userId, tokenFamily, issuedAt, expiresAt).
func (r *RefreshToken) Validate() error {
	if err := CheckHash("refreshToken", r.TokenHash); err != nil {
		return err
	}
	if !r.ExpiresAt.IsZero() && !r.ExpiresAt.After(r.IssuedAt) {
		return table.Invalid("expiresAt", "not after issuedAt")
	}
	return nil
}
