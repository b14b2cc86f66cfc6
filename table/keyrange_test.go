package table_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Entity.Range reads the sort keys from the start of from's prefix up to,
// not including, to's, an open bound being the template's whole prefix;
// each case is a real Query on DynamoDB Local. Entity.SortPrefix gives the
// prefix as a string.
func TestEntityRange(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("core"))
	events := table.NewEntity(tb, eventDef)
	c := ctx(t)
	for _, e := range []event{{"a1", "x", "1", "one"}, {"a1", "x", "2", "two"}, {"a1", "xy", "3", "three"}, {"a1", "z", "4", "four"}, {"a2", "x", "5", "five"}} {
		if err := events.Create(c, &e); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name     string
		from, to event
		sk       table.SKCond
		want     []string
	}{
		{"from x, open", event{Account: "a1", Kind: "x"}, event{Account: "a1"}, table.SKBetween("EV#x", "EV$"), []string{"1", "2", "3", "4"}},
		{"open, before xy", event{Account: "a1"}, event{Account: "a1", Kind: "xy"}, table.SKBetween("EV#", "EV#xy"), []string{"1", "2"}},
		{"xy to z", event{Account: "a1", Kind: "xy"}, event{Account: "a1", Kind: "z"}, table.SKBetween("EV#xy", "EV#z"), []string{"3"}},
		{"to a whole key, included", event{Account: "a1"}, event{Account: "a1", Kind: "x", ID: "2"}, table.SKBetween("EV#", "EV#x#2"), []string{"1", "2"}},
		{"both open", event{Account: "a1"}, event{Account: "a1"}, table.SKBetween("EV#", "EV$"), []string{"1", "2", "3", "4"}},
	} {
		q := events.Range(table.Primary, tc.from, tc.to)
		if q.Err() != nil {
			t.Fatalf("%s: %v", tc.name, q.Err())
		}
		if q.SK != tc.sk {
			t.Errorf("%s: sort key condition %+v, want %+v", tc.name, q.SK, tc.sk)
		}
		p, err := events.List(c, q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var ids []string
		for _, e := range p.Items {
			ids = append(ids, e.ID)
		}
		if diff := cmp.Diff(tc.want, ids); diff != "" {
			t.Errorf("%s: ids (-want +got):\n%s", tc.name, diff)
		}
	}
	for name, q := range map[string]table.Query{
		"reversed":        events.Range(table.Primary, event{Account: "a1", Kind: "z"}, event{Account: "a1", Kind: "x"}),
		"two partitions":  events.Range(table.Primary, event{Account: "a1"}, event{Account: "a2"}),
		"no partition":    events.Range(table.Primary, event{Kind: "x"}, event{}),
		"delimiter in it": events.Range(table.Primary, event{Account: "a1", Kind: "x#"}, event{Account: "a1"}),
	} {
		if !errors.Is(q.Err(), table.ErrInvalidInput) {
			t.Errorf("%s: %v, want ErrInvalidInput", name, q.Err())
		}
	}
	for _, tc := range []struct {
		ix     table.Index
		fields event
		want   string
	}{
		{table.Primary, event{}, "EV#"},
		{table.Primary, event{Kind: "x"}, "EV#x#"},
		{table.Primary, event{Kind: "x", ID: "1"}, "EV#x#1"},
		{table.GSI1, event{Account: "a1"}, "a1#"},
	} {
		if got, err := events.SortPrefix(tc.ix, tc.fields); err != nil || got != tc.want {
			t.Errorf("SortPrefix(%d, %+v) = %q, %v; want %q", tc.ix, tc.fields, got, err, tc.want)
		}
	}
	if _, err := events.SortPrefix(table.GSI2, event{}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("SortPrefix of an undeclared index: %v, want ErrInvalidInput", err)
	}
}
