package table_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// A declared pattern with SortFrom lists the sort keys from the prefix
// its fields set build to the end of the template's keys (Entity.Range
// from the fields to none); Hidden leaves items out of List and All
// unless the call passes IncludeHidden, while Get still returns them.
// Each read is a real Query on DynamoDB Local.
func TestPatternSortFromHidden(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("core"))
	events := table.NewEntity(tb, eventDef)
	since := table.NewPattern(events, table.PatternDef[event]{ID: "T-9", Name: "events.Events.Since",
		Doc: "An account's events from a kind on.", Reads: table.ReadOne | table.ReadPage, SortFrom: true,
		Hidden: func(e *event) bool { return e.Body == "gone" }})
	c := ctx(t)
	for _, e := range []event{{"a1", "w", "0", "zero"}, {"a1", "x", "1", "one"}, {"a1", "x", "2", "gone"}, {"a1", "xy", "3", "three"}, {"a2", "x", "4", "four"}} {
		if err := events.Create(c, &e); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(items []event) (out []string) {
		for _, e := range items {
			out = append(out, e.ID)
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		fields event
		opts   []table.ListOption
		sk     table.SKCond
		want   []string
	}{
		{"from x", event{Account: "a1", Kind: "x"}, nil, table.SKBetween("EV#x", "EV$"), []string{"1", "3"}},
		{"from x, hidden too", event{Account: "a1", Kind: "x"}, []table.ListOption{table.IncludeHidden()}, table.SKBetween("EV#x", "EV$"), []string{"1", "2", "3"}},
		{"no kind: the whole range", event{Account: "a1"}, []table.ListOption{table.Limit(2)}, table.SKBetween("EV#", "EV$"), []string{"0", "1", "3"}},
	} {
		if q := since.Query(tc.fields); q.Err() != nil || q.SK != tc.sk {
			t.Errorf("%s: sort key condition %+v (%v), want %+v", tc.name, q.SK, q.Err(), tc.sk)
		}
		all, err := table.Collect(since.All(c, tc.fields, tc.opts...))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, ids(all)); diff != "" {
			t.Errorf("%s: All ids (-want +got):\n%s", tc.name, diff)
		}
		p, err := since.List(c, tc.fields, append(tc.opts, table.Limit(10))...)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, ids(p.Items)); diff != "" {
			t.Errorf("%s: List ids (-want +got):\n%s", tc.name, diff)
		}
	}
	if e, err := since.Get(c, event{Account: "a1", Kind: "x", ID: "2"}); err != nil || e.Body != "gone" {
		t.Errorf("Get of a hidden item: %+v, %v", e, err)
	}
	if q := since.Query(event{Account: "a1", Kind: "x#"}); q.Err() == nil {
		t.Error("a delimiter in a bound: no error")
	}
	if m := since.Info().Methods; len(m) != 3 || !strings.Contains(m[1].Request, "SK BETWEEN EV#{kind}#{id} up to its first field not set (from) AND the end of EV#") {
		t.Errorf("Info methods: %+v", m)
	}
}
