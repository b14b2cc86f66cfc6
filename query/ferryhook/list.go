package ferryhook

import (
	"context"
	"iter"

	"github.com/singletable/singletable/query"
	"github.com/singletable/singletable/table"
)

// MaxPageSize is the largest page a list may ask for.
const MaxPageSize = 1000

// ListOption changes a list request: its page size and where it starts.
type ListOption func(*listOpts)

type listOpts struct {
	limit  int
	cursor string
}

// Limit asks for pages of at most n items (1..[MaxPageSize]); without it
// a page holds up to 1 MB of items.
func Limit(n int) ListOption { return func(o *listOpts) { o.limit = n } }

// After continues a list after the page that returned cursor.
func After(cursor string) ListOption { return func(o *listOpts) { o.cursor = cursor } }

func listOptions(opts []ListOption) (listOpts, error) {
	var o listOpts
	for _, f := range opts {
		f(&o)
	}
	if o.limit < 0 || o.limit > MaxPageSize {
		return o, table.Invalid("limit", "%d is not 1..%d", o.limit, MaxPageSize)
	}
	return o, nil
}

// page runs one query page of e with the list options applied, keeping
// only the items keep accepts (nil: all).
func page[T any](ctx context.Context, e *table.Entity[T], q table.Query, opts []ListOption, keep func(*T) bool) (table.Page[T], error) {
	o, err := listOptions(opts)
	if err != nil {
		return table.Page[T]{}, err
	}
	q.Limit, q.Cursor = o.limit, o.cursor
	p, err := e.Query(ctx, q)
	if err != nil || keep == nil {
		return p, err
	}
	kept := p.Items[:0]
	for i := range p.Items {
		if keep(&p.Items[i]) {
			kept = append(kept, p.Items[i])
		}
	}
	p.Items = kept
	return p, nil
}

// all iterates over every page that pageFn returns, starting where opts say.
func all[T any](ctx context.Context, opts []ListOption, pageFn func(ctx context.Context, opts []ListOption) (table.Page[T], error)) iter.Seq2[T, error] {
	o, err := listOptions(opts)
	if err != nil {
		return func(yield func(T, error) bool) {
			var zero T
			yield(zero, err)
		}
	}
	first := o.cursor
	return query.All(ctx, func(ctx context.Context, cursor string) (table.Page[T], error) {
		if cursor == "" {
			cursor = first
		}
		return pageFn(ctx, []ListOption{Limit(o.limit), After(cursor)})
	})
}
