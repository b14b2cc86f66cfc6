package table_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// job is an entity whose "every due job" partition is sharded in 8.
type job struct {
	ID    string `dynamo:"id"`
	Due   string `dynamo:"due"`
	Owner string `dynamo:"owner"`
}

func jobDef(shards int) table.Def[job] {
	return table.Def[job]{
		Type: "Job",
		Keys: table.Template{PK: "JOB#{id}", SK: "JOB"},
		IndexKeys: map[table.Index]table.Template{
			table.GSI1: {PK: fmt.Sprintf("DUE#{id:shard%d}", shards), SK: "{due}#{id}"},
		},
	}
}

func TestShardIsFNV1a(t *testing.T) {
	t.Parallel()
	// FNV-1a 32: "" -> 0x811c9dc5, "a" -> 0xe40c292c, "foobar" -> 0xbf9cf968.
	for _, c := range []struct {
		id   string
		n    int
		want int
	}{{"", 1000, 0x811c9dc5 % 1000}, {"a", 1000, 0xe40c292c % 1000}, {"foobar", 97, 0xbf9cf968 % 97}, {"a", 1, 0}} {
		if got := table.Shard(c.id, c.n); got != c.want {
			t.Errorf("Shard(%q, %d) = %d, want %d", c.id, c.n, got, c.want)
		}
	}
	if got := table.ShardPK("USERS", 3, 8); got != "USERS#3" {
		t.Errorf("ShardPK = %q", got)
	}
	if got := table.ShardPK("USERS", 0, 1); got != "USERS" {
		t.Errorf("ShardPK with one shard = %q", got)
	}
}

func TestShardTemplate(t *testing.T) {
	t.Parallel()
	tb := table.New(nil, table.NewSchema("tmpl"))
	e8 := table.NewEntity(tb, jobDef(8))
	got, err := e8.IndexKeysOf(&job{ID: "j1", Due: "0100"})
	if err != nil {
		t.Fatal(err)
	}
	want := table.IndexKey{PK: fmt.Sprintf("DUE#%d", table.Shard("j1", 8)), SK: "0100#j1"}
	if diff := cmp.Diff(want, got[table.GSI1]); diff != "" {
		t.Errorf("8 shards (-want +got):\n%s", diff)
	}
	if n := e8.Shards(table.GSI1); n != 8 {
		t.Errorf("Shards = %d, want 8", n)
	}
	// One shard is the unsharded key, byte for byte.
	e1 := table.NewEntity(table.New(nil, table.NewSchema("tmpl1")), jobDef(1))
	got, err = e1.IndexKeysOf(&job{ID: "j1", Due: "0100"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(table.IndexKey{PK: "DUE", SK: "0100#j1"}, got[table.GSI1]); diff != "" {
		t.Errorf("1 shard (-want +got):\n%s", diff)
	}
	if n := e1.Shards(table.GSI1); n != 0 {
		t.Errorf("Shards of one = %d, want 0", n)
	}
	for _, bad := range []string{"DUE#{id:shard8}#X", "{id:shard8}", "DUE#{id:shard0}", "DUE#{id:shard257}", "DUE#{id:shard08}"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("template %q accepted", bad)
				}
			}()
			table.NewEntity(table.New(nil, table.NewSchema("bad")), table.Def[job]{
				Type: "Job", Keys: table.Template{PK: "JOB#{id}", SK: "JOB"},
				IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: bad, SK: "{due}"}},
			})
		}()
	}
}

