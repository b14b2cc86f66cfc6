package tinode

import (
	"context"
	"slices"
	"strings"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	t "github.com/tinode/chat/server/store/types"
)

// MessageSave stores the message under the SeqId Tinode gave it (TN-12):
// one conditional PutItem of TOPIC#{topic} / MSG#{seq} (with
// message_shards N, TOPIC#{topic}#{seq mod N}, the topic's layout read
// once a second per topic and process), never over an existing message
// (types.ErrDuplicate). A write whose outcome is unknown is retried and
// recognised as this message by its Id, so a lost response is a success
// (saveMessage). Tinode's topic goroutine numbers a topic's messages and
// records the last SeqId with TopicUpdateOnMessage, so the adapter does
// not number them again.
//
// With coalesce_ms the SeqId is recorded from here, once the message is
// stored: for a quiet topic (within write_through_per_s) one conditional
// UpdateItem of the topic item more (raiseSeq, never lowering a SeqId
// another server wrote); for a hot one nothing, the flush writes it
// (README "Scale").
func (a *Adapter) MessageSave(msg *t.Message) error {
	m, err := toMessage(msg)
	if err != nil {
		return t.ErrMalformed
	}
	ctx, cancel := a.ctx()
	defer cancel()
	if err := a.saveMessage(ctx, &m); err != nil {
		return terr(err)
	}
	if a.coal != nil {
		if p, through := a.coal.saved(msg.Topic, m.SeqId, msg.From, m.CreatedAt); through {
			if err := a.coal.writeThrough(msg.Topic, p, m.SeqId, m.CreatedAt); err != nil {
				// The message is stored: its SeqId is flushed, as a hot
				// topic's, and recovered from it after a crash.
				warnf("adapter dynamodb: topic[%s]: SeqId %d written through: %v (left to the flush)", msg.Topic, m.SeqId, err)
			}
		}
	}
	return nil
}

// MessageGetAll returns the topic's messages newest first, at most
// opts.Limit (or 100), leaving out those deleted for everyone and those
// forUser deleted (TN-13, TN-14): one Query per page, per range.
//
// The SeqIds it selects are the ones Tinode's SQL adapters select
// (historyRanges): Since <= SeqId < Before (Since <= 0: from the first,
// Before <= 0: no bound), or the ranges in opts.IdRanges when given (they
// replace Since and Before). A selection holding no SeqId (the page
// before the first message, Before <= Since, a Since past the last
// message, a range whose Hi is not above its Low) is an empty answer and
// sends no request, as on PostgreSQL, whose empty result Tinode's server
// answers "204 no content"; before, the adapter failed such a page with
// types.ErrMalformed (Tinode's 500). The limit counts the messages
// returned, not those read: a range that straddles deleted messages is
// read on until it holds limit messages or ends (TN-14).
func (a *Adapter) MessageGetAll(topic string, forUser t.Uid, opts *t.QueryOpt) ([]t.Message, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	limit := a.maxMsgs
	if opts != nil && opts.Limit > 0 && opts.Limit < limit {
		limit = opts.Limit
	}
	f := tinode.HistoryFilter{Topic: tn.TopicName(topic)}
	if !forUser.IsZero() {
		f.ForUser = tn.UserID(forUser.String())
	}
	ranges := historyRanges(opts)
	out := []t.Message{}
	for _, r := range ranges {
		f.Seq = r
		n := 0
		for m, err := range table.Every(ctx, a.st.Messages.History, f, table.Limit(limit)) {
			if err != nil {
				return nil, terr(err)
			}
			out = append(out, fromMessage(&m))
			if n++; n == limit {
				break
			}
		}
	}
	if len(ranges) > 1 {
		// Newest first over all ranges, at most limit.
		slices.SortFunc(out, func(x, y t.Message) int { return y.SeqId - x.SeqId })
		out = slices.CompactFunc(out, func(x, y t.Message) bool { return x.SeqId == y.SeqId })
		if len(out) > limit {
			out = out[:limit]
		}
	}
	return out, nil
}

