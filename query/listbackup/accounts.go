package listbackup

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Accounts serves LB-5..LB-8: accounts by ID, children, type and subtree.
type Accounts struct{ e *entities }

// Create creates account a; a child's parent must exist (checked in the
// same transaction) and not be soft-deleted (LB-63; checked by a
// consistent GetItem of the parent just before, so a delete racing the
// create is not excluded). Status defaults to active; an account type is
// required (only migrated accounts may lack one). Errors:
// *table.ValidationError, table.ErrAlreadyExists, table.ErrNotFound (no
// parent).
func (s *Accounts) Create(ctx context.Context, a *lb.Account) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-63", "listbackup.Accounts.Create")
	defer func() { call.End(err) }()
	if err := a.AccountType.Check("accountType"); err != nil {
		return err
	}
	if a.Status == "" {
		a.Status = lb.AccountActive
	}
	if a.ParentAccountID == "" {
		return s.e.accounts.Create(ctx, a)
	}
	ops, err := s.e.accounts.CreateOp(a)
	if err != nil {
		return err
	}
	pk, err := lb.AccountKey(a.ParentAccountID)
	if err != nil {
		return err
	}
	if _, err := s.getLive(ctx, a.ParentAccountID); err != nil {
		if errors.Is(err, table.ErrNotFound) {
			return fmt.Errorf("create account %s: parent %s: %w", a.AccountID, a.ParentAccountID, table.ErrNotFound)
		}
		return err
	}
	err = s.e.t.Transact(ctx, append(ops, s.e.t.ConditionOp(pk))...)
	var te *table.TxError
	if errors.As(err, &te) {
		for _, r := range te.Failed() {
			if r.Key == pk && r.Code == "ConditionalCheckFailed" {
				return fmt.Errorf("create account %s: parent %s: %w", a.AccountID, a.ParentAccountID, table.ErrNotFound)
			}
			if r.Code == "ConditionalCheckFailed" {
				return fmt.Errorf("create account %s: %w: %w", a.AccountID, table.ErrAlreadyExists, err)
			}
		}
	}
	return err
}

// Get returns an account (LB-5): GetItem PK = ACCOUNT#{accountId},
// SK = PROFILE. During a move (LB-63) the account keeps its old path and
// parent and carries the move in its Move field. Errors:
// *table.ValidationError, table.ErrNotFound (also for a soft-deleted
// account, LB-63).
func (s *Accounts) Get(ctx context.Context, id lb.AccountID) (_ lb.Account, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-5", "listbackup.Accounts.Get")
	defer func() { call.End(err) }()
	k, err := lb.AccountKey(id)
	if err != nil {
		return lb.Account{}, err
	}
	a, err := s.e.accounts.Get(ctx, k)
	if err == nil && a.Deleted() {
		return lb.Account{}, deletedErr("get account", string(id))
	}
	return a, err
}

// ListChildren returns one page of the child accounts of parent, by type
// then ID (LB-6): Query GSI1 PK = CHILDREN#{parentAccountId}, SK
// begins_with TYPE#{accountType}# when typ is set. Children without a type
// (migrated from ListBackup's own code, which stores none) sort first,
// under TYPE#-#, and are listed only when typ is empty. Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *Accounts) ListChildren(ctx context.Context, parent lb.AccountID, typ lb.AccountType, opts ...table.ListOption) (_ table.Page[lb.Account], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-6", "listbackup.Accounts.ListChildren")
	defer func() { call.End(err) }()
	if err := parent.Validate("parentAccountId"); err != nil {
		return table.Page[lb.Account]{}, err
	}
	pk := vals{"parentAccountId": string(parent)}
	q, err := inPartition(table.GSI1, lb.AccountChildrenIndex, pk)
	if typ != "" {
		if err := typ.Check("accountType"); err != nil {
			return table.Page[lb.Account]{}, err
		}
		q, err = inPrefix(table.GSI1, lb.AccountChildrenIndex, pk, vals{"accountType": string(typ)})
	}
	if err != nil {
		return table.Page[lb.Account]{}, err
	}
	return s.e.accounts.List(ctx, q, opts...)
}

// AllChildren iterates over the child accounts of parent (LB-6).
func (s *Accounts) AllChildren(ctx context.Context, parent lb.AccountID, typ lb.AccountType, opts ...table.ListOption) iter.Seq2[lb.Account, error] {
	return table.CallPages(ctx, s.e.t, "LB-6", "listbackup.Accounts.AllChildren", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Account], error) {
		return s.ListChildren(ctx, parent, typ, o...)
	}, opts...)
}