// shardFixture writes jobs with repeated due values (ties across shards),
// spread by the hash, and returns them.
func shardFixture(t *testing.T, e *table.Entity[job], n int, idOf func(i int) string) []job {
	t.Helper()
	ctx := context.Background()
	var jobs []job
	for i := range n {
		j := job{ID: idOf(i), Due: fmt.Sprintf("%04d", (i*37)%(n/3+1)), Owner: []string{"ann", "bob"}[i%2]}
		if err := e.Create(ctx, &j); err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// sortJobs orders jobs as one unsharded partition would: by the index
// sort key ({due}#{id}).
func sortJobs(jobs []job, desc bool) []string {
	var out []string
	for _, j := range jobs {
		out = append(out, j.Due+"#"+j.ID)
	}
	slices.Sort(out)
	if desc {
		slices.Reverse(out)
	}
	return out
}

func listJobs(t *testing.T, e *table.Entity[job], q table.Query, opts ...table.ListOption) (keys []string, pages int) {
	t.Helper()
	ctx := context.Background()
	cursor := ""
	for {
		p, err := e.List(ctx, q, append(opts[:len(opts):len(opts)], table.After(cursor))...)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, j := range p.Items {
			keys = append(keys, j.Due+"#"+j.ID)
		}
		if !p.More() {
			return keys, pages
		}
		cursor = p.Cursor
		if pages > 10000 {
			t.Fatal("no end")
		}
	}
}

// The merged pages of a sharded partition list exactly what one unsharded
// partition would, in its order, whatever the page size, order, sort-key
// condition or filter; the cursor holds one position per shard.
func TestShardedListMatchesUnsharded(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("shards"))
	e := table.NewEntity(tb, jobDef(8))
	jobs := shardFixture(t, e, 96, func(i int) string { return fmt.Sprintf("j%03d", i) })
	for _, limit := range []int{2, 7, 50, 1000} {
		for _, desc := range []bool{false, true} {
			opts := []table.ListOption{table.Limit(limit)}
			if desc {
				opts = append(opts, table.Desc())
			}
			got, pages := listJobs(t, e, table.Query{Index: table.GSI1, PK: "DUE"}, opts...)
			if diff := cmp.Diff(sortJobs(jobs, desc), got); diff != "" {
				t.Fatalf("limit %d desc %v (-want +got):\n%s", limit, desc, diff)
			}
			if want := (len(jobs) + limit - 1) / limit; limit < len(jobs) && pages != want && pages != want+1 {
				t.Errorf("limit %d: %d pages, want %d (full pages)", limit, pages, want)
			}
			// A sort-key condition and a filter, against the reference.
			var ref []job
			for _, j := range jobs {
				if j.Due < "0040" && j.Owner == "bob" {
					ref = append(ref, j)
				}
			}
			got, _ = listJobs(t, e, table.Query{Index: table.GSI1, PK: "DUE", SK: table.SKLess("0040"), Filter: map[string]any{"owner": "bob"}}, opts...)
			if diff := cmp.Diff(sortJobs(ref, desc), got); diff != "" {
				t.Fatalf("filtered, limit %d desc %v (-want +got):\n%s", limit, desc, diff)
			}
		}
	}
	// A worker owning shards 1 and 6 lists exactly theirs.
	var owned []job
	for _, j := range jobs {
		if s := table.Shard(j.ID, 8); s == 1 || s == 6 {
			owned = append(owned, j)
		}
	}
	got, _ := listJobs(t, e, table.Query{Index: table.GSI1, PK: "DUE", Shards: 8, OnlyShards: []int{6, 1}}, table.Limit(9))
	if diff := cmp.Diff(sortJobs(owned, false), got); diff != "" {
		t.Fatalf("shards 1 and 6 (-want +got):\n%s", diff)
	}
	// One shard by its full key is a plain query.
	var one []job
	for _, j := range jobs {
		if table.Shard(j.ID, 8) == 3 {
			one = append(one, j)
		}
	}
	got, _ = listJobs(t, e, table.Query{Index: table.GSI1, PK: "DUE#3"}, table.Limit(10))
	if diff := cmp.Diff(sortJobs(one, false), got); diff != "" {
		t.Fatalf("shard 3 (-want +got):\n%s", diff)
	}
}

// All items in one shard: the page is filled by reading that shard again
// (the others are exhausted), still complete and ordered.
func TestShardedListSkewed(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	base := tabletest.NewTable(t, table.NewSchema("skew"))
	tb := table.New(tabletest.NewClient(t, rc.Option()), base.Schema(), func(o *table.Options) { o.CursorKey = []byte("skew") })
	e := table.NewEntity(tb, jobDef(8))
	var ids []string
	for i := 0; len(ids) < 60; i++ {
		if id := fmt.Sprintf("k%d", i); table.Shard(id, 8) == 5 {
			ids = append(ids, id)
		}
	}
	jobs := shardFixture(t, e, len(ids), func(i int) string { return ids[i] })
	rc.Reset()
	p, err := e.List(context.Background(), table.Query{Index: table.GSI1, PK: "DUE"}, table.Limit(50))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 50 || !p.More() {
		t.Fatalf("page of %d items, more %v; want 50 and more", len(p.Items), p.More())
	}
	// Round 1: 8 Queries of 11 items; shard 5 is then read for the rest.
	if n := rc.Of("Query"); n < 9 || n > 12 {
		t.Errorf("%d Queries for a skewed page, want 9 to 12", n)
	}
	got, _ := listJobs(t, e, table.Query{Index: table.GSI1, PK: "DUE"}, table.Limit(50))
	if diff := cmp.Diff(sortJobs(jobs, false), got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// A page that fits costs one Query per shard, sent at once; a cursor of
// the merged query is refused by another query, and by the plain query
// of one shard.
func TestShardedListRequestsAndCursor(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	base := tabletest.NewTable(t, table.NewSchema("shardreq"))
	tb := table.New(tabletest.NewClient(t, rc.Option()), base.Schema(), func(o *table.Options) { o.CursorKey = []byte("req") })
	e := table.NewEntity(tb, jobDef(8))
	shardFixture(t, e, 40, func(i int) string { return fmt.Sprintf("r%02d", i) })
	ctx := context.Background()
	rc.Reset()
	p, err := e.List(ctx, table.Query{Index: table.GSI1, PK: "DUE"}, table.Limit(100))
	if err != nil || len(p.Items) != 40 || p.More() {
		t.Fatalf("page: %d items, more %v, err %v", len(p.Items), p.More(), err)
	}
	if n := rc.Total(); n != 8 {
		t.Errorf("%d requests for one page of 8 shards, want 8", n)
	}
	p, err = e.List(ctx, table.Query{Index: table.GSI1, PK: "DUE"}, table.Limit(5))
	if err != nil || !p.More() {
		t.Fatal(err)
	}
	for _, q := range []table.Query{
		{Index: table.GSI1, PK: "DUE#0"},
		{Index: table.GSI1, PK: "DUE", Shards: 8, OnlyShards: []int{0}},
		{Index: table.GSI1, PK: "DUE", Desc: true},
	} {
		if _, err := e.List(ctx, q, table.Limit(5), table.After(p.Cursor)); !errors.Is(err, table.ErrInvalidCursor) {
			t.Errorf("%+v: %v, want ErrInvalidCursor", q, err)
		}
	}
	rc.Reset()
	for _, q := range []table.Query{
		{Index: table.GSI1, PK: "DUE", Shards: 300},
		{Index: table.GSI1, PK: "DUE", Shards: 8, OnlyShards: []int{8}},
		{Index: table.GSI1, PK: "DUE", Shards: 8, OnlyShards: []int{1, 1}},
		{Index: table.GSI1, PK: "DUE", OnlyShards: []int{1}},
	} {
		var ve *table.ValidationError
		if _, err := tb.QueryItems(ctx, q); !errors.As(err, &ve) || !strings.Contains(ve.Field, "Shards") {
			t.Errorf("%+v: %v, want a ValidationError on Shards", q, err)
		}
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("bad shard queries sent %d requests", n)
	}
}

// Items written before their index partition was sharded (or under
// another shard count) move to their shard with the adoption job; a second
// run changes nothing, and an index key of another shape stays.
func TestAdoptMovesItemsToTheirShard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tb := tabletest.NewTable(t, table.NewSchema("adoptshard"))
	before := table.NewEntity(tb, jobDef(1))
	jobs := shardFixture(t, before, 30, func(i int) string { return fmt.Sprintf("a%02d", i) })
	if got, _ := listJobs(t, before, table.Query{Index: table.GSI1, PK: "DUE"}); len(got) != 30 {
		t.Fatalf("unsharded: %d jobs", len(got))
	}
	foreign := table.Item{"PK": sAV("JOB#x"), "SK": sAV("JOB"), "_type": sAV("Job"), "id": sAV("x"), "due": sAV("0001"), "GSI1PK": sAV("DUEX"), "GSI1SK": sAV("0001#x")}
	if _, err := tb.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tb.Name()), Item: foreign}); err != nil {
		t.Fatal(err)
	}
	prev := 1
	for _, n := range []int{8, 16, 1} {
		e := table.NewEntity(tb, jobDef(n))
		rep, err := tb.RunJob(ctx, table.AdoptJob(fmt.Sprintf("adopt-%d", n), e))
		if err != nil {
			t.Fatal(err)
		}
		// Only items whose partition key changes move (from 8 to 16
		// shards, about half keep theirs).
		moving := int64(0)
		for _, j := range jobs {
			if table.ShardPK("DUE", table.Shard(j.ID, prev), prev) != table.ShardPK("DUE", table.Shard(j.ID, n), n) {
				moving++
			}
		}
		if rep.Changed != moving || rep.Unchanged != 31-moving || (n == 8 && moving != 30) {
			t.Errorf("%d shards: %s, want %d changed, the others unchanged", n, rep, moving)
		}
		prev = n
		got, _ := listJobs(t, e, table.Query{Index: table.GSI1, PK: "DUE"}, table.Limit(7))
		if diff := cmp.Diff(sortJobs(jobs, false), got); diff != "" {
			t.Fatalf("%d shards after adoption (-want +got):\n%s", n, diff)
		}
		rep, err = tb.RunJob(ctx, table.AdoptJob(fmt.Sprintf("again-%d", n), e))
		if err != nil || rep.Changed != 0 || rep.Unchanged != 31 {
			t.Errorf("second run, %d shards: %s, %v; want nothing changed", n, rep, err)
		}
	}
	out, err := tb.Client().GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(tb.Name()), Key: table.Item{"PK": sAV("JOB#x"), "SK": sAV("JOB")}})
	if err != nil || out.Item["GSI1PK"].(*types.AttributeValueMemberS).Value != "DUEX" {
		t.Errorf("foreign index key moved: %v %v", out.Item["GSI1PK"], err)
	}
}

