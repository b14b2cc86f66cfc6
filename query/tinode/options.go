package tinode

import (
	"time"

	tn "github.com/singletable/singletable/entity/tinode"
	"github.com/singletable/singletable/table"
)

// DefaultHistoryLimit is the page size of message history when none is given.
const DefaultHistoryLimit = 50

// ListOptions narrow a list access pattern. Set them with the option
// functions ([Limit], [Cursor], [UpdatedSince], [SeqRange], [ForUser],
// [IncludeDeleted], [Ascending], [Descending]); each list method says which
// it reads.
type ListOptions struct {
	// Limit is the page size: items read per request (0: DynamoDB's 1 MB
	// page; history defaults to DefaultHistoryLimit). Items hidden after
	// reading (deleted ones) make a page shorter; the cursor continues.
	Limit int
	// Cursor continues after a previous page.
	Cursor string
	// Since keeps subscriptions updated at or after it (TN-10).
	Since time.Time
	// SinceSeq and BeforeSeq bound message SeqIds: SinceSeq <= SeqId <
	// BeforeSeq (0: no bound), as Tinode's query options do (TN-13).
	SinceSeq, BeforeSeq int
	// User hides messages that user soft-deleted (TN-14).
	User tn.UserID
	// IncludeDeleted also returns soft-deleted subscriptions and
	// hard-deleted messages (content removed).
	IncludeDeleted bool
	// Order: nil for the method's default.
	desc *bool
}

// Limit sets the page size.
func Limit(n int) func(*ListOptions) { return func(o *ListOptions) { o.Limit = n } }

// Cursor continues after the page that returned c.
func Cursor(c string) func(*ListOptions) { return func(o *ListOptions) { o.Cursor = c } }

// UpdatedSince keeps subscriptions updated at or after t.
func UpdatedSince(t time.Time) func(*ListOptions) { return func(o *ListOptions) { o.Since = t } }

// SeqRange keeps messages with since <= SeqId < before (0: unbounded).
func SeqRange(since, before int) func(*ListOptions) {
	return func(o *ListOptions) { o.SinceSeq, o.BeforeSeq = since, before }
}

// ForUser hides the messages u soft-deleted.
func ForUser(u tn.UserID) func(*ListOptions) { return func(o *ListOptions) { o.User = u } }

// IncludeDeleted returns deleted subscriptions and messages too.
func IncludeDeleted() func(*ListOptions) { return func(o *ListOptions) { o.IncludeDeleted = true } }

// Ascending lists oldest (or lowest) first.
func Ascending() func(*ListOptions) { return func(o *ListOptions) { f := false; o.desc = &f } }

// Descending lists newest (or highest) first.
func Descending() func(*ListOptions) { return func(o *ListOptions) { t := true; o.desc = &t } }

func listOptions(opts []func(*ListOptions)) (ListOptions, error) {
	var o ListOptions
	for _, f := range opts {
		f(&o)
	}
	if o.Limit < 0 {
		return o, table.Invalid("Limit", "negative (%d)", o.Limit)
	}
	if o.SinceSeq < 0 || o.BeforeSeq < 0 {
		return o, table.Invalid("SeqRange", "negative bound")
	}
	if o.BeforeSeq != 0 && o.BeforeSeq <= max(o.SinceSeq, 1) {
		return o, table.Invalid("SeqRange", "reversed or empty: since %d, before %d", o.SinceSeq, o.BeforeSeq)
	}
	if o.SinceSeq > tn.MaxSeqId || o.BeforeSeq > tn.MaxSeqId+1 {
		return o, table.Invalid("SeqRange", "beyond the largest SeqId %d", tn.MaxSeqId)
	}
	if o.User != "" {
		if err := o.User.Validate("User"); err != nil {
			return o, err
		}
	}
	return o, nil
}

func (o ListOptions) order(def bool) bool {
	if o.desc == nil {
		return def
	}
	return *o.desc
}
