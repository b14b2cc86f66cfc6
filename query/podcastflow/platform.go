package podcastflow

import (
	"context"

	pf "github.com/singletable/singletable/entity/podcastflow"
)

// Platform serves the platform settings, PF-7: one item, PLATFORM /
// SETTINGS, written with optimistic concurrency.
type Platform struct{ e *entities }

// Settings returns the platform settings (PF-7): GetItem PK = PLATFORM,
// SK = SETTINGS, strongly consistent, with their Version. Errors:
// table.ErrNotFound (never initialized).
func (p *Platform) Settings(ctx context.Context) (pf.PlatformSettings, error) {
	return p.e.platform.Get(ctx, pf.PlatformSettingsKey(), consistent())
}

// InitSettings writes the first platform settings (PF-7). Errors:
// *table.ValidationError, table.ErrAlreadyExists.
func (p *Platform) InitSettings(ctx context.Context, s *pf.PlatformSettings) error {
	return p.e.platform.Create(ctx, s)
}

// ReplaceSettings writes s if the stored settings still have s.Version
// (PF-7, optimistic concurrency: a consistent GetItem, then an UpdateItem
// with condition _v = Version, writing only the attributes that changed so
// that attributes other services wrote are kept); on
// success s.Version is advanced. Errors: *table.ValidationError,
// table.ErrConflict (someone wrote in between: re-read and retry),
// table.ErrNotFound.
func (p *Platform) ReplaceSettings(ctx context.Context, s *pf.PlatformSettings) error {
	return p.e.platform.Replace(ctx, s)
}

// UpdateSettings reads the settings, applies change and writes them back
// if nobody wrote in between, re-reading and re-applying change on a lost
// race (PF-7). It returns the settings as written. Errors:
// *table.ValidationError, table.ErrNotFound, table.ErrConflict (retries
// exhausted).
//
// Requests: a consistent GetItem of the settings, then one UpdateItem
// conditioned on the version read, writing only the attributes that changed
// so that attributes written by other services are kept. change is arbitrary
// code that needs the current settings.
func (p *Platform) UpdateSettings(ctx context.Context, change func(*pf.PlatformSettings) error) (pf.PlatformSettings, error) {
	return p.e.platform.Update(ctx, pf.PlatformSettingsKey(), change)
}
