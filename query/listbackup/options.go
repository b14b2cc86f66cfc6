package listbackup

import (
	"context"
	"iter"
	"time"

	"github.com/singletable/singletable/query"
	"github.com/singletable/singletable/table"
)

// DefaultLimit is the page size of list patterns when none is given.
const DefaultLimit = 100

// MaxLimit is the largest page size a list pattern accepts.
const MaxLimit = 1000

// ListOptions are the options of a list pattern.
type ListOptions struct {
	// Limit is the page size (DefaultLimit if 0, at most MaxLimit).
	Limit int
	// Cursor continues after a previous page ("" for the first page).
	Cursor string
	// Desc returns items in descending sort-key order (newest first for
	// time-ordered lists; some lists default to it, see each method).
	Desc bool
	// Asc forces ascending order where a list defaults to newest first.
	Asc bool
}

// ListOption sets a list option.
type ListOption func(*ListOptions)

// Limit sets the page size.
func Limit(n int) ListOption { return func(o *ListOptions) { o.Limit = n } }

// After continues after the page whose cursor is given.
func After(cursor string) ListOption { return func(o *ListOptions) { o.Cursor = cursor } }

// Descending returns items newest (or largest) first.
func Descending() ListOption { return func(o *ListOptions) { o.Desc, o.Asc = true, false } }

// Ascending returns items oldest (or smallest) first.
func Ascending() ListOption { return func(o *ListOptions) { o.Asc, o.Desc = true, false } }

func listOptions(opts []ListOption) (ListOptions, error) {
	var o ListOptions
	for _, f := range opts {
		f(&o)
	}
	switch {
	case o.Limit < 0 || o.Limit > MaxLimit:
		return o, table.Invalid("limit", "%d is outside 0..%d", o.Limit, MaxLimit)
	case o.Limit == 0:
		o.Limit = DefaultLimit
	}
	return o, nil
}

// apply sets the page options on q; newestFirst is the list's default order.
func (o ListOptions) apply(q table.Query, newestFirst bool) table.Query {
	q.Limit, q.Cursor = o.Limit, o.Cursor
	q.Desc = o.Desc || (newestFirst && !o.Asc)
	return q
}

// iterate turns a page function into an iterator over every item, starting
// at the cursor in opts, if any.
func iterate[T any](ctx context.Context, opts []ListOption, page func(context.Context, ...ListOption) (table.Page[T], error)) iter.Seq2[T, error] {
	return query.All(ctx, func(ctx context.Context, cursor string) (table.Page[T], error) {
		if cursor == "" {
			return page(ctx, opts...)
		}
		return page(ctx, append(opts[:len(opts):len(opts)], After(cursor))...)
	})
}

// TimeRange is an inclusive time range for time-ordered lists. A zero From
// means since the beginning; a zero To means until the end of time.
type TimeRange struct {
	From, To time.Time
}

// Between returns the range [from, to].
func Between(from, to time.Time) TimeRange { return TimeRange{From: from, To: to} }

// cond returns the sort-key condition for keys "{prefix}{timestamp}#..."
// in r, or a *table.ValidationError.
func (r TimeRange) cond(prefix string) (table.SKCond, error) {
	if !r.From.IsZero() && !r.To.IsZero() && r.To.Before(r.From) {
		return table.SKCond{}, table.Invalid("to", "%s is before from %s (reversed range)", r.To.Format(time.RFC3339), r.From.Format(time.RFC3339))
	}
	const top = "\U0010FFFF" // sorts after every key character
	var lo, hi string
	if !r.From.IsZero() {
		s, err := timeKey("from", r.From)
		if err != nil {
			return table.SKCond{}, err
		}
		lo = prefix + s
	}
	if !r.To.IsZero() {
		s, err := timeKey("to", r.To)
		if err != nil {
			return table.SKCond{}, err
		}
		hi = prefix + s + "#" + top // every key at the To instant
	}
	switch {
	case lo != "" && hi != "":
		return table.SKBetween(lo, hi), nil
	case lo != "" && prefix != "":
		return table.SKBetween(lo, prefix+top), nil
	case lo != "":
		return table.SKGreaterEq(lo), nil
	case hi != "" && prefix != "":
		return table.SKBetween(prefix, hi), nil
	case hi != "":
		return table.SKLessEq(hi), nil
	case prefix != "":
		return table.SKBeginsWith(prefix), nil
	}
	return table.SKCond{}, nil
}
