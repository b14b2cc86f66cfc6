package listbackup

import "time"

// Membership links a user to an account with a role (users-accounts). A
// user has at most one membership per account: the key is the pair.
type Membership struct {
	UserID      UserID       `dynamo:"userId"`
	AccountID   AccountID    `dynamo:"accountId"`
	Role        MemberRole   `dynamo:"role"`
	Permissions Permissions  `dynamo:"permissions,omitempty"`
	JoinedAt    time.Time    `dynamo:"joinedAt"` // ISO 8601 (v2; core: number)
	InvitedBy   UserID       `dynamo:"invitedBy,omitempty"`
	Status      MemberStatus `dynamo:"status"`
	IsDefault   bool         `dynamo:"isDefault"` // core
}

// Validate checks the membership before a write.
func (m *Membership) Validate() error {
	return first(m.UserID.Validate("userId"), m.AccountID.Validate("accountId"),
		m.Role.Check("role"), m.Status.Check("status"))
}

// TeamMember is one member of a team.
type TeamMember struct {
	UserID   UserID    `dynamo:"userId"`
	Role     TeamRole  `dynamo:"role"`
	JoinedAt time.Time `dynamo:"joinedAt,omitempty"`
}

// Team is a group of users within an account.
type Team struct {
	AccountID   AccountID    `dynamo:"accountId"`
	TeamID      TeamID       `dynamo:"teamId"`
	TeamName    string       `dynamo:"teamName"`
	Description string       `dynamo:"description,omitempty"`
	Members     []TeamMember `dynamo:"members,omitempty"`
	Permissions Permissions  `dynamo:"permissions,omitempty"`
	CreatedAt   time.Time    `dynamo:"createdAt"`
	UpdatedAt   time.Time    `dynamo:"updatedAt"`
	CreatedBy   UserID       `dynamo:"createdBy,omitempty"`
}

// Validate checks the team before a write.
func (t *Team) Validate() error {
	if err := first(t.AccountID.Validate("accountId"), t.TeamID.Validate("teamId"), required("teamName", t.TeamName)); err != nil {
		return err
	}
	for _, m := range t.Members {
		if err := first(m.UserID.Validate("members.userId"), m.Role.Check("members.role")); err != nil {
			return err
		}
	}
	return nil
}
