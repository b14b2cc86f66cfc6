package lb

import (
	"time"

	"github.com/singletable/singletable/table"
)

// CatalogPlatformID identifies a platform of the catalog ("gohighlevel").
type CatalogPlatformID string

// CatalogPlatform is a platform ListBackup can back up, as ListBackup's
// own code keeps its catalog (its platforms table, seeded by its setup
// commands).
type CatalogPlatform struct {
	PlatformID        CatalogPlatformID `dynamo:"platformId"`
	Name              string            `dynamo:"name"`
	Description       string            `dynamo:"description,omitempty"`
	Category          string            `dynamo:"category,omitempty"`
	PlatformType      string            `dynamo:"platformType,omitempty"`
	Website           string            `dynamo:"website,omitempty"`
	LogoURL           string            `dynamo:"logoUrl,omitempty"`
	RequiresOAuth     bool              `dynamo:"requiresOAuth"`
	IsActive          bool              `dynamo:"isActive"`
	SupportedFeatures []string          `dynamo:"supportedFeatures,omitempty"`
	CreatedAt         time.Time         `dynamo:"createdAt"`
	UpdatedAt         time.Time         `dynamo:"updatedAt"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// PlatformSourceID identifies a source template of the catalog.
type PlatformSourceID string

// CatalogSource is a kind of data a catalog platform offers (its
// contacts, its orders, ...), the template a user's source is made from,
// as ListBackup's own code keeps it (its platform-sources table).
type CatalogSource struct {
	PlatformSourceID PlatformSourceID  `dynamo:"platformSourceId"`
	PlatformID       CatalogPlatformID `dynamo:"platformId"`
	Name             string            `dynamo:"name"`
	Description      string            `dynamo:"description,omitempty"`
	DataType         string            `dynamo:"dataType,omitempty"`
	Icon             string            `dynamo:"icon,omitempty"`
	Category         string            `dynamo:"category,omitempty"`
	Popularity       int               `dynamo:"popularity"`
	Status           string            `dynamo:"status,omitempty"`
	// DefaultSettings are the settings a new source starts with.
	DefaultSettings Object    `dynamo:"defaultSettings,omitempty"`
	CreatedAt       time.Time `dynamo:"createdAt"`
	UpdatedAt       time.Time `dynamo:"updatedAt"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}
