package tinode

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/internal/group"
	"github.com/singletable/singletable/internal/retry"
	"github.com/singletable/singletable/table"
)

// Messages are the access patterns of messages.
type Messages struct {
	deleteList, finishDeletes, deletions, save, get, history, deleteForUser, deleteForAll, import_, reshard, importAt, newest table.Op
	s                                                                                                                         *Store
	saves                                                                                                                     *group.Grouper[tn.TopicName, tn.Message, tn.Message] // Save's group commit
}

func newMessages(s *Store) *Messages {
	ms := &Messages{s: s,
		deleteList:    table.NewOp(s.t, "TN-27", "tinode.Messages.DeleteList"),
		finishDeletes: table.NewOp(s.t, "TN-27", "tinode.Messages.FinishDeletes"),
		deletions:     table.NewOp(s.t, "TN-28", "tinode.Messages.Deletions"),
		save:          table.NewOp(s.t, "TN-12", "tinode.Messages.Save"),
		get:           table.NewOp(s.t, "TN-15", "tinode.Messages.Get"),
		history:       table.NewOp(s.t, "TN-13", "tinode.Messages.History"),
		deleteForUser: table.NewOp(s.t, "TN-14", "tinode.Messages.DeleteForUser"),
		deleteForAll:  table.NewOp(s.t, "TN-14", "tinode.Messages.DeleteForAll"),
		import_:       table.NewOp(s.t, "TN-12", "tinode.Messages.Import"),
		reshard:       table.NewOp(s.t, "TN-12", "tinode.Messages.Reshard"),
		importAt:      table.NewOp(s.t, "TN-12", "tinode.Messages.ImportAt"),
		newest:        table.NewOp(s.t, "TN-13", "tinode.Messages.Newest"),
	}
	ms.saves = &group.Grouper[tn.TopicName, tn.Message, tn.Message]{Max: maxSaveBatch, MaxBytes: saveBatchBytes,
		Size: func(m tn.Message) int { return len(m.Content) + len(m.Head) + 512 }, Commit: ms.commit}
	return ms
}

// maxSaveBatch bounds one commit: the topic's update and 99 messages fill
// a transaction's 100 actions; saveBatchBytes keeps it far from 4 MB.
const (
	maxSaveBatch   = table.MaxTxItems - 1
	saveBatchBytes = 2 << 20
)

// Save stores m as the next message of its topic and sets m.SeqId (TN-12),
// in TOPIC#{topic}, or TOPIC#{topic}#{seq mod N} for a topic with sharded
// messages.
//
// Contract: concurrent Saves to one topic get consecutive SeqIds, never the
// same one and never a gap among committed messages. The commit is one
// transaction: an UpdateItem on TOPIC#{topic} / TOPIC moving SeqId from n
// to n+k on condition SeqId = n, and the creates of MSG#{n+1}..MSG#{n+k}.
// Saves to one topic that wait in this process are committed together (a
// group commit, up to 99 messages; package internal/group): the
// topic's committer reads its SeqId (consistent GetItem) and sends the
// transaction for every message waiting, so at 100 concurrent senders a message costs a fraction of a
// request instead of a retried read and transaction each. A transaction
// that lost the race to another process (condition failed, transaction
// conflict, throttling) is read again and retried with jittered
// exponential backoff; its messages keep their order. A caller whose
// context ends while it waits gets the context's error, and its message
// is committed only if its group had been sent (as with any request
// whose response is lost). A topic whose messages are sharded
// (its MsgLayout, see Messages.Reshard) gets each message in the partition
// of its SeqId, TOPIC#{topic}#{seq mod N}. The topic's update is also
// conditioned on the layout read (MsgLayout absent, for a topic never
// sharded), so a Save racing a switch is refused in its transaction and
// retried under the new layout: no extra request.
// Errors: a missing or deleted topic
// table.ErrNotFound; retries exhausted table.ErrConflict; bad input a
// *table.ValidationError (before any request).
func (ms *Messages) Save(ctx context.Context, m *tn.Message) error {
	return ms.save.Do(ctx, func(ctx context.Context) error {
		if _, err := ms.s.topicKey(m.Topic); err != nil {
			return err
		}
		probe := *m
		probe.SeqId = 1
		if err := ms.s.msg.Validate(&probe); err != nil {
			return err
		}
		saved, err := ms.saves.Do(ctx, m.Topic, *m)
		if err == nil {
			*m = saved
		}
		return err
	})
}

