package listbackup

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Accounts serves LB-5..LB-8: accounts by ID, children, type and subtree.
type Accounts struct {
	// ByID reads an account (LB-5). During a move (LB-63) the account keeps
	// its old path and parent and carries the move in its Move field. A
	// soft-deleted account (LB-63) is not found.
	//
	//	a, err := s.Accounts.ByID.Get(ctx, lb.Account{AccountID: id})
	ByID *table.Pattern[lb.Account]
	// ByType lists the accounts of a type, by ID (LB-7). Soft-deleted
	// accounts are in no list.
	//
	//	page, err := s.Accounts.ByType.List(ctx, lb.Account{AccountType: lb.AccountDivision})
	ByType *table.Pattern[lb.Account]
	// Children lists the child accounts of a parent, by type then ID
	// (LB-6), of one type when it is set. Children without a type (migrated
	// from ListBackup's own code, which stores none) sort first, under
	// TYPE#-#, and are listed only when no type is given. Soft-deleted
	// accounts are in no list.
	//
	//	page, err := s.Accounts.Children.List(ctx, lb.Account{ParentAccountID: p})
	Children *table.Pattern[lb.Account]
	// Subtree lists the accounts at or below a path, in path order (LB-8).
	// The path ends with '/', so /root/sub/ does not match
	// /root/subsidiary/.
	//
	//	page, err := s.Accounts.Subtree.List(ctx, lb.Account{AccountPath: "/root/eu/"})
	Subtree *table.Pattern[lb.Account]

	create, update, delete, move table.Op
	e                            *entities
}

func newAccounts(e *entities) *Accounts {
	return &Accounts{e: e,
		ByID: table.NewPattern(e.accounts, table.PatternDef[lb.Account]{ID: "LB-5", Name: "listbackup.Accounts.ByID",
			Doc: "An account by ID, a soft-deleted one not found.", Reads: table.ReadOne,
			Keep: live[lb.Account]}),
		ByType: table.NewPattern(e.accounts, table.PatternDef[lb.Account]{ID: "LB-7", Name: "listbackup.Accounts.ByType",
			Doc: "The accounts of a type, by ID.", Reads: table.ReadPage, Index: table.GSI2, WholePartition: true}),
		Children: table.NewPattern(e.accounts, table.PatternDef[lb.Account]{ID: "LB-6", Name: "listbackup.Accounts.Children",
			Doc: "A parent's child accounts, by type then ID; of one type when it is given.", Reads: table.ReadPage, Index: table.GSI1,
			SortPrefix: true, WholeWhenUnset: true}),
		Subtree: table.NewPattern(e.accounts, table.PatternDef[lb.Account]{ID: "LB-8", Name: "listbackup.Accounts.Subtree",
			Doc: "The accounts at or below a path, in path order.", Reads: table.ReadPage, Index: table.GSI3,
			SortPrefix: true, WholeKeyBegins: true,
			Check: func(a *lb.Account) error { return lb.CheckPath("accountPath", a.AccountPath) }}),
		create: table.NewOp(e.t, "LB-63", "listbackup.Accounts.Create"),
		update: table.NewOp(e.t, "LB-63", "listbackup.Accounts.Update"),
		delete: table.NewOp(e.t, "LB-63", "listbackup.Accounts.Delete"),
		move:   table.NewOp(e.t, "LB-63", "listbackup.Accounts.Move"),
	}
}

