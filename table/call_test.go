package table_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/singletable/singletable/table"
)

// recordCalls is a Tracer that keeps the calls it saw and their errors.
type recordCalls struct {
	calls []table.Call
	errs  []error
}

func (r *recordCalls) StartCall(ctx context.Context, c table.Call) (context.Context, func(error)) {
	r.calls = append(r.calls, c)
	return ctx, func(err error) { r.errs = append(r.errs, err) }
}

// TestCallPages: CallPages iterates over every page of its list method
// (the cursor of one page asks for the next) as one call, started when
// the iteration starts and ended with the first error yielded.
func TestCallPages(t *testing.T) {
	rec := &recordCalls{}
	tb := table.New(nil, table.Schema{Name: "t"}, func(o *table.Options) {
		o.Tracer = rec
		o.CursorKey = make([]byte, 32)
	})
	boom := errors.New("boom")
	pages := map[string]table.Page[int]{
		"":   {Items: []int{1, 2}, Cursor: "c1"},
		"c1": {Items: []int{3}, Cursor: "c2"},
	}
	list := func(ctx context.Context, opts ...table.ListOption) (table.Page[int], error) {
		o, err := table.NewListOptions(opts...)
		if err != nil {
			return table.Page[int]{}, err
		}
		if p, ok := pages[o.Cursor]; ok {
			return p, nil
		}
		return table.Page[int]{}, boom
	}
	seq := table.CallPages(context.Background(), tb, "X-1", "pkg.T.AllX", list, table.Limit(2))
	if len(rec.calls) != 0 {
		t.Fatalf("call started before the iteration: %v", rec.calls)
	}
	var got []int
	var gotErr error
	for v, err := range seq {
		if err != nil {
			gotErr = err
			break
		}
		got = append(got, v)
	}
	if !slices.Equal(got, []int{1, 2, 3}) || !errors.Is(gotErr, boom) {
		t.Fatalf("got %v, %v; want [1 2 3], boom", got, gotErr)
	}
	if want := []table.Call{{Pattern: "X-1", Method: "pkg.T.AllX"}}; !slices.Equal(rec.calls, want) {
		t.Fatalf("calls %v, want %v", rec.calls, want)
	}
	if len(rec.errs) != 1 || !errors.Is(rec.errs[0], boom) {
		t.Fatalf("call ended with %v, want boom", rec.errs)
	}
}
