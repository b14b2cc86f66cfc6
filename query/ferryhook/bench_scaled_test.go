package ferryhook_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	mrand "math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Paired benchmarks of the paths the scaled profile changed (issue 22):
// the library in ferryhook.ScaledProfile() against hand-written
// aws-sdk-go-v2 code doing the same DynamoDB work in the same run
// (tabletest.Compare). The hand-written side keeps what a data layer for
// the sharded schema must know anyway in variables set once (the source's
// owner, plan and event layout, as Store.Ingest remembers them), and
// mints its event IDs with fh.NewLocatedEventID so both sides read and
// write the same keys.

// scaledBench is a scaled-profile store with one user and one source of
// 64 event partitions (layout 0:64).
type scaledBench struct {
	s            *ferryhook.Store
	main, events *table.Table
	src          fh.Source
	ctx          context.Context
}

func newScaledBench(b *testing.B) scaledBench {
	b.Helper()
	s, main, events, src := benchSetup(b, ferryhook.ScaledProfile())
	if src.EventLayout != "0:64" {
		b.Fatalf("source created with layout %q, want 0:64", src.EventLayout)
	}
	return scaledBench{s: s, main: main, events: events, src: src, ctx: context.Background()}
}

// countingStore returns a second store on sb's tables whose requests rc
// counts (the benchmarked store's client stays without middleware).
func (sb scaledBench) countingStore(b *testing.B, rc *tabletest.RequestCounter) *ferryhook.Store {
	client := tabletest.NewClient(b, rc.Option())
	o := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	return ferryhook.New(table.New(client, sb.main.Schema(), o), table.New(client, sb.events.Schema(), o), ferryhook.ScaledProfile())
}

func (sb scaledBench) ingest() (fh.Event, error) {
	return sb.s.Ingest(sb.ctx, sb.src.SourceID, ferryhook.IngestRequest{Body: `{"type":"invoice.paid"}`, ContentType: "application/json", Method: "POST", SourceIP: "203.0.113.7"})
}

// fnvShard is the counter shard of id among n, written out as a
// hand-written layer would (32-bit FNV-1a mod n).
func fnvShard(id string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % uint32(n))
}

func randomToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// BenchmarkIngestScaled is the webhook hot path in the scaled profile
// (FH-4, FH-7, FH-12; issue 22): Store.Ingest in the steady state, one
// TransactWriteItems of 3 actions (the event put into a random one of the
// source's 64 partitions SRC#{sourceId}#{b}, ADD on the source's counter
// shard _CTR#src#{sourceId}#{i} if its copies of status and eventLayout
// are active and 0:64, ADD on the owner's usage shard
// _CTR#usage#{userId}#{i} if its copy of the plan is the remembered one),
// against the same transaction by hand:
//
//   - "minimal": the put conditioned on attribute_not_exists(PK), the two
//     shard updates with the same state conditions;
//   - "same-guarantees": also what the library adds to every write (an
//     expired item counts as absent for the create, type and version
//     attributes, a write token and a ClientRequestToken so a lost
//     response can be resolved, the old item returned with a failed
//     condition): the library's request, condition for condition.
func BenchmarkIngestScaled(b *testing.B) {
	sb := newScaledBench(b)
	if _, err := sb.ingest(); err != nil { // the first ingest creates the shards
		b.Fatal(err)
	}
	rc := &tabletest.RequestCounter{}
	cs := sb.countingStore(b, rc)
	for range 2 {
		rc.Reset()
		if _, err := cs.Ingest(sb.ctx, sb.src.SourceID, ferryhook.IngestRequest{Body: `{"type":"invoice.paid"}`, ContentType: "application/json", Method: "POST", SourceIP: "203.0.113.7"}); err != nil {
			b.Fatal(err)
		}
	}
	if rc.Total() != 1 || rc.Of("TransactWriteItems") != 1 {
		b.Fatalf("a steady-state scaled ingest sent %v, want 1 TransactWriteItems", rc.Ops())
	}
	lib := func() error { _, err := sb.ingest(); return err }
	b.Run("minimal", func(b *testing.B) { tabletest.Compare(b, 100, lib, sb.rawIngest(false)) })
	b.Run("same-guarantees", func(b *testing.B) { tabletest.Compare(b, 100, lib, sb.rawIngest(true)) })
}

