package tinode

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// Topics are the access patterns of topics.
type Topics struct {
	// ByName reads a topic (TN-8).
	//
	//	t, err := s.Topics.ByName.Get(ctx, tn.Topic{Id: name})
	ByName *table.Pattern[tn.Topic]
	// Owned lists the group topics a user owns, by topic name (TN-22,
	// Tinode's OwnTopics). GSI1 is eventually consistent: a topic created
	// a moment ago may be missing.
	//
	//	page, err := s.Topics.Owned.List(ctx, tn.Topic{Owner: user})
	Owned *table.Pattern[tn.Topic]
	// ChangeOwner makes user the owner of the group topic (TN-38, Tinode's
	// TopicOwnerChange), in the same write moving it from the old owner's
	// Owned list to the new one's (TN-22).
	ChangeOwner func(ctx context.Context, name tn.TopicName, user tn.UserID) (tn.Topic, error)
	// SoftDelete marks the topic deleted (TN-18): State = deleted and
	// DeletedAt (and UpdatedAt) stamped with the store's clock. It returns
	// the topic as written.
	SoftDelete func(context.Context, tn.TopicName) (tn.Topic, error)

	recountSubs, recordMessage, createP2P, findByTags, create, getMany, update, delete, load table.Op
	s                                                                                        *Store
}

func newTopics(s *Store) *Topics {
	return &Topics{s: s,
		ChangeOwner: table.UpdateWith(s.topic, table.WriteDef[tn.Topic]{ID: "TN-38", Name: "tinode.Topics.ChangeOwner",
			Doc: "Makes a user the owner of the group topic, moving its GSI1 entry (TN-22) to the new owner's.", Also: []string{"TN-22"},
			Check: func(t *tn.Topic) error { return tn.TopicNames.Check(t.Id) }}, func(name tn.TopicName) tn.Topic { return tn.Topic{Id: name} },
			"Owner", func(t *tn.Topic, user tn.UserID) error { t.Owner = user; return nil }),
		recountSubs:   table.NewOp(s.t, "TN-24", "tinode.Topics.RecountSubs"),
		recordMessage: table.NewOp(s.t, "TN-12", "tinode.Topics.RecordMessage"),
		createP2P:     table.NewOp(s.t, "TN-26", "tinode.Topics.CreateP2P"),
		findByTags:    table.NewOp(s.t, "TN-19", "tinode.Topics.FindByTags"),
		create:        table.NewOp(s.t, "TN-8", "tinode.Topics.Create"),
		getMany:       table.NewOp(s.t, "TN-8", "tinode.Topics.GetMany"),
		update:        table.NewOp(s.t, "TN-8", "tinode.Topics.Update"),
		SoftDelete: table.PatchWith(s.topic, table.WriteDef[tn.Topic]{ID: "TN-18", Name: "tinode.Topics.SoftDelete",
			Doc:   "Marks the topic deleted: State = deleted and DeletedAt, one UpdateItem.",
			Check: func(t *tn.Topic) error { return tn.TopicNames.Check(t.Id) }},
			func(name tn.TopicName) tn.Topic { return tn.Topic{Id: name} }, func(tn.TopicName) table.Patch { return softDeleted(s.now()) }),
		delete: table.NewOp(s.t, "TN-18", "tinode.Topics.Delete"),
		load:   table.NewOp(s.t, "TN-8", "tinode.Topics.Load"),
		ByName: table.NewPattern(s.topic, table.PatternDef[tn.Topic]{ID: "TN-8", Name: "tinode.Topics.ByName",
			Doc: "A topic by name.", Reads: table.ReadOne,
			Check: func(t *tn.Topic) error { return tn.TopicNames.Check(t.Id) }}),
		Owned: table.NewPattern(s.topic, table.PatternDef[tn.Topic]{ID: "TN-22", Name: "tinode.Topics.Owned",
			Doc: "The group topics a user owns, by topic name (no Scan).", Reads: table.ReadPage, Index: table.GSI1,
			Check: func(t *tn.Topic) error { return tn.UserIDs.Check(t.Owner) }}),
	}
}

