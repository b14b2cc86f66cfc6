package ferryhook_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// The ingest routes of issue 44, each three ways (BenchmarkWorkload's
// "ingest-8-together" and "ingest-stream-counted" rows, and its WCU per
// event table): the library's profile ("lib"), hand-written
// aws-sdk-go-v2 sending the same requests with the same guarantees
// ("same"), and the running service's own requests for the same events
// ("min" in those rows: Jrjoseph831/ferryhook's ingest handler, a PutItem
// of the event with its GSI1 keys and an UpdateItem adding to the user's
// usageThisMonth, no condition on the source, no atomicity, no count per
// source).
type ingestRoutes struct {
	ctx            context.Context
	c              *dynamodb.Client
	main, events   string
	user           fh.User
	scaled, stream *ferryhook.Store
	// scaledSrc and streamSrc were created by their profile's store: 32
	// counter shards each and 64 event partitions (layout 0:64).
	scaledSrc, streamSrc fh.Source
	body                 string
	headers              fh.JSONText
}

// groupSize is the "ingest-8-together" row's events per operation.
const groupSize = 8

// newIngestRoutes creates, on main and events reached through c, a user,
// and a source in each of the scaled and the stream-counted profiles.
func newIngestRoutes(tb testing.TB, c *dynamodb.Client, main, events table.Schema, body string, headers fh.JSONText) *ingestRoutes {
	tb.Helper()
	ctx := context.Background()
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	mt, et := table.New(c, main, withCipher), table.New(c, events, withCipher)
	// StateCheck an hour: the re-read of a source's state once a second
	// (its cost is in Options.StateCheck's doc) is not an ingest's; on a
	// loaded machine, where an operation takes seconds, it would be
	// counted as one read per ingest.
	hour := func(o *ferryhook.Options) { o.StateCheck = time.Hour }
	r := &ingestRoutes{ctx: ctx, c: c, main: main.Name, events: events.Name, body: body, headers: headers,
		scaled: ferryhook.New(mt, et, ferryhook.ScaledProfile(), hour, benchPlanLimit), stream: ferryhook.New(mt, et, ferryhook.StreamCountedProfile(), hour, benchPlanLimit)}
	var err error
	if r.user, err = r.scaled.Users.Create(ctx, ferryhook.CreateUserInput{Email: "routes@example.com", Name: "R", GitHubID: "2"}); err != nil {
		tb.Fatal(err)
	}
	if r.scaledSrc, err = r.scaled.Sources.Create(ctx, r.user.UserID, ferryhook.CreateSourceInput{Name: "scaled", Provider: fh.ProviderStripe}); err != nil {
		tb.Fatal(err)
	}
	if r.streamSrc, err = r.stream.Sources.Create(ctx, r.user.UserID, ferryhook.CreateSourceInput{Name: "stream", Provider: fh.ProviderStripe}); err != nil {
		tb.Fatal(err)
	}
	for _, op := range []func() error{r.libGroup, r.libStream} { // learn the owners
		if err := op(); err != nil {
			tb.Fatal(err)
		}
	}
	return r
}

func (r *ingestRoutes) req() ferryhook.IngestRequest {
	return ferryhook.IngestRequest{Body: r.body, Headers: r.headers, ContentType: "application/json", Method: "POST", SourceIP: "203.0.113.7"}
}

// --- events that arrive together: 8 per operation, scaled profile ---

func (r *ingestRoutes) libGroup() error {
	reqs := make([]ferryhook.IngestRequest, groupSize)
	for i := range reqs {
		reqs[i] = r.req()
	}
	evs, err := r.scaled.IngestBatch(r.ctx, r.scaledSrc.SourceID, reqs)
	if err == nil && len(evs) != groupSize {
		err = fmt.Errorf("%d events", len(evs))
	}
	return err
}

