package feed_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/feed/feedtest"
	"github.com/singletable/singletable/table/tabletest"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

type note struct {
	ID     string      `dynamo:"id"`
	Owner  string      `dynamo:"owner"`
	Slug   string      `dynamo:"slug"`
	Text   string      `dynamo:"text"`
	Token  string      `dynamo:"token"`
	Likes  int64       `dynamo:"likes"`
	Extra  table.Extra `dynamo:"-"`
	Expiry int64       `dynamo:"expiry"`
}

type tag struct {
	Name  string `dynamo:"name"`
	Count int64  `dynamo:"count"`
}

type world struct {
	tbl   *table.Table
	notes *table.Entity[note]
	tags  *table.Entity[tag]
}

func newWorld(t *testing.T) world {
	tbl := tabletest.NewTable(t, table.NewSchema("feed", table.WithStream(types.StreamViewTypeNewAndOldImages)))
	notes := table.NewEntity(tbl, table.Def[note]{
		Type:      "Note",
		Keys:      table.Template{PK: "NOTE#{id}", SK: "NOTE"},
		IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "OWNER#{owner}", SK: "NOTE#{id}"}},
		UniqueOn:  []string{"slug"},
		Scope:     "owner",
		Secrets:   []string{"token"},
	})
	tags := table.NewEntity(tbl, table.Def[tag]{Type: "Tag", Keys: table.Template{PK: "TAG#{name}", SK: "TAG"}})
	return world{tbl: tbl, notes: notes, tags: tags}
}

func readAll(t *testing.T, tbl *table.Table) []table.Record {
	t.Helper()
	return feedtest.Records(t, context.Background(), tbl)
}

// A stream record becomes a typed change of its entity: the event, the
// key, both images decoded as reads decode them (secret unsealed, Extra
// kept), the tenant, and the attributes that changed; the unique guard's
// records never reach the entity's handler; a version-only rewrite is
// marked BookkeepingOnly; a foreign item is reported.
func TestRouterTypedChanges(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	n := note{ID: "n1", Owner: "acct1", Slug: "hello", Text: "hi", Token: "s3cret"}
	if err := w.notes.Create(ctx, &n); err != nil {
		t.Fatal(err)
	}
	k := w.notes.Key(note{ID: "n1"})
	if _, err := w.notes.Update(ctx, k, func(n *note) error { n.Text, n.Slug = "hello again", "hello-2"; return nil }); err != nil {
		t.Fatal(err)
	}
	// A rewrite that changes nothing a field holds: the engine bumps the
	// version only.
	if _, err := w.notes.Update(ctx, k, func(n *note) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := w.tags.Create(ctx, &tag{Name: "go"}); err != nil {
		t.Fatal(err)
	}
	// Another service's item, of no declared entity.
	if _, err := w.tbl.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(w.tbl.Name()), Item: table.Item{
		"PK": &types.AttributeValueMemberS{Value: "OTHER#1"}, "SK": &types.AttributeValueMemberS{Value: "X"},
	}}); err != nil {
		t.Fatal(err)
	}
	if err := w.notes.Delete(ctx, k); err != nil {
		t.Fatal(err)
	}
	recs := readAll(t, w.tbl)

	var notesSeen []table.ItemChange[note]
	var tagsSeen []table.ItemChange[tag]
	var lib []string
	var unknown []table.Record
	r := feed.NewRouter(w.tbl)
	feed.Handle(r, w.notes, func(_ context.Context, c table.ItemChange[note]) error { notesSeen = append(notesSeen, c); return nil })
	feed.Handle(r, w.tags, func(_ context.Context, c table.ItemChange[tag]) error { tagsSeen = append(tagsSeen, c); return nil })
	r.Library(func(_ context.Context, _ table.Record, kind string) error { lib = append(lib, kind); return nil })
	r.Unknown(func(_ context.Context, rec table.Record) error { unknown = append(unknown, rec); return nil })
	if n, err := r.RouteAll(ctx, recs); err != nil || n != len(recs) {
		t.Fatalf("RouteAll: %d of %d, %v", n, len(recs), err)
	}
	var events []string
	for _, c := range notesSeen {
		events = append(events, c.Event.String())
	}
	if want := []string{"created", "modified", "modified", "removed"}; !slices.Equal(events, want) {
		t.Fatalf("note events %v, want %v", events, want)
	}
	created, renamed, bumped, removed := notesSeen[0], notesSeen[1], notesSeen[2], notesSeen[3]
	if created.New == nil || created.New.Token != "s3cret" || created.Old != nil || created.Key != k || created.Scope != "acct1" {
		t.Errorf("created: %+v", created)
	}
	if !slices.Contains(created.Changed(), "token") || slices.Contains(created.Changed(), "GSI1PK") || slices.Contains(created.Changed(), "_v") {
		t.Errorf("created changed %v: want the fields, never the engine's attributes", created.Changed())
	}
	if want := []string{"slug", "text"}; !slices.Equal(renamed.Changed(), want) || renamed.BookkeepingOnly {
		t.Errorf("renamed: changed %v bookkeeping %v, want %v", renamed.Changed(), renamed.BookkeepingOnly, want)
	}
	if renamed.Old.Text != "hi" || renamed.New.Text != "hello again" || renamed.New.Token != "s3cret" {
		t.Errorf("renamed images: old %+v new %+v", renamed.Old, renamed.New)
	}
	if len(bumped.Changed()) != 0 || !bumped.BookkeepingOnly {
		t.Errorf("version-only rewrite: changed %v bookkeeping %v, want none and true", bumped.Changed(), bumped.BookkeepingOnly)
	}
	if removed.New != nil || removed.Old == nil || removed.Old.Text != "hello again" {
		t.Errorf("removed: %+v", removed)
	}
	if len(tagsSeen) != 1 || tagsSeen[0].New.Name != "go" {
		t.Errorf("tags: %+v", tagsSeen)
	}
	// Guards: hello created, hello removed and hello-2 created on the
	// rename, hello-2 removed on the delete.
	if len(lib) != 4 || slices.ContainsFunc(lib, func(s string) bool { return s != table.GuardType }) {
		t.Errorf("library records %v, want 4 guard records", lib)
	}
	if len(unknown) != 1 || unknown[0].Keys["PK"].(*types.AttributeValueMemberS).Value != "OTHER#1" {
		t.Errorf("unknown records %+v", unknown)
	}

	// Without an Unknown handler the foreign record is an error naming it.
	strict := feed.NewRouter(w.tbl)
	_, err := strict.RouteAll(ctx, unknown)
	var re *table.RecordError
	if !errors.Is(err, feed.ErrUnknownRecord) || !errors.As(err, &re) || re.Sequence == "" || re.Key.PK != "OTHER#1" {
		t.Errorf("unknown record without a handler: %v", err)
	}
	// A handler's error names the record and its entity.
	failing := feed.NewRouter(w.tbl)
	boom := errors.New("boom")
	feed.Handle(failing, w.tags, func(context.Context, table.ItemChange[tag]) error { return boom })
	idx := slices.IndexFunc(recs, func(r table.Record) bool {
		return w.tbl.Classify(r).Kind == table.KindEntity && w.tbl.Classify(r).Entity.Type() == "Tag"
	})
	if _, err := failing.RouteAll(ctx, recs[idx:idx+1]); !errors.Is(err, boom) || !errors.As(err, &re) || re.Entity != "Tag" || re.ID != recs[idx].ID {
		t.Errorf("handler error: %v", err)
	}
}

