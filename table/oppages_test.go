package table_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
)

// TestRunPages: an operation's iterator is one call named by the
// declaration, opened when the iteration starts, every page's request
// under it; stopping the loop sends no further request.
func TestRunPages(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	m := newMemoPatterns(t, func(o *table.Options) { o.Tracer = rec })
	all := table.NewOp(m.tb, "T-13", "memos.Memos.AllByAuthor")
	c := ctx(t)
	for _, id := range []string{"m1", "m2", "m3"} {
		if err := m.memos.Create(c, &memo{Author: "bob", Day: "2026-01-02", ID: id, Text: id}); err != nil {
			t.Fatal(err)
		}
	}
	pages := 0
	list := func(ctx context.Context, o ...table.ListOption) (table.Page[memo], error) {
		pages++
		return m.memos.List(ctx, m.memos.Partition(table.Primary, memo{Author: "bob"}), o...)
	}
	seq := table.RunPages(c, all, list, table.Limit(1))
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
	if diff := cmp.Diff([]string{"m1", "m2", "m3"}, got); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if want := []table.Call{{Pattern: "T-13", Method: "memos.Memos.AllByAuthor"}}; !cmp.Equal(want, rec.calls) {
		t.Errorf("calls = %v, want %v", rec.calls, want)
	}
	pages = 0
	for range table.RunPages(c, all, list, table.Limit(1)) {
		break
	}
	if pages != 1 {
		t.Errorf("a loop stopped after one item read %d pages, want 1", pages)
	}
}
