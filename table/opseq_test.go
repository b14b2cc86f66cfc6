package table_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
)

// TestOpSeq: RunPages (and RunSeq under it) iterates over every page of
// its list as one call of the operation, opened when the iteration starts,
// with the pages' calls under it; stopping early sends no more requests.
func TestOpSeq(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	m := newMemoPatterns(t, func(o *table.Options) { o.Tracer = rec })
	all := table.NewOp(m.tb, "T-13", "memos.Memos.AllByAuthor")
	c := ctx(t)
	for _, id := range []string{"m1", "m2", "m3"} {
		if err := m.memos.Create(c, &memo{Author: "ann", Day: "2026-01-01", ID: id, Text: id}); err != nil {
			t.Fatal(err)
		}
	}
	rec.calls = nil
	list := func(ctx context.Context, o ...table.ListOption) (table.Page[memo], error) {
		return m.byAuthor.List(ctx, memo{Author: "ann"}, o...)
	}
	seq := table.RunPages(c, all, list, table.Limit(2))
	if len(rec.calls) != 0 {
		t.Fatalf("calls before the iteration: %v", rec.calls)
	}
	var got []string
	for x, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, x.ID)
	}
	if diff := cmp.Diff([]string{"m3", "m2", "m1"}, got); diff != "" {
		t.Errorf("items, newest first (-want +got):\n%s", diff)
	}
	want := []table.Call{
		{Pattern: "T-13", Method: "memos.Memos.AllByAuthor"},
		{Pattern: "T-2", Method: "memos.Memos.ByAuthor.List"},
		{Pattern: "T-2", Method: "memos.Memos.ByAuthor.List"},
	}
	if diff := cmp.Diff(want, rec.calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	rec.calls = nil
	for range table.RunPages(c, all, list, table.Limit(2)) {
		break
	}
	if len(rec.calls) != 2 {
		t.Errorf("stopped after one item: %d calls, want 2 (the op and one page): %v", len(rec.calls), rec.calls)
	}
}
