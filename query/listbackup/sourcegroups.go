package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// SourceGroups serves LB-69 and LB-70: the source groups of ListBackup's
// own code (one per platform connection) and their sources.
type SourceGroups struct{ e *entities }

// Create stores a new source group. Errors: *table.ValidationError,
// table.ErrAlreadyExists.
//
// Pattern: LB-69 (its write side).
func (s *SourceGroups) Create(ctx context.Context, g *lb.SourceGroup) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-69", "listbackup.SourceGroups.Create")
	defer func() { call.End(err) }()
	return s.e.groups.Create(ctx, g)
}

// Get returns a source group by ID (LB-69): GetItem PK = SRCGROUP#{groupId},
// SK = GROUP. Errors: *table.ValidationError, table.ErrNotFound.
func (s *SourceGroups) Get(ctx context.Context, id lb.SourceGroupID) (_ lb.SourceGroup, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-69", "listbackup.SourceGroups.Get")
	defer func() { call.End(err) }()
	if err := id.Validate("groupId"); err != nil {
		return lb.SourceGroup{}, err
	}
	k, err := s.e.groups.KeyOf(&lb.SourceGroup{GroupID: id})
	if err != nil {
		return lb.SourceGroup{}, err
	}
	return s.e.groups.Get(ctx, k)
}

// ListByAccount returns one page of an account's source groups (LB-69):
// Query GSI1 PK = SRCGROUPS#{accountId}. Errors: *table.ValidationError,
// table.ErrInvalidCursor.
func (s *SourceGroups) ListByAccount(ctx context.Context, account lb.AccountID, opts ...table.ListOption) (_ table.Page[lb.SourceGroup], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-69", "listbackup.SourceGroups.ListByAccount")
	defer func() { call.End(err) }()
	if err := account.Validate("accountId"); err != nil {
		return table.Page[lb.SourceGroup]{}, err
	}
	return listIn(ctx, s.e.groups, table.GSI1, lb.SourceGroupAccountIndex, vals{"accountId": string(account)}, opts)
}

// Sources returns one page of a source group's sources (LB-70): Query GSI3
// PK = GROUPSRC#{groupId}; soft-deleted sources are not in it. Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *SourceGroups) Sources(ctx context.Context, id lb.SourceGroupID, opts ...table.ListOption) (_ table.Page[lb.Source], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-70", "listbackup.SourceGroups.Sources")
	defer func() { call.End(err) }()
	if err := id.Validate("groupId"); err != nil {
		return table.Page[lb.Source]{}, err
	}
	return listIn(ctx, s.e.sources, table.GSI3, lb.SourceGroupIndex, vals{"groupId": string(id)}, opts)
}
