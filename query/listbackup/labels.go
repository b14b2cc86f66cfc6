package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Labels serves LB-73..LB-75: the named, coloured tags of ListBackup's own
// code and the entities they are put on.
type Labels struct{ e *entities }

// Create stores a new label. Errors: *table.ValidationError,
// table.ErrAlreadyExists.
//
// Pattern: LB-73 (its write side).
func (s *Labels) Create(ctx context.Context, l *lb.Label) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-73", "listbackup.Labels.Create")
	defer func() { call.End(err) }()
	return s.e.labels.Create(ctx, l)
}

// Get returns a label by ID (LB-73): GetItem PK = LABEL#{tagId}, SK =
// LABEL. Errors: *table.ValidationError, table.ErrNotFound.
func (s *Labels) Get(ctx context.Context, id lb.TagID) (_ lb.Label, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-73", "listbackup.Labels.Get")
	defer func() { call.End(err) }()
	if err := id.Validate("tagId"); err != nil {
		return lb.Label{}, err
	}
	k, err := s.e.labels.KeyOf(&lb.Label{TagID: id})
	if err != nil {
		return lb.Label{}, err
	}
	return s.e.labels.Get(ctx, k)
}

// ListByAccount returns one page of an account's labels by name (LB-73):
// Query GSI1 PK = LABELS#{accountId}, SK begins_with NAME#. Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *Labels) ListByAccount(ctx context.Context, account lb.AccountID, opts ...table.ListOption) (_ table.Page[lb.Label], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-73", "listbackup.Labels.ListByAccount")
	defer func() { call.End(err) }()
	if err := account.Validate("accountId"); err != nil {
		return table.Page[lb.Label]{}, err
	}
	return listPrefix(ctx, s.e.labels, table.GSI1, lb.LabelAccountIndex, vals{"accountId": string(account)}, nil, opts)
}

// Tag puts a label on an entity. Errors: *table.ValidationError,
// table.ErrAlreadyExists (the entity carries it already).
//
// Pattern: LB-74 (its write side).
func (s *Labels) Tag(ctx context.Context, t *lb.EntityTag) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-74", "listbackup.Labels.Tag")
	defer func() { call.End(err) }()
	return s.e.entityTags.Create(ctx, t)
}

// OfEntity returns one page of the labels put on an entity (LB-74): Query
// PK = TAGGED#{entityType}#{entityId}, SK begins_with TAG#. Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *Labels) OfEntity(ctx context.Context, entityType, entityID string, opts ...table.ListOption) (_ table.Page[lb.EntityTag], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-74", "listbackup.Labels.OfEntity")
	defer func() { call.End(err) }()
	if err := first(lb.CheckID("entityType", entityType), lb.CheckID("entityId", entityID)); err != nil {
		return table.Page[lb.EntityTag]{}, err
	}
	return listPrefix(ctx, s.e.entityTags, table.Primary, lb.EntityTagKeys, vals{"entityType": entityType, "entityId": entityID}, nil, opts)
}

// Tagged returns one page of the entities carrying a label, by type then
// ID (LB-75): Query GSI1 PK = TAGGING#{tagId}. Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *Labels) Tagged(ctx context.Context, id lb.TagID, opts ...table.ListOption) (_ table.Page[lb.EntityTag], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-75", "listbackup.Labels.Tagged")
	defer func() { call.End(err) }()
	if err := id.Validate("tagId"); err != nil {
		return table.Page[lb.EntityTag]{}, err
	}
	return listIn(ctx, s.e.entityTags, table.GSI1, lb.EntityTagLabelIndex, vals{"tagId": string(id)}, opts)
}
