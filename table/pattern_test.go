package table_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// memo is the entity of the pattern tests: memos by author and day, by
// day on GSI1, every memo on GSI2 in three shards.
type memo struct {
	Author string `dynamo:"author"`
	Day    string `dynamo:"day"`
	ID     string `dynamo:"id"`
	Text   string `dynamo:"text"`
}

type memoPatterns struct {
	tb                         *table.Table
	memos                      *table.Entity[memo]
	byID, byAuthor, byDay, all *table.Pattern[memo]
}

func newMemoPatterns(t *testing.T, opts ...func(*table.Options)) memoPatterns {
	t.Helper()
	tb := tabletest.NewTable(t, table.NewSchema("memos"), opts...)
	return declareMemoPatterns(tb)
}

func declareMemoPatterns(tb *table.Table) memoPatterns {
	memos := table.NewEntity(tb, table.Def[memo]{
		Type: "Memo",
		Keys: table.Template{PK: "AUTHOR#{author}", SK: "MEMO#{day}#{id}"},
		IndexKeys: map[table.Index]table.Template{
			table.GSI1: {PK: "DAY#{day}", SK: "MEMO#{id}"},
			table.GSI2: table.Template{PK: "MEMOS#{id:shard}", SK: "MEMO#{id}"}.WithShards(3),
		},
	})
	// A day is YYYY-MM-DD: an application's check, run before any request.
	checkDay := func(m *memo) error {
		if m.Day != "" && len(m.Day) != len("2026-01-02") {
			return table.Invalid("day", "%q is not YYYY-MM-DD", m.Day)
		}
		return nil
	}
	return memoPatterns{tb: tb, memos: memos,
		byID: table.NewPattern(memos, table.PatternDef[memo]{ID: "T-1", Name: "memos.Memos.ByID",
			Doc: "One memo.", Reads: table.ReadOne, Check: checkDay}),
		byAuthor: table.NewPattern(memos, table.PatternDef[memo]{ID: "T-2", Name: "memos.Memos.ByAuthor",
			Doc: "An author's memos, newest first.", Reads: table.ReadPage | table.ReadRange, Desc: true, Limit: 2, Check: checkDay}),
		byDay: table.NewPattern(memos, table.PatternDef[memo]{ID: "T-3", Name: "memos.Memos.ByDay",
			Doc: "A day's memos.", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true}),
		all: table.NewPattern(memos, table.PatternDef[memo]{ID: "T-4", Name: "memos.Memos.All",
			Doc: "Every memo.", Reads: table.ReadPage, Index: table.GSI2, WholePartition: true}),
	}
}

func (m memoPatterns) seed(t *testing.T) {
	t.Helper()
	for _, x := range []memo{
		{Author: "ann", Day: "2026-01-01", ID: "m1", Text: "one"},
		{Author: "ann", Day: "2026-01-02", ID: "m2", Text: "two"},
		{Author: "ann", Day: "2026-01-03", ID: "m3", Text: "three"},
		{Author: "bob", Day: "2026-01-02", ID: "m4", Text: "four"},
	} {
		if err := m.memos.Create(context.Background(), &x); err != nil {
			t.Fatal(err)
		}
	}
}

func ids(ms []memo) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