// topicSaveFields is what a save reads of its topic: its state, last
// SeqId and message layout (typed fields, checked when the package loads).
var (
	topicState      = table.MustField[tn.Topic, tn.ObjState]("State")
	topicSeqId      = table.MustField[tn.Topic, int]("SeqId")
	topicMsgLayout  = table.MustField[tn.Topic, string]("MsgLayout")
	topicSaveFields = table.Project(topicState, topicSeqId, topicMsgLayout)
)

// commit saves batch as the next messages of topic in one transaction,
// retried on a lost race, and returns them with their SeqIds.
func (ms *Messages) commit(ctx context.Context, topic tn.TopicName, batch []tn.Message) ([]tn.Message, error) {
	tk, err := ms.s.topicKey(topic)
	if err != nil {
		return nil, err
	}
	o := ms.s.opts
	for attempt := 0; ; attempt++ {
		t, err := ms.s.topic.Peek(ctx, tk, topicSaveFields)
		if err != nil {
			return nil, err
		}
		if table.FieldValue(t, topicState) == tn.StateDeleted {
			return nil, fmt.Errorf("save message: topic %s is deleted: %w", topic, table.ErrNotFound)
		}
		layout, err := table.ParseLayout(table.FieldValue(t, topicMsgLayout))
		if err != nil {
			return nil, err
		}
		now := ms.s.now()
		seq := table.FieldValue(t, topicSeqId)
		last := seq + len(batch)
		bump, err := ms.s.topic.PatchOp(tk, table.Patch{
			Set:     map[string]any{"SeqId": last, "TouchedAt": now},
			IfEqual: map[string]any{"SeqId": seq},
		})
		if err != nil {
			return nil, err
		}
		// On the layout read too (MsgLayout absent for tinode.md's): a
		// switch committed since is a lost race, retried under it. The
		// first failing action decides: the topic's (a lost race, even if
		// a message create failed too), or a message already there.
		ops := []table.TxOp{bump.IfLayout(layoutAttr, layout).OnFail(fmt.Errorf("save message to %s: SeqId %d moved on: %w", topic, seq, table.ErrConflict))}
		msgs := slices.Clone(batch)
		for i := range msgs {
			msgs[i].SeqId = seq + 1 + i
			create, err := ms.s.msg.CreateOp(&msgs[i])
			if err != nil {
				return nil, err
			}
			if !layout.IsZero() {
				create[0] = ms.s.t.InPartition(create[0], messagePK(layout, tk.PK, msgs[i].SeqId))
			}
			create[0] = create[0].OnFail(fmt.Errorf("save message %s/%d: %w", topic, msgs[i].SeqId, table.ErrAlreadyExists))
			ops = append(ops, create...)
		}
		err = ms.s.t.Transact(ctx, ops...)
		if err == nil {
			return msgs, nil
		}
		if errors.Is(err, table.ErrAlreadyExists) || !retryable(err) {
			return nil, err
		}
		if attempt+1 >= o.SaveAttempts {
			return nil, fmt.Errorf("save message to %s: %d attempts lost the race: %w: %w", topic, attempt+1, table.ErrConflict, err)
		}
		if err := retry.Wait(ctx, attempt, o.SaveBackoff, o.SaveMaxBackoff); err != nil {
			return nil, err
		}
	}
}

