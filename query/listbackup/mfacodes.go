package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// MFACodes serves LB-76: the one-time codes of ListBackup's own code,
// sealed at rest, gone at their expiry (the table's TTL).
type MFACodes struct{ e *entities }

// Create stores a new code. Errors: *table.ValidationError,
// table.ErrAlreadyExists.
//
// Pattern: LB-76 (its write side).
func (s *MFACodes) Create(ctx context.Context, c *lb.MFACode) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-76", "listbackup.MFACodes.Create")
	defer func() { call.End(err) }()
	return s.e.mfaCodes.Create(ctx, c)
}

// ListByUser returns one page of a user's live codes, newest first
// (LB-76): Query PK = MFA#{userId}, descending; expired codes are left out.
// Errors: *table.ValidationError, table.ErrInvalidCursor.
func (s *MFACodes) ListByUser(ctx context.Context, user lb.UserID, opts ...table.ListOption) (_ table.Page[lb.MFACode], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-76", "listbackup.MFACodes.ListByUser")
	defer func() { call.End(err) }()
	if err := user.Validate("userId"); err != nil {
		return table.Page[lb.MFACode]{}, err
	}
	q, err := inPrefix(table.Primary, lb.MFACodeKeys, vals{"userId": string(user)}, nil)
	if err != nil {
		return table.Page[lb.MFACode]{}, err
	}
	q.Desc = true
	return s.e.mfaCodes.List(ctx, q, opts...)
}