// TestPatternReads: a declared pattern reads by typed fields: Get one
// item, List a page of one partition in the declared order and page size
// (a cursor for the next), All every page, Between a range of sort keys,
// and a sharded partition through every shard.
func TestPatternReads(t *testing.T) {
	t.Parallel()
	m := newMemoPatterns(t)
	m.seed(t)
	c := ctx(t)

	got, err := m.byID.Get(c, memo{Author: "ann", Day: "2026-01-02", ID: "m2"})
	if err != nil || got.Text != "two" {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	if _, err := m.byID.Get(c, memo{Author: "ann", Day: "2026-01-02", ID: "m9"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Get of a missing memo = %v, want ErrNotFound", err)
	}

	page, err := m.byAuthor.List(c, memo{Author: "ann"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"m3", "m2"}, ids(page.Items)); diff != "" || page.Cursor == "" {
		t.Errorf("List: the declared order (newest first) and page size (2), with a cursor (-want +got):\n%s", diff)
	}
	next, err := m.byAuthor.List(c, memo{Author: "ann"}, table.After(page.Cursor))
	if err != nil || !slices.Equal(ids(next.Items), []string{"m1"}) {
		t.Errorf("List after the cursor = %v, %v; want [m1]", ids(next.Items), err)
	}
	asc, err := m.byAuthor.List(c, memo{Author: "ann"}, table.Asc(), table.Limit(10))
	if err != nil || !slices.Equal(ids(asc.Items), []string{"m1", "m2", "m3"}) || asc.Cursor != "" {
		t.Errorf("List Asc Limit 10 = %v %q, %v; want [m1 m2 m3], no cursor", ids(asc.Items), asc.Cursor, err)
	}
	all, err := table.Collect(m.byAuthor.All(c, memo{Author: "ann"}))
	if err != nil || !slices.Equal(ids(all), []string{"m3", "m2", "m1"}) {
		t.Errorf("All = %v, %v; want [m3 m2 m1] over two pages", ids(all), err)
	}
	rng, err := m.byAuthor.Between(c, memo{Author: "ann", Day: "2026-01-02", ID: "m2"}, memo{Author: "ann", Day: "2026-01-03", ID: "m3"}, table.Asc())
	if err != nil || !slices.Equal(ids(rng.Items), []string{"m2", "m3"}) {
		t.Errorf("Between = %v, %v; want [m2 m3]", ids(rng.Items), err)
	}
	rall, err := table.Collect(m.byAuthor.AllBetween(c, memo{Author: "ann", Day: "2026-01-01", ID: "m1"}, memo{Author: "ann", Day: "2026-01-03", ID: "m3"}, table.Limit(1)))
	if err != nil || !slices.Equal(ids(rall), []string{"m3", "m2", "m1"}) {
		t.Errorf("AllBetween (pages of 1) = %v, %v; want [m3 m2 m1]", ids(rall), err)
	}

	day, err := m.byDay.List(c, memo{Day: "2026-01-02"})
	if err != nil || !slices.Equal(ids(day.Items), []string{"m2", "m4"}) {
		t.Errorf("List on GSI1 = %v, %v; want [m2 m4]", ids(day.Items), err)
	}
	every, err := table.Collect(m.all.All(c, memo{}))
	if err != nil || !slices.Equal(ids(every), []string{"m1", "m2", "m3", "m4"}) {
		t.Errorf("All of the sharded GSI2 = %v, %v; want [m1 m2 m3 m4] merged from three shards", ids(every), err)
	}
}

// TestPatternQuery: the query a pattern sends is built from the entity's
// templates: the sort key narrowed to the template's literal prefix
// unless the pattern reads the whole partition, the declared order and
// page size set.
func TestPatternQuery(t *testing.T) {
	t.Parallel()
	m := declareMemoPatterns(table.New(nil, table.NewSchema("memos")))
	q := m.byAuthor.Query(memo{Author: "ann"})
	if q.Err() != nil || q.Index != table.Primary || q.PK != "AUTHOR#ann" || q.SK != table.SKBeginsWith("MEMO#") || !q.Desc || q.Limit != 2 {
		t.Errorf("byAuthor.Query = %+v (%v)", q, q.Err())
	}
	q = m.byDay.Query(memo{Day: "2026-01-02"})
	if q.Err() != nil || q.Index != table.GSI1 || q.PK != "DAY#2026-01-02" || q.SK != (table.SKCond{}) || q.Desc {
		t.Errorf("byDay.Query = %+v (%v): want the whole partition", q, q.Err())
	}
	if q := m.all.Query(memo{}); q.Err() != nil || q.PK != "MEMOS" || q.Index != table.GSI2 {
		t.Errorf("all.Query = %+v (%v): want the partition without its shard", q, q.Err())
	}
	if q := m.byDay.Query(memo{}); q.Err() == nil {
		t.Error("byDay.Query without its day: no error")
	}
}

// TestPatternValidatesBeforeAnyRequest: a missing partition or key field,
// a value holding the delimiter, the application's check, a reversed
// range, a range across partitions and a read the pattern does not
// declare are *table.ValidationError naming the field, and nothing is
// sent; the iterators yield the error once.
func TestPatternValidatesBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("memos")).Schema())
	m := declareMemoPatterns(tb)
	c := ctx(t)
	err1 := func(_ any, err error) error { return err }
	first := func(seq func(func(memo, error) bool)) error {
		n, first := 0, error(nil)
		for _, err := range seq {
			if n++; n == 1 {
				first = err
			}
		}
		if n != 1 {
			return errors.New("yielded more than once")
		}
		return first
	}
	cases := []struct {
		name, field string
		err         error
	}{
		{"Get without the author", "author", err1(m.byID.Get(c, memo{Day: "2026-01-01", ID: "m1"}))},
		{"Get without the id", "day, id", err1(m.byID.Get(c, memo{Author: "ann", Day: "2026-01-01"}))},
		{"Get with a delimiter", "id", err1(m.byID.Get(c, memo{Author: "ann", Day: "2026-01-01", ID: "a#b"}))},
		{"Get failing the check", "day", err1(m.byID.Get(c, memo{Author: "ann", Day: "yesterday", ID: "m1"}))},
		{"List without the author", "author", err1(m.byAuthor.List(c, memo{}))},
		{"List with a delimiter", "author", err1(m.byAuthor.List(c, memo{Author: "a#b"}))},
		{"List on GSI1 without the day", "day", err1(m.byDay.List(c, memo{}))},
		{"List with a bad limit", "limit", err1(m.byAuthor.List(c, memo{Author: "ann"}, table.Limit(-1)))},
		{"All without the author", "author", first(m.byAuthor.All(c, memo{}))},
		{"Between reversed", "day, id", err1(m.byAuthor.Between(c, memo{Author: "ann", Day: "2026-01-03", ID: "m3"}, memo{Author: "ann", Day: "2026-01-01", ID: "m1"}))},
		{"Between across partitions", "author", err1(m.byAuthor.Between(c, memo{Author: "ann", Day: "2026-01-01", ID: "m1"}, memo{Author: "bob", Day: "2026-01-03", ID: "m3"}))},
		{"Between without a bound's id", "day, id", err1(m.byAuthor.Between(c, memo{Author: "ann", Day: "2026-01-01"}, memo{Author: "ann", Day: "2026-01-03", ID: "m3"}))},
		{"Between failing the check", "day", err1(m.byAuthor.Between(c, memo{Author: "ann", Day: "2026-1-1", ID: "m1"}, memo{Author: "ann", Day: "2026-01-03", ID: "m3"}))},
		{"AllBetween reversed", "day, id", first(m.byAuthor.AllBetween(c, memo{Author: "ann", Day: "2026-01-03", ID: "m3"}, memo{Author: "ann", Day: "2026-01-01", ID: "m1"}))},
		{"Get of a page pattern", "pattern", err1(m.byAuthor.Get(c, memo{Author: "ann", Day: "2026-01-01", ID: "m1"}))},
		{"List of a one-item pattern", "pattern", err1(m.byID.List(c, memo{Author: "ann"}))},
		{"AllBetween of a page pattern", "pattern", first(m.byDay.AllBetween(c, memo{Day: "2026-01-01", ID: "m1"}, memo{Day: "2026-01-01", ID: "m2"}))},
	}
	for _, cs := range cases {
		var ve *table.ValidationError
		if !errors.As(cs.err, &ve) || ve.Field != cs.field || !errors.Is(cs.err, table.ErrInvalidInput) {
			t.Errorf("%s: %v, want a *table.ValidationError naming %q", cs.name, cs.err, cs.field)
		}
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("%d requests sent for bad input (%v), want 0", n, rc.Ops())
	}
}

