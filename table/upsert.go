package table

import (
	"context"
	"errors"
)

// Upsert writes item whether or not it exists, without losing what other
// writers keep in it: an existing item is updated with the difference only
// (as [Entity.Update] writes it: attributes the Go type does not know,
// NULLs and unchanged fields stay as stored, guards and index keys move),
// a missing one is created (as [Entity.Create]). A create that loses the
// race to another creator becomes an update. Unlike [Entity.Put], which
// replaces the whole item unconditionally, it is safe next to writers that
// do not know the library. One consistent GetItem and one write (two
// writes when the item appears between them).
func (e *Entity[T]) Upsert(ctx context.Context, item *T) error {
	if err := e.refusePartial("upsert", item); err != nil {
		return err
	}
	k, err := e.KeyOf(item)
	if err != nil {
		return opErr("upsert", e.def.Type, k, err)
	}
	for attempt := 0; ; attempt++ {
		written, err := e.Update(ctx, k, func(cur *T) error {
			v := e.versionOf(cur)
			*cur = *item
			e.setVersion(cur, v)
			return nil
		})
		if err == nil {
			*item = written
			return nil
		}
		if !errors.Is(err, ErrNotFound) {
			return err
		}
		err = e.Create(ctx, item)
		if errors.Is(err, ErrAlreadyExists) && !errors.Is(err, ErrUniqueViolation) && attempt < 2 {
			continue
		}
		return err
	}
}
