package listbackup

import (
	"context"
	"fmt"
	"slices"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// SetMemberRole changes the role of user in team id (LB-64). A consistent
// read and one conditional write (table.Entity.Update), so concurrent
// changes to other members are kept. Errors: *table.ValidationError,
// table.ErrNotFound (no such team, or the user is not a member). An
// account member's role is [Memberships.SetRole].
func (s *Teams) SetMemberRole(ctx context.Context, id lb.TeamID, user lb.UserID, role lb.TeamRole) (lb.Team, error) {
	return table.Run(ctx, s.setMemberRole, func(ctx context.Context) (lb.Team, error) {
		k, err := s.e.teams.CheckedKey(lb.Team{TeamID: id})
		if err != nil {
			return lb.Team{}, err
		}
		if err := first(lb.UserIDs.Check(user), table.CheckEnum("role", role)); err != nil {
			return lb.Team{}, err
		}
		return s.v().Update(ctx, k, func(t *lb.Team) error {
			i := slices.IndexFunc(t.Members, func(m lb.TeamMember) bool { return m.UserID == user })
			if i < 0 {
				return fmt.Errorf("user %s is not a member of team %s: %w", user, id, table.ErrNotFound)
			}
			t.Members[i].Role = role
			return nil
		})
	})
}
