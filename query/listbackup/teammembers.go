package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// TeamMembers serves LB-71 and LB-72: team memberships as ListBackup's own
// code keeps them, one item per team and user, in the team's partition.
type TeamMembers struct{ e *entities }

// Add stores a membership. Errors: *table.ValidationError,
// table.ErrAlreadyExists.
//
// Pattern: LB-71 (its write side).
func (s *TeamMembers) Add(ctx context.Context, m *lb.TeamMembership) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-71", "listbackup.TeamMembers.Add")
	defer func() { call.End(err) }()
	return s.e.teamMembers.Create(ctx, m)
}

// ListByTeam returns one page of a team's members, by user ID (LB-71):
// Query PK = TEAM#{teamId}, SK begins_with MEMBER#. Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *TeamMembers) ListByTeam(ctx context.Context, team lb.TeamID, opts ...table.ListOption) (_ table.Page[lb.TeamMembership], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-71", "listbackup.TeamMembers.ListByTeam")
	defer func() { call.End(err) }()
	if err := team.Validate("teamId"); err != nil {
		return table.Page[lb.TeamMembership]{}, err
	}
	return listPrefix(ctx, s.e.teamMembers, table.Primary, lb.TeamMemberKeys, vals{"teamId": string(team)}, nil, opts)
}

// ListByUser returns one page of a user's team memberships (LB-72): Query
// GSI1 PK = USERTEAMS#{userId}. Errors: *table.ValidationError,
// table.ErrInvalidCursor.
func (s *TeamMembers) ListByUser(ctx context.Context, user lb.UserID, opts ...table.ListOption) (_ table.Page[lb.TeamMembership], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-72", "listbackup.TeamMembers.ListByUser")
	defer func() { call.End(err) }()
	if err := user.Validate("userId"); err != nil {
		return table.Page[lb.TeamMembership]{}, err
	}
	return listIn(ctx, s.e.teamMembers, table.GSI1, lb.TeamMemberUserIndex, vals{"userId": string(user)}, opts)
}