// TestPatternCalls: each read is one call for Options.Tracer, named by
// the pattern's ID and Name + the method, ended with its error; an
// iterator's call starts when the iteration starts, not when it is made.
func TestPatternCalls(t *testing.T) {
	t.Parallel()
	rec := &recordCalls{}
	m := newMemoPatterns(t, func(o *table.Options) { o.Tracer = rec })
	m.seed(t)
	c := ctx(t)
	if _, err := m.byID.Get(c, memo{Author: "ann", Day: "2026-01-01", ID: "m1"}); err != nil {
		t.Fatal(err)
	}
	_, missing := m.byID.Get(c, memo{Author: "ann", Day: "2026-01-01", ID: "m9"})
	if _, err := m.byAuthor.List(c, memo{Author: "ann"}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.byAuthor.Between(c, memo{Author: "ann", Day: "2026-01-01", ID: "m1"}, memo{Author: "ann", Day: "2026-01-02", ID: "m2"}); err != nil {
		t.Fatal(err)
	}
	seq := m.byDay.All(c, memo{Day: "2026-01-02"})
	rng := m.byAuthor.AllBetween(c, memo{Author: "ann", Day: "2026-01-01", ID: "m1"}, memo{Author: "ann", Day: "2026-01-02", ID: "m2"})
	if n := len(rec.calls); n != 4 {
		t.Fatalf("%d calls before the iterations, want 4 (the iterators' calls start with the iteration): %v", n, rec.calls)
	}
	if _, err := table.Collect(seq); err != nil {
		t.Fatal(err)
	}
	if _, err := table.Collect(rng); err != nil {
		t.Fatal(err)
	}
	_, bad := m.byAuthor.List(c, memo{})
	want := []table.Call{
		{Pattern: "T-1", Method: "memos.Memos.ByID.Get"},
		{Pattern: "T-1", Method: "memos.Memos.ByID.Get"},
		{Pattern: "T-2", Method: "memos.Memos.ByAuthor.List"},
		{Pattern: "T-2", Method: "memos.Memos.ByAuthor.Between"},
		{Pattern: "T-3", Method: "memos.Memos.ByDay.All"},
		{Pattern: "T-2", Method: "memos.Memos.ByAuthor.AllBetween"},
		{Pattern: "T-2", Method: "memos.Memos.ByAuthor.List"},
	}
	if diff := cmp.Diff(want, rec.calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	wantErrs := []error{nil, missing, nil, nil, nil, nil, bad}
	if len(rec.errs) != len(wantErrs) {
		t.Fatalf("%d calls ended, want %d", len(rec.errs), len(wantErrs))
	}
	for i, err := range rec.errs {
		if err != wantErrs[i] || (i == 1 && !errors.Is(err, table.ErrNotFound)) || (i == 6 && !errors.Is(err, table.ErrInvalidInput)) {
			t.Errorf("call %d (%s) ended with %v, want %v", i, rec.calls[i].Method, err, wantErrs[i])
		}
	}
}

// TestTablePatterns: the table lists its declared patterns for tools, in
// declaration order, each with its reads and the key condition derived
// from the templates.
func TestTablePatterns(t *testing.T) {
	t.Parallel()
	tb := table.New(nil, table.NewSchema("memos"))
	declareMemoPatterns(tb)
	got := tb.Patterns()
	byAuthor := []table.PatternMethod{
		{Name: "List", Request: "Query PK = AUTHOR#{author}, SK begins_with MEMO#"},
		{Name: "All", Request: "Query PK = AUTHOR#{author}, SK begins_with MEMO#"},
		{Name: "Between", Request: "Query PK = AUTHOR#{author}, SK BETWEEN MEMO#{day}#{id} (from) AND MEMO#{day}#{id} (to)"},
		{Name: "AllBetween", Request: "Query PK = AUTHOR#{author}, SK BETWEEN MEMO#{day}#{id} (from) AND MEMO#{day}#{id} (to)"},
	}
	want := []table.PatternInfo{
		{ID: "T-1", Name: "memos.Memos.ByID", Doc: "One memo.", Entity: "Memo",
			Methods: []table.PatternMethod{{Name: "Get", Request: "GetItem PK = AUTHOR#{author}, SK = MEMO#{day}#{id}"}}},
		{ID: "T-2", Name: "memos.Memos.ByAuthor", Doc: "An author's memos, newest first.", Entity: "Memo",
			Methods: byAuthor, Desc: true, Limit: 2},
		{ID: "T-3", Name: "memos.Memos.ByDay", Doc: "A day's memos.", Index: table.GSI1, Entity: "Memo", Methods: []table.PatternMethod{
			{Name: "List", Request: "Query GSI1 PK = DAY#{day}"}, {Name: "All", Request: "Query GSI1 PK = DAY#{day}"}}},
		{ID: "T-4", Name: "memos.Memos.All", Doc: "Every memo.", Index: table.GSI2, Entity: "Memo", Methods: []table.PatternMethod{
			{Name: "List", Request: "Query GSI2 PK = MEMOS#{id:shard3} (each shard)"}, {Name: "All", Request: "Query GSI2 PK = MEMOS#{id:shard3} (each shard)"}}},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(table.PatternInfo{})); diff != "" {
		t.Errorf("Patterns (-want +got):\n%s", diff)
	}
}

// TestNewPatternRefusesBadDeclarations: a declaration error panics at
// start-up, naming the pattern.
func TestNewPatternRefusesBadDeclarations(t *testing.T) {
	t.Parallel()
	m := declareMemoPatterns(table.New(nil, table.NewSchema("memos")))
	for name, def := range map[string]table.PatternDef[memo]{
		"no ID":              {Name: "memos.X", Reads: table.ReadPage},
		"no reads":           {ID: "T-9", Name: "memos.X"},
		"undeclared index":   {ID: "T-9", Name: "memos.X", Reads: table.ReadPage, Index: table.GSI3},
		"Get on a GSI":       {ID: "T-9", Name: "memos.X", Reads: table.ReadOne, Index: table.GSI1},
		"consistent GSI":     {ID: "T-9", Name: "memos.X", Reads: table.ReadPage, Index: table.GSI1, Consistent: true},
		"limit out of range": {ID: "T-9", Name: "memos.X", Reads: table.ReadPage, Limit: table.MaxListLimit + 1},
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.HasPrefix(s, "table.NewPattern") {
					t.Errorf("%s: recovered %v, want a table.NewPattern panic", name, r)
				}
			}()
			table.NewPattern(m.memos, def)
		}()
	}
}
