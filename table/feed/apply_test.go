package feed_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/tabletest"
)

// likeTotals are the effects the apply tests count: each created note adds
// 1 to its owner's notes and its likes to the owner's likes (item
// TOTAL#{owner}), and 1 to the all-owners item TOTAL#* (two entities
// counting the same records, each exact on its own).
func likeTotals(w world) func(table.Record) ([]feed.Effect, error) {
	return func(rec table.Record) ([]feed.Effect, error) {
		if rec.Op != "INSERT" {
			return nil, nil
		}
		cl := w.tbl.Classify(rec)
		if cl.Kind != table.KindEntity || cl.Entity.Type() != "Note" {
			return nil, nil
		}
		c, err := w.notes.DecodeChange(rec)
		if err != nil {
			return nil, err
		}
		typ := map[string]types.AttributeValue{"_type": &types.AttributeValueMemberS{Value: "_counter"}}
		return []feed.Effect{
			{Key: table.Key{PK: "TOTAL#" + c.New.Owner, SK: "TOTAL"}, Add: map[string]int64{"notes": 1, "likes": c.New.Likes}, Set: typ},
			{Key: table.Key{PK: "TOTAL#*", SK: "TOTAL"}, Add: map[string]int64{"notes": 1}, Set: typ},
		}, nil
	}
}