// retryable reports whether a transaction lost a race worth retrying:
// throttling, a transaction conflict, or a failed condition (a version
// check; callers first return the failures an action names, such as
// table.ErrAlreadyExists).
func retryable(err error) bool {
	if errors.Is(err, table.ErrThrottled) || errors.Is(err, table.ErrConflict) {
		return true
	}
	var te *table.TxError
	if !errors.As(err, &te) {
		return false
	}
	lost := false
	for _, r := range te.Failed() {
		switch {
		case r.Code == "TransactionConflict", r.Code == "ThrottlingError":
			lost = true
		case r.Code == "ConditionalCheckFailed":
			lost = true
		}
	}
	return lost
}

// Get returns message seq of topic: GetItem TOPIC#{topic} / MSG#{seq}. A
// missing or expired message gives table.ErrNotFound (TN-15). In the
// sharded profile (Options.MessageShards) the message is read from the
// partition its SeqId falls in, TOPIC#{topic}#{seq mod N}, under the
// topic's layout: one GetItem when the store remembers the layout as read
// with a SeqId at or above seq (exact for it: a switch starts after the
// SeqId it read), else a consistent GetItem of the topic first, remembered
// for the next reads (a miss under a remembered layout reads the topic
// again). A miss in a sharded topic also asks, in one BatchGetItem, the
// places another epoch's layout gives it (a message imported under the
// layout before a switch).
func (ms *Messages) Get(ctx context.Context, topic tn.TopicName, seq int) (tn.Message, error) {
	return table.Run(ctx, ms.get, func(ctx context.Context) (tn.Message, error) {
		k, err := ms.s.msgKey(topic, seq)
		if err != nil {
			return tn.Message{}, err
		}
		if !ms.s.shardAware() {
			return ms.getIn(ctx, k, table.Layout{}, seq)
		}
		if l, ok := ms.s.layouts.load(topic, seq); ok {
			m, err := ms.s.msg.Get(ctx, table.Key{PK: l.SeqPK(k.PK, int64(seq)), SK: k.SK})
			if !errors.Is(err, table.ErrNotFound) {
				return m, err
			}
			// A miss under a remembered layout: read the topic again (it may
			// have been deleted and created anew).
		}
		l, err := ms.topicLayoutUpTo(ctx, topic)
		if err != nil {
			return tn.Message{}, err
		}
		return ms.getIn(ctx, k, l, seq)
	})
}

// getIn reads message k (number seq) under layout l: its partition, then
// in one BatchGetItem the places another epoch's layout gives it.
func (ms *Messages) getIn(ctx context.Context, k table.Key, l table.Layout, seq int) (tn.Message, error) {
	pks := l.SeqPKs(k.PK, int64(seq))
	base := k.PK
	k.PK = pks[0]
	m, err := ms.s.msg.Get(ctx, k)
	if !errors.Is(err, table.ErrNotFound) || len(pks) == 1 {
		return m, err
	}
	var ks []table.Key
	for _, pk := range pks[1:] {
		ks = append(ks, table.Key{PK: pk, SK: k.SK})
	}
	found, err2 := ms.s.msg.BatchGet(ctx, ks)
	if err2 != nil {
		return tn.Message{}, err2
	}
	if len(found) == 0 {
		return tn.Message{}, fmt.Errorf("get message %s/%d: %w", base, seq, table.ErrNotFound)
	}
	return found[0], nil
}

