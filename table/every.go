package table

import (
	"context"
	"iter"
)

// Every iterates over every item list returns for arg, page by page: list
// is a page read of one argument, a store's read that composes patterns
// (a list joined with its targets) or a declared pattern's List, so no
// store writes an iterator form beside its page form:
//
//	for st, err := range table.Every(ctx, s.Subs.TopicsOfUser, Sub{User: u}, table.Limit(100)) {
//
// Each page is one call of list (its own span and checks), the next one
// after the previous page's cursor. The error is yielded once; no request
// is sent after the loop stops.
func Every[A, T any](ctx context.Context, list func(context.Context, A, ...ListOption) (Page[T], error), arg A, opts ...ListOption) iter.Seq2[T, error] {
	return Pages(ctx, func(ctx context.Context, o ...ListOption) (Page[T], error) { return list(ctx, arg, o...) }, opts...)
}
