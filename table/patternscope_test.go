package table_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// ticket is an account-owned entity whose GSI1 partition every account
// shares: only a scope filter keeps one account's list its own.
type ticket struct {
	ID      string `dynamo:"id"`
	Account string `dynamo:"accountId"`
	Kind    string `dynamo:"kind"`
	Title   string `dynamo:"title"`
}

var ticketDef = table.Def[ticket]{
	Type:      "Ticket",
	Keys:      table.Template{PK: "TICKET#{id}", SK: "TICKET"},
	Scope:     "accountId",
	IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "TICKETS", SK: "KIND#{kind}#{id}"}},
}

type ticketPatterns struct {
	tickets      *table.Entity[ticket]
	byID, byKind *table.Pattern[ticket]
}

func declareTicketPatterns(tb *table.Table) ticketPatterns {
	tickets := table.NewEntity(tb, ticketDef)
	return ticketPatterns{tickets: tickets,
		byID: table.NewPattern(tickets, table.PatternDef[ticket]{ID: "T-10", Name: "tickets.Tickets.ByID",
			Doc: "One ticket.", Reads: table.ReadOne}),
		byKind: table.NewPattern(tickets, table.PatternDef[ticket]{ID: "T-11", Name: "tickets.Tickets.ByKind",
			Doc: "The tickets, by kind; all of them when no kind is given.", Reads: table.ReadPage | table.ReadRange,
			Index: table.GSI1, SortPrefix: true, WholeWhenUnset: true}),
	}
}

// loggedTable returns a second handle of tb's table on a client whose
// requests log records.
func loggedTable(t *testing.T, tb *table.Table, log *tabletest.RequestLog, opts ...func(*table.Options)) *table.Table {
	t.Helper()
	opts = append([]func(*table.Options){func(o *table.Options) { o.Cipher = tabletest.Cipher() }}, opts...)
	return table.New(tabletest.NewClient(t, log.Option()), tb.Schema(), opts...)
}

func ticketIDs(ts []ticket) []string {
	var out []string
	for _, x := range ts {
		out = append(out, x.ID)
	}
	return out
}