// Create creates topic t and, in the same transaction, its first
// subscriptions (the owner of a group topic, or both users of a p2p topic)
// (TN-8): PK = TOPIC#{name}, SK = TOPIC, and SUB#{user} items. An
// existing topic or subscription gives table.ErrAlreadyExists; at most 99
// subscriptions. SubCnt is set to len(subs) (TN-24); tags take their
// guards in the same transaction (a tag held elsewhere gives
// table.ErrUniqueViolation).
func (ts *Topics) Create(ctx context.Context, t *tn.Topic, subs ...*tn.Subscription) error {
	return ts.create.Do(ctx, func(ctx context.Context) error {
		if len(subs)+len(t.Tags) > table.MaxTxItems-1 {
			return table.Invalid("subs", "%d subscriptions and %d tags, at most %d in the create", len(subs), len(t.Tags), table.MaxTxItems-1)
		}
		t.SubCnt = len(subs)
		if t.MsgLayout == "" {
			t.MsgLayout = ts.s.newTopicLayout()
		}
		if len(subs) == 0 {
			return ts.s.topic.Create(ctx, t)
		}
		ops, err := ts.s.topic.CreateOp(t)
		if err != nil {
			return err
		}
		// The first failing action decides: a tag's guard gives
		// table.ErrUniqueViolation, the topic or a subscription there.
		ops[0] = ops[0].OnFail(table.ErrAlreadyExists)
		for i, sub := range subs {
			if sub.Topic != t.Id {
				return table.Invalid(fmt.Sprintf("subs[%d].Topic", i), "%q is not the topic %q", sub.Topic, t.Id)
			}
			op, err := ts.s.sub.CreateOp(sub)
			if err != nil {
				return err
			}
			op[0] = op[0].OnFail(table.ErrAlreadyExists)
			ops = append(ops, op...)
		}
		if err := ts.s.t.Transact(ctx, ops...); err != nil {
			return fmt.Errorf("create topic %s: %w", t.Id, err)
		}
		return nil
	})
}

// GetMany returns the topics that exist among names, in their order
// (BatchGetItem): the topics of a user's subscriptions, for example.
//
// Pattern: TN-8 (many at once).
func (ts *Topics) GetMany(ctx context.Context, names []tn.TopicName) ([]tn.Topic, error) {
	return table.Run(ctx, ts.getMany, func(ctx context.Context) ([]tn.Topic, error) {
		ks := make([]table.Key, 0, len(names))
		seen := map[tn.TopicName]bool{}
		for _, n := range names {
			if seen[n] {
				continue
			}
			seen[n] = true
			k, err := ts.s.topicKey(n)
			if err != nil {
				return nil, err
			}
			ks = append(ks, k)
		}
		if len(ks) == 0 {
			return nil, nil
		}
		return ts.s.topic.BatchGet(ctx, ks)
	})
}

// Update reads the topic, applies change and writes it back if nobody
// wrote in between, retried on a lost race (including a message saved
// meanwhile) (TN-8). change must not alter SeqId (use Messages.Save). A
// missing topic gives table.ErrNotFound.
//
// Requests: a consistent GetItem, then one UpdateItem conditioned on the
// version read, since change is arbitrary code that needs the current topic.
func (ts *Topics) Update(ctx context.Context, name tn.TopicName, change func(*tn.Topic) error) (tn.Topic, error) {
	return table.Run(ctx, ts.update, func(ctx context.Context) (tn.Topic, error) {
		k, err := ts.s.topicKey(name)
		if err != nil {
			return tn.Topic{}, err
		}
		return ts.s.topic.Update(ctx, k, func(t *tn.Topic) error {
			seq, del, cnt, layout := t.SeqId, t.DelId, t.SubCnt, t.MsgLayout
			if err := change(t); err != nil {
				return err
			}
			switch {
			case t.MsgLayout != layout:
				return table.Invalid("MsgLayout", "changed by Update; Messages.Reshard switches it")
			case t.SeqId != seq:
				return table.Invalid("SeqId", "changed by Update; Messages.Save assigns it")
			case t.DelId != del:
				return table.Invalid("DelId", "changed by Update; Messages.DeleteList assigns it")
			case t.SubCnt != cnt:
				return table.Invalid("SubCnt", "changed by Update; subscribing and unsubscribing keep it")
			}
			return nil
		})
	})
}

// Delete hard-deletes the topic with its subscriptions and messages
// (TN-18): it marks the topic deleted, then deletes the partition
// TOPIC#{name} below SK TOPIC (messages and subscriptions) in pages of
// 100 with BatchWriteItem, and the topic item last. It is resumable: if it
// stops, the topic is still there (marked deleted) and calling Delete
// again finishes. A missing topic gives table.ErrNotFound. A topic whose
// messages are sharded (MsgLayout) has each partition its layout used,
// TOPIC#{name}#{n}, purged the same way after its own.
//
// Requests: the marking UpdateItem, then per page a consistent Query and a
// BatchWriteItem, a last Query that finds the partition empty (the purge
// loops until nothing is left, so it needs no cursor and resumes anywhere),
// then a GetItem of the topic (its tag guards go with it) and the
// transaction deleting it: 6 for a partition of one page. The partition is
// unbounded, so it cannot be one transaction.
func (ts *Topics) Delete(ctx context.Context, name tn.TopicName) error {
	return ts.delete.Do(ctx, func(ctx context.Context) error {
		k, err := ts.s.topicKey(name)
		if err != nil {
			return err
		}
		now := ts.s.now()
		t, err := ts.s.topic.Patch(ctx, k, table.Patch{Set: map[string]any{
			"State": tn.StateDeleted, "DeletedAt": now, "UpdatedAt": now,
		}})
		if err != nil {
			return err
		}
		l, err := table.ParseLayout(t.MsgLayout)
		if err != nil {
			return err
		}
		// The topic's own partition (its subscriptions and deletion log, and
		// its messages unless they are sharded) and every message shard its
		// layout used: Partitions leaves out the own partition of a topic
		// born sharded.
		pks := l.Partitions(k.PK)
		if !slices.Contains(pks, k.PK) {
			pks = append([]string{k.PK}, pks...)
		}
		for _, pk := range pks {
			if err := ts.s.purgePartition(ctx, pk, table.SKLess(k.SK)); err != nil {
				return fmt.Errorf("delete topic %s: %w", name, err)
			}
		}
		return ts.s.topic.Delete(ctx, k)
	})
}

