package listbackup

import (
	"context"
	"fmt"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Soft deletes (LB-63, LB-65, LB-67). The core document asks for status
// fields instead of hard deletes. A soft delete sets the entity's status
// to the documents' end state, stamps deletedAt with the store's clock and
// takes the item out of every GSI (the Def's Indexes return none for a
// deleted item), in the same conditional write. Reads by ID and updates
// then treat the item as missing (table.ErrNotFound); lists never return
// it; the item stays in the table for audit and for an operator to restore.

// deletable is an item under the soft-delete rule: accounts, sources,
// connections and webhooks.
type deletable[T any] interface {
	*T
	Deleted() bool
}

// live is the soft-delete rule, written once: a soft-deleted item is not
// found. It is the Keep of the ByID patterns (a read by ID); the writes
// hold it through [liveRule].
func live[T any, P deletable[T]](_, item P) bool { return !item.Deleted() }

// notDeleted is live for one item: the Live of the declared updates
// (table.WriteDef), which then refuse a soft-deleted item and a change
// that sets deletedAt.
func notDeleted[T any, P deletable[T]](item *T) bool { return !P(item).Deleted() }

// liveRule is the soft-delete rule of T's writes, as the declared ones
// hold it: its Updating and Ending apply it to the change of a write
// that composes the entity's Update itself (account update, delete and
// move, source delete).
func liveRule[T any, P deletable[T]]() table.WriteDef[T] {
	return table.WriteDef[T]{Live: notDeleted[T, P], LiveField: "deletedAt"}
}

// Delete soft-deletes a source (LB-65): status becomes disconnected,
// deletedAt is stamped, and the source leaves the LB-15..LB-17 lists.
// Requests: one GetItem (the source must exist and not be deleted), one
// Query page per 100 of its sync schedules and, per active schedule, a
// consistent read and a conditional write turning it off (so the due
// index, LB-48, never hands out a deleted source), then one consistent
// GetItem and one conditional UpdateItem of the source: 3 requests for a
// source without active schedules. The source is written last, so a call
// interrupted halfway can simply be repeated.
// OAuth tokens, runs and jobs of the source are kept. Errors:
// *table.ValidationError, table.ErrNotFound (missing or already deleted).
func (s *Sources) Delete(ctx context.Context, id lb.SourceID) error {
	return s.delete.Do(ctx, func(ctx context.Context) error {
		k, err := s.e.sources.CheckedKey(lb.Source{SourceID: id})
		if err != nil {
			return err
		}
		if _, err := s.ByID.Get(ctx, lb.Source{SourceID: id}); err != nil {
			return err
		}
		sched := s.e.scheduleStore
		for sc, err := range sched.BySource.All(ctx, lb.SyncSchedule{SourceID: id}) {
			if err != nil {
				return fmt.Errorf("delete source %s: %w", id, err)
			}
			if sc.IsActive {
				if _, err := sched.SetActive(ctx, ScheduleRef{id, sc.ScheduleID}, false); err != nil {
					return fmt.Errorf("delete source %s: %w", id, err)
				}
			}
		}
		now := s.e.now()
		_, err = s.v().Update(ctx, k, liveRule[lb.Source]().Ending(func(src *lb.Source) error {
			src.Status, src.DeletedAt = lb.SourceDisconnected, now
			return nil
		}))
		return err
	})
}
