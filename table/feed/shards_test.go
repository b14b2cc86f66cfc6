package feed_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/tabletest"
)

// splitStream shows DynamoDB Local's one shard as the child of a closed
// parent shard that DynamoDB Local never had, as a stream looks after a
// shard split: DescribeStream lists the parent (with an ID that sorts
// after the child's, and the child naming it as its parent), and the
// parent's iterator reads two records, slowly, then ends. Every other
// request reaches DynamoDB Local.
type splitStream struct {
	parentReads atomic.Int64
	iterators   atomic.Int64 // GetShardIterator calls for the parent
	parentDone  atomic.Int64 // the time (ns) the parent's last read returned
}

const fakeParent = "shardId-99999999999999999999-parent00"

func (s *splitStream) Do(r *http.Request) (*http.Response, error) {
	target := r.Header.Get("X-Amz-Target")
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var in map[string]any
	_ = json.Unmarshal(body, &in)
	switch {
	case strings.HasSuffix(target, ".GetShardIterator") && in["ShardId"] == fakeParent:
		s.iterators.Add(1)
		return jsonResponse(r, map[string]any{"ShardIterator": "fake-parent/0"}), nil
	case strings.HasSuffix(target, ".GetRecords") && strings.HasPrefix(in["ShardIterator"].(string), "fake-parent/"):
		s.parentReads.Add(1)
		time.Sleep(100 * time.Millisecond) // the child would overtake it if it ran alongside
		if in["ShardIterator"] == "fake-parent/0" {
			rec := func(id, seq string) map[string]any {
				return map[string]any{"eventID": id, "eventName": "INSERT", "dynamodb": map[string]any{
					"Keys":           map[string]any{"PK": map[string]any{"S": "PARENT#" + id}, "SK": map[string]any{"S": "X"}},
					"NewImage":       map[string]any{"PK": map[string]any{"S": "PARENT#" + id}, "SK": map[string]any{"S": "X"}},
					"SequenceNumber": seq, "StreamViewType": "NEW_AND_OLD_IMAGES"}}
			}
			return jsonResponse(r, map[string]any{"Records": []any{rec("p1", "000000000000000000011"), rec("p2", "000000000000000000012")}, "NextShardIterator": "fake-parent/1"}), nil
		}
		s.parentDone.Store(time.Now().UnixNano())
		return jsonResponse(r, map[string]any{"Records": []any{}}), nil // no next iterator: closed
	}
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err != nil || !strings.HasSuffix(target, ".DescribeStream") || resp.StatusCode != 200 {
		return resp, err
	}
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	desc := out["StreamDescription"].(map[string]any)
	shards := desc["Shards"].([]any)
	for _, sh := range shards {
		sh.(map[string]any)["ParentShardId"] = fakeParent
	}
	desc["Shards"] = append(shards, map[string]any{"ShardId": fakeParent,
		"SequenceNumberRange": map[string]any{"StartingSequenceNumber": "000000000000000000011", "EndingSequenceNumber": "000000000000000000012"}})
	return jsonResponse(r, out), nil
}

func jsonResponse(r *http.Request, v any) *http.Response {
	b, _ := json.Marshal(v)
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/x-amz-json-1.0"}},
		Body: io.NopCloser(bytes.NewReader(b)), ContentLength: int64(len(b)), Request: r}
}

// A closed shard is read to its end and marked done before its child is
// read at all, so a key's records stay in order across a split; a restart
// does not read the done shard again.
func TestConsumerParentShardFirst(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	workload(t, w, "")
	want := readAll(t, w.tbl)
	split := &splitStream{}
	sc := dynamodbstreams.New(feed.StreamsClient(w.tbl.Client()).Options(), func(o *dynamodbstreams.Options) { o.HTTPClient = split })
	var got []table.Record
	var firstChild time.Time
	h := feed.BatchFunc(func(_ context.Context, b feed.Batch) (int, error) {
		if b.Shard != fakeParent && firstChild.IsZero() {
			firstChild = time.Now()
		}
		got = append(got, b.Records...)
		return len(b.Records), nil
	})
	c := &feed.Consumer{Table: w.tbl, Name: "split", Handler: h, Streams: sc}
	if err := c.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if len(got) < 2 || got[0].ID != "p1" || got[1].ID != "p2" || got[0].Shard != fakeParent {
		t.Fatalf("first records %v, want the parent's p1 and p2", got[:min(2, len(got))])
	}
	if done := time.Unix(0, split.parentDone.Load()); firstChild.Before(done) {
		t.Errorf("the child's first batch at %v, before the parent's end at %v", firstChild, done)
	}
	if twice := checkDelivered(t, want, withoutFeed(w.tbl, got[2:])); len(twice) > 0 {
		t.Errorf("delivered twice %v", twice)
	}
	cps, err := c.Checkpoints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if cp := cps[fakeParent]; !cp.Done || cp.Sequence != "000000000000000000012" {
		t.Errorf("parent checkpoint %+v, want done at its last record", cp)
	}
	// The parent's checkpoint item is the library's: typed _feed, keyed
	// _FEED#split / SHARD#{id}.
	// _FEED#split / SHARD#{id}, expiring by the table's TTL once done.
	raw := tabletest.RawItem(t, w.tbl, table.Key{PK: table.FeedPrefix + "split", SK: "SHARD#" + fakeParent})
	if cl := w.tbl.Classify(table.Record{New: raw}); cl.Kind != table.KindLibrary || cl.Library != table.FeedType {
		t.Errorf("checkpoint item %v classified %+v, want the library's _feed", raw, cl)
	}
	if ttl, ok := raw["ttl"].(*types.AttributeValueMemberN); !ok || ttl.Value <= strconv.FormatInt(time.Now().Unix(), 10) {
		t.Errorf("done checkpoint's ttl %v, want a time to come", raw["ttl"])
	}

	// A new consumer of the same name skips the done parent.
	iters, reads := split.iterators.Load(), split.parentReads.Load()
	var again []table.Record
	c2 := &feed.Consumer{Table: w.tbl, Name: "split", Streams: sc, Handler: feed.BatchFunc(func(_ context.Context, b feed.Batch) (int, error) {
		again = append(again, b.Records...)
		return len(b.Records), nil
	})}
	if err := c2.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	if split.iterators.Load() != iters || split.parentReads.Load() != reads {
		t.Errorf("the done parent was read again (%d iterators, %d reads)", split.iterators.Load()-iters, split.parentReads.Load()-reads)
	}
	if n := len(withoutFeed(w.tbl, again)); n != 0 {
		t.Errorf("restart delivered %d records again, want none", n)
	}

	// A consumer from the latest record skips the closed parent without
	// reading it and marks it done, so that its restart, which has
	// checkpoints by then, does not read it from the trim horizon.
	iters = split.iterators.Load()
	var latest []table.Record
	c3 := &feed.Consumer{Table: w.tbl, Name: "split-latest", Streams: sc, Start: feed.Latest, Handler: feed.BatchFunc(func(_ context.Context, b feed.Batch) (int, error) {
		latest = append(latest, b.Records...)
		return len(b.Records), nil
	})}
	if err := c3.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	cps, err = c3.Checkpoints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if cp := cps[fakeParent]; !cp.Done || split.iterators.Load() != iters || len(latest) != 0 {
		t.Errorf("latest: parent checkpoint %+v, %d parent iterators, %d records; want done, none read", cp, split.iterators.Load()-iters, len(latest))
	}
}