// rawIngest returns the hand-written scaled ingest; full adds the
// library's per-write guarantees (see BenchmarkIngestScaled).
func (sb scaledBench) rawIngest(full bool) func() error {
	const (
		eventShards   = 64 // the source's layout, read once like the library's remembered owner
		counterShards = 32
		layout        = "0:64"
		plan          = "free"
	)
	c, eventsName, mainName := sb.events.Client(), sb.events.Name(), sb.main.Name()
	src, user := string(sb.src.SourceID), string(sb.src.UserID)
	allOld := types.ReturnValuesOnConditionCheckFailureAllOld
	return func() error {
		now := time.Now()
		ms := now.UnixMilli()
		bucket := mrand.IntN(eventShards)
		id := string(fh.NewLocatedEventID(sb.src.SourceID, fh.UnixMillis(ms), bucket+1))
		item, err := attributevalue.MarshalMap(rawEvent{
			PK: "SRC#" + src + "#" + strconv.Itoa(bucket), SK: "EVT#" + strconv.FormatInt(ms, 10) + "#" + id,
			GSI1PK: "EVTID#" + id, GSI1SK: "EVENT",
			EventID: id, SourceID: src, UserID: user, Status: "received",
			Body: `{"type":"invoice.paid"}`, SourceIP: "203.0.113.7", ContentType: "application/json", Method: "POST",
			ReceivedAt: ms, ExpiresAt: ms/1000 + 86400,
		})
		if err != nil {
			return err
		}
		delete(item, "headers") // not sent (the library omits an empty value)
		// Since issue 44 the scaled profile's events are found by key
		// alone: byKey, no GSI1 entry (Options.EventsByKeyOnly).
		delete(item, "GSI1PK")
		delete(item, "GSI1SK")
		item["byKey"] = &types.AttributeValueMemberBOOL{Value: true}
		shard := strconv.Itoa(fnvShard(id, counterShards))
		at := str(now.UTC().Format("2006-01-02T15:04:05.000Z07:00"))
		put := &types.Put{TableName: aws.String(eventsName), Item: item, ConditionExpression: aws.String("attribute_not_exists(PK)")}
		srcUp := &types.Update{TableName: aws.String(mainName),
			Key:                       map[string]types.AttributeValue{"PK": str("_CTR#src#" + src + "#" + shard), "SK": str("SHARD")},
			UpdateExpression:          aws.String("SET lastEventAt = :at ADD eventCount :one"),
			ConditionExpression:       aws.String("attribute_exists(PK) AND eventLayout = :layout AND #s = :active"),
			ExpressionAttributeNames:  map[string]string{"#s": "status"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":at": at, ":layout": str(layout), ":active": str("active")}}
		userUp := &types.Update{TableName: aws.String(mainName),
			Key:                       map[string]types.AttributeValue{"PK": str("_CTR#usage#" + user + "#" + shard), "SK": str("SHARD")},
			UpdateExpression:          aws.String("ADD usageThisMonth :one"),
			ConditionExpression:       aws.String("attribute_exists(PK) AND #p = :plan"),
			ExpressionAttributeNames:  map[string]string{"#p": "plan"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":one": num(1), ":plan": str(plan)}}
		in := &dynamodb.TransactWriteItemsInput{}
		if full {
			item["_type"], item["_v"] = str("Event"), num(1)
			item["_wt"] = &types.AttributeValueMemberSS{Value: []string{randomToken()}}
			in.ClientRequestToken = aws.String(randomToken())
			put.ConditionExpression = aws.String("attribute_not_exists(#pk)") // an expired item in the way: sent again on "... OR #ttl BETWEEN :tiny AND :now", as the library does
			put.ExpressionAttributeNames = map[string]string{"#pk": "PK"}
			put.ReturnValuesOnConditionCheckFailure = allOld
			srcUp.UpdateExpression = aws.String("SET #ty = :ty, lastEventAt = :at ADD eventCount :one")
			srcUp.ExpressionAttributeNames["#ty"] = "_type"
			srcUp.ExpressionAttributeValues[":ty"] = str("_counter")
			srcUp.ReturnValuesOnConditionCheckFailure = allOld
			userUp.UpdateExpression = aws.String("SET #ty = :ty ADD usageThisMonth :one")
			userUp.ExpressionAttributeNames["#ty"] = "_type"
			userUp.ExpressionAttributeValues[":ty"] = str("_counter")
			userUp.ReturnValuesOnConditionCheckFailure = allOld
		}
		in.TransactItems = []types.TransactWriteItem{{Put: put}, {Update: srcUp}, {Update: userUp}}
		_, err = c.TransactWriteItems(sb.ctx, in)
		return err
	}
}