// Create creates account a; a child's parent must exist (checked in the
// same transaction) and not be soft-deleted (LB-63; checked by a
// consistent GetItem of the parent just before, so a delete racing the
// create is not excluded). Status defaults to active; an account type is
// required (only migrated accounts may lack one). Errors:
// *table.ValidationError, table.ErrAlreadyExists, table.ErrNotFound (no
// parent).
func (s *Accounts) Create(ctx context.Context, a *lb.Account) error {
	return s.create.Do(ctx, func(ctx context.Context) error {
		if err := table.CheckEnum("accountType", a.AccountType); err != nil {
			return err
		}
		orDefault(&a.Status, lb.AccountActive)
		if a.ParentAccountID == "" {
			return s.e.accounts.Create(ctx, a)
		}
		ops, err := s.e.accounts.CreateOp(a)
		if err != nil {
			return err
		}
		ops[0] = ops[0].OnFail(fmt.Errorf("create account %s: %w", a.AccountID, table.ErrAlreadyExists))
		pk, err := s.e.accounts.CheckedKey(lb.Account{AccountID: a.ParentAccountID})
		if err != nil {
			return err
		}
		if _, err := s.ByID.Get(ctx, lb.Account{AccountID: a.ParentAccountID}, table.Consistent()); err != nil {
			if errors.Is(err, table.ErrNotFound) {
				return fmt.Errorf("create account %s: parent %s: %w", a.AccountID, a.ParentAccountID, table.ErrNotFound)
			}
			return err
		}
		parent := s.e.t.ConditionOp(pk).OnFail(fmt.Errorf("create account %s: parent %s: %w", a.AccountID, a.ParentAccountID, table.ErrNotFound))
		return s.e.t.Transact(ctx, append(ops, parent)...)
	})
}

// Memberships serves LB-9..LB-11: a user's accounts, an account's users,
// and one membership.
type Memberships struct {
	// ByUser lists a user's memberships, by account (LB-9).
	//
	//	page, err := s.Memberships.ByUser.List(ctx, lb.Membership{UserID: u})
	ByUser *table.Pattern[lb.Membership]
	// ByID reads a user's membership and permissions in one account
	// (LB-11); table.ErrNotFound when the user is not a member.
	//
	//	m, err := s.Memberships.ByID.Get(ctx, lb.Membership{UserID: u, AccountID: a})
	ByID *table.Pattern[lb.Membership]
	// ByAccount lists an account's members, by role then user (LB-10), of
	// one role when it is set.
	//
	//	page, err := s.Memberships.ByAccount.List(ctx, lb.Membership{AccountID: a, Role: lb.RoleAdmin})
	ByAccount *table.Pattern[lb.Membership]
	// Add creates a membership (LB-11, its write side). A user has at most
	// one membership per account (the key is the pair): a second gives
	// table.ErrAlreadyExists. Status defaults to active.
	Add func(context.Context, *lb.Membership) error
	// SetRole changes a member's role in the account (LB-64), moving its
	// GSI1 entry, whose sort key is derived from the stored membership
	// (role, user).
	SetRole func(context.Context, MembershipRef, lb.MemberRole) (lb.Membership, error)

	remove table.Op
	e      *entities
}

// MembershipRef names a user's membership of one account (its primary
// key).
type MembershipRef struct {
	UserID    lb.UserID
	AccountID lb.AccountID
}

// membership is the key fields of the membership r names.
func (r MembershipRef) membership() lb.Membership {
	return lb.Membership{UserID: r.UserID, AccountID: r.AccountID}
}

func newMemberships(e *entities) *Memberships {
	return &Memberships{e: e,
		Add: table.Create(e.memberships, table.WriteDef[lb.Membership]{ID: "LB-11", Name: "listbackup.Memberships.Add",
			Doc:    "Creates a membership.",
			Before: func(m *lb.Membership) { orDefault(&m.Status, lb.MemberActive) }}),
		ByUser: table.NewPattern(e.memberships, table.PatternDef[lb.Membership]{ID: "LB-9", Name: "listbackup.Memberships.ByUser",
			Doc: "A user's memberships, by account.", Reads: table.ReadPage}),
		ByID: table.NewPattern(e.memberships, table.PatternDef[lb.Membership]{ID: "LB-11", Name: "listbackup.Memberships.ByID",
			Doc: "A user's membership in one account.", Reads: table.ReadOne,
			Require: []string{"accountId"}}),
		SetRole: table.UpdateWith(e.memberships, table.WriteDef[lb.Membership]{ID: "LB-64", Name: "listbackup.Memberships.SetRole",
			Doc: "Changes a member's role in the account (moves its GSI1 entry)."}, MembershipRef.membership,
			"role", func(m *lb.Membership, role lb.MemberRole) error { m.Role = role; return nil }),
		ByAccount: table.NewPattern(e.memberships, table.PatternDef[lb.Membership]{ID: "LB-10", Name: "listbackup.Memberships.ByAccount",
			Doc: "An account's members, by role then user; of one role when it is given.", Reads: table.ReadPage, Index: table.GSI1,
			SortPrefix: true, WholeWhenUnset: true}),
		remove: table.NewOp(e.t, "LB-68", "listbackup.Memberships.Remove"),
	}
}

