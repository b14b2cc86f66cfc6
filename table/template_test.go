package table_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

type article struct {
	ID       string    `dynamo:"id"`
	Author   string    `dynamo:"author"`
	Slug     string    `dynamo:"slug"`
	Title    string    `dynamo:"title"`
	Section  string    `dynamo:"section"`
	Priority int       `dynamo:"priority"`
	At       time.Time `dynamo:"at"`
}

var articleDef = table.Def[article]{
	Type: "Article",
	Keys: table.Template{PK: "ARTICLE#{id}", SK: "ARTICLE"},
	IndexKeys: map[table.Index]table.Template{
		table.GSI1: {PK: "AUTHOR#{author}", SK: "AT#{at:ts}#{id}"},
		table.GSI2: {PK: "SECTION#{section}", SK: "P#{priority}#{id}"},
	},
	UniqueOn: []string{"slug"},
}

// Keys declared as data: the engine derives the keys, the fields patches
// may not change, the matcher and the model.
func TestDeclaredKeys(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	articles := table.NewEntity(f.t, articleDef)
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	a := &article{ID: "a1", Author: "ann", Slug: "hello", Title: "Hello", Section: "news", Priority: 2, At: at}
	if err := articles.Create(c, a); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "ARTICLE#a1", SK: "ARTICLE"}
	raw := tabletest.RawItem(t, f.t, k)
	for attr, want := range map[string]string{"GSI1PK": "AUTHOR#ann", "GSI1SK": "AT#2026-11-22T10:00:00.000000000Z#a1", "GSI2PK": "SECTION#news", "GSI2SK": "P#2#a1"} {
		if got := raw[attr].(*types.AttributeValueMemberS).Value; got != want {
			t.Errorf("%s = %q, want %q", attr, got, want)
		}
	}
	// The unique slug is guarded.
	if err := articles.Create(c, &article{ID: "a2", Author: "bob", Slug: "hello", At: at}); !errors.Is(err, table.ErrUniqueViolation) {
		t.Errorf("duplicate slug: %v", err)
	}
	// A patch setting every field of GSI2's key moves it in the same
	// UpdateItem; one setting part of GSI1's is refused.
	if _, err := articles.Patch(c, k, table.Patch{Set: map[string]any{"section": "sports", "priority": 1}}); err != nil {
		t.Fatalf("patch of a whole index key: %v", err)
	}
	if got := tabletest.RawItem(t, f.t, k)["GSI2PK"].(*types.AttributeValueMemberS).Value; got != "SECTION#sports" {
		t.Errorf("GSI2PK after the patch = %q, want SECTION#sports", got)
	}
	if _, err := articles.Patch(c, k, table.Patch{Set: map[string]any{"author": "zed"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("patch of part of an index key: %v, want ErrInvalidInput", err)
	}
	if _, err := articles.Patch(c, k, table.Patch{Set: map[string]any{"slug": "other"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("patch of a unique field: %v, want ErrInvalidInput", err)
	}
	// A value holding the delimiter cannot reach into another key.
	if err := articles.Create(c, &article{ID: "x#ARTICLE", Author: "ann", Slug: "s2", At: at}); !errors.Is(err, table.ErrInvalidKey) {
		t.Errorf("id with '#': %v, want ErrInvalidKey", err)
	}
	// The model, for tools.
	m := articles.Model()
	want := table.EntityModel{Type: "Article", Keys: articleDef.Keys, Unique: []string{"slug"},
		Indexes: map[string]table.Template{"GSI1": articleDef.IndexKeys[table.GSI1], "GSI2": articleDef.IndexKeys[table.GSI2]},
		Fields:  []string{"at", "author", "id", "priority", "section", "slug", "title"}}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("model (-want +got):\n%s", diff)
	}
}

// A template that names a missing attribute is refused at NewEntity.
func TestDeclaredKeysChecked(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "autor") {
			t.Fatalf("NewEntity with a typo in a template: %v", r)
		}
	}()
	def := articleDef
	def.IndexKeys = map[table.Index]table.Template{table.GSI1: {PK: "AUTHOR#{autor}", SK: "X"}}
	table.NewEntity(f.t, def)
}

