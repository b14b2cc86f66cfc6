package table_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// narrowPatterns are the memo patterns of the declaration's narrowing
// features: a sort-key prefix from the fields set, a range over one field
// of the sort key (either end open), a filter and a keep rule from the
// call's fields.
type narrowPatterns struct {
	memoPatterns
	byPrefix, byRange, byText *table.Pattern[memo]
}

func declareNarrowPatterns(tb *table.Table) narrowPatterns {
	m := declareMemoPatterns(tb)
	return narrowPatterns{memoPatterns: m,
		byPrefix: table.NewPattern(m.memos, table.PatternDef[memo]{ID: "T-5", Name: "memos.Memos.ByPrefix",
			Doc: "An author's memos of a day, or all.", Reads: table.ReadPage, SortPrefix: true}),
		byRange: table.NewPattern(m.memos, table.PatternDef[memo]{ID: "T-6", Name: "memos.Memos.ByRange",
			Doc: "An author's memos from one day to another.", Reads: table.ReadRange, RangeOn: "day"}),
		// A memo whose text is "gone" is soft-deleted: no read returns it;
		// the text a call sets is a filter.
		byText: table.NewPattern(m.memos, table.PatternDef[memo]{ID: "T-7", Name: "memos.Memos.ByText",
			Doc: "An author's memos holding a text.", Reads: table.ReadOne | table.ReadPage,
			FilterOn: []string{"text"},
			Keep:     func(f, m *memo) bool { return m.Text != "gone" }}),
	}
}

// TestPatternSortPrefix: with SortPrefix a List narrows the sort key to
// the prefix the fields set build, up to the first left unset.
func TestPatternSortPrefix(t *testing.T) {
	t.Parallel()
	m := declareNarrowPatterns(tabletest.NewTable(t, table.NewSchema("memos")))
	for _, tc := range []struct {
		fields memo
		want   table.SKCond
	}{
		{memo{Author: "ann"}, table.SKBeginsWith("MEMO#")},
		{memo{Author: "ann", Day: "2026-01-02"}, table.SKBeginsWith("MEMO#2026-01-02#")},
		{memo{Author: "ann", Day: "2026-01-02", ID: "m2"}, table.SKEquals("MEMO#2026-01-02#m2")},
		{memo{Author: "ann", ID: "m2"}, table.SKBeginsWith("MEMO#")}, // stops at the first unset field
	} {
		if q := m.byPrefix.Query(tc.fields); q.Err() != nil || q.PK != "AUTHOR#ann" || q.SK != tc.want {
			t.Errorf("Query(%+v) = %+v (%v), want SK %+v", tc.fields, q, q.Err(), tc.want)
		}
	}
	if q := m.byPrefix.Query(memo{Author: "ann", Day: "a#b"}); q.Err() == nil {
		t.Error("a delimiter in a prefix field: no error")
	}
	m.seed(t)
	page, err := m.byPrefix.List(ctx(t), memo{Author: "ann", Day: "2026-01-02"})
	if err != nil || !slices.Equal(ids(page.Items), []string{"m2"}) {
		t.Errorf("List of one day = %v, %v; want [m2]", ids(page.Items), err)
	}
	page, err = m.byPrefix.List(ctx(t), memo{Author: "ann"})
	if err != nil || !slices.Equal(ids(page.Items), []string{"m1", "m2", "m3"}) {
		t.Errorf("List of every day = %v, %v; want [m1 m2 m3]", ids(page.Items), err)
	}
}

// TestPatternRangeOn: with RangeOn a Between ranges over one field of the
// sort key; a bound that leaves it unset is open; a reversed range is a
// *table.ValidationError naming the field, before any request.
func TestPatternRangeOn(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("memos")).Schema())
	m := declareNarrowPatterns(tb)
	m.seed(t)
	c := ctx(t)
	ann := func(day string) memo { return memo{Author: "ann", Day: day} }
	for _, tc := range []struct {
		name     string
		from, to memo
		want     []string
	}{
		{"both days", ann("2026-01-02"), ann("2026-01-03"), []string{"m2", "m3"}},
		{"one day", ann("2026-01-02"), ann("2026-01-02"), []string{"m2"}},
		{"from open", ann(""), ann("2026-01-02"), []string{"m1", "m2"}},
		{"to open", ann("2026-01-02"), ann(""), []string{"m2", "m3"}},
		{"both open", ann(""), ann(""), []string{"m1", "m2", "m3"}},
	} {
		page, err := m.byRange.Between(c, tc.from, tc.to)
		if err != nil || !slices.Equal(ids(page.Items), tc.want) {
			t.Errorf("%s: Between = %v, %v; want %v", tc.name, ids(page.Items), err, tc.want)
		}
		all, err := table.Collect(m.byRange.AllBetween(c, tc.from, tc.to, table.Limit(1)))
		if err != nil || !slices.Equal(ids(all), tc.want) {
			t.Errorf("%s: AllBetween (pages of 1) = %v, %v; want %v", tc.name, ids(all), err, tc.want)
		}
	}
	rc.Reset()
	_, err := m.byRange.Between(c, ann("2026-01-03"), ann("2026-01-02"))
	var ve *table.ValidationError
	if !errors.As(err, &ve) || ve.Field != "day" {
		t.Errorf("reversed range: %v, want a *table.ValidationError for day", err)
	}
	if _, err := m.byRange.Between(c, ann("2026-01-02"), memo{Author: "bob", Day: "2026-01-03"}); !errors.As(err, &ve) {
		t.Errorf("a range across partitions: %v, want a *table.ValidationError", err)
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("bad ranges sent %d requests, want 0", n)
	}
}