// ListByType returns one page of the accounts of a type, by ID (LB-7):
// Query GSI2 PK = ACCTYPE#{accountType}. Errors: *table.ValidationError,
// table.ErrInvalidCursor.
func (s *Accounts) ListByType(ctx context.Context, typ lb.AccountType, opts ...table.ListOption) (_ table.Page[lb.Account], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-7", "listbackup.Accounts.ListByType")
	defer func() { call.End(err) }()
	if err := typ.Check("accountType"); err != nil {
		return table.Page[lb.Account]{}, err
	}
	return listIn(ctx, s.e.accounts, table.GSI2, lb.AccountTypeIndex, vals{"accountType": string(typ)}, opts)
}

// AllByType iterates over the accounts of a type (LB-7).
func (s *Accounts) AllByType(ctx context.Context, typ lb.AccountType, opts ...table.ListOption) iter.Seq2[lb.Account, error] {
	return table.CallPages(ctx, s.e.t, "LB-7", "listbackup.Accounts.AllByType", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Account], error) {
		return s.ListByType(ctx, typ, o...)
	}, opts...)
}

// ListSubtree returns one page of the accounts at or below path, in path
// order (LB-8): Query GSI3 PK = TREE#{first path segment}, SK begins_with
// PATH#{path}. path ends with '/', so /root/sub/ does not match
// /root/subsidiary/. Errors: *table.ValidationError,
// table.ErrInvalidCursor.
func (s *Accounts) ListSubtree(ctx context.Context, path string, opts ...table.ListOption) (_ table.Page[lb.Account], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-8", "listbackup.Accounts.ListSubtree")
	defer func() { call.End(err) }()
	if err := lb.CheckPath("accountPath", path); err != nil {
		return table.Page[lb.Account]{}, err
	}
	// The whole path is the prefix: a sort key, not a SortPrefix (which
	// would add a delimiter after it).
	q, err := inPartition(table.GSI3, lb.AccountTreeIndex, vals{"accountPath": path})
	if err != nil {
		return table.Page[lb.Account]{}, err
	}
	sk, err := lb.AccountTreeIndex.SortKey(vals{"accountPath": path})
	if err != nil {
		return table.Page[lb.Account]{}, err
	}
	q.SK = table.SKBeginsWith(sk)
	return s.e.accounts.List(ctx, q, opts...)
}

// AllSubtree iterates over the accounts at or below path (LB-8).
func (s *Accounts) AllSubtree(ctx context.Context, path string, opts ...table.ListOption) iter.Seq2[lb.Account, error] {
	return table.CallPages(ctx, s.e.t, "LB-8", "listbackup.Accounts.AllSubtree", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Account], error) {
		return s.ListSubtree(ctx, path, o...)
	}, opts...)
}

// Memberships serves LB-9..LB-11: a user's accounts, an account's users,
// and one membership.
type Memberships struct{ e *entities }

// Add creates membership m. A user has at most one membership per account
// (the key is the pair): a second gives table.ErrAlreadyExists. Status
// defaults to active. Errors: *table.ValidationError,
// table.ErrAlreadyExists.
//
// Pattern: LB-11 (its write side).
func (s *Memberships) Add(ctx context.Context, m *lb.Membership) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-11", "listbackup.Memberships.Add")
	defer func() { call.End(err) }()
	if m.Status == "" {
		m.Status = lb.MemberActive
	}
	return s.e.memberships.Create(ctx, m)
}

// Get returns a user's membership and permissions in one account (LB-11):
// GetItem PK = USER#{userId}, SK = MEMBER#{accountId}. Errors:
// *table.ValidationError, table.ErrNotFound (not a member).
func (s *Memberships) Get(ctx context.Context, user lb.UserID, account lb.AccountID) (_ lb.Membership, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-11", "listbackup.Memberships.Get")
	defer func() { call.End(err) }()
	k, err := lb.MembershipKey(user, account)
	if err != nil {
		return lb.Membership{}, err
	}
	return s.e.memberships.Get(ctx, k)
}

// SetRole changes a member's role in the account (LB-64; moves its GSI1
// entry): a consistent read and one conditional write
// (table.Entity.Update), because the GSI1 sort key is derived from the
// stored membership (role, user) and the write is conditioned on the
// version read. Errors:
// *table.ValidationError, table.ErrNotFound.
func (s *Memberships) SetRole(ctx context.Context, user lb.UserID, account lb.AccountID, role lb.MemberRole) (_ lb.Membership, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-64", "listbackup.Memberships.SetRole")
	defer func() { call.End(err) }()
	k, err := lb.MembershipKey(user, account)
	if err != nil {
		return lb.Membership{}, err
	}
	if err := role.Check("role"); err != nil {
		return lb.Membership{}, err
	}
	return s.e.memberships.Update(ctx, k, func(m *lb.Membership) error { m.Role = role; return nil })
}

