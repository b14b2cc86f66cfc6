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
