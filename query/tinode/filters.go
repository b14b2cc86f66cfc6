package tinode

import (
	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// DefaultHistoryLimit is the page size of message history when the caller
// sets no table.Limit.
const DefaultHistoryLimit = 50

// SeqRange bounds message SeqIds: Since <= SeqId < Before, 0 for no bound,
// as Tinode's query options do (TN-13, TN-14). The zero SeqRange is every
// message.
type SeqRange struct {
	Since, Before int
}

// Validate checks r: no negative bound, not reversed or empty, within
// tn.MaxSeqId. Errors are a *table.ValidationError for "SeqRange".
func (r SeqRange) Validate() error {
	switch {
	case r.Since < 0 || r.Before < 0:
		return table.Invalid("SeqRange", "negative bound")
	case r.Before != 0 && r.Before <= max(r.Since, 1):
		return table.Invalid("SeqRange", "reversed or empty: since %d, before %d", r.Since, r.Before)
	case r.Since > tn.MaxSeqId || r.Before > tn.MaxSeqId+1:
		return table.Invalid("SeqRange", "beyond the largest SeqId %d", tn.MaxSeqId)
	}
	return nil
}

// bounds returns the sort-key range of Since <= SeqId < Before, the
// message sort keys msgs builds.
func (r SeqRange) bounds(msgs *table.Entity[tn.Message]) (lo, hi string, err error) {
	if err = r.Validate(); err != nil {
		return
	}
	top := tn.MaxSeqId
	if r.Before > 0 {
		top = r.Before - 1
	}
	if lo, err = msgs.SortPrefix(table.Primary, tn.Message{SeqId: max(r.Since, 1)}); err != nil {
		return
	}
	hi, err = msgs.SortPrefix(table.Primary, tn.Message{SeqId: top})
	return
}

// HistoryFilter selects the messages [Messages.History] returns: the
// topic's, every message not hard-deleted unless said otherwise; page
// size, cursor and order are table.ListOptions.
type HistoryFilter struct {
	// Topic is the topic whose messages are read (required).
	Topic tn.TopicName
	// Seq keeps the messages Seq.Since <= SeqId < Seq.Before.
	Seq SeqRange
	// ForUser hides the messages that user soft-deleted (TN-14).
	ForUser tn.UserID
	// IncludeDeleted also returns hard-deleted messages (content removed).
	IncludeDeleted bool
}

func (f HistoryFilter) validate() error {
	if err := f.Seq.Validate(); err != nil {
		return err
	}
	if f.ForUser != "" {
		return tn.UserIDs.CheckField("ForUser", f.ForUser)
	}
	return nil
}

// keeps reports whether History returns m.
func (f HistoryFilter) keeps(m *tn.Message) bool {
	if m.DeletedAt != nil && !f.IncludeDeleted {
		return false
	}
	return f.ForUser == "" || !m.DeletedForUser(f.ForUser)
}
