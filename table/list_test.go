package table_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
)

func TestListOptionsAndPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	seedNotes(t, f, "m1", 7)
	q := table.Query{PK: "MEMBER#m1", Desc: true} // the pattern's default: newest first
	p, err := f.notes.List(c, q, table.Limit(3))
	if err != nil || len(p.Items) != 3 || p.Items[0].Seq != 7 {
		t.Fatalf("first page: %+v %v", p.Items, err)
	}
	p, err = f.notes.List(c, q, table.Limit(3), table.After(p.Cursor))
	if err != nil || len(p.Items) != 3 || p.Items[0].Seq != 4 {
		t.Fatalf("second page: %+v %v", p.Items, err)
	}
	var seqs []int
	for n, err := range f.notes.ListAll(c, q, table.Limit(2), table.Asc()) {
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, n.Seq)
	}
	if diff := cmp.Diff([]int{1, 2, 3, 4, 5, 6, 7}, seqs); diff != "" {
		t.Errorf("ListAll ascending (-want +got):\n%s", diff)
	}
	for _, bad := range []int{-1, table.MaxListLimit + 1} {
		var ve *table.ValidationError
		if _, err := f.notes.List(c, q, table.Limit(bad)); !errors.As(err, &ve) || ve.Field != "limit" {
			t.Errorf("Limit(%d): %v", bad, err)
		}
	}
	o, _ := table.NewListOptions()
	if o.Limit != table.DefaultListLimit {
		t.Errorf("default limit %d", o.Limit)
	}
}