// TestPatternIn: a pattern's view of one tenant reads as the entity's
// Scoped handle does (another tenant's item is ErrNotFound to Get and
// left out of every list, in DynamoDB), sends the same requests byte for
// byte, runs as the declared pattern's calls, registers nothing, and
// refuses an empty scope before any request.
func TestPatternIn(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("pscope"))
	seed := declareTicketPatterns(tb)
	c := ctx(t)
	for _, x := range []ticket{
		{ID: "t1", Account: "alice", Kind: "bug", Title: "one"},
		{ID: "t2", Account: "alice", Kind: "feature", Title: "two"},
		{ID: "t3", Account: "mallory", Kind: "bug", Title: "three"},
	} {
		if err := seed.tickets.Create(c, &x); err != nil {
			t.Fatal(err)
		}
	}

	// The pattern's view and the entity's Scoped handle, each on its own
	// logged handle of the same table.
	rec := &recordCalls{}
	var viewLog, handleLog tabletest.RequestLog
	p := declareTicketPatterns(loggedTable(t, tb, &viewLog, func(o *table.Options) { o.Tracer = rec }))
	e := table.NewEntity(loggedTable(t, tb, &handleLog), ticketDef)
	declared := len(p.byID.Entity().Table().Patterns())
	alice, mallory := p.byKind.In("alice"), p.byID.In("mallory")
	if got := len(p.byID.Entity().Table().Patterns()); got != declared {
		t.Errorf("In registered patterns: %d, want %d", got, declared)
	}
	if s, ok := alice.Scope(); s != "alice" || !ok {
		t.Errorf("Scope() = %q, %v; want alice, true", s, ok)
	}
	if _, ok := p.byKind.Scope(); ok {
		t.Error("the declared pattern has a scope")
	}

	// Get: the tenant's item, and another tenant's as missing.
	viewLog.Mark("get")
	handleLog.Mark("get")
	k := table.Key{PK: "TICKET#t1", SK: "TICKET"}
	if got, err := p.byID.In("alice").Get(c, ticket{ID: "t1"}); err != nil || got.Title != "one" {
		t.Errorf("alice's Get = %+v, %v", got, err)
	}
	if _, err := e.In("alice").Get(c, k); err != nil {
		t.Fatal(err)
	}
	if _, err := mallory.Get(c, ticket{ID: "t1"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("mallory's Get of alice's ticket = %v, want ErrNotFound", err)
	}
	_, _ = e.In("mallory").Get(c, k)

	// List, All, Between, AllBetween: alice's tickets alone.
	viewLog.Mark("list")
	handleLog.Mark("list")
	page, err := alice.List(c, ticket{})
	if err != nil || !slices.Equal(ticketIDs(page.Items), []string{"t1", "t2"}) {
		t.Errorf("alice's List = %v, %v; want [t1 t2]", ticketIDs(page.Items), err)
	}
	if _, err := e.In("alice").List(c, table.Query{Index: table.GSI1, PK: "TICKETS"}); err != nil {
		t.Fatal(err)
	}
	viewLog.Mark("all bugs")
	handleLog.Mark("all bugs")
	all, err := table.Collect(alice.All(c, ticket{Kind: "bug"}, table.Limit(1)))
	if err != nil || !slices.Equal(ticketIDs(all), []string{"t1"}) {
		t.Errorf("alice's All bugs = %v, %v; want [t1]", ticketIDs(all), err)
	}
	if _, err := table.Collect(e.In("alice").ListAll(c, e.Prefix(table.GSI1, ticket{Kind: "bug"}), table.Limit(1))); err != nil {
		t.Fatal(err)
	}
	viewLog.Mark("between")
	handleLog.Mark("between")
	from, to := ticket{Kind: "bug", ID: "t0"}, ticket{Kind: "feature", ID: "t9"}
	page, err = alice.Between(c, from, to)
	if err != nil || !slices.Equal(ticketIDs(page.Items), []string{"t1", "t2"}) {
		t.Errorf("alice's Between = %v, %v; want [t1 t2]", ticketIDs(page.Items), err)
	}
	rng := table.Query{Index: table.GSI1, PK: "TICKETS", SK: table.SKBetween("KIND#bug#t0", "KIND#feature#t9")}
	if _, err := e.In("alice").List(c, rng); err != nil {
		t.Fatal(err)
	}
	if got, err := table.Collect(p.byKind.In("mallory").AllBetween(c, from, to)); err != nil || !slices.Equal(ticketIDs(got), []string{"t3"}) {
		t.Errorf("mallory's AllBetween = %v, %v; want [t3]", ticketIDs(got), err)
	}
	if _, err := table.Collect(e.In("mallory").ListAll(c, rng)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(handleLog.String(), viewLog.String()); diff != "" {
		t.Errorf("requests of the scoped pattern (+) and of Entity.In (-) differ:\n%s", diff)
	}
	// The Query form carries the tenant too.
	if q := alice.Query(ticket{}); q.Filter["accountId"] != "alice" || q.Err() != nil {
		t.Errorf("the scoped Query = %+v, %v; want the filter accountId = alice", q, q.Err())
	}

	wantCalls := []string{"T-10 tickets.Tickets.ByID.Get", "T-10 tickets.Tickets.ByID.Get", "T-11 tickets.Tickets.ByKind.List",
		"T-11 tickets.Tickets.ByKind.All", "T-11 tickets.Tickets.ByKind.Between", "T-11 tickets.Tickets.ByKind.AllBetween"}
	var calls []string
	for _, cl := range rec.calls {
		calls = append(calls, cl.Pattern+" "+cl.Method)
	}
	if diff := cmp.Diff(wantCalls, calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}

	// An empty scope: refused before any request.
	viewLog.Mark("empty")
	before := strings.Count(viewLog.String(), "\n")
	for _, err := range []error{
		func() error { _, err := p.byKind.In("").List(c, ticket{}); return err }(),
		func() error { _, err := p.byID.In("").Get(c, ticket{ID: "t1"}); return err }(),
	} {
		if !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("a read with an empty scope = %v, want ErrInvalidInput", err)
		}
	}
	if after := strings.Count(viewLog.String(), "\n"); after != before {
		t.Errorf("%d requests sent with an empty scope, want 0", after-before)
	}
}

// TestPatternInPanicsWithoutScope: a view of a tenant needs an entity
// declaring Def.Scope, as Entity.In does.
func TestPatternInPanicsWithoutScope(t *testing.T) {
	t.Parallel()
	m := declareMemoPatterns(table.New(nil, table.NewSchema("memos")))
	defer func() {
		if recover() == nil {
			t.Error("In on an entity without Def.Scope did not panic")
		}
	}()
	m.byAuthor.In("ann")
}

