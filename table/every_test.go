package table_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Every reads every page of a one-argument page read on DynamoDB Local:
// a declared pattern's List gives what its All gives, page by page; a
// composed read's error is yielded once, and no page is read after the
// loop stops.
func TestEvery(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("core"))
	events := table.NewEntity(tb, eventDef)
	byAccount := table.NewPattern(events, table.PatternDef[event]{ID: "T-10", Name: "events.Events.ByAccount",
		Doc: "An account's events.", Reads: table.ReadPage})
	c := ctx(t)
	for _, e := range []event{{"a1", "x", "1", ""}, {"a1", "x", "2", ""}, {"a1", "y", "3", ""}, {"a2", "x", "4", ""}} {
		if err := events.Create(c, &e); err != nil {
			t.Fatal(err)
		}
	}
	want, err := table.Collect(byAccount.All(c, event{Account: "a1"}))
	if err != nil || len(want) != 3 {
		t.Fatalf("All: %v %v", want, err)
	}
	pages := 0
	list := func(ctx context.Context, e event, opts ...table.ListOption) (table.Page[event], error) {
		pages++
		return byAccount.List(ctx, e, opts...)
	}
	got, err := table.Collect(table.Every(c, list, event{Account: "a1"}, table.Limit(2)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Every (-All +Every):\n%s", diff)
	}
	if pages != 2 {
		t.Errorf("%d pages read, want 2", pages)
	}
	pages = 0
	for range table.Every(c, list, event{Account: "a1"}, table.Limit(1)) {
		break
	}
	if pages != 1 {
		t.Errorf("stopped after the first item: %d pages read, want 1", pages)
	}
	n := 0
	for _, err := range table.Every(c, byAccount.List, event{}) {
		n++
		if !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("no account: %v, want ErrInvalidInput", err)
		}
	}
	if n != 1 {
		t.Errorf("error yielded %d times, want once", n)
	}
}