func sAV(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

// Any write of an item stored before its partition was sharded moves its
// index entry to its shard, even one that changes no indexed field.
func TestUpdateMovesItemToItsShard(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tb := tabletest.NewTable(t, table.NewSchema("updshard"))
	if err := table.NewEntity(tb, jobDef(1)).Create(ctx, &job{ID: "u1", Due: "0005", Owner: "ann"}); err != nil {
		t.Fatal(err)
	}
	e := table.NewEntity(tb, jobDef(8))
	if _, err := e.Update(ctx, table.Key{PK: "JOB#u1", SK: "JOB"}, func(j *job) error { j.Owner = "bob"; return nil }); err != nil {
		t.Fatal(err)
	}
	got, _ := listJobs(t, e, table.Query{Index: table.GSI1, PK: table.ShardPK("DUE", table.Shard("u1", 8), 8)})
	if diff := cmp.Diff([]string{"0005#u1"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A merged page under faults: responses of shard Queries lost (the SDK
// sends them again) and shard partitions throttled by the meter (retried
// with backoff) still give every item once, in order; a shard Query that
// fails for good fails the page, never a partial one.
func TestShardedListUnderFaults(t *testing.T) {
	t.Parallel()
	base := tabletest.NewTable(t, table.NewSchema("shardfault"))
	jobs := shardFixture(t, table.NewEntity(base, jobDef(8)), 80, func(i int) string { return fmt.Sprintf("f%03d", i) })
	want := sortJobs(jobs, false)
	opts := func(o *table.Options) { o.CursorKey = []byte("faults") }

	lost := &tabletest.LostResponses{Op: "Query", Times: 5}
	e := table.NewEntity(table.New(tabletest.NewClient(t, lost.Option()), base.Schema(), opts), jobDef(8))
	if got, _ := listJobs(t, e, table.Query{Index: table.GSI1, PK: "DUE"}, table.Limit(11)); !cmp.Equal(want, got) {
		t.Errorf("lost responses: %s", cmp.Diff(want, got))
	}
	if lost.Lost() != 5 {
		t.Errorf("%d responses lost, want 5", lost.Lost())
	}

	m := capacity.NewMeter(tabletest.Client(t))
	// Each shard key takes one Query per modeled second (40 requests).
	m.Throttle, m.ReadLimit, m.RequestsPerSecond = true, 0.4, 40
	client := tabletest.NewClient(t, m.Option(), func(o *dynamodb.Options) {
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = 20
			so.MaxBackoff = 5 * time.Millisecond
		})
	})
	e = table.NewEntity(table.New(client, base.Schema(), opts), jobDef(8))
	if got, _ := listJobs(t, e, table.Query{Index: table.GSI1, PK: "DUE"}, table.Limit(30)); !cmp.Equal(want, got) {
		t.Errorf("throttled: %s", cmp.Diff(want, got))
	}
	if m.Throttled() == 0 {
		t.Errorf("no shard Query was throttled: the test proves nothing")
	}

	t.Logf("%d shard Queries throttled and retried", m.Throttled())
	bad := &tabletest.Errors{Op: "Query", Code: "AccessDeniedException", Times: 1}
	e = table.NewEntity(table.New(tabletest.NewClient(t, bad.Option()), base.Schema(), opts), jobDef(8))
	p, err := e.List(context.Background(), table.Query{Index: table.GSI1, PK: "DUE"}, table.Limit(30))
	if err == nil || len(p.Items) != 0 || p.Cursor != "" {
		t.Errorf("a failed shard Query: page of %d, cursor %q, err %v; want an error and no page", len(p.Items), p.Cursor, err)
	}
}