// TestPatternWholeWhenUnset: with SortPrefix and WholeWhenUnset, a List
// that sets no sort-key field sends no sort-key condition at all (the
// whole partition, not begins_with the literal KIND#), and one that sets
// the leading field narrows as SortPrefix does: both byte for byte the
// requests Entity.Partition (its condition cleared) and Entity.Prefix
// send.
func TestPatternWholeWhenUnset(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("pwhole"))
	seed := declareTicketPatterns(tb)
	c := ctx(t)
	for _, x := range []ticket{{ID: "t1", Account: "a", Kind: "bug"}, {ID: "t2", Account: "a", Kind: "feature"}} {
		if err := seed.tickets.Create(c, &x); err != nil {
			t.Fatal(err)
		}
	}
	var viewLog, handleLog tabletest.RequestLog
	p := declareTicketPatterns(loggedTable(t, tb, &viewLog))
	e := table.NewEntity(loggedTable(t, tb, &handleLog), ticketDef)

	viewLog.Mark("unset")
	handleLog.Mark("unset")
	page, err := p.byKind.List(c, ticket{}, table.Desc())
	if err != nil || !slices.Equal(ticketIDs(page.Items), []string{"t2", "t1"}) {
		t.Errorf("List unset = %v, %v; want [t2 t1]", ticketIDs(page.Items), err)
	}
	whole := e.Partition(table.GSI1, ticket{})
	whole.SK = table.SKCond{}
	if _, err := e.List(c, whole, table.Desc()); err != nil {
		t.Fatal(err)
	}
	viewLog.Mark("kind")
	handleLog.Mark("kind")
	page, err = p.byKind.List(c, ticket{Kind: "bug"})
	if err != nil || !slices.Equal(ticketIDs(page.Items), []string{"t1"}) {
		t.Errorf("List bug = %v, %v; want [t1]", ticketIDs(page.Items), err)
	}
	if _, err := e.List(c, e.Prefix(table.GSI1, ticket{Kind: "bug"})); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(handleLog.String(), viewLog.String()); diff != "" {
		t.Errorf("requests of the pattern (+) and of the entity (-) differ:\n%s", diff)
	}
	if strings.Contains(strings.Split(viewLog.String(), "\n")[0], "begins_with") {
		t.Errorf("an unset List narrows the sort key: %s", viewLog.String())
	}
	if q := p.byKind.Query(ticket{}); q.SK != (table.SKCond{}) {
		t.Errorf("Query unset: SK = %+v, want none", q.SK)
	}

	var list string
	for _, m := range p.byKind.Info().Methods {
		if m.Name == "List" {
			list = m.Request
		}
	}
	if want := "Query GSI1 PK = TICKETS, SK begins_with KIND#{kind}#{id} up to its first field not set (none when no field is set)"; list != want {
		t.Errorf("Info List request = %q, want %q", list, want)
	}

	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "WholeWhenUnset") {
			t.Errorf("WholeWhenUnset without SortPrefix: panic %v, want one naming it", r)
		}
	}()
	table.NewPattern(seed.tickets, table.PatternDef[ticket]{ID: "T-12", Name: "tickets.Tickets.Bad", Reads: table.ReadPage, WholeWhenUnset: true})
}

// A store declares its patterns once; each request gets its tenant's
// view, which reads only that tenant's items and registers nothing.
func ExamplePattern_In() {
	t, done := tabletest.ForExample("ExamplePattern_In")
	defer done()
	ctx := context.Background()
	p := declareTicketPatterns(tabletest.NewTable(t, table.NewSchema("example")))
	_ = p.tickets.Create(ctx, &ticket{ID: "t1", Account: "alice", Kind: "bug"})
	_ = p.tickets.Create(ctx, &ticket{ID: "t2", Account: "bob", Kind: "bug"})
	for x, err := range p.byKind.In("alice").All(ctx, ticket{Kind: "bug"}) {
		fmt.Println(x.ID, x.Account, err)
	}
	_, err := p.byID.In("bob").Get(ctx, ticket{ID: "t1"})
	fmt.Println(errors.Is(err, table.ErrNotFound))
	// Output:
	// t1 alice <nil>
	// true
}