type escTagged struct {
	Owner string `dynamo:"owner"`
	Tag   string `dynamo:"tag"`
	Ms    int64  `dynamo:"ms"`
	Note  string `dynamo:"note"`
}

// The ":esc" and ":ms" modifiers: a value holding the delimiter is escaped
// (and read back by a patch that moves the index), a number of Unix
// milliseconds becomes 13 digits.
func TestDeclaredKeyModifiers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	tags := table.NewEntity(f.t, table.Def[escTagged]{
		Type:      "EscTagged",
		Keys:      table.Template{PK: "OWNER#{owner}", SK: "TAG#{tag:esc}"},
		IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "TAGNOTE#{tag:esc}#{note:esc}", SK: "AT#{ms:ms}"}},
	})
	it := &escTagged{Owner: "o1", Tag: "c#100%", Ms: 1700000000123, Note: "a"}
	if err := tags.Create(c, it); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "OWNER#o1", SK: "TAG#c%23100%25"}
	raw := tabletest.RawItem(t, f.t, k)
	for attr, want := range map[string]string{"GSI1PK": "TAGNOTE#c%23100%25#a", "GSI1SK": "AT#1700000000123"} {
		if got := raw[attr].(*types.AttributeValueMemberS).Value; got != want {
			t.Errorf("%s = %q, want %q", attr, got, want)
		}
	}
	got, err := tags.Get(c, k)
	if err != nil || got.Tag != "c#100%" {
		t.Fatalf("get: %+v, %v", got, err)
	}
	// The patch sets note and ms; tag comes from the key, unescaped.
	if _, err := tags.Patch(c, k, table.Patch{Set: map[string]any{"note": "b#c", "ms": int64(42)}}); err != nil {
		t.Fatal(err)
	}
	raw = tabletest.RawItem(t, f.t, k)
	for attr, want := range map[string]string{"GSI1PK": "TAGNOTE#c%23100%25#b%23c", "GSI1SK": "AT#0000000000042"} {
		if got := raw[attr].(*types.AttributeValueMemberS).Value; got != want {
			t.Errorf("after the patch %s = %q, want %q", attr, got, want)
		}
	}
}

// The ":opt" modifier: an optional field of an index key writes "-" when
// absent, so the item stays in the index (ListBackup's accounts without a
// type, issue 23), and the value itself when set.
func TestDeclaredKeyOptional(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	tags := table.NewEntity(f.t, table.Def[escTagged]{
		Type:      "OptTagged",
		Keys:      table.Template{PK: "OWNER#{owner}", SK: "NOTE#{note}"},
		IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "OWNERTAGS#{owner}", SK: "TAG#{tag:opt}#{note}"}},
	})
	for _, it := range []*escTagged{{Owner: "o1", Note: "a"}, {Owner: "o1", Note: "b", Tag: "red"}} {
		if err := tags.Create(c, it); err != nil {
			t.Fatal(err)
		}
	}
	for k, want := range map[table.Key]string{{PK: "OWNER#o1", SK: "NOTE#a"}: "TAG#-#a", {PK: "OWNER#o1", SK: "NOTE#b"}: "TAG#red#b"} {
		if got := tabletest.RawItem(t, f.t, k)["GSI1SK"]; got == nil || got.(*types.AttributeValueMemberS).Value != want {
			t.Errorf("%v: GSI1SK = %v, want %q", k, got, want)
		}
	}
	page, err := tags.List(c, table.Query{Index: table.GSI1, PK: "OWNERTAGS#o1"})
	if err != nil || len(page.Items) != 2 || page.Items[0].Tag != "" || page.Items[1].Tag != "red" {
		t.Errorf("the index holds both, the untagged one first: %+v, %v", page.Items, err)
	}
}

