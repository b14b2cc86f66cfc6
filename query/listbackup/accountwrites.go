package listbackup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Update applies change to an account (LB-63): name, status, plan,
// billing, limits, metadata, settings, type. One strongly consistent
// GetItem and one conditional UpdateItem of the changed attributes
// (table.Entity.Update), retried on a lost race; a type change moves the
// account's LB-6 and LB-7 index entries in the same write. The read is
// needed because the change is applied in Go to the stored account (to
// refuse a deleted one and recompute its index keys) and the write is
// conditioned on the version read. The account's
// place in the tree (accountPath, parentAccountId, level) is changed only
// by [Accounts.Move], and a soft-deleted account cannot be updated.
// Errors: *table.ValidationError, table.ErrNotFound (missing or deleted).
func (s *Accounts) Update(ctx context.Context, id lb.AccountID, change func(*lb.Account) error) (lb.Account, error) {
	return table.Run(ctx, s.update, func(ctx context.Context) (lb.Account, error) {
		k, err := s.e.accounts.CheckedKey(lb.Account{AccountID: id})
		if err != nil {
			return lb.Account{}, err
		}
		return s.e.accounts.Update(ctx, k, liveRule[lb.Account]().Updating(func(a *lb.Account) error {
			before := *a
			if err := change(a); err != nil {
				return err
			}
			switch {
			case a.AccountPath != before.AccountPath:
				return table.Invalid("accountPath", "changed only by Accounts.Move")
			case a.ParentAccountID != before.ParentAccountID:
				return table.Invalid("parentAccountId", "changed only by Accounts.Move")
			case a.Level != before.Level:
				return table.Invalid("level", "changed only by Accounts.Move")
			case !sameMove(a.Move, before.Move):
				return table.Invalid("move", "changed only by Accounts.Move")
			}
			return nil
		}))
	})
}

// Delete soft-deletes an account (LB-63; core: deletes are soft): status
// becomes terminated, deletedAt is stamped, and the account leaves every
// index (LB-6, LB-7, LB-8); Get then gives table.ErrNotFound, but the item
// stays in the table. An account with live child accounts, or one being
// moved, is refused with table.ErrConflict: delete or move the children
// first. Memberships, sources and usage of the account are not touched.
// Requests: one GetItem, one Query of one child (GSI1
// CHILDREN#{accountId}), then one consistent GetItem and one conditional
// UpdateItem. A child created concurrently under the account is not
// prevented (Create checks only that the parent item exists). Errors:
// *table.ValidationError, table.ErrNotFound (missing or already deleted),
// table.ErrConflict.
func (s *Accounts) Delete(ctx context.Context, id lb.AccountID) error {
	return s.delete.Do(ctx, func(ctx context.Context) error {
		k, err := s.e.accounts.CheckedKey(lb.Account{AccountID: id})
		if err != nil {
			return err
		}
		if _, err := s.ByID.Get(ctx, lb.Account{AccountID: id}, table.Consistent()); err != nil {
			return err
		}
		kids, err := s.Children.List(ctx, lb.Account{ParentAccountID: id}, table.Limit(1))
		if err != nil {
			return fmt.Errorf("delete account %s: %w", id, err)
		}
		if len(kids.Items) > 0 {
			return fmt.Errorf("delete account %s: it has child accounts (%s...): %w", id, kids.Items[0].AccountID, table.ErrConflict)
		}
		now := s.e.now()
		_, err = s.e.accounts.Update(ctx, k, liveRule[lb.Account]().Ending(func(a *lb.Account) error {
			if a.Move.Pending() {
				return fmt.Errorf("delete account %s: a move to %s is under way: %w", id, a.Move.ToPath, table.ErrConflict)
			}
			a.Status, a.DeletedAt = lb.AccountTerminated, now
			return nil
		}))
		return err
	})
}

// moveWorkers bounds the concurrent descendant writes of a move.
const moveWorkers = 8

// movePage is the page size of a move's subtree queries.
const movePage = 100

// errMoved marks a descendant that no longer has the old path.
var errMoved = errors.New("already moved")

