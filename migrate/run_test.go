package migrate_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/migrate"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// byTable returns the results by legacy table suffix.
func byTable[R any](stack string, rs []R, name func(R) string) map[string]R {
	out := map[string]R{}
	for _, r := range rs {
		out[strings.TrimPrefix(name(r), stack+"-")] = r
	}
	return out
}

func resultName(r migrate.TableResult) string { return r.Name }
func verifiedName(v migrate.Verified) string  { return v.Name }

// The shop's two legacy tables migrate with the package alone: a dry run
// writes nothing; a run interrupted after a page resumes from its
// checkpoint; every live item becomes an item of its entity (renamed,
// mapped, composed), the expired one is counted and left; a second run
// changes nothing; verification finds no difference, then exactly the one
// a foreign write plants.
func TestRunShopDryRunResumeVerify(t *testing.T) {
	t.Parallel()
	c, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	const n = 150 // books, plus one expired and one live with an expiry: two pages of 100
	stack, items := newStack(c, t, n)
	tb := tabletest.NewTable(t, table.NewSchema("shop"))
	s := newShop(tb)
	o := migrate.Options{Stack: stack, Manifest: readShopManifest(t), Targets: s.targets(), Segments: 1}

	// 1. Dry run: everything converted and validated, nothing written.
	dry := o
	dry.DryRun = true
	res, err := migrate.Run(c, tb, dry)
	if err != nil {
		t.Fatal(err)
	}
	got := byTable(stack, res, resultName)
	if b := got["books"]; b.Report.Seen != n+2 || b.Report.Changed != n+1 || b.Report.Skipped != 1 || b.Report.Conflicted != 0 ||
		!slices.Equal(b.Expired, []string{"bookId=gone"}) {
		t.Errorf("dry run, books: %v, expired %v; want %d seen, %d to create, 1 expired (bookId=gone)", b.Report, b.Expired, n+2, n+1)
	}
	if a := got["authors"]; a.Report.Changed != 2 || a.Entity != "Author" {
		t.Errorf("dry run, authors: %+v", a)
	}
	if cr := got["carts"]; cr.Skip == "" || cr.Report.Seen != 0 {
		t.Errorf("dry run, carts: %+v, want skipped", cr)
	}
	if _, err := s.books.Get(c, s.books.Key(shopBook{ID: "b001"})); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("after the dry run, book b001: %v, want ErrNotFound", err)
	}

	// 2. Interrupted after the books' first page, then resumed.
	ictx, stop := context.WithCancel(c)
	var pages atomic.Int64
	interrupted := o
	interrupted.Progress = func(name string, _ table.JobReport) {
		if strings.HasSuffix(name, "-books") && pages.Add(1) == 1 {
			stop()
		}
	}
	if _, err := migrate.Run(ictx, tb, interrupted); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v, want context.Canceled", err)
	}
	stop()
	resumed := o
	resumed.Resume = true
	res, err = migrate.Run(c, tb, resumed)
	if err != nil {
		t.Fatal(err)
	}
	b := byTable(stack, res, resultName)["books"]
	if r := b.Report; !r.Resumed || r.Seen != n+2 || r.Changed+r.Unchanged != n+1 || r.Skipped != 1 || r.Conflicted != 0 {
		t.Errorf("resumed run, books: %v; want resumed, %d seen, %d copied, 1 expired", r, n+2, n+1)
	}

	// Every live item is an item of its entity, made ready by the manifest.
	book, err := s.books.Get(c, s.books.Key(shopBook{ID: "b001"}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(shopBook{ID: "b001", Author: "a2", Title: "Book 1", Genre: "scifi", Ref: "a2/b001"}, book); d != "" {
		t.Errorf("book b001 (-want +got):\n%s", d)
	}
	if _, err := s.books.Get(c, s.books.Key(shopBook{ID: "gone"})); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("the expired book: %v, want ErrNotFound", err)
	}
	byAuthor, err := s.books.List(c, table.Query{Index: table.GSI1, PK: "AUTHOR#a1", Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(byAuthor.Items) != n/2 {
		t.Errorf("a1's books: %d, want %d", len(byAuthor.Items), n/2)
	}
	author, err := s.authors.Get(c, s.authors.Key(shopAuthor{ID: "a2"}))
	if err != nil || author.Name != items["authors"][1]["name"].(*types.AttributeValueMemberS).Value {
		t.Errorf("author a2: %+v, %v", author, err)
	}

	// 3. A second run changes nothing.
	res, err = migrate.Run(c, tb, o)
	if err != nil {
		t.Fatal(err)
	}
	for suffix, r := range byTable(stack, res, resultName) {
		if r.Report.Changed != 0 || r.Report.Conflicted != 0 {
			t.Errorf("second run, %s: %v", suffix, r.Report)
		}
	}

	// 4. Verification: no difference.
	ver, err := migrate.Verify(c, tb, o)
	if err != nil {
		t.Fatal(err)
	}
	vs := byTable(stack, ver, verifiedName)
	for _, suffix := range []string{"authors", "books"} {
		v := vs[suffix]
		if !v.OK() || v.Scanned != len(items[suffix]) || v.Found+v.Expired != v.Scanned {
			t.Errorf("verified %s: %d of %d found (%d expired), absent %v, differences %v", suffix, v.Found, v.Scanned, v.Expired, v.Absent, v.Differences)
		}
	}
	if vs["books"].Expired != 1 || vs["carts"].Skip == "" {
		t.Errorf("verified: books %d expired (want 1), carts skip %q", vs["books"].Expired, vs["carts"].Skip)
	}

	// 5. A foreign write (past the library) changes a copy's title: the
	// verification reports exactly that difference, and the table is not OK.
	k := s.books.Key(shopBook{ID: "b002"})
	sc := tb.Schema()
	if _, err := tb.Client().UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String(tb.Name()),
		Key:                       table.Item{sc.PK: &types.AttributeValueMemberS{Value: k.PK}, sc.SK: &types.AttributeValueMemberS{Value: k.SK}},
		UpdateExpression:          aws.String("SET title = :t"),
		ExpressionAttributeValues: table.Item{":t": &types.AttributeValueMemberS{Value: "Tampered"}}}); err != nil {
		t.Fatal(err)
	}
	ver, err = migrate.Verify(c, tb, o)
	if err != nil {
		t.Fatal(err)
	}
	v := byTable(stack, ver, verifiedName)["books"]
	want := []string{`bookId=b002: title: legacy "Book 2", migrated "Tampered"`}
	if d := cmp.Diff(want, v.Differences); d != "" || v.OK() || v.Found != n+1 || len(v.Absent) != 0 {
		t.Errorf("verified books after a foreign write: OK %v, found %d, absent %v, differences (-want +got):\n%s", v.OK(), v.Found, v.Absent, d)
	}
}