type hook struct {
	ID        string `dynamo:"id"`
	Account   string `dynamo:"account"`
	Active    bool   `dynamo:"active"`
	DeletedAt string `dynamo:"deletedAt"`
	Region    string `dynamo:"region"`
}

// Template.When keeps an item in an index only while its conditions hold,
// and a second index of the key's field and another moves with a patch of that other.
func TestDeclaredIndexConditions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	hooks := table.NewEntity(f.t, table.Def[hook]{
		Type: "Hook",
		Keys: table.Template{PK: "HOOK#{id}", SK: "HOOK"},
		IndexKeys: map[table.Index]table.Template{
			table.GSI1: {PK: "HOOKS#{account}", SK: "ACTIVE#{id}", When: []string{"active", "!deletedAt"}},
			table.GSI2: {PK: "REGION#{region:esc}", SK: "{id}"},
		},
	})
	k := table.Key{PK: "HOOK#h1", SK: "HOOK"}
	if err := hooks.Create(c, &hook{ID: "h1", Account: "a1", Active: true, Region: "eu"}); err != nil {
		t.Fatal(err)
	}
	raw := tabletest.RawItem(t, f.t, k)
	if got, _ := raw["GSI1PK"].(*types.AttributeValueMemberS); got == nil || got.Value != "HOOKS#a1" {
		t.Errorf("active hook: GSI1PK %v, want HOOKS#a1", raw["GSI1PK"])
	}
	if got, _ := raw["GSI2PK"].(*types.AttributeValueMemberS); got == nil || got.Value != "REGION#eu" {
		t.Errorf("GSI2PK %v, want REGION#eu", raw["GSI2PK"])
	}
	// GSI1 derives from id (the key's), account, active and deletedAt: a
	// patch setting deletedAt alone is refused; one setting all three
	// others moves the item out of the index in the same UpdateItem.
	if _, err := hooks.Patch(c, k, table.Patch{Set: map[string]any{"deletedAt": "2026-11-22"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("patch of deletedAt alone: %v, want ErrInvalidInput", err)
	}
	if _, err := hooks.Patch(c, k, table.Patch{Set: map[string]any{"account": "a1", "active": true, "deletedAt": "2026-11-22"}}); err != nil {
		t.Fatal(err)
	}
	if raw := tabletest.RawItem(t, f.t, k); raw["GSI1PK"] != nil {
		t.Errorf("deleted hook still in GSI1: %v", raw["GSI1PK"])
	}
	// GSI2's other field is the key's: a patch of region moves it.
	if _, err := hooks.Patch(c, k, table.Patch{Set: map[string]any{"region": "us"}}); err != nil {
		t.Fatalf("patch of region: %v", err)
	}
	if got, _ := tabletest.RawItem(t, f.t, k)["GSI2PK"].(*types.AttributeValueMemberS); got == nil || got.Value != "REGION#us" {
		t.Errorf("GSI2PK after the region patch = %v, want REGION#us", got)
	}
	// An update back to active puts it back.
	if err := hooks.Put(c, &hook{ID: "h1", Account: "a1", Active: true, Region: "eu"}); err != nil {
		t.Fatal(err)
	}
	if raw := tabletest.RawItem(t, f.t, k); raw["GSI1PK"] == nil {
		t.Error("restored hook not in GSI1")
	}
}

// A patch that sets none of an index's fields leaves the index key alone,
// even when all its fields come from the primary key (it is not rewritten
// on every write, which would cost an index write each time).
func TestDeclaredPatchLeavesUntouchedIndexes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	def := articleDef
	def.Type = "ArticleByID"
	def.IndexKeys = map[table.Index]table.Template{table.GSI3: {PK: "BYID#{id}", SK: "ARTICLE"}}
	def.UniqueOn = nil
	articles := table.NewEntity(f.t, def)
	a := &article{ID: "a9", Author: "ann", Slug: "untouched", Title: "T", Section: "news", Priority: 1, At: time.Now()}
	if err := articles.Create(c, a); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "ARTICLE#a9", SK: "ARTICLE"}
	// Another writer removed GSI3's key: a patch of the title must not
	// write it back (it would, if every patch rewrote such an index).
	if _, err := f.t.Client().UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String(f.t.Name()),
		Key:              map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}},
		UpdateExpression: aws.String("REMOVE GSI3PK, GSI3SK")}); err != nil {
		t.Fatal(err)
	}
	if _, err := articles.Patch(c, k, table.Patch{Set: map[string]any{"title": "T2"}}); err != nil {
		t.Fatal(err)
	}
	if raw := tabletest.RawItem(t, f.t, k); raw["GSI3PK"] != nil {
		t.Errorf("after a title patch: GSI3PK %v, want it left absent", raw["GSI3PK"])
	}
}