// Move moves account id, with its whole subtree, under newParent (LB-63),
// and returns the account as moved. The account keeps the last segment of
// its path: /acme/eu/ moved under /other/ becomes /other/eu/, and every
// descendant's path (the LB-8 subtree index, GSI3) and level follow. The
// new parent must exist, not be deleted, not be the account or one of its
// descendants (*table.ValidationError for parentAccountId), and not be
// under a move itself (table.ErrConflict).
//
// The move is batched and resumable:
//
//  1. The account is marked first (its Move field: old path, new path,
//     new parent and level), by one consistent GetItem and one
//     conditional UpdateItem.
//  2. The descendants are read page by page (Query GSI3 TREE#{root} /
//     begins_with PATH#{old path}, 100 per page) and each is rewritten by
//     table.Entity.Update (a consistent GetItem and an UpdateItem
//     conditioned on its version and on its old path), up to 8 at a time.
//     A descendant whose path no longer starts with the old path is
//     skipped, so a repeated pass, or a rerun, never rewrites one twice.
//     Passes repeat until one rewrites nothing (the GSI is eventually
//     consistent).
//  3. The account itself takes its new path, parent and level, and the
//     mark is cleared, in one conditional write (again a consistent read
//     and an UpdateItem), which also moves it to the new parent's children
//     (LB-6).
//
// Requests for n descendants: 2 GetItems, 2 for the mark, 2n for the
// descendants, one Query per page of 100 per pass (two passes when
// nothing interferes), and 2 for the account: about 2n + 8. If the call
// is interrupted (error, cancelled context, crash), calling Move again
// with the same newParent finishes the job; calling it with another
// parent gives table.ErrConflict until then.
//
// What readers see during a move: the account keeps its old path and
// parent (Get shows the move under way in its Move field), so it stays in
// the old parent's children and in the subtree of its old path until the
// last step. Each descendant switches from the old path to the new one
// when its own write lands: until the move ends, the subtree of the old
// path (LB-8) lists the account and the descendants not yet rewritten, and
// the subtree of the new path lists those already rewritten (and not the
// account). Parents and children (LB-6) of descendants do not change, so
// child lists below the account are stable throughout. Every item is
// always written whole: no reader sees a half-rewritten account. Two moves
// of overlapping subtrees at once are not supported (the second may
// finish with paths computed from the first one's old paths), and
// soft-deleted descendants, which are in no index, keep their old path.
//
// Under faults: every write is table.Entity.Update, so a write whose
// response was lost and that the SDK retried counts once; a lost race
// with another writer is re-read and re-applied (a descendant that another
// writer moved meanwhile is skipped).
//
// Errors: *table.ValidationError, table.ErrNotFound (the account or the
// new parent missing or deleted), table.ErrConflict.
func (s *Accounts) Move(ctx context.Context, id, newParent lb.AccountID) (lb.Account, error) {
	return table.Run(ctx, s.move, func(ctx context.Context) (lb.Account, error) {
		k, err := s.e.accounts.CheckedKey(lb.Account{AccountID: id})
		if err != nil {
			return lb.Account{}, err
		}
		if err := lb.AccountIDs.CheckField("parentAccountId", newParent); err != nil {
			return lb.Account{}, err
		}
		if newParent == id {
			return lb.Account{}, table.Invalid("parentAccountId", "an account cannot be its own parent")
		}
		a, err := s.ByID.Get(ctx, lb.Account{AccountID: id}, table.Consistent())
		if err != nil {
			return lb.Account{}, fmt.Errorf("move account %s: %w", id, err)
		}
		mark := a.Move
		switch {
		case mark.Pending() && mark.ToParent != newParent:
			return lb.Account{}, fmt.Errorf("move account %s: a move under %s is under way: %w", id, mark.ToParent, table.ErrConflict)
		case !mark.Pending() && a.ParentAccountID == newParent:
			return a, nil // already there
		case !mark.Pending():
			p, err := s.ByID.Get(ctx, lb.Account{AccountID: newParent}, table.Consistent())
			if err != nil {
				return lb.Account{}, fmt.Errorf("move account %s: new parent: %w", id, err)
			}
			if strings.HasPrefix(p.AccountPath, a.AccountPath) {
				return lb.Account{}, table.Invalid("parentAccountId", "%s is in the subtree of %s", newParent, id)
			}
			if p.Move.Pending() {
				return lb.Account{}, fmt.Errorf("move account %s: new parent %s is being moved: %w", id, newParent, table.ErrConflict)
			}
			mark = lb.AccountMove{FromPath: a.AccountPath, ToPath: p.AccountPath + lb.PathLeaf(a.AccountPath) + "/",
				ToParent: newParent, ToLevel: p.Level + 1, StartedAt: s.e.now()}
			if err := lb.CheckPath("accountPath", mark.ToPath); err != nil {
				return lb.Account{}, err
			}
			a, err = s.e.accounts.Update(ctx, k, liveRule[lb.Account]().Updating(func(cur *lb.Account) error {
				if cur.Move.Pending() || cur.AccountPath != mark.FromPath {
					return fmt.Errorf("move account %s: moved concurrently: %w", id, table.ErrConflict)
				}
				cur.Move = mark
				return nil
			}))
			if err != nil {
				return lb.Account{}, err
			}
		}
		delta := mark.ToLevel - a.Level
		for {
			n, err := s.rewritePass(ctx, id, mark, delta)
			if err != nil {
				return lb.Account{}, fmt.Errorf("move account %s (call Move again to resume): %w", id, err)
			}
			if n == 0 {
				break
			}
		}
		return s.e.accounts.Update(ctx, k, func(cur *lb.Account) error {
			if !sameMove(cur.Move, mark) {
				return fmt.Errorf("move account %s: the move changed concurrently: %w", id, table.ErrConflict)
			}
			cur.AccountPath, cur.ParentAccountID, cur.Level, cur.Move = mark.ToPath, mark.ToParent, mark.ToLevel, lb.AccountMove{}
			return nil
		})
	})
}

