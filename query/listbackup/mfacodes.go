package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// MFACodes serves LB-76: the one-time codes of ListBackup's own code,
// sealed at rest, gone at their expiry (the table's TTL).
type MFACodes struct {
	// ByUser lists a user's live codes, newest first (LB-76); expired codes
	// are left out.
	//
	//	page, err := s.MFACodes.ByUser.List(ctx, lb.MFACode{UserID: u})
	ByUser *table.Pattern[lb.MFACode]
	// Create stores a new code (LB-76, its write side).
	Create func(context.Context, *lb.MFACode) error

	e *entities
}

func newMFACodes(e *entities) *MFACodes {
	return &MFACodes{e: e,
		Create: table.Create(e.mfaCodes, table.WriteDef[lb.MFACode]{ID: "LB-76", Name: "listbackup.MFACodes.Create",
			Doc: "Stores a new code."}),
		ByUser: table.NewPattern(e.mfaCodes, table.PatternDef[lb.MFACode]{ID: "LB-76", Name: "listbackup.MFACodes.ByUser",
			Doc: "A user's live codes, newest first.", Reads: table.ReadPage, Desc: true}),
	}
}
