package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Catalog serves LB-77 and LB-78: the platforms ListBackup can back up
// and the kinds of data each offers (ListBackup's own code's platforms
// and platform-sources tables).
type Catalog struct {
	// Platform reads a platform by ID (LB-77).
	//
	//	p, err := s.Catalog.Platform.Get(ctx, lb.CatalogPlatform{PlatformID: "keap"})
	Platform *table.Pattern[lb.CatalogPlatform]
	// Platforms lists the catalog's platforms, by ID (LB-77): tens of items
	// in one partition.
	//
	//	page, err := s.Catalog.Platforms.List(ctx, lb.CatalogPlatform{})
	Platforms *table.Pattern[lb.CatalogPlatform]
	// Source reads a source template by ID (LB-78).
	Source *table.Pattern[lb.CatalogSource]
	// Sources lists the source templates a platform offers (LB-78).
	Sources *table.Pattern[lb.CatalogSource]
	// PutPlatform stores a platform (LB-77, its write side), replacing the
	// one with its ID.
	PutPlatform func(context.Context, *lb.CatalogPlatform) error
	// PutSource stores a platform's source template (LB-78, its write side),
	// replacing the one with its ID.
	PutSource func(context.Context, *lb.CatalogSource) error

	e *entities
}

func newCatalog(e *entities) *Catalog {
	return &Catalog{e: e,
		PutSource: table.Put(e.platformSrcs, table.WriteDef[lb.CatalogSource]{ID: "LB-78", Name: "listbackup.Catalog.PutSource",
			Doc: "Stores a platform's source template, replacing the one with its ID."}),
		PutPlatform: table.Put(e.platforms, table.WriteDef[lb.CatalogPlatform]{ID: "LB-77", Name: "listbackup.Catalog.PutPlatform",
			Doc: "Stores a platform, replacing the one with its ID."}),
		Platform: table.NewPattern(e.platforms, table.PatternDef[lb.CatalogPlatform]{ID: "LB-77", Name: "listbackup.Catalog.Platform",
			Doc: "A platform of the catalog by ID.", Reads: table.ReadOne}),
		Platforms: table.NewPattern(e.platforms, table.PatternDef[lb.CatalogPlatform]{ID: "LB-77", Name: "listbackup.Catalog.Platforms",
			Doc: "The catalog's platforms, by ID (tens of items in one partition).", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true}),
		Source: table.NewPattern(e.platformSrcs, table.PatternDef[lb.CatalogSource]{ID: "LB-78", Name: "listbackup.Catalog.Source",
			Doc: "A source template of the catalog by ID.", Reads: table.ReadOne}),
		Sources: table.NewPattern(e.platformSrcs, table.PatternDef[lb.CatalogSource]{ID: "LB-78", Name: "listbackup.Catalog.Sources",
			Doc: "The source templates a platform offers.", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true}),
	}
}