// historyRanges returns the SeqIds MessageGetAll reads, as the SeqRanges
// (newest first) of the closed intervals Tinode's SQL adapters select
// (TN-13): "m.seqid BETWEEN since AND before-1" with since 0 when
// opts.Since <= 0 and no upper bound when opts.Before <= 0; with
// opts.IdRanges, the SeqIds of each range, Low..Hi-1, or Low alone when
// Hi is 0 ("IN (...)", or BETWEEN for a single range). Intervals are cut
// to 1..tn.MaxSeqId (no message has another SeqId) and an interval left
// empty is dropped, so every range returned is one query/tinode accepts;
// none at all is a selection of no message. nil opts is every message.
//
// Tinode's mysql adapter reads Before = 1 as no bound (its test is
// Before > 1): it answers the page before the first message with the
// newest messages again. The adapter answers as the postgres adapter,
// with none, which is what the paging client expects.
func historyRanges(opts *t.QueryOpt) []tinode.SeqRange {
	type span struct{ lo, hi int } // closed
	var spans []span
	switch {
	case opts == nil:
		spans = []span{{1, tn.MaxSeqId}}
	case len(opts.IdRanges) == 0:
		s := span{max(opts.Since, 0), tn.MaxSeqId}
		if opts.Before > 0 {
			s.hi = opts.Before - 1
		}
		spans = []span{s}
	default:
		for _, r := range opts.IdRanges {
			switch {
			case r.Hi == 0:
				spans = append(spans, span{r.Low, r.Low})
			case r.Hi > r.Low:
				spans = append(spans, span{r.Low, r.Hi - 1})
			}
		}
	}
	var out []tinode.SeqRange
	for _, s := range spans {
		lo, hi := max(s.lo, 1), min(s.hi, tn.MaxSeqId)
		if hi >= lo {
			out = append(out, tinode.SeqRange{Since: lo, Before: hi + 1})
		}
	}
	slices.SortFunc(out, func(x, y tinode.SeqRange) int { return y.Since - x.Since })
	return out
}

// MessageDeleteList deletes messages (TN-27): the ranges of toDel for
// toDel.DeletedFor alone, or for everyone, recording the deletion in the
// topic's log with a DelId that advances atomically; the messages of a
// deletion for everyone keep their SeqId as tombstones. toDel nil deletes
// every message of the topic for everyone (Tinode's topic deletion).
// Tinode passes the DelId it expects (the topic's DelId + 1), which is the
// one the log advances to; SubsUpdate and TopicUpdate then record it.
func (a *Adapter) MessageDeleteList(topic string, toDel *t.DelMessage) error {
	ctx, cancel := a.ctx()
	defer cancel()
	name := tn.TopicName(topic)
	if toDel == nil {
		_, err := a.st.Messages.DeleteForAll(ctx, name, 0, 0)
		return notFoundNil(err)
	}
	forUser := tn.UserID("")
	if toDel.DeletedFor != "" {
		forUser = tn.UserID(toDel.DeletedFor)
	}
	// Attachments of messages deleted for everyone are released (TN-32).
	if forUser == "" {
		if err := a.unlinkRanges(name, toDel.SeqIdRanges); err != nil {
			return err
		}
	}
	_, err := a.st.Messages.DeleteList(ctx, name, forUser, toRanges(toDel.SeqIdRanges))
	return terr(err)
}

func (a *Adapter) unlinkRanges(name tn.TopicName, ranges []t.Range) error {
	ctx, cancel := a.ctx()
	defer cancel()
	for _, r := range ranges {
		hi := r.Hi
		if hi == 0 {
			hi = r.Low + 1
		}
		for m, err := range table.Every(ctx, a.st.Messages.History, tinode.HistoryFilter{Topic: name, Seq: tinode.SeqRange{Since: r.Low, Before: hi}}) {
			if err != nil {
				return terr(err)
			}
			if m.Id != "" && strings.Contains(string(m.Head), `"attachments"`) {
				if _, err := a.st.Files.Unlink(ctx, tn.MessageOwner(m.Id)); err != nil {
					return terr(err)
				}
			}
		}
	}
	return nil
}

// MessageGetDeleted returns the topic's deletion log entries for everyone
// and for forUser with Since <= DelId < Before, oldest first, at most
// opts.Limit (or MaxResults) (TN-28): one Query per page.
func (a *Adapter) MessageGetDeleted(topic string, forUser t.Uid, opts *t.QueryOpt) ([]t.DelMessage, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	limit := a.limit(opts)
	since, before := 0, 0
	if opts != nil {
		since, before = max(opts.Since, 0), max(opts.Before, 0)
	}
	user := tn.UserID("")
	if !forUser.IsZero() {
		user = tn.UserID(forUser.String())
	}
	var out []t.DelMessage
	deletions := func(ctx context.Context, o ...table.ListOption) (table.Page[tn.DelMessage], error) {
		return a.st.Messages.Deletions(ctx, tn.TopicName(topic), user, since, o...)
	}
	for d, err := range table.Pages(ctx, deletions, table.Asc()) {
		if err != nil {
			return nil, terr(err)
		}
		if before > 0 && d.DelId >= before {
			break
		}
		out = append(out, t.DelMessage{
			ObjHeader: t.ObjHeader{CreatedAt: d.CreatedAt, UpdatedAt: d.CreatedAt},
			Topic:     string(d.Topic), DeletedFor: string(d.DeletedFor), DelId: d.DelId,
			SeqIdRanges: fromRanges(d.Ranges),
		})
		if len(out) == limit {
			break
		}
	}
	return out, nil
}
