package listbackup

import (
	"time"

	"github.com/singletable/singletable/table"
)

// SourceCredentials are a source's credentials. Data is the credential
// payload in memory; it is stored encrypted as credentials.encryptedData.
type SourceCredentials struct {
	Type string `dynamo:"type,omitempty"`
	Data string `dynamo:"encryptedData,omitempty"`
}

// SourceConfig is a source's configuration.
type SourceConfig struct {
	SyncInterval SyncInterval `dynamo:"syncInterval,omitempty"`
	DataTypes    []string     `dynamo:"dataTypes,omitempty"`
	Filters      Object       `dynamo:"filters,omitempty"`
	Webhooks     Object       `dynamo:"webhooks,omitempty"`
}

// SyncStatus is a source's sync status (v2's object; core's string values
// are accepted as State).
type SyncStatus struct {
	State    SyncState `dynamo:"state,omitempty"`
	Progress float64   `dynamo:"progress,omitempty"`
	Message  string    `dynamo:"message,omitempty"`
}

// SourceMetadata is a source's metadata.
type SourceMetadata struct {
	AccountInfo  Object `dynamo:"accountInfo,omitempty"`
	Limits       Object `dynamo:"limits,omitempty"`
	CustomFields Object `dynamo:"customFields,omitempty"`
}

// Source is a connected platform account whose data is backed up.
type Source struct {
	AccountID      AccountID         `dynamo:"accountId"`
	SourceID       SourceID          `dynamo:"sourceId"`
	SourceName     string            `dynamo:"sourceName"`
	Platform       Platform          `dynamo:"platform"`
	PlatformID     Platform          `dynamo:"platformId,omitempty"` // core's name for platform; kept equal
	ConnectionType ConnectionType    `dynamo:"connectionType"`
	Status         SourceStatus      `dynamo:"status"`
	Credentials    SourceCredentials `dynamo:"credentials,omitempty"`
	Config         SourceConfig      `dynamo:"config,omitempty"`
	LastSyncAt     time.Time         `dynamo:"lastSyncAt,omitempty"`
	NextSyncAt     time.Time         `dynamo:"nextSyncAt,omitempty"`
	SyncStatus     SyncStatus        `dynamo:"syncStatus,omitempty"`
	Metadata       SourceMetadata    `dynamo:"metadata,omitempty"`
	CreatedAt      time.Time         `dynamo:"createdAt"`
	UpdatedAt      time.Time         `dynamo:"updatedAt"`
	CreatedBy      UserID            `dynamo:"createdBy,omitempty"`
	// DeletedAt is set by a soft delete (core: "use status fields instead
	// of hard deletes"; status becomes disconnected). A deleted source is
	// kept in the table but is not found by reads and leaves every index.
	DeletedAt time.Time `dynamo:"deletedAt,omitempty"`
}

// Deleted reports whether the source was soft-deleted.
func (s *Source) Deleted() bool { return !s.DeletedAt.IsZero() }

// Validate checks the source before a write.
func (s *Source) Validate() error {
	err := first(s.AccountID.Validate("accountId"), s.SourceID.Validate("sourceId"), required("sourceName", s.SourceName),
		s.Platform.Check("platform"), s.ConnectionType.Check("connectionType"), s.Status.Check("status"))
	if err != nil {
		return err
	}
	if s.PlatformID != "" && s.PlatformID != s.Platform {
		return table.Invalid("platformId", "%q differs from platform %q", s.PlatformID, s.Platform)
	}
	if s.Config.SyncInterval != "" {
		if err := s.Config.SyncInterval.Check("config.syncInterval"); err != nil {
			return err
		}
	}
	if s.SyncStatus.State != "" {
		return s.SyncStatus.State.Check("syncStatus.state")
	}
	return nil
}

// ConnectionCredentials are a connection's credentials; AccessToken and
// RefreshToken are encrypted before they are stored.
type ConnectionCredentials struct {
	AccessToken  string    `dynamo:"accessToken,omitempty"`
	RefreshToken string    `dynamo:"refreshToken,omitempty"`
	ExpiresAt    time.Time `dynamo:"expiresAt,omitempty"`
	Scope        string    `dynamo:"scope,omitempty"`
}

// ConnectionMetadata is a connection's metadata.
type ConnectionMetadata struct {
	AccountName string `dynamo:"accountName,omitempty"`
	AccountID   string `dynamo:"accountId,omitempty"` // the platform's account ID
	Limits      Object `dynamo:"limits,omitempty"`
}

// Connection is an authenticated link to a platform, owned by a user of an
// account.
type Connection struct {
	ConnectionID   ConnectionID          `dynamo:"connectionId"`
	AccountID      AccountID             `dynamo:"accountId"`
	UserID         UserID                `dynamo:"userId"`
	Platform       Platform              `dynamo:"platform"`
	ConnectionType ConnectionType        `dynamo:"connectionType"`
	Status         ConnectionStatus      `dynamo:"status"`
	Credentials    ConnectionCredentials `dynamo:"credentials,omitempty"`
	Metadata       ConnectionMetadata    `dynamo:"metadata,omitempty"`
	LastUsedAt     time.Time             `dynamo:"lastUsedAt,omitempty"`
	CreatedAt      time.Time             `dynamo:"createdAt"`
	UpdatedAt      time.Time             `dynamo:"updatedAt"`
	ExpiresAt      time.Time             `dynamo:"expiresAt,omitempty"`
	// DeletedAt is set by a soft delete (status becomes revoked and the
	// credentials are dropped). A deleted connection is kept in the table
	// but is not found by reads and leaves every index.
	DeletedAt time.Time `dynamo:"deletedAt,omitempty"`
}

// Deleted reports whether the connection was soft-deleted.
func (c *Connection) Deleted() bool { return !c.DeletedAt.IsZero() }

// Validate checks the connection before a write.
func (c *Connection) Validate() error {
	return first(c.ConnectionID.Validate("connectionId"), c.AccountID.Validate("accountId"), c.UserID.Validate("userId"),
		c.Platform.Check("platform"), c.ConnectionType.Check("connectionType"), c.Status.Check("status"))
}
