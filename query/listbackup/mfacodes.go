package listbackup

import (
	"context"

	lb "github.com/singletable/singletable/entity/listbackup"
	"github.com/singletable/singletable/table"
)

// MFACodes serves LB-76: the one-time codes of ListBackup's own code,
// sealed at rest, gone at their expiry (the table's TTL).
type MFACodes struct{ e *entities }

// Create stores a new code. Errors: *table.ValidationError,
// table.ErrAlreadyExists.
func (s *MFACodes) Create(ctx context.Context, c *lb.MFACode) error {
	return s.e.mfaCodes.Create(ctx, c)
}

// ListByUser returns one page of a user's live codes, newest first
// (LB-76): Query PK = MFA#{userId}, descending; expired codes are left out.
// Errors: *table.ValidationError, table.ErrInvalidCursor.
func (s *MFACodes) ListByUser(ctx context.Context, user lb.UserID, opts ...table.ListOption) (table.Page[lb.MFACode], error) {
	if err := user.Validate("userId"); err != nil {
		return table.Page[lb.MFACode]{}, err
	}
	return s.e.mfaCodes.List(ctx, table.Query{PK: j("MFA", string(user)), SK: table.SKBeginsWith("CODE#"), Desc: true}, opts...)
}