// ListByUser returns one page of a user's memberships, by account (LB-9):
// Query PK = USER#{userId}, SK begins_with MEMBER#. Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *Memberships) ListByUser(ctx context.Context, user lb.UserID, opts ...table.ListOption) (_ table.Page[lb.Membership], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-9", "listbackup.Memberships.ListByUser")
	defer func() { call.End(err) }()
	if err := user.Validate("userId"); err != nil {
		return table.Page[lb.Membership]{}, err
	}
	return listPrefix(ctx, s.e.memberships, table.Primary, lb.MembershipKeys, vals{"userId": string(user)}, nil, opts)
}

// AllByUser iterates over a user's memberships (LB-9).
func (s *Memberships) AllByUser(ctx context.Context, user lb.UserID, opts ...table.ListOption) iter.Seq2[lb.Membership, error] {
	return table.CallPages(ctx, s.e.t, "LB-9", "listbackup.Memberships.AllByUser", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Membership], error) {
		return s.ListByUser(ctx, user, o...)
	}, opts...)
}

// ListByAccount returns one page of an account's members, by role then
// user (LB-10): Query GSI1 PK = MEMBERS#{accountId}, SK begins_with
// ROLE#{role}# when role is set. Errors: *table.ValidationError,
// table.ErrInvalidCursor.
func (s *Memberships) ListByAccount(ctx context.Context, account lb.AccountID, role lb.MemberRole, opts ...table.ListOption) (_ table.Page[lb.Membership], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-10", "listbackup.Memberships.ListByAccount")
	defer func() { call.End(err) }()
	if err := account.Validate("accountId"); err != nil {
		return table.Page[lb.Membership]{}, err
	}
	pk := vals{"accountId": string(account)}
	q, err := inPartition(table.GSI1, lb.MembershipRoleIndex, pk)
	if role != "" {
		if err := role.Check("role"); err != nil {
			return table.Page[lb.Membership]{}, err
		}
		q, err = inPrefix(table.GSI1, lb.MembershipRoleIndex, pk, vals{"role": string(role)})
	}
	if err != nil {
		return table.Page[lb.Membership]{}, err
	}
	return s.e.memberships.List(ctx, q, opts...)
}

// AllByAccount iterates over an account's members (LB-10).
func (s *Memberships) AllByAccount(ctx context.Context, account lb.AccountID, role lb.MemberRole, opts ...table.ListOption) iter.Seq2[lb.Membership, error] {
	return table.CallPages(ctx, s.e.t, "LB-10", "listbackup.Memberships.AllByAccount", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Membership], error) {
		return s.ListByAccount(ctx, account, role, o...)
	}, opts...)
}

// Teams serves LB-12 and LB-13.
type Teams struct {
	e    *entities
	acct lb.AccountID // set: the view of one account (Store.ForAccount)
}

// Create creates team t. Errors: *table.ValidationError,
// table.ErrAlreadyExists.
//
// Pattern: LB-13 (its write side).
func (s *Teams) Create(ctx context.Context, t *lb.Team) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-13", "listbackup.Teams.Create")
	defer func() { call.End(err) }()
	return s.v().Create(ctx, t)
}

// Get returns a team by ID (LB-13): GetItem PK = TEAM#{teamId}, SK = TEAM.
// Errors: *table.ValidationError, table.ErrNotFound.
func (s *Teams) Get(ctx context.Context, id lb.TeamID) (_ lb.Team, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-13", "listbackup.Teams.Get")
	defer func() { call.End(err) }()
	k, err := lb.TeamKey(id)
	if err != nil {
		return lb.Team{}, err
	}
	return s.v().Get(ctx, k)
}

// ListByAccount returns one page of an account's teams (LB-12): Query GSI1
// PK = TEAMS#{accountId}. Errors: *table.ValidationError,
// table.ErrInvalidCursor.
func (s *Teams) ListByAccount(ctx context.Context, account lb.AccountID, opts ...table.ListOption) (_ table.Page[lb.Team], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-12", "listbackup.Teams.ListByAccount")
	defer func() { call.End(err) }()
	if err := account.Validate("accountId"); err != nil {
		return table.Page[lb.Team]{}, err
	}
	q, err := inPartition(table.GSI1, lb.TeamAccountIndex, vals{"accountId": string(account)})
	if err != nil {
		return table.Page[lb.Team]{}, err
	}
	return s.v().List(ctx, q, opts...)
}

// AllByAccount iterates over an account's teams (LB-12).
func (s *Teams) AllByAccount(ctx context.Context, account lb.AccountID, opts ...table.ListOption) iter.Seq2[lb.Team, error] {
	return table.CallPages(ctx, s.e.t, "LB-12", "listbackup.Teams.AllByAccount", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Team], error) {
		return s.ListByAccount(ctx, account, o...)
	}, opts...)
}
