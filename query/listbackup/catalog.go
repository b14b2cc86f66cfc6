package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Catalog serves LB-77 and LB-78: the platforms ListBackup can back up and
// the kinds of data each offers (ListBackup's own code's platforms and
// platform-sources tables).
type Catalog struct{ e *entities }

// PutPlatform stores a platform, replacing the one with its ID.
// Errors: *table.ValidationError.
//
// Pattern: LB-77 (its write side).
func (s *Catalog) PutPlatform(ctx context.Context, p *lb.CatalogPlatform) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-77", "listbackup.Catalog.PutPlatform")
	defer func() { call.End(err) }()
	return s.e.platforms.Put(ctx, p)
}

// Platform returns a platform by ID (LB-77): GetItem PK =
// CATPLATFORM#{platformId}, SK = PLATFORM. Errors: *table.ValidationError,
// table.ErrNotFound.
func (s *Catalog) Platform(ctx context.Context, id lb.CatalogPlatformID) (_ lb.CatalogPlatform, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-77", "listbackup.Catalog.Platform")
	defer func() { call.End(err) }()
	if err := id.Validate("platformId"); err != nil {
		return lb.CatalogPlatform{}, err
	}
	k, err := s.e.platforms.KeyOf(&lb.CatalogPlatform{PlatformID: id})
	if err != nil {
		return lb.CatalogPlatform{}, err
	}
	return s.e.platforms.Get(ctx, k)
}

// Platforms returns one page of the catalog's platforms, by ID (LB-77):
// Query GSI1 PK = CATALOG (tens of items in one partition). Errors:
// table.ErrInvalidCursor.
func (s *Catalog) Platforms(ctx context.Context, opts ...table.ListOption) (_ table.Page[lb.CatalogPlatform], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-77", "listbackup.Catalog.Platforms")
	defer func() { call.End(err) }()
	return s.e.platforms.List(ctx, table.Query{Index: table.GSI1, PK: "CATALOG"}, opts...)
}

// PutSource stores a platform's source template, replacing the one with
// its ID. Errors: *table.ValidationError.
//
// Pattern: LB-78 (its write side).
func (s *Catalog) PutSource(ctx context.Context, p *lb.CatalogSource) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-78", "listbackup.Catalog.PutSource")
	defer func() { call.End(err) }()
	return s.e.platformSrcs.Put(ctx, p)
}

// Source returns a source template by ID (LB-78): GetItem PK =
// CATSOURCE#{platformSourceId}, SK = TEMPLATE. Errors:
// *table.ValidationError, table.ErrNotFound.
func (s *Catalog) Source(ctx context.Context, id lb.PlatformSourceID) (_ lb.CatalogSource, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-78", "listbackup.Catalog.Source")
	defer func() { call.End(err) }()
	if err := id.Validate("platformSourceId"); err != nil {
		return lb.CatalogSource{}, err
	}
	k, err := s.e.platformSrcs.KeyOf(&lb.CatalogSource{PlatformSourceID: id})
	if err != nil {
		return lb.CatalogSource{}, err
	}
	return s.e.platformSrcs.Get(ctx, k)
}

// Sources returns one page of the source templates a platform offers
// (LB-78): Query GSI1 PK = CATSOURCES#{platformId}. Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *Catalog) Sources(ctx context.Context, platform lb.CatalogPlatformID, opts ...table.ListOption) (_ table.Page[lb.CatalogSource], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-78", "listbackup.Catalog.Sources")
	defer func() { call.End(err) }()
	if err := platform.Validate("platformId"); err != nil {
		return table.Page[lb.CatalogSource]{}, err
	}
	return listIn(ctx, s.e.platformSrcs, table.GSI1, lb.CatalogSourcePlatformIndex, vals{"platformId": string(platform)}, opts)
}