// routeEvent is the event item of one ingest into src, as the library
// stores it: a located ID in one of the source's 64 event partitions,
// type and version, and either byKey (no GSI1 keys) or its GSI1 keys.
func (r *ingestRoutes) routeEvent(src fh.Source, now time.Time, byKey bool) (map[string]types.AttributeValue, error) {
	ms := now.UnixMilli()
	b := rand.IntN(64)
	id := string(fh.NewLocatedEventID(src.SourceID, fh.UnixMillis(ms), b+1))
	item, err := attributevalue.MarshalMap(rawEvent{
		PK: table.ShardPK("SRC#"+string(src.SourceID), b, 64), SK: "EVT#" + strconv.FormatInt(ms, 10) + "#" + id,
		GSI1PK: "EVTID#" + id, GSI1SK: "EVENT",
		EventID: id, SourceID: string(src.SourceID), UserID: string(src.UserID), Status: "received",
		Headers: string(r.headers), Body: r.body, SourceIP: "203.0.113.7", ContentType: "application/json", Method: "POST",
		ReceivedAt: ms, ExpiresAt: ms/1000 + 86400,
	})
	if err != nil {
		return nil, err
	}
	if byKey {
		delete(item, "GSI1PK")
		delete(item, "GSI1SK")
		item["byKey"] = &types.AttributeValueMemberBOOL{Value: true}
	}
	item["_type"], item["_v"] = str("Event"), num(1)
	return item, nil
}

// counterShard is the key of shard i of a counter set (the engine's
// _CTR#{name}#{owner}#{i} / SHARD).
func counterShard(name, owner string, i int) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": str("_CTR#" + name + "#" + owner + "#" + strconv.Itoa(i)), "SK": str("SHARD")}
}

// sameGroup is the library's group transaction by hand: 8 creates
// (attribute_not_exists, the item returned on a failure) in their event
// partitions, one delta on a source shard (if it exists, status active,
// the event layout the events were placed by) and one on a usage shard
// (if it exists, the plan expiresAt came from), and a ClientRequestToken
// that makes a lost response's retry apply once.
func (r *ingestRoutes) sameGroup() error {
	now := time.Now()
	var items []types.TransactWriteItem
	for range groupSize {
		item, err := r.routeEvent(r.scaledSrc, now, true)
		if err != nil {
			return err
		}
		items = append(items, types.TransactWriteItem{Put: &types.Put{TableName: aws.String(r.events), Item: item,
			ConditionExpression:                 aws.String("attribute_not_exists(#pk)"),
			ExpressionAttributeNames:            map[string]string{"#pk": "PK"},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}})
	}
	i := rand.IntN(32)
	items = append(items,
		types.TransactWriteItem{Update: &types.Update{TableName: aws.String(r.main), Key: counterShard("src", string(r.scaledSrc.SourceID), i),
			UpdateExpression:          aws.String("SET #ty = :ty, #l0 = :l0 ADD #s0 :s0"),
			ConditionExpression:       aws.String("attribute_exists(#pk) AND #c0 = :c0 AND #c1 = :c1"),
			ExpressionAttributeNames:  map[string]string{"#pk": "PK", "#ty": "_type", "#l0": "lastEventAt", "#s0": "eventCount", "#c0": "eventLayout", "#c1": "status"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":ty": str("_counter"), ":l0": str(now.UTC().Format("2006-01-02T15:04:05.000Z")), ":s0": num(groupSize), ":c0": str("0:64"), ":c1": str("active")}}},
		types.TransactWriteItem{Update: &types.Update{TableName: aws.String(r.main), Key: counterShard("usage", string(r.user.UserID), i),
			UpdateExpression:          aws.String("SET #ty = :ty ADD #s0 :s0"),
			ConditionExpression:       aws.String("attribute_exists(#pk) AND #c0 = :c0"),
			ExpressionAttributeNames:  map[string]string{"#pk": "PK", "#ty": "_type", "#s0": "usageThisMonth", "#c0": "plan"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":ty": str("_counter"), ":s0": num(groupSize), ":c0": str("free")}}})
	_, err := r.c.TransactWriteItems(r.ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(txToken()), TransactItems: items})
	return err
}

