package tinode

import (
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
// once per process), never over an existing message (types.ErrDuplicate).
// A write whose outcome is unknown is retried and recognised as this
// message by its Id, so a lost response is a success (saveMessage).
// Tinode's topic goroutine numbers a topic's messages and records the
// last SeqId with TopicUpdateOnMessage, so the adapter does not number
// them again; with coalesce_ms the SeqId is recorded from here (README
// "Scale").
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
		a.coal.saved(msg.Topic, m.SeqId, msg.From, m.CreatedAt)
	}
	return nil
}

// MessageGetAll returns the topic's messages Since <= SeqId < Before (0:
// no bound), or in opts.IdRanges when given (they replace Since and
// Before, as in Tinode's SQL adapters), newest first, at most opts.Limit
// (or 100), leaving out those deleted for everyone and those forUser
// deleted (TN-13, TN-14): one Query per page, per range.
func (a *Adapter) MessageGetAll(topic string, forUser t.Uid, opts *t.QueryOpt) ([]t.Message, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	limit := a.maxMsgs
	f := tinode.HistoryFilter{}
	if !forUser.IsZero() {
		f.ForUser = tn.UserID(forUser.String())
	}
	ranges := []tinode.SeqRange{{}}
	if opts != nil {
		if opts.Limit > 0 && opts.Limit < limit {
			limit = opts.Limit
		}
		if len(opts.IdRanges) > 0 {
			// The client's ranges (a chat client fills the gaps of its
			// cache with them) replace Since and Before, as in the SQL
			// adapters.
			ranges = seqRanges(opts.IdRanges)
		} else {
			ranges[0] = tinode.SeqRange{Since: max(opts.Since, 0), Before: max(opts.Before, 0)}
		}
	}
	var out []t.Message
	for _, r := range ranges {
		if r.Before != 0 && r.Before <= r.Since {
			continue
		}
		f.Seq = r
		n := 0
		for m, err := range a.st.Messages.HistoryAll(ctx, tn.TopicName(topic), f, table.Limit(limit)) {
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

// seqRanges turns Tinode's ranges (Hi exclusive, 0 for the single SeqId
// Low) into SeqRanges, newest first.
func seqRanges(in []t.Range) []tinode.SeqRange {
	out := make([]tinode.SeqRange, 0, len(in))
	for _, r := range in {
		hi := r.Hi
		if hi == 0 {
			hi = r.Low + 1
		}
		out = append(out, tinode.SeqRange{Since: max(r.Low, 0), Before: max(hi, 0)})
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
		for m, err := range a.st.Messages.HistoryAll(ctx, name, tinode.HistoryFilter{Seq: tinode.SeqRange{Since: r.Low, Before: hi}}) {
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
	for d, err := range a.st.Messages.AllDeletions(ctx, tn.TopicName(topic), user, since, table.Asc()) {
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
