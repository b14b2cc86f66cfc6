package tinode

import (
	"context"

	"github.com/singletable/singletable/table"
)

// purgePage is how many items a purge reads and deletes per round.
const purgePage = 100

// purgeIndex deletes every item q reads in a GSI, a page at a time (Query on GSI1, then
// BatchWriteItem of their primary keys), until none is left. Deleted items
// leave the index, so each round starts again from the top: no cursor to
// lose, and a stopped purge resumes where it ended.
func (s *Store) purgeIndex(ctx context.Context, q table.Query) error {
	q.Limit = purgePage
	return s.purge(ctx, q)
}

// purgePartition deletes the items of partition pk matching sk.
func (s *Store) purgePartition(ctx context.Context, pk string, sk table.SKCond) error {
	return s.purge(ctx, table.Query{PK: pk, SK: sk, Limit: purgePage, Consistent: true})
}

func (s *Store) purge(ctx context.Context, q table.Query) error {
	for {
		page, err := s.t.QueryItems(ctx, q)
		if err != nil {
			return err
		}
		if len(page.Items) == 0 && page.Cursor == "" {
			return nil
		}
		if err := s.deleteKeys(ctx, page.Items); err != nil {
			return err
		}
		if len(page.Items) == 0 {
			// only expired items (filtered out) were read: go on past
			// them; the table's TTL deletes them.
			q.Cursor = page.Cursor
		} else {
			q.Cursor = ""
		}
	}
}

// deleteKeys batch-deletes the items (by their primary keys).
func (s *Store) deleteKeys(ctx context.Context, items []table.Item) error {
	ops := make([]table.TxOp, 0, len(items))
	for _, it := range items {
		k := s.t.KeyOf(it)
		ops = append(ops, s.msg.DeleteOp(k).Unconditional())
	}
	if len(ops) == 0 {
		return nil
	}
	return s.t.BatchWrite(ctx, ops...)
}