// serviceIngest is the running service's own requests for one event:
// PutItem of the event (its ID evt_ + nanoid(16), GSI1 keys, the
// document's partition) and UpdateItem adding 1 to the user's
// usageThisMonth (its incrementUsage, fire-and-forget: sent here after
// the put).
func (r *ingestRoutes) serviceIngest(src fh.Source) error {
	now := time.Now()
	ms := now.UnixMilli()
	id := string(fh.NewEventID())
	item, err := attributevalue.MarshalMap(rawEvent{
		PK: "SRC#" + string(src.SourceID), SK: "EVT#" + strconv.FormatInt(ms, 10) + "#" + id,
		GSI1PK: "EVTID#" + id, GSI1SK: "EVENT",
		EventID: id, SourceID: string(src.SourceID), UserID: string(src.UserID), Status: "received",
		Headers: string(r.headers), Body: r.body, SourceIP: "203.0.113.7", ContentType: "application/json", Method: "POST",
		ReceivedAt: ms, ExpiresAt: ms/1000 + 86400,
	})
	if err != nil {
		return err
	}
	if _, err := r.c.PutItem(r.ctx, &dynamodb.PutItemInput{TableName: aws.String(r.events), Item: item}); err != nil {
		return err
	}
	_, err = r.c.UpdateItem(r.ctx, &dynamodb.UpdateItemInput{TableName: aws.String(r.main),
		Key:                       map[string]types.AttributeValue{"PK": str("USER#" + string(r.user.UserID)), "SK": str("PROFILE")},
		UpdateExpression:          aws.String("SET usageThisMonth = usageThisMonth + :inc"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":inc": num(1)}})
	return err
}

func (r *ingestRoutes) serviceGroup() error {
	for range groupSize {
		if err := r.serviceIngest(r.scaledSrc); err != nil {
			return err
		}
	}
	return nil
}

// --- one event, counted from the stream ---

func (r *ingestRoutes) libStream() error {
	_, err := r.stream.Ingest(r.ctx, r.streamSrc.SourceID, r.req())
	return err
}

// sameStream is the stream-counted ingest by hand: one PutItem of the
// event with its GSI1 keys in one of the source's partitions, on
// attribute_not_exists, with a write token (a lost response's retry
// recognises its own item) and the item returned on a failure; the
// counts are the consumer's (the same handler's work for both).
func (r *ingestRoutes) sameStream() error {
	now := time.Now()
	item, err := r.routeEvent(r.streamSrc, now, false)
	if err != nil {
		return err
	}
	item["_wt"] = &types.AttributeValueMemberSS{Value: []string{writeToken(now)}}
	_, err = r.c.PutItem(r.ctx, &dynamodb.PutItemInput{TableName: aws.String(r.events), Item: item,
		ConditionExpression:                 aws.String("attribute_not_exists(#pk)"),
		ExpressionAttributeNames:            map[string]string{"#pk": "PK"},
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld})
	return err
}

func (r *ingestRoutes) serviceStream() error { return r.serviceIngest(r.streamSrc) }

// routeWCU is one ingest variant's measured cost.
type routeWCU struct {
	Name              string
	WCU, Requests     float64 // per event
	Consumer          float64 // of WCU, the stream consumer's share
	Guarantees, Notes string
}

