package podcastflow

import (
	"context"
	"iter"

	pf "github.com/singletable/singletable/entity/podcastflow"
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
	// Desc returns the page in descending sort-key order (newest date
	// first for metrics and billing).
	Desc bool
}

// ListOption sets a list option.
type ListOption func(*ListOptions)

// Limit sets the page size.
func Limit(n int) ListOption { return func(o *ListOptions) { o.Limit = n } }

// After continues after the page whose cursor is given.
func After(cursor string) ListOption { return func(o *ListOptions) { o.Cursor = cursor } }

// Descending returns items in descending sort-key order.
func Descending() ListOption { return func(o *ListOptions) { o.Desc = true } }

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

// apply sets the page options on q.
func (o ListOptions) apply(q table.Query) table.Query {
	q.Limit, q.Cursor, q.Desc = o.Limit, o.Cursor, o.Desc
	return q
}

// iterate turns a page method into an iterator over every item, starting
// at the cursor in opts, if any.
func iterate[T any](ctx context.Context, opts []ListOption, page func(context.Context, ...ListOption) (table.Page[T], error)) iter.Seq2[T, error] {
	return query.All(ctx, func(ctx context.Context, cursor string) (table.Page[T], error) {
		if cursor == "" {
			return page(ctx, opts...)
		}
		return page(ctx, append(opts[:len(opts):len(opts)], After(cursor))...)
	})
}

// dateRange checks an inclusive date range.
func dateRange(from, to pf.Date) error {
	if err := from.Validate("from"); err != nil {
		return err
	}
	if err := to.Validate("to"); err != nil {
		return err
	}
	if from > to {
		return table.Invalid("to", "%s is before from %s (reversed range)", to, from)
	}
	return nil
}

func consistent() table.ReadOption { return table.Consistent() }
