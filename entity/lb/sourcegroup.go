package lb

import (
	"time"

	"github.com/singletable/singletable/table"
)

// SourceGroupID identifies a source group ("group:<uuid>" in ListBackup's
// own code).
type SourceGroupID string

// SourceGroup groups the sources made from one platform connection, as
// ListBackup's own code keeps them (its source-groups table). Its sources
// name it in their groupId.
type SourceGroup struct {
	// GroupID identifies the group.
	GroupID SourceGroupID `dynamo:"groupId"`
	// AccountID is the account the group belongs to.
	AccountID AccountID `dynamo:"accountId"`
	// UserID is the user who created it.
	UserID UserID `dynamo:"userId,omitempty"`
	// ConnectionID is the platform connection its sources come from.
	ConnectionID ConnectionID `dynamo:"connectionId,omitempty"`
	// Name is the group's name ("My Keap Account").
	Name string `dynamo:"name"`
	// Description is optional.
	Description string `dynamo:"description,omitempty"`
	// Status is active, paused or error (kept as stored).
	Status string `dynamo:"status,omitempty"`
	// SourceCount is the number of sources in the group, as its writer
	// counted them.
	SourceCount int       `dynamo:"sourceCount"`
	CreatedAt   time.Time `dynamo:"createdAt"`
	UpdatedAt   time.Time `dynamo:"updatedAt"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}