// measureRouteWCU meters n operations of each ingest variant (1.8 KB
// events, as SCALE.md assumes) on fresh tables with a stream, and for the
// stream-counted variants the consumer's counting of them in batches of
// wcuBatch records: write units and requests per event, over every key of
// both tables and their GSIs.
func measureRouteWCU(tb testing.TB, n int) []routeWCU {
	tb.Helper()
	mainT := tabletest.NewTable(tb, ferryhook.MainSchema(ferryhook.DefaultMainTable, table.WithStream(types.StreamViewTypeNewAndOldImages)))
	eventsT := tabletest.NewTable(tb, ferryhook.EventsSchema(ferryhook.DefaultEventsTable, table.WithStream(types.StreamViewTypeNewAndOldImages)))
	meter := capacity.NewMeter(tabletest.Client(tb))
	rc := &tabletest.RequestCounter{}
	mc := tabletest.NewClient(tb, meter.Option(), rc.Option())
	r := newIngestRoutes(tb, mc, mainT.Schema(), eventsT.Schema(), scaleBody, scaleHeaders)
	defaultStore := ferryhook.New(table.New(mc, mainT.Schema(), func(o *table.Options) { o.Cipher = tabletest.Cipher() }),
		table.New(mc, eventsT.Schema(), func(o *table.Options) { o.Cipher = tabletest.Cipher() }))
	defSrc, err := defaultStore.Sources.Create(r.ctx, r.user.UserID, ferryhook.CreateSourceInput{Name: "default", Provider: fh.ProviderStripe})
	if err != nil {
		tb.Fatal(err)
	}
	libDefault := func() error { _, err := defaultStore.Ingest(r.ctx, defSrc.SourceID, r.req()); return err }
	if err := libDefault(); err != nil {
		tb.Fatal(err)
	}
	consume := func() {
		cons := &feed.Consumer{Table: table.New(mc, eventsT.Schema()), Name: "wcu", Handler: r.stream.CountsHandler(), BatchSize: wcuBatch}
		if err := cons.CatchUp(r.ctx); err != nil {
			tb.Fatal(err)
		}
	}
	consume() // the records so far (setup), outside the measurement
	type variant struct {
		name, guarantees string
		op               func() error
		events           int
		stream           bool
	}
	vs := []variant{
		{"lib document profile (default)", "all, immediate (one transaction)", libDefault, 1, false},
		{"lib ScaledProfile, 8 together", "all, immediate (one transaction of 8)", r.libGroup, groupSize, false},
		{"same by hand, 8 together", "all, immediate", r.sameGroup, groupSize, false},
		{"lib StreamCountedProfile", "bounded (StreamCountedProfile's doc)", r.libStream, 1, true},
		{"same by hand, stream-counted", "bounded, with the same consumer", r.sameStream, 1, true},
		{"the service's own requests", "none: no atomicity, no count per source, a paused source takes events for 5 minutes", r.serviceStream, 1, false},
	}
	var out []routeWCU
	for _, v := range vs {
		if v.stream {
			consume() // the other variants' records, outside the measurement
		}
		meter.Reset()
		rc.Reset()
		for range n {
			if err := v.op(); err != nil {
				tb.Fatalf("%s: %v", v.name, err)
			}
		}
		w, q := meter.Total().Write, float64(rc.Total())
		var consumer float64
		if v.stream {
			before := meter.Total().Write
			consume()
			consumer = meter.Total().Write - before
			w, q = meter.Total().Write, float64(rc.Total())
		}
		ev := float64(n * v.events)
		out = append(out, routeWCU{Name: v.name, WCU: w / ev, Requests: q / ev, Consumer: consumer / ev, Guarantees: v.guarantees})
	}
	return out
}

// routeWCUTable renders rs as markdown.
func routeWCUTable(rs []routeWCU) string {
	s := "| ingest | WCU per event | of which the stream consumer | requests per event | guarantees |\n|---|---|---|---|---|\n"
	for _, r := range rs {
		s += fmt.Sprintf("| %s | %.2f | %.2f | %.2f | %s |\n", r.Name, r.WCU, r.Consumer, r.Requests, r.Guarantees)
	}
	return s
}

