package podcastflow

import (
	"context"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

// Platform serves the platform settings, PF-7: one item, PLATFORM /
// SETTINGS, written with optimistic concurrency.
type Platform struct {
	// Settings reads the platform settings (PF-7), strongly consistent, with
	// their Version; table.ErrNotFound when never initialized.
	//
	//	cur, err := s.Platform.Settings.Get(ctx, pf.PlatformSettings{})
	Settings *table.Pattern[pf.PlatformSettings]
	// InitSettings writes the first platform settings (PF-7).
	InitSettings func(context.Context, *pf.PlatformSettings) error

	replaceSettings, updateSettings table.Op
	e                               *entities
}

func newPlatform(e *entities) *Platform {
	return &Platform{e: e,
		InitSettings: table.Create(e.platform, table.WriteDef[pf.PlatformSettings]{ID: "PF-7", Name: "podcastflow.Platform.InitSettings",
			Doc: "Writes the first platform settings (PF-7)."}),
		Settings: table.NewPattern(e.platform, table.PatternDef[pf.PlatformSettings]{ID: "PF-7", Name: "podcastflow.Platform.Settings",
			Doc: "The platform settings, strongly consistent, with their Version.", Reads: table.ReadOne, Consistent: true}),
		replaceSettings: table.NewOp(e.t, "PF-7", "podcastflow.Platform.ReplaceSettings"),
		updateSettings:  table.NewOp(e.t, "PF-7", "podcastflow.Platform.UpdateSettings"),
	}
}

// ReplaceSettings writes s, settings read with Settings (or returned by a
// write), only if the stored settings are still exactly what s was read
// as (PF-7): one UpdateItem that sets the attributes s changed and is
// conditioned, in the same request, on every attribute of the read (s.Read)
// and on s.Version. A write by anyone in between fails it with
// table.ErrConflict: another library write (which advances the version)
// and PodcastFlow's own scripts and Lambdas, which rewrite the settings
// without ever touching the version; their change is kept, never
// overwritten. Attributes other writers add that s does not set are kept.
// On success s.Version and s.Read are advanced. Errors:
// *table.ValidationError, table.ErrConflict (someone wrote in between:
// re-read and retry, or use UpdateSettings), table.ErrNotFound,
// table.ErrInvalidInput (s was not read: built by hand).
func (p *Platform) ReplaceSettings(ctx context.Context, s *pf.PlatformSettings) error {
	return p.replaceSettings.Do(ctx, func(ctx context.Context) error {
		return p.e.platform.Replace(ctx, s)
	})
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
	return table.Run(ctx, p.updateSettings, func(ctx context.Context) (pf.PlatformSettings, error) {
		return p.e.platform.Update(ctx, p.e.platform.Key(pf.PlatformSettings{}), change)
	})
}
