package tinode

import (
	"context"
	"fmt"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// Meta holds the version of the data layout in the table (Tinode's
// kvmeta "version" row), in the item META#tinode / DBVERSION (TN-36).
type Meta struct {
	// Version reads the recorded version (TN-36, Tinode's GetDbVersion
	// and CheckDbVersion). A table never initialised gives
	// table.ErrNotFound.
	//
	//	v, err := s.Meta.Version.Get(ctx, tn.DBVersion{}) // v.Version
	Version *table.Pattern[tn.DBVersion]

	init, upgrade table.Op
	s             *Store
}

func newMeta(s *Store) *Meta {
	return &Meta{s: s,
		Version: table.NewPattern(s.ver, table.PatternDef[tn.DBVersion]{ID: "TN-36", Name: "tinode.Meta.Version",
			Doc: "The data layout's recorded version.", Reads: table.ReadOne}),
		init:    table.NewOp(s.t, "TN-36", "tinode.Meta.Init"),
		upgrade: table.NewOp(s.t, "TN-36", "tinode.Meta.Upgrade"),
	}
}

// Init records version in a table that has none (TN-36, Tinode's
// CreateDb): one conditional PutItem; a table that has one gives
// table.ErrAlreadyExists.
func (m *Meta) Init(ctx context.Context, version int) error {
	return m.init.Do(ctx, func(ctx context.Context) error {
		return m.s.ver.Create(ctx, &tn.DBVersion{Version: version})
	})
}

// Upgrade moves the recorded version from one version to another (TN-36,
// Tinode's UpgradeDb): a consistent GetItem and one UpdateItem checked on
// what it read. A recorded version other than from gives
// table.ErrConflict, none gives table.ErrNotFound.
func (m *Meta) Upgrade(ctx context.Context, from, to int) error {
	return m.upgrade.Do(ctx, func(ctx context.Context) error {
		_, err := m.s.ver.Update(ctx, m.s.ver.Key(tn.DBVersion{}), func(v *tn.DBVersion) error {
			if v.Version != from {
				return fmt.Errorf("tinode: data layout version %d, not %d: %w", v.Version, from, table.ErrConflict)
			}
			v.Version = to
			return nil
		})
		return err
	})
}