// Patch.SetIfAbsent sets an attribute only where it is absent, in the
// same UpdateItem (a first-time stamp), and is refused with Set of the
// same field.
func TestPatchSetIfAbsent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	articles := table.NewEntity(f.t, table.Def[article]{Type: "ArticleStamp", Keys: table.Template{PK: "ART#{id}", SK: "A"}})
	if err := articles.Create(c, &article{ID: "s1", Title: "t"}); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "ART#s1", SK: "A"}
	if _, err := articles.Patch(c, k, table.Patch{SetIfAbsent: map[string]any{"section": "first"}}); err != nil {
		t.Fatal(err)
	}
	got, err := articles.Patch(c, k, table.Patch{Set: map[string]any{"title": "t2"}, SetIfAbsent: map[string]any{"section": "second"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Section != "first" || got.Title != "t2" {
		t.Errorf("after two patches: section %q title %q, want first, t2", got.Section, got.Title)
	}
	if _, err := articles.Patch(c, k, table.Patch{Set: map[string]any{"section": "x"}, SetIfAbsent: map[string]any{"section": "y"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("set and set-if-absent of one field: %v, want ErrInvalidInput", err)
	}
}

// UpdateRequiring: the required item is checked in the write's own
// transaction, so one deleted after the update read it, while the write
// is in flight, is noticed: ErrNotFound, and the update is not applied.
func TestUpdateRequiringSeesADeletionInFlight(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	def := table.Def[article]{Type: "ArticleReq", Keys: table.Template{PK: "ART#{id}", SK: "A"}}
	articles := table.NewEntity(f.t, def)
	for _, id := range []string{"a", "section"} {
		if err := articles.Create(c, &article{ID: id, Title: id}); err != nil {
			t.Fatal(err)
		}
	}
	ak, sk := table.Key{PK: "ART#a", SK: "A"}, table.Key{PK: "ART#section", SK: "A"}
	if got, err := articles.UpdateRequiring(c, ak, []table.Key{sk}, func(a *article) error { a.Section = "section"; return nil }); err != nil || got.Section != "section" {
		t.Fatalf("update requiring an existing item: %+v, %v", got, err)
	}
	// The write is held in flight while another writer deletes the
	// required item.
	hold := &tabletest.Hold{Op: "TransactWriteItems"}
	held := table.NewEntity(table.New(tabletest.NewClient(t, hold.Option()), f.t.Schema()), def)
	done := make(chan error, 1)
	go func() {
		_, err := held.UpdateRequiring(c, ak, []table.Key{sk}, func(a *article) error { a.Section = "moved"; return nil })
		done <- err
	}()
	<-hold.Arrived()
	if err := articles.Delete(c, sk); err != nil {
		t.Fatal(err)
	}
	hold.Release()
	if err := <-done; !errors.Is(err, table.ErrNotFound) {
		t.Errorf("update requiring an item deleted in flight: %v, want ErrNotFound", err)
	}
	if got, err := articles.Get(c, ak); err != nil || got.Section != "section" {
		t.Errorf("after the refused update: %+v, %v; want section unchanged", got, err)
	}
}

// Import and ImportMany: items read from elsewhere are created through the
// entity (guards included), never over an existing item; in a batch, one
// refused item does not lose the others: each gets Import's outcome.
func TestImportMany(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	def := articleDef
	def.Type = "ArticleImport"
	articles := table.NewEntity(f.t, def)
	raw := func(id, slug string) table.Item {
		return table.Item{"id": &types.AttributeValueMemberS{Value: id}, "slug": &types.AttributeValueMemberS{Value: slug},
			"author": &types.AttributeValueMemberS{Value: "ann"}, "at": &types.AttributeValueMemberS{Value: "2026-11-22T10:00:00Z"}}
	}
	if o, err := articles.Import(c, raw("i0", "s0"), false); o != table.Changed || err != nil {
		t.Fatalf("import: %v, %v", o, err)
	}
	page := []table.Item{raw("i1", "s1"), raw("i0", "s0"), raw("i2", "s1"), raw("i3", "s3")}
	outs, errs := articles.ImportMany(c, page, false)
	want := []table.JobOutcome{table.Changed, table.Unchanged, table.Conflicted, table.Changed}
	for i := range page {
		if outs[i] != want[i] {
			t.Errorf("item %d: %v (%v), want %v", i, outs[i], errs[i], want[i])
		}
	}
	if !errors.Is(errs[2], table.ErrUniqueViolation) {
		t.Errorf("the duplicate slug: %v, want ErrUniqueViolation", errs[2])
	}
	for _, id := range []string{"i0", "i1", "i3"} {
		if _, err := articles.Get(c, table.Key{PK: "ARTICLE#" + id, SK: "ARTICLE"}); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	if _, err := articles.Get(c, table.Key{PK: "ARTICLE#i2", SK: "ARTICLE"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("the refused duplicate was written: %v", err)
	}
	// A dry run writes nothing.
	outs, _ = articles.ImportMany(c, []table.Item{raw("i9", "s9")}, true)
	if _, err := articles.Get(c, table.Key{PK: "ARTICLE#i9", SK: "ARTICLE"}); outs[0] != table.Changed || !errors.Is(err, table.ErrNotFound) {
		t.Errorf("dry run: %v, then get: %v", outs[0], err)
	}
}

// A required item past its TTL, still stored, is absent for the check as
// for every read: the update is refused.
func TestUpdateRequiringAnExpiredItem(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	articles := table.NewEntity(f.t, table.Def[article]{Type: "ArticleReqTTL", Keys: table.Template{PK: "ART#{id}", SK: "A"}})
	if err := articles.Create(c, &article{ID: "a", Title: "a"}); err != nil {
		t.Fatal(err)
	}
	s := f.t.Schema()
	if s.TTLAttr == "" {
		t.Fatal("the fixture's table has no TTL attribute")
	}
	// Another writer left an item whose TTL passed an hour ago.
	if _, err := f.t.Client().PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(f.t.Name()), Item: map[string]types.AttributeValue{
		s.PK: &types.AttributeValueMemberS{Value: "ART#gone"}, s.SK: &types.AttributeValueMemberS{Value: "A"},
		s.TTLAttr: &types.AttributeValueMemberN{Value: fmt.Sprint(time.Now().Add(-time.Hour).Unix())}}}); err != nil {
		t.Fatal(err)
	}
	_, err := articles.UpdateRequiring(c, table.Key{PK: "ART#a", SK: "A"}, []table.Key{{PK: "ART#gone", SK: "A"}}, func(a *article) error { a.Section = "x"; return nil })
	if !errors.Is(err, table.ErrNotFound) {
		t.Errorf("update requiring an expired item: %v, want ErrNotFound", err)
	}
}
