package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// MFACodes serves LB-76: the one-time codes of ListBackup's own code,
// sealed at rest, gone at their expiry (the table's TTL). The read is
// declared ([table.Pattern]): its field.
type MFACodes struct {
	// ByUser lists a user's live codes, newest first (LB-76): Query
	// PK = MFA#{userId}, SK begins_with CODE#, descending; expired codes
	// are left out.
	//
	//	page, err := s.MFACodes.ByUser.List(ctx, lb.MFACode{UserID: u})
	ByUser *table.Pattern[lb.MFACode]

	create table.Op
	e      *entities
}

func newMFACodes(e *entities) *MFACodes {
	return &MFACodes{e: e,
		create: table.NewOp(e.t, "LB-76", "listbackup.MFACodes.Create"),
		ByUser: table.NewPattern(e.mfaCodes, table.PatternDef[lb.MFACode]{ID: "LB-76", Name: "listbackup.MFACodes.ByUser",
			Doc: "A user's live codes, newest first.", Reads: table.ReadPage, Desc: true}),
	}
}

// Create stores a new code. Errors: *table.ValidationError,
// table.ErrAlreadyExists.
//
// Pattern: LB-76 (its write side).
func (s *MFACodes) Create(ctx context.Context, c *lb.MFACode) error {
	return s.create.Do(ctx, func(ctx context.Context) error {
		return s.e.mfaCodes.Create(ctx, c)
	})
}
