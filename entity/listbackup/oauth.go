package listbackup

import (
	"time"

	"github.com/singletable/singletable/table"
)

// OAuthStateTTL is the life of an OAuth state (15 minutes).
const OAuthStateTTL = 15 * time.Minute

// OAuthStateMetadata is the data an OAuth flow carries to its callback.
type OAuthStateMetadata struct {
	SourceID     SourceID     `dynamo:"sourceId,omitempty"`
	ConnectionID ConnectionID `dynamo:"connectionId,omitempty"`
	ReturnURL    string       `dynamo:"returnUrl,omitempty"`
}

// OAuthState is the state parameter of one OAuth flow: valid once, for 15
// minutes.
type OAuthState struct {
	State       string             `dynamo:"state"`
	AccountID   AccountID          `dynamo:"accountId"`
	UserID      UserID             `dynamo:"userId"`
	Platform    Platform           `dynamo:"platform"`
	PlatformID  Platform           `dynamo:"platformId,omitempty"` // core's name for platform
	RedirectURI string             `dynamo:"redirectUri"`
	Metadata    OAuthStateMetadata `dynamo:"metadata,omitempty"`
	CreatedAt   time.Time          `dynamo:"createdAt"`
	// ExpiresAt is epoch seconds (the documents' TTL attribute); the
	// table's TTL attribute holds the same instant.
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime"`
}

// Validate checks the state before a write.
func (s *OAuthState) Validate() error {
	if len(s.State) < 16 {
		return &table.ValidationError{Field: "state", Reason: "want at least 16 random characters", Key: true}
	}
	return first(CheckID("state", s.State), s.AccountID.Validate("accountId"), s.UserID.Validate("userId"),
		s.Platform.Check("platform"), required("redirectUri", s.RedirectURI), requiredTime("expiresAt", s.ExpiresAt))
}

// OAuthTokenSet is the token data of a source; AccessToken and
// RefreshToken are encrypted before they are stored.
type OAuthTokenSet struct {
	AccessToken  string    `dynamo:"accessToken,omitempty"`
	RefreshToken string    `dynamo:"refreshToken,omitempty"`
	TokenType    string    `dynamo:"tokenType,omitempty"`
	ExpiresIn    int64     `dynamo:"expiresIn,omitempty"`
	Scope        string    `dynamo:"scope,omitempty"`
	ExpiresAt    time.Time `dynamo:"expiresAt,omitempty"`
}

// OAuthTokenMetadata is the metadata of a source's tokens.
type OAuthTokenMetadata struct {
	UserID              UserID `dynamo:"userId,omitempty"`
	PlatformAccountID   string `dynamo:"platformAccountId,omitempty"`
	PlatformAccountName string `dynamo:"platformAccountName,omitempty"`
}

// OAuthToken holds a source's OAuth tokens (one per source).
type OAuthToken struct {
	SourceID        SourceID           `dynamo:"sourceId"`
	AccountID       AccountID          `dynamo:"accountId"`
	Platform        Platform           `dynamo:"platform"`
	Tokens          OAuthTokenSet      `dynamo:"tokens"`
	Metadata        OAuthTokenMetadata `dynamo:"metadata,omitempty"`
	CreatedAt       time.Time          `dynamo:"createdAt"`
	UpdatedAt       time.Time          `dynamo:"updatedAt"`
	LastRefreshedAt time.Time          `dynamo:"lastRefreshedAt,omitempty"`
}

// Validate checks the tokens before a write.
func (t *OAuthToken) Validate() error {
	return first(t.SourceID.Validate("sourceId"), t.AccountID.Validate("accountId"), t.Platform.Check("platform"),
		required("tokens.accessToken", t.Tokens.AccessToken))
}

// RefreshToken is a stored refresh token: only its SHA-256 hash is kept
// (the document's refreshToken attribute holds the hash). Tokens of one
// login form a family; rotating a token marks it rotated and issues the
// next one of the family.
type RefreshToken struct {
	TokenHash     string        `dynamo:"refreshToken"` // SHA-256 hex of the plaintext
	UserID        UserID        `dynamo:"userId"`
	AccountID     AccountID     `dynamo:"accountId,omitempty"`
	TokenFamily   TokenFamilyID `dynamo:"tokenFamily"`
	IssuedAt      time.Time     `dynamo:"issuedAt"`
	ExpiresAt     time.Time     `dynamo:"expiresAt"`
	LastUsedAt    time.Time     `dynamo:"lastUsedAt,omitempty"`
	UserAgent     string        `dynamo:"userAgent,omitempty"`
	IPAddress     string        `dynamo:"ipAddress,omitempty"`
	Revoked       bool          `dynamo:"revoked"`
	RevokedAt     time.Time     `dynamo:"revokedAt,omitempty"`
	RevokedBy     UserID        `dynamo:"revokedBy,omitempty"`
	RevokedReason string        `dynamo:"revokedReason,omitempty"`
	// RotatedAt and ReplacedBy (library additions) are set when the token
	// was exchanged for the next one of its family: presenting it again is
	// reuse.
	RotatedAt  time.Time `dynamo:"rotatedAt,omitempty"`
	ReplacedBy string    `dynamo:"replacedBy,omitempty"`
	// Version mirrors the item's version attribute (filled on read); a
	// rotation is conditional on it.
	Version int64 `dynamo:"-"`
}

// Validate checks the token before a write.
func (r *RefreshToken) Validate() error {
	err := first(CheckHash("refreshToken", r.TokenHash), r.UserID.Validate("userId"), r.TokenFamily.Validate("tokenFamily"),
		requiredTime("issuedAt", r.IssuedAt), requiredTime("expiresAt", r.ExpiresAt))
	if err != nil {
		return err
	}
	if !r.ExpiresAt.After(r.IssuedAt) {
		return table.Invalid("expiresAt", "not after issuedAt")
	}
	return nil
}