// TestIngestRoutesWCU_FH12_FH16 measures the WCU column of
// BenchmarkWorkload (measureRouteWCU, 1.8 KB events) and holds each route
// to its model: the document profile 12, the scaled profile's group of 8
// and its hand-written twin 4.5 (4 + 4/8), the stream-counted profile and
// its twin 4 plus the consumer's share (under 0.5 at batches of 100
// records), the service's own requests 6.
func TestIngestRoutesWCU_FH12_FH16(t *testing.T) {
	t.Parallel()
	rs := measureRouteWCU(t, 16)
	t.Logf("WCU per event (capacity.Meter, 1.8 KB events):\n%s", routeWCUTable(rs))
	want := []struct{ lo, hi float64 }{{12, 12}, {4.5, 4.5}, {4.5, 4.5}, {4, 4.5}, {4, 4.5}, {6, 6}}
	for i, r := range rs {
		if r.WCU < want[i].lo-1e-9 || r.WCU > want[i].hi+1e-9 {
			t.Errorf("%s: %.3f WCU per event, want %.2f..%.2f", r.Name, r.WCU, want[i].lo, want[i].hi)
		}
	}
}

var latencyOps = flag.Int("latency.ops", 300, "BenchmarkIngestLatency: operations per profile")

// BenchmarkIngestLatency measures each ingest profile's latency on
// DynamoDB Local (issue 44): p50 and p99 of one ingest, sequential, and of
// one ingest among 16 concurrent callers into one source (where the
// scaled profile's group commit gathers them), with 1.8 KB events.
// Figures are DynamoDB Local's on this machine, not AWS's: compare the
// profiles with each other. Run: go test ./query/ferryhook -run xxx
// -bench IngestLatency -benchtime 1x -v.
func BenchmarkIngestLatency(b *testing.B) {
	mainT := tabletest.NewTable(b, ferryhook.MainSchema(ferryhook.DefaultMainTable))
	eventsT := tabletest.NewTable(b, ferryhook.EventsSchema(ferryhook.DefaultEventsTable))
	r := newIngestRoutes(b, tabletest.Client(b), mainT.Schema(), eventsT.Schema(), scaleBody, scaleHeaders)
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	def := ferryhook.New(table.New(r.c, mainT.Schema(), withCipher), table.New(r.c, eventsT.Schema(), withCipher))
	defSrc, err := def.Sources.Create(r.ctx, r.user.UserID, ferryhook.CreateSourceInput{Name: "default", Provider: fh.ProviderStripe})
	if err != nil {
		b.Fatal(err)
	}
	one := func(s *ferryhook.Store, src fh.SourceID) func() error {
		return func() error { _, err := s.Ingest(r.ctx, src, r.req()); return err }
	}
	for _, v := range []struct {
		name    string
		op      func() error
		callers int
	}{
		{"document-profile", one(def, defSrc.SourceID), 1},
		{"scaled", one(r.scaled, r.scaledSrc.SourceID), 1},
		{"stream-counted", r.libStream, 1},
		{"service-own", r.serviceStream, 1},
		{"document-profile-16-callers", one(def, defSrc.SourceID), 16},
		{"scaled-16-callers", one(r.scaled, r.scaledSrc.SourceID), 16},
		{"stream-counted-16-callers", r.libStream, 16},
		{"service-own-16-callers", r.serviceStream, 16},
	} {
		b.Run(v.name, func(b *testing.B) {
			for range 30 { // warm up
				if err := v.op(); err != nil {
					b.Fatal(err)
				}
			}
			lat := make([]time.Duration, *latencyOps)
			var next atomic.Int64
			var wg sync.WaitGroup
			var failed atomic.Pointer[error]
			for range v.callers {
				wg.Go(func() {
					for {
						i := next.Add(1) - 1
						if i >= int64(len(lat)) {
							return
						}
						t0 := time.Now()
						if err := v.op(); err != nil {
							failed.Store(&err)
							return
						}
						lat[i] = time.Since(t0)
					}
				})
			}
			wg.Wait()
			if e := failed.Load(); e != nil {
				b.Fatal(*e)
			}
			slices.Sort(lat)
			p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
			b.ReportMetric(float64(p50.Microseconds()), "p50-us")
			b.ReportMetric(float64(p99.Microseconds()), "p99-us")
			b.Logf("%s: p50 %v, p99 %v over %d ingests (%d callers)", v.name, p50.Round(10*time.Microsecond), p99.Round(10*time.Microsecond), len(lat), v.callers)
		})
	}
}
