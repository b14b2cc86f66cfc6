package table_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
)

func seedNotes(t *testing.T, f fixture, member string, n int) {
	t.Helper()
	items := make([]*note, n)
	for i := range items {
		items[i] = &note{MemberID: member, Seq: i + 1, Text: fmt.Sprintf("note %d", i+1)}
	}
	if err := f.notes.BatchPut(ctx(t), items); err != nil {
		t.Fatal(err)
	}
}

func TestQueryPagesAndCursor(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	seedNotes(t, f, "m1", 25)
	seedNotes(t, f, "m10", 3)
	q := table.Query{PK: "MEMBER#m1", SK: table.SKBeginsWith("NOTE#"), Desc: true, Limit: 10}
	var seqs []int
	var pages int
	for {
		p, err := f.notes.List(c, q)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, n := range p.Items {
			seqs = append(seqs, n.Seq)
		}
		if strings.Contains(p.Cursor, "MEMBER") || strings.Contains(p.Cursor, "NOTE") {
			t.Errorf("cursor reveals key values: %s", p.Cursor)
		}
		if !p.More() {
			break
		}
		q.Cursor = p.Cursor
	}
	want := make([]int, 25)
	for i := range want {
		want[i] = 25 - i
	}
	if diff := cmp.Diff(want, seqs); diff != "" {
		t.Errorf("newest first over pages (-want +got):\n%s", diff)
	}
	if pages != 3 {
		t.Errorf("%d pages, want 3", pages)
	}
	// Between is inclusive.
	p, err := f.notes.List(c, table.Query{PK: "MEMBER#m1", SK: table.SKBetween("NOTE#0005", "NOTE#0007")})
	if err != nil || len(p.Items) != 3 {
		t.Errorf("between: %d items, err %v", len(p.Items), err)
	}
}

func TestCursorRejectsTamperedAndForeign(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	seedNotes(t, f, "m1", 5)
	seedNotes(t, f, "m2", 5)
	q := table.Query{PK: "MEMBER#m1", Limit: 2}
	p, err := f.notes.List(c, q)
	if err != nil || p.Cursor == "" {
		t.Fatalf("first page: %v %q", err, p.Cursor)
	}
	flip := []byte(p.Cursor)
	flip[len(flip)/2] ^= 1
	other := table.NewEntity(table.New(f.t.Client(), f.t.Schema(), func(o *table.Options) { o.CursorKey = []byte("another key") }), noteDef)
	cases := map[string]func() error{
		"tampered": func() error {
			_, err := f.notes.List(c, table.Query{PK: "MEMBER#m1", Limit: 2, Cursor: string(flip)})
			return err
		},
		"malformed": func() error {
			_, err := f.notes.List(c, table.Query{PK: "MEMBER#m1", Limit: 2, Cursor: "!!"})
			return err
		},
		"other partition": func() error {
			_, err := f.notes.List(c, table.Query{PK: "MEMBER#m2", Limit: 2, Cursor: p.Cursor})
			return err
		},
		"other order": func() error {
			_, err := f.notes.List(c, table.Query{PK: "MEMBER#m1", Desc: true, Cursor: p.Cursor})
			return err
		},
		"other key": func() error {
			_, err := other.List(c, table.Query{PK: "MEMBER#m1", Limit: 2, Cursor: p.Cursor})
			return err
		},
	}
	for name, run := range cases {
		if err := run(); !errors.Is(err, table.ErrInvalidCursor) {
			t.Errorf("%s cursor: got %v, want ErrInvalidCursor", name, err)
		}
	}
}

func TestIteratorStopsAndYieldsErrorOnce(t *testing.T) {
	t.Parallel()
	var queries atomic.Int64
	f := newFixture(t, func(o *table.Options) {
		o.Observer = func(_ context.Context, ev table.Event) {
			if ev.Op == "Query" {
				queries.Add(1)
			}
		}
	})
	c := ctx(t)
	seedNotes(t, f, "m1", 30)
	n := 0
	for _, err := range f.notes.ListAll(c, table.Query{PK: "MEMBER#m1", Limit: 5}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if n == 7 {
			break
		}
	}
	if q := queries.Load(); q != 2 {
		t.Errorf("breaking after 7 items of 5-item pages sent %d queries, want 2", q)
	}
	all := 0
	for _, err := range f.notes.ListAll(c, table.Query{PK: "MEMBER#m1", Limit: 7}) {
		if err != nil {
			t.Fatal(err)
		}
		all++
	}
	if all != 30 {
		t.Errorf("iterated %d, want 30", all)
	}
	errs := 0
	for _, err := range f.notes.ListAll(c, table.Query{PK: "MEMBER#m1", Cursor: "garbage"}) {
		if err == nil {
			t.Fatal("want an error")
		}
		errs++
	}
	if errs != 1 {
		t.Errorf("error yielded %d times, want once", errs)
	}
}

func TestCollectDecodesByType(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	f.create(t, member{ID: "m1", Email: "a@b.c", Status: "s"})
	seedNotes(t, f, "m1", 3)
	var gotM []member
	var gotN []note
	cur, err := f.t.ReadCollection(c, table.Query{PK: "MEMBER#m1"},
		table.Into(f.members, func(m member) { gotM = append(gotM, m) }),
		table.Into(f.notes, func(n note) { gotN = append(gotN, n) }))
	if err != nil || cur != "" {
		t.Fatalf("collect: %v cursor %q", err, cur)
	}
	if len(gotM) != 1 || len(gotN) != 3 {
		t.Errorf("collect: %d members %d notes, want 1 and 3", len(gotM), len(gotN))
	}
	_, err = f.t.ReadCollection(c, table.Query{PK: "MEMBER#m1"}, table.Into(f.notes, func(note) {}))
	if !errors.Is(err, table.ErrUnknownType) {
		t.Errorf("collect without a member handler: %v, want ErrUnknownType", err)
	}
	// Entity.Query refuses items of another type rather than dropping them.
	if _, err := f.notes.List(c, table.Query{PK: "MEMBER#m1"}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("query of mixed partition as notes: %v", err)
	}
}

func TestQueryBadInput(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	for name, q := range map[string]table.Query{
		"empty pk":        {},
		"reversed range":  {PK: "A", SK: table.SKBetween("b", "a")},
		"consistent gsi":  {PK: "A", Index: table.GSI1, Consistent: true},
		"no such index":   {PK: "A", Index: 9},
		"negative limit":  {PK: "A", Limit: -1},
		"empty sk prefix": {PK: "A", SK: table.SKBeginsWith("")},
	} {
		if _, err := f.notes.List(c, q); !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: got %v, want ErrInvalidInput", name, err)
		}
	}
}
