package table

import (
	"context"
	"iter"

	"github.com/singletable/singletable/internal/ddb"
)

// Page is one page of a list access pattern: its items and the opaque
// cursor that continues after them ("" when there is nothing more). Pass
// the cursor back with [After]; it is sealed (see [Options.CursorKey]).
type Page[T any] struct {
	Items  []T
	Cursor string
}

// More reports whether another page may follow.
func (p Page[T]) More() bool { return p.Cursor != "" }

// fetch fetches the page that starts at cursor ("" for the first).
type fetch[T any] func(ctx context.Context, cursor string) (Page[T], error)

// allPages turns a page-at-a-time fetch into an iterator over every item
// of every page: the mechanism under [Pages] and [Entity.ListAll]. The
// error, if any, is yielded once and iteration stops; no request is sent
// after the consumer stops.
func allPages[T any](ctx context.Context, fetch fetch[T]) iter.Seq2[T, error] {
	return ddb.AllPages(ctx, func(ctx context.Context, cursor string) ([]T, string, error) {
		p, err := fetch(ctx, cursor)
		return p.Items, p.Cursor, err
	})
}

// Collect drains seq (a list method's iterator form, such as
// [Entity.ListAll]) into a slice, stopping at the first error. Not to be
// confused with [Table.ReadCollection], which decodes one mixed item collection.
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
