package lb

import (
	"time"

	"github.com/singletable/singletable/table"
)

// SourceCredentials are a source's credentials. Data is the credential
// payload in memory; it is stored encrypted as credentials.encryptedData.
type SourceCredentials struct {
	// Type is the kind of credential, such as "oauth" or "apiKey".
	Type string `dynamo:"type,omitempty"`
	// Data is the credential itself; encrypted at rest (Def.Secrets),
	// plaintext in memory.
	Data string `dynamo:"encryptedData,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a provider's token response kept whole); they
	// are sealed at rest like the tokens (Def.Secrets "credentials.*").
	Extra table.Extra `dynamo:"-"`
}

// SourceConfig is a source's configuration.
type SourceConfig struct {
	// SyncInterval is how often the source syncs (see SyncInterval).
	SyncInterval SyncInterval `dynamo:"syncInterval,omitempty"`
	// DataTypes names the kinds of data to back up (platform specific).
	DataTypes []string `dynamo:"dataTypes,omitempty"`
	// Filters are platform-specific filters; optional.
	Filters Object `dynamo:"filters,omitempty"`
	// Webhooks is the provider-side webhook configuration; optional.
	Webhooks Object `dynamo:"webhooks,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// SyncStatus is a source's sync status (v2's object; core's string values
// are accepted as State).
type SyncStatus struct {
	// State is the sync's state (see SyncState).
	State SyncState `dynamo:"state,omitempty"`
	// Progress is the running sync's progress, 0 to 100.
	Progress float64 `dynamo:"progress,omitempty"`
	// Message is a human-readable status message; optional.
	Message string `dynamo:"message,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// SourceMetadata is a source's metadata.
type SourceMetadata struct {
	// AccountInfo describes the account at the provider; optional.
	AccountInfo Object `dynamo:"accountInfo,omitempty"`
	// Limits are the provider's API limits for the account; optional.
	Limits Object `dynamo:"limits,omitempty"`
	// CustomFields holds any other data the application keeps.
	CustomFields Object `dynamo:"customFields,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Source is a connected platform account whose data is backed up.
type Source struct {
	// AccountID is the account that owns the source; fixed at creation
	// (Def.Scope). Its sources are listed under SOURCES#{accountId} by
	// platform (GSI1) and by status (GSI2).
	AccountID AccountID `dynamo:"accountId"`
	// SourceID identifies the source; the item's key is SOURCE#{sourceId} /
	// SOURCE.
	SourceID SourceID `dynamo:"sourceId"`
	// SourceName is the display name.
	SourceName string `dynamo:"sourceName"`
	// Platform is the provider (see Platform).
	Platform   Platform `dynamo:"platform"`
	PlatformID Platform `dynamo:"platformId,omitempty"` // core's name for platform; kept equal
	// ConnectionType is how the source connects (see ConnectionType).
	ConnectionType ConnectionType `dynamo:"connectionType"`
	// Status is the source's state (see SourceStatus); disconnected after a
	// soft delete.
	Status SourceStatus `dynamo:"status"`
	// Credentials are what the source connects with; the data is encrypted at
	// rest.
	Credentials SourceCredentials `dynamo:"credentials,omitempty"`
	// Config is what and how often the source syncs.
	Config SourceConfig `dynamo:"config,omitempty"`
	// LastSyncAt is when the source last synced.
	LastSyncAt time.Time `dynamo:"lastSyncAt,omitempty"`
	// NextSyncAt is when the source syncs next.
	NextSyncAt time.Time `dynamo:"nextSyncAt,omitempty"`
	// SyncStatus is the state of the current or last sync.
	SyncStatus SyncStatus `dynamo:"syncStatus,omitempty"`
	// Metadata describes the provider account; optional.
	Metadata SourceMetadata `dynamo:"metadata,omitempty"`
	// CreatedAt is when the source was created.
	CreatedAt time.Time `dynamo:"createdAt"`
	// UpdatedAt is when the source was last written.
	UpdatedAt time.Time `dynamo:"updatedAt"`
	// CreatedBy is the user who created the source; optional.
	CreatedBy UserID `dynamo:"createdBy,omitempty"`
	// DeletedAt is set by a soft delete (core: "use status fields instead
	// of hard deletes"; status becomes disconnected). A deleted source is
	// kept in the table but is not found by reads and leaves every index.
	DeletedAt time.Time `dynamo:"deletedAt,omitempty"`
	// UserID, GroupID, ConnectionID and PlatformSourceID are what a source
	// of ListBackup's own code names: the user who made it, its source
	// group (listed under GROUPSRC#{groupId}, GSI3), its platform
	// connection and the catalog template it was made from; optional.
	UserID           UserID           `dynamo:"userId,omitempty"`
	GroupID          SourceGroupID    `dynamo:"groupId,omitempty"`
	ConnectionID     ConnectionID     `dynamo:"connectionId,omitempty"`
	PlatformSourceID PlatformSourceID `dynamo:"platformSourceId,omitempty"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Deleted reports whether the source was soft-deleted.
func (s *Source) Deleted() bool { return !s.DeletedAt.IsZero() }

// Validate checks the rules of the source its fields' types do not hold
// (its IDs and enumerations check themselves on every write; Required:
// accountId, sourceName, status). A source of ListBackup's own code names
// its connection (and the platform source it was made from) instead of a
// platform and a connection type.
func (s *Source) Validate() error {
	if s.ConnectionID == "" && s.Platform == "" {
		return table.CheckEnum("platform", s.Platform) // the unknown value "", as when set
	}
	if s.ConnectionID == "" && s.ConnectionType == "" {
		return table.CheckEnum("connectionType", s.ConnectionType)
	}
	if s.PlatformID != "" && s.PlatformID != s.Platform {
		return table.Invalid("platformId", "%q differs from platform %q", s.PlatformID, s.Platform)
	}
	return nil
}

// ConnectionCredentials are a connection's credentials; AccessToken,
// RefreshToken and APIKey are encrypted before they are stored.
type ConnectionCredentials struct {
	// APIKey is the key of an API-key connection, as ListBackup's web
	// client sends it to platform-connections/create (credentials
	// {"apiKey": ...}, authType apikey); encrypted at rest (Def.Secrets).
	APIKey string `dynamo:"apiKey,omitempty"`
	// AccessToken is the provider's access token; encrypted at rest
	// (Def.Secrets).
	AccessToken string `dynamo:"accessToken,omitempty"`
	// TokenType and ExpiresIn (seconds) are what the provider's token
	// response said, as ListBackup's own code keeps it; optional.
	TokenType string `dynamo:"tokenType,omitempty"`
	ExpiresIn int64  `dynamo:"expiresIn,omitempty"`
	// RefreshToken is the provider's refresh token; encrypted at rest
	// (Def.Secrets).
	RefreshToken string `dynamo:"refreshToken,omitempty"`
	// ExpiresAt is when the access token expires.
	ExpiresAt time.Time `dynamo:"expiresAt,omitempty"`
	// Scope is the granted scope.
	Scope string `dynamo:"scope,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a provider's token response kept whole); they
	// are sealed at rest like the tokens (Def.Secrets "credentials.*").
	Extra table.Extra `dynamo:"-"`
}

// ConnectionMetadata is a connection's metadata.
type ConnectionMetadata struct {
	// AccountName is the account's name at the provider; optional.
	AccountName string `dynamo:"accountName,omitempty"`
	AccountID   string `dynamo:"accountId,omitempty"` // the platform's account ID
	// Limits are the provider's API limits; optional.
	Limits Object `dynamo:"limits,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Connection is an authenticated link to a platform, owned by a user of an
// account.
type Connection struct {
	// ConnectionID identifies the connection; the item's key is
	// CONN#{connectionId} / CONN.
	ConnectionID ConnectionID `dynamo:"connectionId"`
	// AccountID is the account that owns the connection; fixed at creation
	// (Def.Scope). Listed under CONNS#{accountId} (GSI1).
	AccountID AccountID `dynamo:"accountId"`
	// UserID is the user who made the connection; fixed at creation
	// (Def.Fixed). Listed under USERCONNS#{userId} (GSI2).
	UserID UserID `dynamo:"userId"`
	// Platform is the provider (see Platform); both lists sort by it.
	Platform Platform `dynamo:"platform"`
	// ConnectionType is how the connection authenticates (see ConnectionType).
	ConnectionType ConnectionType `dynamo:"connectionType"`
	// Status is the connection's state (see ConnectionStatus); revoked after a
	// soft delete.
	Status ConnectionStatus `dynamo:"status"`
	// Credentials are the provider's tokens; the tokens are encrypted at rest
	// and dropped by a soft delete.
	Credentials ConnectionCredentials `dynamo:"credentials,omitempty"`
	// Metadata describes the provider account; optional.
	Metadata ConnectionMetadata `dynamo:"metadata,omitempty"`
	// LastUsedAt is when the connection was last used.
	LastUsedAt time.Time `dynamo:"lastUsedAt,omitempty"`
	// CreatedAt is when the connection was created.
	CreatedAt time.Time `dynamo:"createdAt"`
	// UpdatedAt is when the connection was last written.
	UpdatedAt time.Time `dynamo:"updatedAt"`
	// ExpiresAt is when the connection's authorization expires, if it does.
	ExpiresAt time.Time `dynamo:"expiresAt,omitempty"`
	// DeletedAt is set by a soft delete (status becomes revoked and the
	// credentials are dropped). A deleted connection is kept in the table
	// but is not found by reads and leaves every index.
	DeletedAt time.Time `dynamo:"deletedAt,omitempty"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Deleted reports whether the connection was soft-deleted.
func (c *Connection) Deleted() bool { return !c.DeletedAt.IsZero() }
