package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// SourceGroups serves LB-69 and LB-70: the source groups of ListBackup's
// own code (one per platform connection) and their sources.
type SourceGroups struct {
	// ByID reads a source group by ID (LB-69).
	//
	//	g, err := s.SourceGroups.ByID.Get(ctx, lb.SourceGroup{GroupID: id})
	ByID *table.Pattern[lb.SourceGroup]
	// ByAccount lists an account's source groups (LB-69).
	ByAccount *table.Pattern[lb.SourceGroup]
	// Sources lists a source group's sources (LB-70); soft-deleted sources
	// are not in it.
	Sources *table.Pattern[lb.Source]
	// Create stores a new source group (LB-69, its write side).
	Create func(context.Context, *lb.SourceGroup) error

	e *entities
}

func newSourceGroups(e *entities) *SourceGroups {
	return &SourceGroups{e: e,
		Create: table.Create(e.groups, table.WriteDef[lb.SourceGroup]{ID: "LB-69", Name: "listbackup.SourceGroups.Create",
			Doc: "Stores a new source group."}),
		ByID: table.NewPattern(e.groups, table.PatternDef[lb.SourceGroup]{ID: "LB-69", Name: "listbackup.SourceGroups.ByID",
			Doc: "A source group by ID.", Reads: table.ReadOne}),
		ByAccount: table.NewPattern(e.groups, table.PatternDef[lb.SourceGroup]{ID: "LB-69", Name: "listbackup.SourceGroups.ByAccount",
			Doc: "An account's source groups.", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true}),
		Sources: table.NewPattern(e.sources, table.PatternDef[lb.Source]{ID: "LB-70", Name: "listbackup.SourceGroups.Sources",
			Doc: "A source group's sources, soft-deleted ones left out.", Reads: table.ReadPage, Index: table.GSI3, WholePartition: true}),
	}
}