// History lists f.Topic's messages by SeqId (TN-13): PK = TOPIC#{topic},
// SK BETWEEN MSG#{f.Seq.Since} AND MSG#{f.Seq.Before-1}, 10-digit SeqIds
// so 9 sorts before 10; a topic with sharded messages (sharded profile)
// fans out over its N partitions, one Query each, merged. Options: table.Limit (DefaultHistoryLimit unless
// set), table.After, table.Asc (oldest first; newest first by default).
// Expired messages are never returned (TN-15); hard-deleted ones only with
// f.IncludeDeleted, and those f.ForUser soft-deleted never (TN-14): they
// are dropped after reading, so a page may be shorter than its limit while
// the cursor continues. A reversed or empty f.Seq is a
// *table.ValidationError.
//
// In the sharded profile (Options.MessageShards) the topic's layout is
// read first (a consistent GetItem), and a topic whose messages are
// sharded is read from every partition its layout used: the page fans out
// over N (N+1 when the topic was unsharded once) Queries sent at once and
// merged by SeqId, complete and ordered, with one cursor holding a
// position per partition (TN-13). A page continued after a switch reads
// the partitions it started with: newest first it misses nothing (the new
// epoch's messages are newer); oldest first it ends before them.
func (ms *Messages) History(ctx context.Context, f HistoryFilter, opts ...table.ListOption) (table.Page[tn.Message], error) {
	return table.Run(ctx, ms.history, func(ctx context.Context) (table.Page[tn.Message], error) {
		if err := f.validate(); err != nil {
			return table.Page[tn.Message]{}, err
		}
		tk, err := ms.s.topicKey(f.Topic)
		if err != nil {
			return table.Page[tn.Message]{}, err
		}
		pk := tk.PK
		lo, hi, err := f.Seq.bounds(ms.s.msg)
		if err != nil {
			return table.Page[tn.Message]{}, err
		}
		// The caller's table.Limit, if any, comes later and wins.
		o, err := table.NewListOptions(append([]table.ListOption{table.Limit(DefaultHistoryLimit)}, opts...)...)
		if err != nil {
			return table.Page[tn.Message]{}, err
		}
		q := o.Apply(table.Query{PK: pk, SK: table.SKBetween(lo, hi), Desc: true})
		p, err := table.ListLayout(ctx, ms.s.msg, q, false, func(ctx context.Context) (table.Layout, error) {
			return ms.topicLayout(ctx, f.Topic)
		})
		if err != nil {
			return p, err
		}
		kept := p.Items[:0]
		for i := range p.Items {
			if f.keeps(&p.Items[i]) {
				kept = append(kept, p.Items[i])
			}
		}
		p.Items = kept
		return p, nil
	})
}

// DeleteForUser soft-deletes the messages since <= SeqId < before (0: no
// bound) for user only (TN-14): user is added to their DeletedFor, so
// History with HistoryFilter{ForUser: user} hides them while others still
// see them. Pages of 100 messages are read (PK = TOPIC#{topic}, SK
// BETWEEN) and patched in one transaction each, every patch checking the
// version read, retried on a race. It returns how many messages were newly
// hidden.
func (ms *Messages) DeleteForUser(ctx context.Context, topic tn.TopicName, user tn.UserID, since, before int) (int, error) {
	return table.Run(ctx, ms.deleteForUser, func(ctx context.Context) (int, error) {
		if err := tn.UserIDs.CheckField("User", user); err != nil {
			return 0, err
		}
		return ms.rewrite(ctx, topic, since, before, func(m *tn.Message) (table.Patch, bool) {
			if m.DeletedAt != nil || m.DeletedForUser(user) {
				return table.Patch{}, false
			}
			return table.Patch{Set: map[string]any{"DeletedFor": append(m.DeletedFor[:len(m.DeletedFor):len(m.DeletedFor)], tn.SoftDelete{User: user})}}, true
		})
	})
}

// DeleteForAll hard-deletes the messages since <= SeqId < before for every
// user (TN-14): DeletedAt and UpdatedAt are set and Head and Content
// removed, in one transaction per page of 100, version-checked. The items
// stay as tombstones so SeqIds are never reused. It returns how many
// messages were deleted.
//
// Requests: per page of 100 a Query of the messages, then the transaction
// that patches them on the versions read, so a message saved or edited
// meanwhile is never overwritten.
func (ms *Messages) DeleteForAll(ctx context.Context, topic tn.TopicName, since, before int) (int, error) {
	return table.Run(ctx, ms.deleteForAll, func(ctx context.Context) (int, error) {
		now := ms.s.now()
		return ms.rewrite(ctx, topic, since, before, func(m *tn.Message) (table.Patch, bool) {
			if m.DeletedAt != nil {
				return table.Patch{}, false
			}
			return table.Patch{Set: map[string]any{"DeletedAt": now, "UpdatedAt": now}, Remove: []string{"Head", "Content"}}, true
		})
	})
}

