package listbackup

import (
	"context"
	"fmt"
	"slices"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Update applies change to a team (LB-64): name, description, members,
// permissions. One strongly consistent GetItem and one conditional
// UpdateItem of the changed attributes (table.Entity.Update), retried on a
// lost race, so concurrent updates are never lost. A team cannot move to
// another account: changing accountId or teamId is refused. Errors:
// *table.ValidationError, table.ErrNotFound.
func (s *Teams) Update(ctx context.Context, id lb.TeamID, change func(*lb.Team) error) (lb.Team, error) {
	return table.Run(ctx, s.update, func(ctx context.Context) (lb.Team, error) {
		k, err := s.e.teams.CheckedKey(lb.Team{TeamID: id})
		if err != nil {
			return lb.Team{}, err
		}
		return s.v().Update(ctx, k, func(t *lb.Team) error {
			if err := change(t); err != nil {
				return err
			}
			return nil
		})
	})
}

// Delete deletes a team (LB-64): one conditional DeleteItem (the team has
// no status in either document, so the delete is hard; memberships of its
// users in the account are not touched). Errors: *table.ValidationError,
// table.ErrNotFound.
func (s *Teams) Delete(ctx context.Context, id lb.TeamID) error {
	return s.delete.Do(ctx, func(ctx context.Context) error {
		k, err := s.e.teams.CheckedKey(lb.Team{TeamID: id})
		if err != nil {
			return err
		}
		return s.v().Delete(ctx, k)
	})
}

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
