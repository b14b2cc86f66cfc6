package migrate

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/singletable/singletable/table"
)

// A Target is where the items of a manifest's entity name go: the entity
// they are imported through ([table.Entity.ImportMany]) and verified
// against. Make one with [Into]; the zero Target is refused.
type Target struct {
	t     *table.Table
	page  func(ctx context.Context, ready []table.Item, dry bool) ([]table.JobOutcome, []error)
	check func(ctx context.Context, ready table.Item) ([]string, error)
}

// Into returns the target that imports items through ent, a page at a time
// (creates batched in transactions, [table.Entity.ImportMany]), and
// verifies each against its copy, found by ent's key.
func Into[T any](ent *table.Entity[T]) Target {
	return Target{
		t: ent.Table(),
		page: func(ctx context.Context, ready []table.Item, dry bool) ([]table.JobOutcome, []error) {
			return ent.ImportMany(ctx, ready, dry)
		},
		check: func(ctx context.Context, ready table.Item) ([]string, error) {
			return compare(ctx, ent, ready)
		},
	}
}

// Targets maps the entity names a manifest gives ([Table].Entity) to their
// targets: ListBackup's maps "Account" to Into(accounts), and so on.
type Targets map[string]Target

// Check reports, as a *table.ValidationError naming the table, an entity
// name of m (a table not skipped) that has no target here, or whose
// target is the zero Target.
func (ts Targets) Check(m *Manifest) error {
	for i, lt := range m.Tables {
		if lt.Skip != "" {
			continue
		}
		if tg, ok := ts[lt.Entity]; !ok || tg.page == nil {
			return &table.ValidationError{Field: fmt.Sprintf("tables[%d].entity", i),
				Reason: fmt.Sprintf("%q is not one of %v", lt.Entity, slices.Sorted(maps.Keys(ts)))}
		}
	}
	return nil
}