// rewrite patches the messages of a SeqId range, a page per transaction.
func (ms *Messages) rewrite(ctx context.Context, topic tn.TopicName, since, before int, change func(*tn.Message) (table.Patch, bool)) (int, error) {
	lo, hi, err := SeqRange{Since: since, Before: before}.bounds(ms.s.msg)
	if err != nil {
		return 0, err
	}
	tk, err := ms.s.topicKey(topic)
	if err != nil {
		return 0, err
	}
	pk := tk.PK
	l, err := ms.topicLayout(ctx, topic)
	if err != nil {
		return 0, err
	}
	q := l.Query(table.Query{PK: pk, SK: table.SKBetween(lo, hi), Limit: table.MaxTxItems, Consistent: true})
	n, cursor := 0, ""
	for attempt := 0; ; {
		q.Cursor = cursor
		p, err := ms.s.t.QueryItems(ctx, q)
		if err != nil {
			return n, err
		}
		var ops []table.TxOp
		for _, raw := range p.Items {
			m, err := ms.s.msg.Decode(raw)
			if err != nil {
				return n, err
			}
			patch, ok := change(&m)
			if !ok {
				continue
			}
			v := m.Version
			patch.IfVersion = &v
			// The message's own key: its partition is the one it was
			// saved in (TOPIC#{topic}, or a shard of it).
			op, err := ms.s.msg.PatchOp(ms.s.t.KeyOf(raw), patch)
			if err != nil {
				return n, err
			}
			ops = append(ops, op)
		}
		if len(ops) > 0 {
			err := ms.s.t.Transact(ctx, ops...)
			if err != nil && retryable(err) && attempt+1 < ms.s.opts.SaveAttempts {
				if err := retry.Wait(ctx, attempt, ms.s.opts.SaveBackoff, ms.s.opts.SaveMaxBackoff); err != nil {
					return n, err
				}
				attempt++
				continue // same page again
			}
			if err != nil {
				return n, err
			}
			n += len(ops)
		}
		attempt = 0
		if p.Cursor == "" {
			return n, nil
		}
		cursor = p.Cursor
	}
}

// Import writes a message that already has its SeqId, as a migration from
// TinodeMessages does: PK = TOPIC#{topic}, SK = MSG#{seq}, never
// overwriting (table.ErrAlreadyExists). It does not touch the topic's
// SeqId; import topics with their SeqId. New messages go through Save.
//
// In the sharded profile (Options.MessageShards) the topic's layout is
// read first (a consistent GetItem; a missing topic gives
// table.ErrNotFound) and the message is written to the partition of its
// SeqId in one transaction with a check that the topic still holds that
// layout (a switch in between: read again and retried).
//
// Pattern: TN-12 (the write it serves).
func (ms *Messages) Import(ctx context.Context, m *tn.Message) error {
	return ms.import_.Do(ctx, func(ctx context.Context) error {
		if !ms.s.shardAware() {
			return ms.s.msg.Create(ctx, m)
		}
		tk, err := ms.s.topicKey(m.Topic)
		if err != nil {
			return err
		}
		return ms.s.retry(ctx, func() error {
			raw, err := ms.s.t.GetOwner(ctx, tk, true)
			if err != nil {
				return fmt.Errorf("import message: topic %s: %w", m.Topic, err)
			}
			l, err := table.LayoutOf(raw, layoutAttr)
			if err != nil {
				return err
			}
			cp := *m
			ops, err := ms.s.msg.CreateOp(&cp)
			if err != nil {
				return err
			}
			ops[0] = ms.s.t.InPartition(ops[0], messagePK(l, tk.PK, cp.SeqId)).
				OnFail(fmt.Errorf("import message %s/%d: %w", m.Topic, m.SeqId, table.ErrAlreadyExists))
			err = ms.s.t.Transact(ctx, append(ops, ms.s.t.LayoutCheckOp(tk, layoutAttr, l))...)
			if err == nil {
				*m = cp
			}
			return err
		})
	})
}