// Teams serves LB-12 and LB-13. The read of one pattern is declared
// ([table.Pattern]): its field, whole on the Store and the account's own
// on [AccountScope].
type Teams struct {
	// ByAccount lists an account's teams (LB-12).
	//
	//	page, err := s.Teams.ByAccount.List(ctx, lb.Team{AccountID: a})
	ByAccount *table.Pattern[lb.Team]
	// ByID reads a team (LB-13).
	//
	//	t, err := s.Teams.ByID.Get(ctx, lb.Team{TeamID: id})
	ByID *table.Pattern[lb.Team]
	// Create creates a team (LB-13, its write side).
	Create func(context.Context, *lb.Team) error
	// Delete deletes a team (LB-64). The team has no status in either
	// document, so the delete is hard; memberships of its users in the
	// account are not touched.
	Delete func(context.Context, lb.TeamID) error
	// Update applies change to a team (LB-64): name, description, members,
	// permissions. A team cannot move to another account: changing
	// accountId or teamId is refused.
	Update func(context.Context, lb.TeamID, func(*lb.Team) error) (lb.Team, error)

	setMemberRole table.Op
	e             *entities
	acct          lb.AccountID // set: the view of one account (Store.ForAccount)
}

func newTeams(e *entities) *Teams {
	return (&Teams{e: e,
		ByAccount: table.NewPattern(e.teams, table.PatternDef[lb.Team]{ID: "LB-12", Name: "listbackup.Teams.ByAccount",
			Doc: "An account's teams.", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true}),
		ByID: table.NewPattern(e.teams, table.PatternDef[lb.Team]{ID: "LB-13", Name: "listbackup.Teams.ByID",
			Doc: "A team.", Reads: table.ReadOne}),
		setMemberRole: table.NewOp(e.t, "LB-64", "listbackup.Teams.SetMemberRole"),
	}).declare()
}

// in returns the teams of account acct alone.
func (s *Teams) in(acct lb.AccountID) *Teams {
	c := *s
	c.acct, c.ByAccount, c.ByID = acct, s.ByAccount.In(string(acct)), s.ByID.In(string(acct))
	return c.declare()
}

// declare declares the writes of the view (its account's, or whole).
func (s *Teams) declare() *Teams {
	view := items(s.e.teams, s.acct) // one view for every write
	s.Update = table.Update(view, table.WriteDef[lb.Team]{ID: "LB-64", Name: "listbackup.Teams.Update",
		Doc: "Applies change to a team (LB-64): name, description, members, permissions."}, func(id lb.TeamID) lb.Team { return lb.Team{TeamID: id} })
	s.Delete = table.Delete(view, table.WriteDef[lb.Team]{ID: "LB-64", Name: "listbackup.Teams.Delete",
		Doc: "Deletes a team (LB-64): one conditional DeleteItem (the team has no status in either document, so the delete is hard; memberships of its users in the account are not touched)."}, func(id lb.TeamID) lb.Team { return lb.Team{TeamID: id} })
	s.Create = table.Create(view, table.WriteDef[lb.Team]{ID: "LB-13", Name: "listbackup.Teams.Create",
		Doc: "Creates a team."})
	return s
}
