package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// TeamMembers serves LB-71 and LB-72: team memberships as ListBackup's
// own code keeps them, one item per team and user, in the team's
// partition.
type TeamMembers struct {
	// ByTeam lists a team's members, by user ID (LB-71).
	//
	//	page, err := s.TeamMembers.ByTeam.List(ctx, lb.TeamMembership{TeamID: team})
	ByTeam *table.Pattern[lb.TeamMembership]
	// ByUser lists a user's team memberships (LB-72).
	ByUser *table.Pattern[lb.TeamMembership]
	// Add stores a membership (LB-71, its write side).
	Add func(context.Context, *lb.TeamMembership) error

	e *entities
}

func newTeamMembers(e *entities) *TeamMembers {
	return &TeamMembers{e: e,
		Add: table.Create(e.teamMembers, table.WriteDef[lb.TeamMembership]{ID: "LB-71", Name: "listbackup.TeamMembers.Add",
			Doc: "Stores a membership."}),
		ByTeam: table.NewPattern(e.teamMembers, table.PatternDef[lb.TeamMembership]{ID: "LB-71", Name: "listbackup.TeamMembers.ByTeam",
			Doc: "A team's members, by user ID.", Reads: table.ReadPage}),
		ByUser: table.NewPattern(e.teamMembers, table.PatternDef[lb.TeamMembership]{ID: "LB-72", Name: "listbackup.TeamMembers.ByUser",
			Doc: "A user's team memberships.", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true}),
	}
}