// BenchmarkListEventsSharded reads the first page of 20 events, newest
// first, of a source of 64 event partitions holding 200 events (FH-7 in
// the scaled profile; issue 22): Events.ListBySource (a strongly
// consistent GetItem of the layout on counter shard 0, then one Query per
// partition, SRC#{sourceId} and SRC#{sourceId}#0..#63, sent at once and
// merged) against the same by hand: the GetItem, 65 concurrent Queries of
// up to 20 events each, expired events dropped, a merge newest first, the
// 20 decoded with attributevalue and a cursor of per-partition positions
// (JSON, base64; the library also seals its cursor).
func BenchmarkListEventsSharded(b *testing.B) {
	const limit, stored = 20, 200
	sb := newScaledBench(b)
	ferryhook.SpreadEventIDs(sb.s, ferryhook.DefaultCounterShards, ferryhook.DefaultEventShards) // 3 or 4 events in each partition
	for range stored {
		if _, err := sb.ingest(); err != nil {
			b.Fatal(err)
		}
	}
	rc := &tabletest.RequestCounter{}
	p, err := sb.countingStore(b, rc).Events.ListBySource(sb.ctx, sb.src.SourceID, table.Limit(limit))
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("library's first page: %d events, requests %v", len(p.Items), rc.Ops())
	raw := sb.rawList(limit)
	lib := func() error {
		p, err := sb.s.Events.ListBySource(sb.ctx, sb.src.SourceID, table.Limit(limit))
		if err == nil && (len(p.Items) != limit || p.Cursor == "") {
			err = fmt.Errorf("%d events, cursor %q", len(p.Items), p.Cursor)
		}
		return err
	}
	// Both sides return the same page.
	var rawIDs []string
	rawPage := func(ids []string) { rawIDs = ids }
	if err := sb.rawListInto(limit, rawPage)(); err != nil {
		b.Fatal(err)
	}
	libIDs := make([]string, len(p.Items))
	for i, ev := range p.Items {
		libIDs[i] = string(ev.EventID)
	}
	if !slices.Equal(libIDs, rawIDs) {
		b.Fatalf("the pages differ:\nlibrary %v\nraw     %v", libIDs, rawIDs)
	}
	tabletest.Compare(b, 30, lib, raw)
}

func (sb scaledBench) rawList(limit int) func() error {
	return sb.rawListInto(limit, func([]string) {})
}

// rawListInto returns the hand-written first page; page receives its
// event IDs.
func (sb scaledBench) rawListInto(limit int, page func([]string)) func() error {
	c, eventsName, mainName := sb.events.Client(), sb.events.Name(), sb.main.Name()
	src := string(sb.src.SourceID)
	type part struct {
		items []map[string]types.AttributeValue
		more  bool // the Query stopped at its limit
	}
	type entry struct {
		sk   string
		part int
		item map[string]types.AttributeValue
	}
	return func() error {
		ctx := sb.ctx
		out, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(mainName), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{"PK": str("_CTR#src#" + src + "#0"), "SK": str("SHARD")}})
		if err != nil {
			return err
		}
		// The partitions: SRC#{sourceId} itself and #0..#{N-1} for the
		// largest count N of the layout's epochs ("from:n,from:n").
		n := 0
		if l, ok := out.Item["eventLayout"].(*types.AttributeValueMemberS); ok {
			for epoch := range strings.SplitSeq(l.Value, ",") {
				_, count, _ := strings.Cut(epoch, ":")
				k, err := strconv.Atoi(count)
				if err != nil {
					return fmt.Errorf("layout %q: %w", l.Value, err)
				}
				n = max(n, k)
			}
		}
		pks := []string{"SRC#" + src}
		for i := range n {
			pks = append(pks, "SRC#"+src+"#"+strconv.Itoa(i))
		}
		parts := make([]part, len(pks))
		errs := make([]error, len(pks))
		var wg sync.WaitGroup
		for i, pk := range pks {
			wg.Go(func() {
				q, err := c.Query(ctx, &dynamodb.QueryInput{
					TableName:              aws.String(eventsName),
					KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :evt)"),
					ExpressionAttributeValues: map[string]types.AttributeValue{
						":pk": str(pk), ":evt": str("EVT#"),
					},
					ScanIndexForward: aws.Bool(false),
					Limit:            aws.Int32(int32(limit)),
				})
				if err != nil {
					errs[i] = err
					return
				}
				parts[i] = part{items: q.Items, more: len(q.LastEvaluatedKey) > 0}
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		now := time.Now().Unix()
		var all []entry
		for i, p := range parts {
			for _, it := range p.items {
				if ttl, ok := it["expiresAt"].(*types.AttributeValueMemberN); ok {
					if s, err := strconv.ParseInt(ttl.Value, 10, 64); err == nil && s > 0 && s <= now {
						continue // expired, not yet deleted
					}
				}
				sk, _ := it["SK"].(*types.AttributeValueMemberS)
				if sk == nil {
					return fmt.Errorf("partition %s: an item without SK", pks[i])
				}
				all = append(all, entry{sk: sk.Value, part: i, item: it})
			}
		}
		slices.SortFunc(all, func(a, b entry) int {
			if o := strings.Compare(b.sk, a.sk); o != 0 {
				return o
			}
			return a.part - b.part
		})
		all = all[:min(limit, len(all))]
		// The cursor: per partition, the last sort key listed, "done" when
		// the partition has nothing more.
		listed := make([]int, len(pks))
		pos := make(map[string]string, len(pks))
		items := make([]map[string]types.AttributeValue, len(all))
		for i, e := range all {
			items[i] = e.item
			listed[e.part]++
			pos[strconv.Itoa(e.part)] = e.sk
		}
		more := false
		for i, p := range parts {
			if listed[i] == len(p.items) && !p.more {
				pos[strconv.Itoa(i)] = "done"
			} else {
				more = true
			}
		}
		var evs []rawEvent
		if err := attributevalue.UnmarshalListOfMaps(items, &evs); err != nil {
			return err
		}
		cursor := ""
		if more {
			j, err := json.Marshal(pos)
			if err != nil {
				return err
			}
			cursor = base64.RawURLEncoding.EncodeToString(j)
		}
		if len(evs) != limit || cursor == "" {
			return fmt.Errorf("%d events, cursor %q", len(evs), cursor)
		}
		ids := make([]string, len(evs))
		for i, ev := range evs {
			ids[i] = ev.EventID
		}
		page(ids)
		return nil
	}
}

