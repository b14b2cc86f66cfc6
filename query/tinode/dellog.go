package tinode

import (
	"context"
	"fmt"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// topicDeleteFields is what DeleteList reads of its topic (typed fields,
// checked when the package loads).
var (
	topicDelId        = table.MustField[tn.Topic, int]("DelId")
	topicClearId      = table.MustField[tn.Topic, int]("ClearId")
	topicDeleteFields = table.Project(topicState, topicSeqId, topicDelId, topicClearId)
)

// DeleteList deletes the messages in ranges for forUser alone, or for
// everyone when forUser is "", and records the deletion in the topic's
// deletion log (TN-27, Tinode's MessageDeleteList). It returns the new
// DelId.
//
// Contract: the deletion is decided in one transaction that advances the
// topic's DelId from n to n+1 on condition DelId = n (concurrent
// readDeletions get consecutive DelIds, never the same), creates the log
// entry TOPIC#{topic} / DEL#{n+1} and, for one user, sets the
// subscription's DelId (and ClearId when this deletion's ranges reach
// from ClearId+1 upward); for everyone the topic's ClearId is extended
// the same way. Then the
// messages are rewritten a page per transaction, version-checked: for
// everyone DeletedAt and DelId are set and Head and Content removed (the
// items stay as tombstones, so SeqIds are never reused); for one user
// {user, DelId} is added to DeletedFor. Last the entry is marked Applied.
// If it stops after the first transaction, the log already tells clients
// what to hide and [Messages.FinishDeletes] completes the rewrite.
// Requests: a consistent GetItem of the topic (projected on
// topicDeleteFields; and of the subscription for one user), one transaction, then per 100 messages a Query and a
// transaction, and one UpdateItem. Bad ranges give a *table.ValidationError
// before any request; a missing or deleted topic (or, for one user, a
// missing subscription) table.ErrNotFound.
func (ms *Messages) DeleteList(ctx context.Context, topic tn.TopicName, forUser tn.UserID, ranges []tn.Range) (int, error) {
	return table.Run(ctx, ms.deleteList, func(ctx context.Context) (int, error) {
		rs, err := tn.NormalizeRanges("ranges", ranges)
		if err != nil {
			return 0, err
		}
		tk, err := ms.s.topicKey(topic)
		if err != nil {
			return 0, err
		}
		var sk table.Key
		if forUser != "" {
			if sk, err = ms.s.sub.CheckedKey(tn.Subscription{Topic: topic, User: forUser}); err != nil {
				return 0, err
			}
		}
		var entry tn.DelMessage
		err = ms.s.retry(ctx, func() error {
			t, err := ms.s.topic.Peek(ctx, tk, topicDeleteFields)
			if err != nil {
				return err
			}
			if table.FieldValue(t, topicState) == tn.StateDeleted {
				return fmt.Errorf("delete messages: topic %s is deleted: %w", topic, table.ErrNotFound)
			}
			delID, clearID, seq := table.FieldValue(t, topicDelId), table.FieldValue(t, topicClearId), table.FieldValue(t, topicSeqId)
			id := delID + 1
			bump := table.Patch{Set: map[string]any{"DelId": id}, NoTouch: true}
			if delID == 0 {
				bump.IfAbsent = []string{"DelId"}
			} else {
				bump.IfEqual = map[string]any{"DelId": delID}
			}
			var subPatch *table.Patch
			if forUser == "" {
				if c := extendClear(clearID, rs, seq); c > clearID {
					bump.Set["ClearId"] = c
				}
			} else {
				sub, err := ms.s.sub.Get(ctx, sk, table.Consistent())
				if err != nil {
					return fmt.Errorf("delete messages for %s: subscription: %w", forUser, err)
				}
				v := sub.Version
				subPatch = &table.Patch{Set: map[string]any{"DelId": id}, IfVersion: &v, NoTouch: true}
				if c := extendClear(sub.ClearId, rs, seq); c > sub.ClearId {
					subPatch.Set["ClearId"] = c
				}
			}
			bumpOp, err := ms.s.topic.PatchOp(tk, bump)
			if err != nil {
				return err
			}
			entry = tn.DelMessage{Topic: topic, DelId: id, DeletedFor: forUser, Ranges: rs, CreatedAt: ms.s.now()}
			logOps, err := ms.s.del.CreateOp(&entry)
			if err != nil {
				return err
			}
			ops := append([]table.TxOp{bumpOp}, logOps...)
			if subPatch != nil {
				op, err := ms.s.sub.PatchOp(sk, *subPatch)
				if err != nil {
					return err
				}
				ops = append(ops, op)
			}
			return ms.s.t.Transact(ctx, ops...)
		})
		if err != nil {
			return 0, err
		}
		return entry.DelId, ms.apply(ctx, entry)
	})
}

// extendClear returns clear moved past every range that starts at or
// below clear+1 (all SeqIds up to the result are deleted), at most seq.
func extendClear(clear int, rs []tn.Range, seq int) int {
	for _, r := range rs {
		if r.Low <= clear+1 && r.End()-1 > clear {
			clear = r.End() - 1
		}
	}
	return min(clear, seq)
}

// apply rewrites the messages of a log entry and marks it Applied.
func (ms *Messages) apply(ctx context.Context, d tn.DelMessage) error {
	now := ms.s.now()
	for _, r := range d.Ranges {
		var change func(m *tn.Message) (table.Patch, bool)
		if d.DeletedFor == "" {
			change = func(m *tn.Message) (table.Patch, bool) {
				if m.DeletedAt != nil {
					return table.Patch{}, false
				}
				return table.Patch{Set: map[string]any{"DeletedAt": now, "UpdatedAt": now, "DelId": d.DelId}, Remove: []string{"Head", "Content"}}, true
			}
		} else {
			change = func(m *tn.Message) (table.Patch, bool) {
				if m.DeletedAt != nil || m.DeletedForUser(d.DeletedFor) {
					return table.Patch{}, false
				}
				return table.Patch{Set: map[string]any{"DeletedFor": append(m.DeletedFor[:len(m.DeletedFor):len(m.DeletedFor)],
					tn.SoftDelete{User: d.DeletedFor, DelId: d.DelId})}}, true
			}
		}
		if _, err := ms.rewrite(ctx, d.Topic, r.Low, r.End(), change); err != nil {
			return fmt.Errorf("delete messages %s/%d: %w", d.Topic, d.DelId, err)
		}
	}
	k, err := ms.s.delKey(d.Topic, d.DelId)
	if err != nil {
		return err
	}
	_, err = ms.s.del.Patch(ctx, k, table.Patch{Set: map[string]any{"Applied": true}})
	return err
}

// FinishDeletes completes the deletions of topic that stopped before
// their messages were all rewritten (TN-27) and returns how many it
// finished: one Query of the deletion log (SK begins_with DEL#), then
// [Messages.DeleteList]'s rewrite for each entry not yet Applied. Running
// it again, or concurrently with a deletion, is harmless: each message
// change is skipped once done.
func (ms *Messages) FinishDeletes(ctx context.Context, topic tn.TopicName) (int, error) {
	return table.Run(ctx, ms.finishDeletes, func(ctx context.Context) (int, error) {
		n := 0
		every := func(ctx context.Context, o ...table.ListOption) (table.Page[tn.DelMessage], error) {
			return ms.readDeletions(ctx, topic, "", 0, true, o)
		}
		for d, err := range table.Pages(ctx, every, table.Asc()) {
			if err != nil {
				return n, err
			}
			if d.Applied {
				continue
			}
			if err := ms.apply(ctx, d); err != nil {
				return n, err
			}
			n++
		}
		return n, nil
	})
}

// Deletions lists the topic's deletion log from DelId since (0: all),
// newest first unless table.Asc (TN-28, Tinode's MessageGetDeleted): PK =
// TOPIC#{topic}, SK BETWEEN DEL#{since} AND DEL#9999999999, one Query per
// page. With forUser set only the deletions for everyone and those for
// forUser are kept (what that user's client must hide), so a page may be
// shorter than its limit while its cursor continues; forUser "" keeps
// only the deletions for everyone. The entries are read strongly
// consistent, so a deletion that returned is listed. Every entry, page by
// page: table.Pages over a closure calling Deletions.
func (ms *Messages) Deletions(ctx context.Context, topic tn.TopicName, forUser tn.UserID, since int, opts ...table.ListOption) (table.Page[tn.DelMessage], error) {
	return table.Run(ctx, ms.deletions, func(ctx context.Context) (table.Page[tn.DelMessage], error) {
		return ms.readDeletions(ctx, topic, forUser, since, false, opts)
	})
}

func (ms *Messages) readDeletions(ctx context.Context, topic tn.TopicName, forUser tn.UserID, since int, all bool, opts []table.ListOption) (table.Page[tn.DelMessage], error) {
	if since < 0 || since > tn.MaxSeqId {
		return table.Page[tn.DelMessage]{}, table.Invalid("since", "%d is outside 0..%d", since, tn.MaxSeqId)
	}
	if forUser != "" {
		if err := tn.UserIDs.CheckField("forUser", forUser); err != nil {
			return table.Page[tn.DelMessage]{}, err
		}
	}
	tk, err := ms.s.topicKey(topic)
	if err != nil {
		return table.Page[tn.DelMessage]{}, err
	}
	pk := tk.PK
	lo := ms.s.del.Key(tn.DelMessage{Topic: topic, DelId: max(since, 1)}).SK
	hi := ms.s.del.Key(tn.DelMessage{Topic: topic, DelId: tn.MaxSeqId}).SK
	o, err := table.NewListOptions(append([]table.ListOption{table.Desc()}, opts...)...)
	if err != nil {
		return table.Page[tn.DelMessage]{}, err
	}
	q := o.Apply(table.Query{PK: pk, SK: table.SKBetween(lo, hi)})
	q.Consistent = true
	p, err := ms.s.del.List(ctx, q)
	if err != nil || all {
		return p, err
	}
	kept := p.Items[:0]
	for _, d := range p.Items {
		if d.DeletedFor == "" || d.DeletedFor == forUser {
			kept = append(kept, d)
		}
	}
	p.Items = kept
	return p, nil
}
