package ddb

import (
	"context"
	"iter"
)

// Run2 runs fn as one call of pattern by method with tr ([StartCall]),
// ended with fn's error: the body of table.Op.Do, table.Run and
// table.Run2. A nil tr is fn(ctx).
func Run2[A, B any](ctx context.Context, tr Tracer, pattern, method string, fn func(context.Context) (A, B, error)) (A, B, error) {
	if tr == nil {
		return fn(ctx)
	}
	ctx, call := StartCall(ctx, tr, pattern, method)
	a, b, err := fn(ctx)
	call.End(err)
	return a, b, err
}

// CallSeq2 runs the iterator seq returns as one call of pattern by method
// with tr, started when the iteration starts and ended with the first
// error yielded (table.CallSeq2). A nil tr is seq(ctx).
func CallSeq2[V any](ctx context.Context, tr Tracer, pattern, method string, seq func(context.Context) iter.Seq2[V, error]) iter.Seq2[V, error] {
	if tr == nil {
		return seq(ctx)
	}
	return func(yield func(V, error) bool) {
		ctx, call := StartCall(ctx, tr, pattern, method)
		var err error
		defer func() { call.End(err) }()
		for v, e := range seq(ctx) {
			if e != nil && err == nil {
				err = e
			}
			if !yield(v, e) {
				return
			}
		}
	}
}

// AllPages turns a page-at-a-time fetch (the items and the cursor of the
// page after cursor, "" for the first and after the last) into an
// iterator over every item of every page (table.Pages). The error, if
// any, is yielded once and iteration stops; no request is sent after the
// consumer stops.
func AllPages[T any](ctx context.Context, fetch func(ctx context.Context, cursor string) ([]T, string, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		cursor := ""
		for {
			if err := ctx.Err(); err != nil {
				var zero T
				yield(zero, err)
				return
			}
			items, next, err := fetch(ctx, cursor)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if next == "" {
				return
			}
			cursor = next
		}
	}
}
