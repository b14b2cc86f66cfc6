package lb

import (
	"time"

	"github.com/singletable/singletable/table"
)

// Membership links a user to an account with a role (users-accounts). A
// user has at most one membership per account: the key is the pair.
type Membership struct {
	// UserID is the member; a user's memberships are the items
	// MEMBER#{accountId} in USER#{userId}.
	UserID UserID `dynamo:"userId"`
	// AccountID is the account the user belongs to.
	AccountID AccountID `dynamo:"accountId"`
	// Role is the member's role in the account (see MemberRole); the account's
	// members are listed by role (GSI1 MEMBERS#{accountId} /
	// ROLE#{role}#{userId}).
	Role MemberRole `dynamo:"role"`
	// Permissions are extra permissions beyond the role; optional.
	Permissions Permissions `dynamo:"permissions,omitempty"`
	// Capabilities are the membership's permission flags as ListBackup's own
	// code stores them (canInviteUsers, canManageBilling, ...: true or
	// false), next to the documents' Permissions; optional.
	Capabilities map[string]bool `dynamo:"capabilities,omitempty"`
	JoinedAt     time.Time       `dynamo:"joinedAt"` // ISO 8601 (v2; core: number)
	// InvitedBy is the user who invited the member; optional.
	InvitedBy UserID `dynamo:"invitedBy,omitempty"`
	// Status is the membership's state (see MemberStatus), such as invited or
	// active.
	Status    MemberStatus `dynamo:"status"`
	IsDefault bool         `dynamo:"isDefault"` // core
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// TeamMember is one member of a team.
type TeamMember struct {
	// UserID is the team member.
	UserID UserID `dynamo:"userId"`
	// Role is the member's role in the team (see TeamRole).
	Role TeamRole `dynamo:"role"`
	// JoinedAt is when the user joined the team; optional.
	JoinedAt time.Time `dynamo:"joinedAt,omitempty"`
}

// Team is a group of users within an account.
type Team struct {
	// AccountID is the account that owns the team; its teams are listed under
	// TEAMS#{accountId} (GSI1).
	AccountID AccountID `dynamo:"accountId"`
	// TeamID identifies the team; the item's key is TEAM#{teamId} / TEAM.
	TeamID TeamID `dynamo:"teamId"`
	// TeamName is the display name.
	TeamName string `dynamo:"teamName"`
	// Description is free text; optional.
	Description string `dynamo:"description,omitempty"`
	// Members are the team's members, kept in the team item (so a change of
	// one member is a conditional write of the team).
	Members []TeamMember `dynamo:"members,omitempty"`
	// Permissions are what the team's members may do; optional.
	Permissions Permissions `dynamo:"permissions,omitempty"`
	// CreatedAt is when the team was created.
	CreatedAt time.Time `dynamo:"createdAt"`
	// UpdatedAt is when the team was last written.
	UpdatedAt time.Time `dynamo:"updatedAt"`
	// CreatedBy is the user who created the team; optional.
	CreatedBy UserID `dynamo:"createdBy,omitempty"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}
