package table_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// run is stored with its start in epoch seconds, the key sorting by it.
type run struct {
	Status  string    `dynamo:"status"`
	Started time.Time `dynamo:"startedAt,unixtime"`
	ID      string    `dynamo:"id"`
}

var runDef = table.Def[run]{
	Type:      "Run",
	Keys:      table.Template{PK: "RUN#{id}", SK: "RUN"},
	IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "RUNS#{status}", SK: "{startedAt:ts}#{id}"}},
}

// Entity.SortPrefixAt builds a time's prefix to the nanosecond although
// the field is stored in seconds, leaves a zero time unset, and its
// bounds select on DynamoDB Local the runs of a range: from 10:00:00.5
// leaves out the run of 10:00:00, to 10:00:01 keeps the one of that
// second.
func TestEntitySortPrefixAt(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("core"))
	runs := table.NewEntity(tb, runDef)
	c := ctx(t)
	t0 := time.Date(2025, 1, 2, 10, 0, 0, 0, time.UTC)
	for i, id := range []string{"r0", "r1", "r2"} {
		if err := runs.Create(c, &run{Status: "ok", Started: t0.Add(time.Duration(i) * time.Second), ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	from := t0.Add(500 * time.Millisecond)
	p, err := runs.SortPrefixAt(table.GSI1, run{Status: "ok"}, "startedAt", from)
	if want := keys.MustTimestamp(from) + "#"; err != nil || p != want {
		t.Fatalf("SortPrefixAt(from) = %q, %v; want %q", p, err, want)
	}
	to, err := runs.SortPrefixAt(table.GSI1, run{}, "startedAt", t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	q := runs.Partition(table.GSI1, run{Status: "ok"})
	q.SK = table.SKBetween(strings.TrimSuffix(p, keys.Delimiter), to+"\U0010FFFF")
	page, err := runs.List(c, q)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range page.Items {
		ids = append(ids, r.ID)
	}
	if diff := cmp.Diff([]string{"r1"}, ids); diff != "" {
		t.Errorf("runs in the range (-want +got):\n%s", diff)
	}
	if p, err := runs.SortPrefixAt(table.GSI1, run{Started: t0}, "startedAt", time.Time{}); err != nil || p != "" {
		t.Errorf("zero time: %q, %v; want no prefix", p, err)
	}
	if _, err := runs.SortPrefixAt(table.GSI1, run{}, "status", t0); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("an attribute of the partition key: %v, want ErrInvalidInput", err)
	}
	if _, err := runs.SortPrefixAt(table.GSI2, run{}, "startedAt", t0); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("an undeclared index: %v, want ErrInvalidInput", err)
	}
}