// total reads a counter of a TOTAL item (0 when absent).
func total(t *testing.T, tbl *table.Table, owner, attr string) int64 {
	t.Helper()
	out, err := tbl.Client().GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(tbl.Name()), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "TOTAL#" + owner}, "SK": &types.AttributeValueMemberS{Value: "TOTAL"}}})
	if err != nil {
		t.Fatal(err)
	}
	n, ok := out.Item[attr].(*types.AttributeValueMemberN)
	if !ok {
		return 0
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// batches splits recs into batches of at most size records per shard.
func batches(recs []table.Record, size int) []feed.Batch {
	var out []feed.Batch
	for _, r := range recs {
		if n := len(out); n > 0 && out[n-1].Shard == r.Shard && len(out[n-1].Records) < size {
			out[n-1].Records = append(out[n-1].Records, r)
			continue
		}
		out = append(out, feed.Batch{Shard: r.Shard, Records: []table.Record{r}})
	}
	return out
}

// An Applier adds each record's effect exactly once (FH-16's mechanism):
// batches delivered again, whole or cut elsewhere (a consumer restarted
// from an older checkpoint reads on past where the first delivery
// stopped), change nothing already applied and add only what is new;
// two items counting the same records are each exact; a write whose
// response is lost is resent by the SDK and applied once.
func TestApplyExactlyOnce_FH16(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	likes := map[string]int64{}
	for i := range 12 {
		owner := fmt.Sprint("acct", i%3)
		n := note{ID: fmt.Sprint("n", i), Owner: owner, Slug: fmt.Sprint("s", i), Likes: int64(i)}
		if err := w.notes.Create(ctx, &n); err != nil {
			t.Fatal(err)
		}
		likes[owner] += int64(i)
	}
	recs := readAll(t, w.tbl)
	var notes []table.Record
	for _, r := range recs {
		if c := w.tbl.Classify(r); c.Kind == table.KindEntity && c.Entity.Type() == "Note" {
			notes = append(notes, r)
		}
	}
	if len(notes) != 12 {
		t.Fatalf("%d note records, want 12", len(notes))
	}
	check := func(when string) {
		t.Helper()
		for owner, want := range likes {
			if got := total(t, w.tbl, owner, "notes"); got != 4 {
				t.Errorf("%s: %s has %d notes counted, want 4", when, owner, got)
			}
			if got := total(t, w.tbl, owner, "likes"); got != want {
				t.Errorf("%s: %s has %d likes counted, want %d", when, owner, got, want)
			}
		}
		if got := total(t, w.tbl, "*", "notes"); got != 12 {
			t.Errorf("%s: %d notes counted in all, want 12", when, got)
		}
	}

	// Batches of 5: the first two delivered, then the consumer "restarts"
	// from an older checkpoint and gets batches of 7 from the start:
	// the first 7 records overlap what was applied (10), the next from
	// record 8 on; then everything once more.
	a := &feed.Applier{Table: w.tbl}
	for _, b := range batches(recs, 5)[:2] {
		if _, err := a.Apply(ctx, b, likeTotals(w)); err != nil {
			t.Fatal(err)
		}
	}
	var again feed.Applied
	for _, b := range batches(recs, 7) {
		got, err := a.Apply(ctx, b, likeTotals(w))
		if err != nil {
			t.Fatal(err)
		}
		again.Records += got.Records
		again.Skipped += got.Skipped
		again.Reads += got.Reads
	}
	check("after a redelivery cut elsewhere")
	if again.Reads == 0 || again.Skipped == 0 {
		t.Errorf("the overlapping redelivery read no position or skipped nothing: %+v", again)
	}
	for _, b := range batches(recs, 1000) {
		got, err := a.Apply(ctx, b, likeTotals(w))
		if err != nil {
			t.Fatal(err)
		}
		if got.Records != 0 {
			t.Errorf("a batch delivered a third time added %d records' effects, want 0 (%+v)", got.Records, got)
		}
	}
	check("after a third delivery")

	// Records out of order, or a batch with no shard, are refused.
	if len(notes) > 1 {
		bad := feed.Batch{Shard: notes[0].Shard, Records: []table.Record{notes[1], notes[0]}}
		if _, err := a.Apply(ctx, bad, likeTotals(w)); !errors.Is(err, feed.ErrPosition) {
			t.Errorf("records out of order: %v, want ErrPosition", err)
		}
	}
	if _, err := a.Apply(ctx, feed.Batch{Records: notes[:1]}, likeTotals(w)); !errors.Is(err, feed.ErrPosition) {
		t.Errorf("a batch without its shard: %v, want ErrPosition", err)
	}
}

// An UpdateItem whose response is lost after it applied is resent by the
// SDK; the resent write fails its position condition, the Applier reads
// the position and finds nothing left: the batch counts once (FH-16).
func TestApplyLostResponse_FH16(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	for i := range 4 {
		if err := w.notes.Create(ctx, &note{ID: fmt.Sprint("n", i), Owner: "acct", Slug: fmt.Sprint("s", i), Likes: 2}); err != nil {
			t.Fatal(err)
		}
	}
	recs := readAll(t, w.tbl)
	lost := &tabletest.LostResponses{Op: "UpdateItem", Times: 1}
	lossy := table.New(tabletest.NewClient(t, lost.Option()), w.tbl.Schema())
	a := &feed.Applier{Table: lossy}
	for _, b := range batches(recs, 1000) {
		if _, err := a.Apply(ctx, b, likeTotals(w)); err != nil {
			t.Fatal(err)
		}
	}
	if lost.Lost() != 1 {
		t.Fatalf("%d responses lost, want 1", lost.Lost())
	}
	if got := total(t, w.tbl, "acct", "notes"); got != 4 {
		t.Errorf("%d notes counted after a lost response, want 4", got)
	}
	if got := total(t, w.tbl, "acct", "likes"); got != 8 {
		t.Errorf("%d likes counted after a lost response, want 8", got)
	}
}

// Positions of shards created longer ago than the retention are removed
// by the next write to the item: an item's positions do not pile up as
// the stream's shards roll over.
func TestApplyDropsOldPositions_FH16(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	old := feed.PositionPrefix + "shardId-00000001536019433524-e8f16d76" // created 2018-09-04
	if at, ok := feed.ShardCreated("shardId-00000001536019433524-e8f16d76"); !ok || !at.Equal(time.UnixMilli(1536019433524)) {
		t.Fatalf("ShardCreated = %v, %v", at, ok)
	}
	_, err := w.tbl.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(w.tbl.Name()), Item: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "TOTAL#acct"}, "SK": &types.AttributeValueMemberS{Value: "TOTAL"},
		old: &types.AttributeValueMemberS{Value: "0000000000000000000000000000000000000007"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := w.notes.Create(ctx, &note{ID: fmt.Sprint("n", i), Owner: "acct", Slug: fmt.Sprint("s", i)}); err != nil {
			t.Fatal(err)
		}
	}
	a := &feed.Applier{Table: w.tbl}
	for _, b := range batches(readAll(t, w.tbl), 1) { // one write per record: the second removes the old position
		if _, err := a.Apply(ctx, b, likeTotals(w)); err != nil {
			t.Fatal(err)
		}
	}
	out, err := w.tbl.Client().GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(w.tbl.Name()), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "TOTAL#acct"}, "SK": &types.AttributeValueMemberS{Value: "TOTAL"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := out.Item[old]; ok {
		t.Errorf("the position of a shard created in 2018 is still stored: %v", out.Item)
	}
	if got := total(t, w.tbl, "acct", "notes"); got != 2 {
		t.Errorf("%d notes counted, want 2", got)
	}
}
