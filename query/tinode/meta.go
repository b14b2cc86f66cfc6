package tinode

import (
	"context"
	"fmt"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// Meta holds the version of the data layout in the table (Tinode's
// kvmeta "version" row), in the item META#tinode / DBVERSION (TN-36).
type Meta struct{ s *Store }

// Version returns the recorded version (TN-36, Tinode's GetDbVersion and
// CheckDbVersion): one GetItem. A table never initialised gives
// table.ErrNotFound.
func (m *Meta) Version(ctx context.Context) (_ int, err error) {
	ctx, call := m.s.t.Call(ctx, "TN-36", "tinode.Meta.Version")
	defer func() { call.End(err) }()
	v, err := m.s.ver.Get(ctx, m.s.ver.Key(tn.DBVersion{}))
	return v.Version, err
}

// Init records version in a table that has none (TN-36, Tinode's
// CreateDb): one conditional PutItem; a table that has one gives
// table.ErrAlreadyExists.
func (m *Meta) Init(ctx context.Context, version int) (err error) {
	ctx, call := m.s.t.Call(ctx, "TN-36", "tinode.Meta.Init")
	defer func() { call.End(err) }()
	return m.s.ver.Create(ctx, &tn.DBVersion{Version: version})
}

// Upgrade moves the recorded version from one version to another (TN-36,
// Tinode's UpgradeDb): a consistent GetItem and one UpdateItem checked on
// what it read. A recorded version other than from gives
// table.ErrConflict, none gives table.ErrNotFound.
func (m *Meta) Upgrade(ctx context.Context, from, to int) (err error) {
	ctx, call := m.s.t.Call(ctx, "TN-36", "tinode.Meta.Upgrade")
	defer func() { call.End(err) }()
	_, err = m.s.ver.Update(ctx, m.s.ver.Key(tn.DBVersion{}), func(v *tn.DBVersion) error {
		if v.Version != from {
			return fmt.Errorf("tinode: data layout version %d, not %d: %w", v.Version, from, table.ErrConflict)
		}
		v.Version = to
		return nil
	})
	return err
}
