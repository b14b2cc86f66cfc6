package table

import (
	"context"
	"iter"
)

// RunSeq is [Run] for an operation that iterates: the iterator fn
// returns runs as one call of the operation, started when the iteration
// starts and ended with the first error yielded ([CallSeq2]). No request
// is sent after the loop stops.
func RunSeq[T any](ctx context.Context, o Op, fn func(context.Context) iter.Seq2[T, error]) iter.Seq2[T, error] {
	if o.t == nil {
		return fn(ctx)
	}
	return CallSeq2(ctx, o.t, o.ID, o.Name, fn)
}

// RunPages is [RunSeq] over [Pages]: every item of list, page by page, as
// one call of the operation. It is what a store's iterator over a list
// that is more than one declared pattern ([Pattern.All]) is:
//
//	func (s *Subs) AllByUser(ctx context.Context, u UserID, opts ...table.ListOption) iter.Seq2[Sub, error] {
//		return table.RunPages(ctx, s.allByUser, func(ctx context.Context, o ...table.ListOption) (table.Page[Sub], error) {
//			return s.listByUser(ctx, u, o...)
//		}, opts...)
//	}
func RunPages[T any](ctx context.Context, o Op, list func(context.Context, ...ListOption) (Page[T], error), opts ...ListOption) iter.Seq2[T, error] {
	return RunSeq(ctx, o, func(ctx context.Context) iter.Seq2[T, error] { return Pages(ctx, list, opts...) })
}