// A removal by DynamoDB's TTL carries the service's identity; it is told
// apart from a writer's delete. DynamoDB Local does not expire items, so
// the record is built as DynamoDB writes it for a TTL deletion.
func TestExpiredByTTL(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	if err := w.tags.Create(ctx, &tag{Name: "old"}); err != nil {
		t.Fatal(err)
	}
	if err := w.tags.Delete(ctx, w.tags.Key(tag{Name: "old"})); err != nil {
		t.Fatal(err)
	}
	recs := readAll(t, w.tbl)
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	del := recs[1]
	ttl := del
	ttl.PrincipalType, ttl.PrincipalID = "Service", table.TTLPrincipal
	for _, tc := range []struct {
		rec  table.Record
		want table.ChangeEvent
	}{{del, table.Removed}, {ttl, table.Expired}} {
		c, err := w.tags.DecodeChange(tc.rec)
		if err != nil {
			t.Fatal(err)
		}
		if c.Event != tc.want || c.Old == nil || c.Old.Name != "old" {
			t.Errorf("%+v: event %v, want %v", tc.rec.PrincipalID, c.Event, tc.want)
		}
	}
	// The record of a Tag decoded as a Note is refused, naming it.
	if _, err := w.notes.DecodeChange(del); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("tag record decoded as a note: %v", err)
	}
}

// HandleType finds the entity by its Go type: a service on an
// application store routes by the item type it reads.
func TestHandleType(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	if err := w.tags.Create(ctx, &tag{Name: "go"}); err != nil {
		t.Fatal(err)
	}
	var got []string
	r := feed.NewRouter(w.tbl)
	feed.HandleType(r, func(_ context.Context, c table.ItemChange[tag]) error {
		got = append(got, c.Event.String()+" "+c.New.Name)
		return nil
	})
	if _, err := r.RouteAll(ctx, readAll(t, w.tbl)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"created go"}) {
		t.Errorf("HandleType saw %v, want [created go]", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("HandleType of a Go type the table binds no entity of did not panic")
		}
	}()
	feed.HandleType(r, func(context.Context, table.ItemChange[world]) error { return nil })
}