// TopicView is a topic with its subscriptions and newest messages, as one
// Query on its partition returns them.
type TopicView struct {
	Topic    tn.Topic
	Subs     []tn.Subscription
	Messages []tn.Message // newest first
	// Cursor continues with more subscriptions or older messages
	// (pass it to Load with table.After); "" when the partition is
	// exhausted.
	Cursor string
	// MessageCursor, for a topic whose messages are sharded, continues
	// with older messages (pass it to Messages.History with table.After);
	// Cursor then continues the subscriptions only.
	MessageCursor string
}

// Load reads a topic, its subscriptions and its newest messages with one
// Query (TN-8, TN-11, TN-13): PK = TOPIC#{name}, descending, so the page
// holds TOPIC, then every SUB#{user}, then MSG#... newest first (a topic
// with sharded messages adds one Query per partition: a fan-out). Options:
// table.Limit bounds the items read (the topic and subscriptions count),
// table.After continues; the order is always descending (table.Asc is
// ignored). Expired messages are never returned. A missing topic gives
// table.ErrNotFound (first page only). For a topic whose messages are
// sharded (MsgLayout), Messages is the newest page of every partition
// merged (one Query per partition more, as Messages.History) and
// MessageCursor continues it; later pages hold subscriptions only (in the
// sharded profile a later page reads the topic's layout first).
func (ts *Topics) Load(ctx context.Context, name tn.TopicName, opts ...table.ListOption) (TopicView, error) {
	return table.Run(ctx, ts.load, func(ctx context.Context) (TopicView, error) {
		o, err := table.NewListOptions(opts...)
		if err != nil {
			return TopicView{}, err
		}
		tk, err := ts.s.topicKey(name)
		if err != nil {
			return TopicView{}, err
		}
		pk := tk.PK
		var v TopicView
		found := false
		// MSG# < SUB# < TOPIC; the deletion log (DEL#) below is left out.
		msgs, err := ts.s.msg.SortPrefix(table.Primary, tn.Message{})
		if err != nil {
			return TopicView{}, err
		}
		q := o.Apply(table.Query{PK: pk, SK: table.SKBetween(msgs, tk.SK)})
		q.Desc = true // the topic item first
		v.Cursor, err = ts.s.t.ReadCollection(ctx, q,
			table.Into(ts.s.topic, func(t tn.Topic) { v.Topic, found = t, true }),
			table.Into(ts.s.sub, func(s tn.Subscription) { v.Subs = append(v.Subs, s) }),
			table.Into(ts.s.msg, func(m tn.Message) { v.Messages = append(v.Messages, m) }),
		)
		if err != nil {
			return TopicView{}, err
		}
		if !found && o.Cursor == "" {
			return TopicView{}, fmt.Errorf("load topic %s: %w", name, table.ErrNotFound)
		}
		layout := v.Topic.MsgLayout
		if !found && ts.s.shardAware() {
			l, err := ts.s.Messages.topicLayout(ctx, name)
			if err != nil {
				return TopicView{}, err
			}
			layout = l.String()
		}
		if layout == "" {
			return v, nil
		}
		// Sharded messages: the topic's own partition holds only the first
		// epoch's; they come from History, merged over every partition.
		v.Messages = nil
		if !found {
			return v, nil // a later page: subscriptions only
		}
		l, err := table.ParseLayout(layout)
		if err != nil {
			return TopicView{}, err
		}
		// History's key condition, so MessageCursor continues History.
		lo, hi, err := SeqRange{}.bounds(ts.s.msg)
		if err != nil {
			return TopicView{}, err
		}
		mq := table.Query{PK: pk, SK: table.SKBetween(lo, hi), Desc: true, Limit: o.Limit}
		p, err := table.ListLayout(ctx, ts.s.msg, mq, false, func(context.Context) (table.Layout, error) { return l, nil })
		if err != nil {
			return TopicView{}, err
		}
		v.Messages, v.MessageCursor = p.Items, p.Cursor
		return v, nil
	})
}

// softDeleted is the patch of a soft delete at now (Topics.SoftDelete,
// Users.SoftDelete): State = deleted, DeletedAt and UpdatedAt now.
func softDeleted(now time.Time) table.Patch {
	return table.Patch{Set: map[string]any{"State": tn.StateDeleted, "DeletedAt": now, "UpdatedAt": now}}
}