func sameMove(a, b lb.AccountMove) bool {
	return a.FromPath == b.FromPath && a.ToPath == b.ToPath && a.ToParent == b.ToParent &&
		a.ToLevel == b.ToLevel && a.StartedAt.Equal(b.StartedAt)
}

// rewritePass rewrites, page by page, the descendants of the moving
// account still under mark.FromPath, and returns how many it rewrote.
func (s *Accounts) rewritePass(ctx context.Context, id lb.AccountID, mark lb.AccountMove, delta int) (int, error) {
	rewritten, cursor := 0, ""
	for {
		p, err := s.Subtree.List(ctx, lb.Account{AccountPath: mark.FromPath}, table.Limit(movePage), table.After(cursor))
		if err != nil {
			return rewritten, err
		}
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			firstErr error
			sem      = make(chan struct{}, moveWorkers)
		)
		for _, d := range p.Items {
			if d.AccountID == id {
				continue
			}
			wg.Add(1)
			sem <- struct{}{}
			go func(d lb.Account) {
				defer func() { <-sem; wg.Done() }()
				moved, err := s.rewrite(ctx, d.AccountID, mark, delta)
				mu.Lock()
				defer mu.Unlock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if moved {
					rewritten++
				}
			}(d)
		}
		wg.Wait()
		if firstErr != nil {
			return rewritten, firstErr
		}
		if !p.More() {
			return rewritten, nil
		}
		cursor = p.Cursor
	}
}

// rewrite moves one descendant's path from mark.FromPath to mark.ToPath,
// conditioned (by table.Entity.Update) on its version and old path; it
// reports false for one already moved or gone.
func (s *Accounts) rewrite(ctx context.Context, id lb.AccountID, mark lb.AccountMove, delta int) (bool, error) {
	k, err := s.e.accounts.CheckedKey(lb.Account{AccountID: id})
	if err != nil {
		return false, err
	}
	_, err = s.e.accounts.Update(ctx, k, func(d *lb.Account) error {
		if d.Deleted() || !strings.HasPrefix(d.AccountPath, mark.FromPath) {
			return errMoved
		}
		d.AccountPath = mark.ToPath + d.AccountPath[len(mark.FromPath):]
		d.Level += delta
		return nil
	})
	switch {
	case errors.Is(err, errMoved), errors.Is(err, table.ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}