// benchShardedEventByID pairs FH-8 for an event the scaled profile
// ingested into one of its source's 64 partitions: Events.GetByID (the
// ID names the key, one strongly consistent GetItem) against the same
// consistent GetItem by hand, its key taken from the ID, the expiry
// checked and the item decoded with attributevalue.
func benchShardedEventByID(b *testing.B) {
	sb := newScaledBench(b)
	var ev fh.Event
	for range 3 {
		var err error
		if ev, err = sb.ingest(); err != nil {
			b.Fatal(err)
		}
	}
	if _, _, bucket, ok := ev.EventID.Location(); !ok || bucket < 1 {
		b.Fatalf("event %s is not in a sharded partition (bucket %d)", ev.EventID, bucket)
	}
	rc := &tabletest.RequestCounter{}
	if _, err := sb.countingStore(b, rc).Events.GetByID(sb.ctx, ev.EventID); err != nil {
		b.Fatal(err)
	}
	if rc.Total() != 1 || rc.Of("GetItem") != 1 {
		b.Fatalf("GetByID of a sharded event sent %v, want 1 GetItem", rc.Ops())
	}
	c, eventsName := sb.events.Client(), sb.events.Name()
	lib := func() error {
		got, err := sb.s.Events.GetByID(sb.ctx, ev.EventID)
		if err == nil && got.EventID != ev.EventID {
			err = fmt.Errorf("got event %s", got.EventID)
		}
		return err
	}
	raw := func() error {
		src, at, bucket, ok := ev.EventID.Location()
		if !ok {
			return fmt.Errorf("event ID %s names no key", ev.EventID)
		}
		pk := "SRC#" + string(src)
		if bucket > 0 {
			pk += "#" + strconv.Itoa(bucket-1)
		}
		out, err := c.GetItem(sb.ctx, &dynamodb.GetItemInput{TableName: aws.String(eventsName), ConsistentRead: aws.Bool(true),
			Key: map[string]types.AttributeValue{
				"PK": str(pk), "SK": str("EVT#" + strconv.FormatInt(int64(at), 10) + "#" + string(ev.EventID)),
			}})
		if err != nil {
			return err
		}
		if out.Item == nil {
			return fmt.Errorf("event not found")
		}
		var r rawEvent
		if err := attributevalue.UnmarshalMap(out.Item, &r); err != nil {
			return err
		}
		if r.ExpiresAt > 0 && r.ExpiresAt <= time.Now().Unix() {
			return fmt.Errorf("event expired")
		}
		if r.EventID != string(ev.EventID) {
			return fmt.Errorf("got event %s", r.EventID)
		}
		return nil
	}
	tabletest.Compare(b, 200, lib, raw)
}
