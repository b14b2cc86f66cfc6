package table

import (
	"context"
	"iter"
)

// RunPages is [Run] for an operation that iterates over every page list
// reads ([Pages]): one call of the operation, started when the iteration
// starts and ended when it stops, the requests of every page its own. The
// error is yielded once; no request is sent after the loop stops. It is
// the iterator of a store method whose pages are more than one declared
// pattern's (a fan-out over partitions):
//
//	func (e *Events) AllBySource(ctx context.Context, src SourceID, opts ...table.ListOption) iter.Seq2[Event, error] {
//		return table.RunPages(ctx, e.allBySource, func(ctx context.Context, o ...table.ListOption) (table.Page[Event], error) {
//			return e.ListBySource(ctx, src, o...)
//		}, opts...)
//	}
func RunPages[T any](ctx context.Context, o Op, list func(context.Context, ...ListOption) (Page[T], error), opts ...ListOption) iter.Seq2[T, error] {
	if o.t == nil || o.t.opts.Tracer == nil {
		return Pages(ctx, list, opts...)
	}
	return CallSeq2(ctx, o.t, o.ID, o.Name, func(ctx context.Context) iter.Seq2[T, error] {
		return Pages(ctx, list, opts...)
	})
}
