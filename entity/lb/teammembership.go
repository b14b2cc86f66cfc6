package lb

import (
	"time"

	"github.com/singletable/singletable/table"
)

// TeamMembership is a user's membership of a team, as ListBackup's own
// code keeps it (its team-members table, one item per team and user),
// next to the members list a Team of the documents holds.
type TeamMembership struct {
	// TeamID is the team.
	TeamID TeamID `dynamo:"teamId"`
	// UserID is the member.
	UserID UserID `dynamo:"userId"`
	// Role is the member's role in the team (owner, admin, member, ...;
	// kept as stored).
	Role string `dynamo:"role"`
	// Status is active, invited, ... (kept as stored).
	Status string `dynamo:"status,omitempty"`
	// Permissions are the member's permission flags (canManageTeam,
	// canInviteMembers, ...).
	Permissions map[string]bool `dynamo:"permissions,omitempty"`
	JoinedAt    time.Time       `dynamo:"joinedAt"`
	UpdatedAt   time.Time       `dynamo:"updatedAt"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}
