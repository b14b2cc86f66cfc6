package lb

import (
	"time"

	"github.com/singletable/singletable/table"
)

// Label is a named, coloured tag of an account, as ListBackup's own code
// keeps them (its tags table: name, color, usage count); it is put on
// entities with an [EntityTag]. The documents' key=value [Tag] is
// another thing.
type Label struct {
	// TagID identifies the label.
	TagID TagID `dynamo:"tagId"`
	// AccountID is the account the label belongs to.
	AccountID AccountID `dynamo:"accountId"`
	// UserID is the user who created it.
	UserID UserID `dynamo:"userId,omitempty"`
	// Name is the label's name, as its user typed it.
	Name        string `dynamo:"name"`
	Description string `dynamo:"description,omitempty"`
	// Color is the label's colour, as stored ("#1a2b3c", "blue").
	Color    string `dynamo:"color,omitempty"`
	Category string `dynamo:"category,omitempty"`
	// IsSystem marks labels the system made.
	IsSystem bool `dynamo:"isSystem"`
	// UsageCount is how many entities carry the label, as its writer
	// counted them.
	UsageCount int       `dynamo:"usageCount"`
	Metadata   Object    `dynamo:"metadata,omitempty"`
	CreatedAt  time.Time `dynamo:"createdAt"`
	UpdatedAt  time.Time `dynamo:"updatedAt"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// EntityTagID identifies an EntityTag.
type EntityTagID string

// EntityTag puts a [Label] on an entity (a source, a job, ...), as
// ListBackup's own code keeps it (its entity-tags table).
type EntityTag struct {
	// EntityTagID identifies the link.
	EntityTagID EntityTagID `dynamo:"entityTagId"`
	AccountID   AccountID   `dynamo:"accountId"`
	// EntityType and EntityID name the tagged entity ("source", "source:1").
	EntityType string `dynamo:"entityType"`
	EntityID   string `dynamo:"entityId"`
	// TagID is the label.
	TagID     TagID     `dynamo:"tagId"`
	UserID    UserID    `dynamo:"userId,omitempty"`
	CreatedAt time.Time `dynamo:"createdAt"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Validate checks the tagged entity's type and ID, which become key
// segments (the IDs check themselves on every write).
func (t *EntityTag) Validate() error {
	return first(CheckID("entityType", t.EntityType), CheckID("entityId", t.EntityID))
}
