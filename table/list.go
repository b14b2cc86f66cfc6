package table

import (
	"context"
	"fmt"
	"iter"
)

// Page sizes of list access patterns.
const (
	// DefaultListLimit is the page size when the caller sets none.
	DefaultListLimit = 100
	// MaxListLimit is the largest page size a list accepts.
	MaxListLimit = 1000
)

// SortOrder is the order a caller asks of a list; SortDefault keeps the
// access pattern's own (Query.Desc).
type SortOrder int8

// Sort orders.
const (
	SortDefault SortOrder = iota
	SortAsc
	SortDesc
)

// ListOptions are a caller's options for one list access pattern: page
// size, cursor and order. Build them with [Limit], [After], [Asc] and
// [Desc]; every application package's list methods take them.
type ListOptions struct {
	// Limit is the page size: DefaultListLimit if 0, at most MaxListLimit.
	Limit int
	// Cursor continues after a previous page ("" for the first page).
	Cursor string
	// Order overrides the pattern's default order.
	Order SortOrder

	limitSet bool        // Limit came from the caller (Limit option)
	project  *projection // see Projection.List
	hidden   bool        // IncludeHidden: a pattern's Hidden items too
}

// ListOption sets a list option.
type ListOption func(*ListOptions)

// Limit sets the page size (1 to MaxListLimit).
func Limit(n int) ListOption { return func(o *ListOptions) { o.Limit, o.limitSet = n, true } }

// After continues after the page that returned cursor.
func After(cursor string) ListOption { return func(o *ListOptions) { o.Cursor = cursor } }

// Asc lists in ascending sort-key order (oldest first for time keys).
func Asc() ListOption { return func(o *ListOptions) { o.Order = SortAsc } }

// Desc lists in descending sort-key order (newest first for time keys).
func Desc() ListOption { return func(o *ListOptions) { o.Order = SortDesc } }

// NewListOptions applies opts and validates the result, before any
// request: a limit outside 0..MaxListLimit is a *[ValidationError].
func NewListOptions(opts ...ListOption) (ListOptions, error) {
	var o ListOptions
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	switch {
	case o.Limit < 0 || o.Limit > MaxListLimit:
		return o, &ValidationError{Field: "limit", Reason: fmt.Sprintf("%d is outside 1..%d", o.Limit, MaxListLimit)}
	case o.Limit == 0:
		o.Limit = DefaultListLimit
	}
	return o, nil
}

// Apply returns q with o's page size (unless q sets one and the options
// do not), o's cursor if it has one, and o's order if it sets one (q.Desc
// is the pattern's default order).
func (o ListOptions) Apply(q Query) Query {
	if o.limitSet || q.Limit == 0 {
		q.Limit = o.Limit
	}
	if o.Cursor != "" {
		q.Cursor = o.Cursor
	}
	if o.project != nil {
		q.project = o.project
	}
	switch o.Order {
	case SortAsc:
		q.Desc = false
	case SortDesc:
		q.Desc = true
	}
	return q
}

// List runs one page of the access pattern q (its key condition, index,
// filter and default order) with the caller's options: one Query request.
// It is the one page form of the engine (and every application's ListX
// method is built on it); [Entity.ListAll] is the one iterator form.
// Options override q's Limit (DefaultListLimit when neither sets one),
// Cursor and order.
func (e *Entity[T]) List(ctx context.Context, q Query, opts ...ListOption) (Page[T], error) {
	o, err := NewListOptions(opts...)
	if err != nil {
		return Page[T]{}, opErr("list", e.def.Type, Key{}, err)
	}
	return e.query(ctx, o.Apply(q))
}

// ListAll iterates over every item of the access pattern q, page by page,
// starting at the cursor in opts, if any. The error is yielded once; no
// request is sent after the loop stops.
func (e *Entity[T]) ListAll(ctx context.Context, q Query, opts ...ListOption) iter.Seq2[T, error] {
	return Pages(ctx, func(ctx context.Context, opts ...ListOption) (Page[T], error) {
		return e.List(ctx, q, opts...)
	}, opts...)
}

// Pages turns a list method into an iterator over all its items: it calls
// list with opts, then with opts and After(cursor) for each next page. Use
// it for the iterator form of list methods that do more than one
// [Entity.List].
func Pages[T any](ctx context.Context, list func(context.Context, ...ListOption) (Page[T], error), opts ...ListOption) iter.Seq2[T, error] {
	return allPages(ctx, func(ctx context.Context, cursor string) (Page[T], error) {
		if cursor == "" {
			return list(ctx, opts...)
		}
		return list(ctx, append(opts[:len(opts):len(opts)], After(cursor))...)
	})
}

// Join pairs each item of a page with the item it refers to, read for
// the whole page at once (one batch read per page, never one read per
// row), the way a list joined with its targets is served from one table:
// ref names the target of an item, get reads the targets of a page (a
// BatchGet), id names a target, and pair builds the joined row. An item
// whose target is missing is left out; the page's cursor is kept.
func Join[L, R, J any, K comparable](ctx context.Context, p Page[L], ref func(L) K, get func(context.Context, []K) ([]R, error), id func(R) K, pair func(L, R) J) (Page[J], error) {
	refs := make([]K, len(p.Items))
	for i, l := range p.Items {
		refs[i] = ref(l)
	}
	targets, err := get(ctx, refs)
	if err != nil {
		return Page[J]{}, err
	}
	byID := make(map[K]R, len(targets))
	for _, r := range targets {
		byID[id(r)] = r
	}
	out := Page[J]{Cursor: p.Cursor, Items: make([]J, 0, len(p.Items))}
	for _, l := range p.Items {
		if r, ok := byID[ref(l)]; ok {
			out.Items = append(out.Items, pair(l, r))
		}
	}
	return out, nil
}
