package table_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestOpCalls: a declared operation's Do and Run open one call named by
// the declaration, run the body under its context (the requests are the
// call's) and end it with the body's error; without a tracer the body
// runs alone.
func TestOpCalls(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	m := newMemoPatterns(t, func(o *table.Options) { o.Tracer = rec })
	create := table.NewOp(m.tb, "T-10", "memos.Memos.Create")
	count := table.NewOp(m.tb, "T-11", "memos.Memos.Count")
	c := ctx(t)
	x := memo{Author: "ann", Day: "2026-01-01", ID: "m1", Text: "one"}
	if err := create.Do(c, func(ctx context.Context) error { return m.memos.Create(ctx, &x) }); err != nil {
		t.Fatal(err)
	}
	dup := create.Do(c, func(ctx context.Context) error { return m.memos.Create(ctx, &x) })
	if !errors.Is(dup, table.ErrAlreadyExists) {
		t.Fatalf("second create = %v, want ErrAlreadyExists", dup)
	}
	n, err := table.Run(c, count, func(ctx context.Context) (int, error) {
		p, err := m.byAuthor.List(ctx, memo{Author: "ann"}) // a call nested in the operation's
		return len(p.Items), err
	})
	if err != nil || n != 1 {
		t.Fatalf("Run = %d, %v; want 1", n, err)
	}
	want := []table.Call{
		{Pattern: "T-10", Method: "memos.Memos.Create"},
		{Pattern: "T-10", Method: "memos.Memos.Create"},
		{Pattern: "T-11", Method: "memos.Memos.Count"},
		{Pattern: "T-2", Method: "memos.Memos.ByAuthor.List"},
	}
	if diff := cmp.Diff(want, rec.calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	// Calls end in order: the nested List before the Count around it.
	wantErrs := []error{nil, dup, nil, nil}
	for i, e := range rec.errs {
		if i < len(wantErrs) && e != wantErrs[i] {
			t.Errorf("call %d ended with %v, want %v", i, e, wantErrs[i])
		}
	}
	if len(rec.errs) != len(wantErrs) {
		t.Errorf("%d calls ended, want %d", len(rec.errs), len(wantErrs))
	}

	// RunPages: one call of the operation around every page's List,
	// ended with no error; the iteration stopped early sends no more.
	rec.calls, rec.errs = nil, nil
	each := table.NewOp(m.tb, "T-13", "memos.Memos.AllByAuthor")
	y := memo{Author: "ann", Day: "2026-01-02", ID: "m2", Text: "two"}
	if err := m.memos.Create(c, &y); err != nil {
		t.Fatal(err)
	}
	pages := func(ctx context.Context, o ...table.ListOption) (table.Page[memo], error) {
		return m.byAuthor.List(ctx, memo{Author: "ann"}, o...)
	}
	var ids []string
	for v, err := range table.RunPages(c, each, pages, table.Limit(1)) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.ID)
	}
	if diff := cmp.Diff([]string{"m2", "m1"}, ids); diff != "" {
		t.Errorf("RunPages items (-want +got):\n%s", diff)
	}
	wantPages := []table.Call{{Pattern: "T-13", Method: "memos.Memos.AllByAuthor"}}
	for range 3 { // two pages of one, then an empty last page
		wantPages = append(wantPages, table.Call{Pattern: "T-2", Method: "memos.Memos.ByAuthor.List"})
	}
	if diff := cmp.Diff(wantPages, rec.calls); diff != "" {
		t.Errorf("RunPages calls (-want +got):\n%s", diff)
	}
	rec.calls, rec.errs = nil, nil
	for range table.RunPages(c, each, pages, table.Limit(1)) {
		break
	}
	if len(rec.calls) != 2 || len(rec.errs) != 2 || rec.errs[1] != nil {
		t.Errorf("RunPages stopped early: calls %v, ended %v; want the op and one List, no error", rec.calls, rec.errs)
	}
	rec.calls, rec.errs = nil, nil
	boom := errors.New("boom")
	n = 0
	for _, err := range table.RunPages(c, each, func(context.Context, ...table.ListOption) (table.Page[memo], error) {
		return table.Page[memo]{}, boom
	}) {
		if !errors.Is(err, boom) {
			t.Errorf("RunPages yielded %v, want boom", err)
		}
		n++
	}
	if n != 1 || len(rec.errs) != 1 || rec.errs[0] != boom {
		t.Errorf("RunPages failing: yielded %d times, call ended %v; want once, boom", n, rec.errs)
	}
	rec.calls, rec.errs = nil, nil

	// Without a tracer: the body alone.
	plain := table.NewOp(tabletest.NewTable(t, table.NewSchema("plain")), "T-12", "memos.Memos.Plain")
	ran := false
	if err := plain.Do(c, func(context.Context) error { ran = true; return nil }); err != nil || !ran {
		t.Errorf("Do without a tracer: ran %v, %v", ran, err)
	}
	for _, bad := range []func(){
		func() { table.NewOp(nil, "T-1", "x.Y.Z") },
		func() { table.NewOp(m.tb, "", "x.Y.Z") },
		func() { table.NewOp(m.tb, "T-1", "") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("a bad declaration: no panic")
				}
			}()
			bad()
		}()
	}
}

// TestOpsRegistered: NewOp registers each declaration with its table
// once, in order, so the documents read the ID from the declaration; a
// store opened twice on one table declares nothing twice.
func TestOpsRegistered(t *testing.T) {
	t.Parallel()
	m := newMemoPatterns(t)
	for range 2 {
		table.NewOp(m.tb, "T-10", "memos.Memos.Create")
		table.NewOp(m.tb, "T-11", "memos.Memos.Count")
	}
	want := []table.OpInfo{{ID: "T-10", Name: "memos.Memos.Create"}, {ID: "T-11", Name: "memos.Memos.Count"}}
	if diff := cmp.Diff(want, m.tb.Ops()); diff != "" {
		t.Fatalf("Ops (-want +got):\n%s", diff)
	}
}

// TestRun2: an operation with two results runs as one call, ended with
// its error, and returns both results; without a tracer the body runs
// alone.
func TestRun2(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	tb := table.New(nil, table.Schema{Name: "t"}, func(o *table.Options) { o.Tracer = rec })
	issue := table.NewOp(tb, "T-12", "memos.Tokens.Issue")
	boom := errors.New("boom")
	a, b, err := table.Run2(context.Background(), issue, func(context.Context) (string, int, error) { return "plain", 7, nil })
	if a != "plain" || b != 7 || err != nil {
		t.Fatalf("Run2 = %q, %d, %v", a, b, err)
	}
	if _, _, err := table.Run2(context.Background(), issue, func(context.Context) (string, int, error) { return "", 0, boom }); err != boom {
		t.Fatalf("Run2 error = %v, want boom", err)
	}
	want := []table.Call{{Pattern: "T-12", Method: "memos.Tokens.Issue"}, {Pattern: "T-12", Method: "memos.Tokens.Issue"}}
	if diff := cmp.Diff(want, rec.calls); diff != "" || len(rec.errs) != 2 || rec.errs[0] != nil || rec.errs[1] != boom {
		t.Fatalf("calls (-want +got):\n%s\nended with %v", diff, rec.errs)
	}
	plain := table.NewOp(table.New(nil, table.Schema{Name: "u"}), "T-12", "memos.Tokens.Issue")
	if a, _, _ := table.Run2(context.Background(), plain, func(context.Context) (string, int, error) { return "x", 0, nil }); a != "x" {
		t.Fatalf("Run2 without a tracer = %q", a)
	}
}
