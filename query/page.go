package query

import (
	"context"
	"errors"
	"iter"
)

// ErrInvalidCursor: a cursor is malformed, was tampered with, or belongs to
// another access pattern or partition. The table package returns the same
// error value.
var ErrInvalidCursor = errors.New("singletable: invalid cursor")

// Page is one page of a list access pattern: its items and the cursor that
// continues after them ("" when there is nothing more).
type Page[T any] struct {
	Items  []T
	Cursor string
}

// More reports whether another page may follow.
func (p Page[T]) More() bool { return p.Cursor != "" }

// Fetch fetches the page that starts at cursor ("" for the first).
type Fetch[T any] func(ctx context.Context, cursor string) (Page[T], error)

// All turns a page-at-a-time fetch into an iterator over every item of
// every page: the mechanism under table.Pages and Entity.ListAll (use
// those; All is for fetches written outside the engine). The error, if any, is yielded once and iteration stops; no
// request is sent after the consumer stops.
func All[T any](ctx context.Context, fetch Fetch[T]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		cursor := ""
		for {
			if err := ctx.Err(); err != nil {
				var zero T
				yield(zero, err)
				return
			}
			p, err := fetch(ctx, cursor)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range p.Items {
				if !yield(it, nil) {
					return
				}
			}
			if p.Cursor == "" {
				return
			}
			cursor = p.Cursor
		}
	}
}

// Collect drains seq into a slice, stopping at the first error.
func Collect[T any](seq iter.Seq2[T, error]) ([]T, error) {
	var out []T
	for v, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}