// TestPatternFilterKeep: a declared filter narrows a List on the server
// (the call's fields give its values); Keep leaves refused items out of
// a page and an iteration, and makes Get of one ErrNotFound.
func TestPatternFilterKeep(t *testing.T) {
	t.Parallel()
	m := declareNarrowPatterns(tabletest.NewTable(t, table.NewSchema("memos")))
	m.seed(t)
	c := ctx(t)
	gone := memo{Author: "ann", Day: "2026-01-04", ID: "m5", Text: "gone"}
	if err := m.memos.Create(c, &gone); err != nil {
		t.Fatal(err)
	}
	if q := m.byText.Query(memo{Author: "ann", Text: "two"}); q.Filter["text"] != "two" {
		t.Errorf("Query's filter = %v, want text = two", q.Filter)
	}
	page, err := m.byText.List(c, memo{Author: "ann", Text: "two"})
	if err != nil || !slices.Equal(ids(page.Items), []string{"m2"}) {
		t.Errorf("List filtered on text = %v, %v; want [m2]", ids(page.Items), err)
	}
	page, err = m.byText.List(c, memo{Author: "ann"})
	if err != nil || !slices.Equal(ids(page.Items), []string{"m1", "m2", "m3"}) {
		t.Errorf("List = %v, %v; want [m1 m2 m3] (m5 not kept)", ids(page.Items), err)
	}
	all, err := table.Collect(m.byText.All(c, memo{Author: "ann"}, table.Limit(1)))
	if err != nil || !slices.Equal(ids(all), []string{"m1", "m2", "m3"}) {
		t.Errorf("All (pages of 1) = %v, %v; want [m1 m2 m3]", ids(all), err)
	}
	if _, err := m.byText.Get(c, gone); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Get of a memo not kept = %v, want ErrNotFound", err)
	}
	if got, err := m.byText.Get(c, memo{Author: "ann", Day: "2026-01-01", ID: "m1"}); err != nil || got.Text != "one" {
		t.Errorf("Get = %+v, %v", got, err)
	}
}

// TestPatternNarrowInfo: the requests the documents list say how each
// narrowing reads.
func TestPatternNarrowInfo(t *testing.T) {
	t.Parallel()
	m := declareNarrowPatterns(table.New(nil, table.NewSchema("memos")))
	for _, tc := range []struct {
		p    *table.Pattern[memo]
		want string
	}{
		{m.byPrefix, "Query PK = AUTHOR#{author}, SK begins_with MEMO#{day}#{id} up to its first field not set"},
		{m.byRange, "Query PK = AUTHOR#{author}, SK BETWEEN MEMO#{day}#{id} up to {day} (from) AND after it (to), either open"},
		{m.byText, "Query PK = AUTHOR#{author}, SK begins_with MEMO#, filter text ="},
	} {
		in := tc.p.Info()
		if got := in.Methods[len(in.Methods)-1].Request; got != tc.want {
			t.Errorf("%s: request %q, want %q", in.Name, got, tc.want)
		}
	}
	for _, def := range []table.PatternDef[memo]{
		{ID: "T-8", Name: "memos.Memos.Bad", Reads: table.ReadRange, RangeOn: "text"},
		{ID: "T-8", Name: "memos.Memos.Bad", Reads: table.ReadPage, FilterOn: []string{"nope"}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v: no panic", def)
				}
			}()
			table.NewPattern(m.memos, def)
		}()
	}
}

// stamp is an entity whose sort key holds a time: a zero time is encoded
// (as 0001-01-01) but is no field a call sets.
type stamp struct {
	Owner string    `dynamo:"owner"`
	At    time.Time `dynamo:"at"`
	ID    string    `dynamo:"id"`
}

// TestPatternZeroFieldsUnset: SortPrefix and RangeOn take a sort-key
// field left at its zero value (a time here) as unset.
func TestPatternZeroFieldsUnset(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("stamps"))
	stamps := table.NewEntity(tb, table.Def[stamp]{Type: "Stamp", Keys: table.Template{PK: "OWNER#{owner}", SK: "AT#{at:ts}#{id}"}})
	byOwner := table.NewPattern(stamps, table.PatternDef[stamp]{ID: "T-9", Name: "stamps.Stamps.ByOwner",
		Reads: table.ReadPage | table.ReadRange, SortPrefix: true, RangeOn: "at"})
	if q := byOwner.Query(stamp{Owner: "ann"}); q.Err() != nil || q.SK != table.SKBeginsWith("AT#") {
		t.Errorf("Query with a zero time = %+v (%v), want SK begins_with AT#", q, q.Err())
	}
	day := func(d int) time.Time { return time.Date(2026, 1, d, 12, 0, 0, 0, time.UTC) }
	c := ctx(t)
	for i, id := range []string{"s1", "s2", "s3"} {
		if err := stamps.Create(c, &stamp{Owner: "ann", At: day(i + 1), ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	sids := func(ss []stamp) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	for _, tc := range []struct {
		from, to time.Time
		want     []string
	}{
		{day(2), time.Time{}, []string{"s2", "s3"}},
		{time.Time{}, day(2), []string{"s1", "s2"}},
		{day(1), day(1), []string{"s1"}},
		{time.Time{}, time.Time{}, []string{"s1", "s2", "s3"}},
	} {
		page, err := byOwner.Between(c, stamp{Owner: "ann", At: tc.from}, stamp{Owner: "ann", At: tc.to})
		if err != nil || !slices.Equal(sids(page.Items), tc.want) {
			t.Errorf("Between(%v, %v) = %v, %v; want %v", tc.from, tc.to, sids(page.Items), err, tc.want)
		}
	}
}
