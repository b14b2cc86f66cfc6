package ferryhook_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// scaledStore is a second scaled store on f's tables, reached through a
// client with opts (a counter, a fault). It trusts what it remembers of a
// source for an hour (Options.StateCheck), so request counts stay exact
// on a slow machine; TestScaledIngestSeesForeignState_FH11_FH12 covers
// the re-read.
func scaledStore(t *testing.T, f fixture, opts ...func(*dynamodb.Options)) *ferryhook.Store {
	t.Helper()
	client := tabletest.NewClient(t, opts...)
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	return ferryhook.New(table.New(client, f.main.Schema(), withCipher), table.New(client, f.events.Schema(), withCipher), ferryhook.ScaledProfile(),
		func(o *ferryhook.Options) { o.StateCheck = time.Hour })
}

func ingestOnce(c context.Context, s *ferryhook.Store, src fh.SourceID) (fh.Event, error) {
	return s.Ingest(c, src, ferryhook.IngestRequest{Body: `{"type":"invoice.paid"}`, ContentType: "application/json", Method: "POST"})
}

// storedEvents counts the events stored for source (FH-7).
func storedEvents(t *testing.T, s *ferryhook.Store, src fh.SourceID) int64 {
	t.Helper()
	var n int64
	for _, err := range table.Every(ctx(t), s.Events.ListBySource, src) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n
}

// runRollup runs the store's rollup job on the main table.
func runRollup(t *testing.T, s *ferryhook.Store, main *table.Table) table.JobReport {
	t.Helper()
	rep, err := main.RunJob(ctx(t), s.RollupJob())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// In the scaled profile an ingest is still one TransactWriteItems in the
// steady state, and writes neither the source nor the user item: the
// counts go to shards under their own partition keys, in no GSI. The exact
// figures (FH-13 Sources.Counts, FH-14 Users.Usage) are one BatchGetItem
// each and count every event; the rollup job brings the items' documented
// attributes to the same figures and a second run changes nothing.
func TestScaledProfileRequests_FH13_FH14(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, ferryhook.ScaledProfile())
	u := mustUser(t, f.store, "scaled@example.com")
	src := mustSource(t, f.store, u.UserID, "stripe")
	rc := &tabletest.RequestCounter{}
	s := scaledStore(t, f, rc.Option())
	if _, err := ingestOnce(ctx(t), s, src.SourceID); err != nil { // learns the owner
		t.Fatal(err)
	}
	// Created in the scaled profile, the source and the user have their
	// shards already: FH-4 (2), FH-1, the free plan's usage read (one
	// BatchGetItem, the plan limit: once per Options.StateCheck), the
	// transaction.
	if first := rc.Total(); first != 5 || rc.Of("TransactWriteItems") != 1 || rc.Of("BatchGetItem") != 1 {
		t.Errorf("the first ingest took %d requests (%v), want 5 (FH-4: 2, FH-1, the usage read, the transaction)", first, rc.Ops())
	}
	// A source and user the running service wrote (no shards): the first
	// ingest creates them, checking the items' state.
	plain := newFixtureStore(f)
	pu := mustUser(t, plain, "service-made@example.com")
	ps := mustSource(t, plain, pu.UserID, "service-made")
	rc.Reset()
	if _, err := ingestOnce(ctx(t), s, ps.SourceID); err != nil {
		t.Fatal(err)
	}
	if n := rc.Of("TransactWriteItems"); n != 4 {
		t.Errorf("the first ingest of a source without shards sent %d transactions (%v), want 4 (refused, 2 shard creations, the ingest)", n, rc.Ops())
	}
	first := rc.Total()
	rc.Reset()
	var last fh.Event
	for range 5 {
		ev, err := ingestOnce(ctx(t), s, src.SourceID)
		if err != nil {
			t.Fatal(err)
		}
		last = ev
	}
	if n := rc.Total(); n != 5 || rc.Of("TransactWriteItems") != 5 {
		t.Fatalf("5 ingests took %d requests (%d transactions), want 5 (the first took %d)", n, rc.Of("TransactWriteItems"), first)
	}
	t.Logf("scaled ingest: 5 requests for a source created in the profile, %d for one without shards (FH-4: 2, FH-1, the usage read, the transaction refused for lack of shards, 2 shard creations, the transaction again), then 1", first)
	// The items are untouched: their counts are the rollup's.
	item, err := f.store.Sources.ByID.Get(ctx(t), fh.Source{UserID: u.UserID, SourceID: src.SourceID})
	if err != nil {
		t.Fatal(err)
	}
	if item.EventCount != 0 {
		t.Errorf("the source item counts %d before a rollup, want 0 (no ingest writes it)", item.EventCount)
	}
	// Shards: own partitions, no index keys.
	out, err := f.main.Client().Scan(ctx(t), &dynamodb.ScanInput{TableName: aws.String(f.main.Name()),
		FilterExpression:          aws.String("begins_with(PK, :p)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "_CTR#"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Items) != 4*ferryhook.DefaultCounterShards {
		t.Errorf("%d counter shards stored, want %d (32 for each source, 32 for each user)", len(out.Items), 4*ferryhook.DefaultCounterShards)
	}
	for _, it := range out.Items {
		for a := range it {
			if strings.HasPrefix(a, "GSI") {
				t.Errorf("shard %v holds index attribute %s", it["PK"], a)
			}
		}
	}

	rc.Reset()
	counts, err := s.Sources.Counts(ctx(t), u.UserID, src.SourceID)
	if err != nil {
		t.Fatal(err)
	}
	usage, err := s.Users.Usage(ctx(t), u.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if rc.Total() != 2 || rc.Of("BatchGetItem") != 2 {
		t.Errorf("Counts and Usage took %d requests (%d BatchGetItem), want 1 BatchGetItem each", rc.Total(), rc.Of("BatchGetItem"))
	}
	if counts.EventCount != 6 || usage != 6 || !counts.LastEventAt.Equal(last.ReceivedAt.Time()) {
		t.Errorf("exact counts %+v, usage %d; want 6 events, the last at %v, usage 6", counts, usage, last.ReceivedAt.Time())
	}

	rep := runRollup(t, s, f.main)
	if rep.Changed != 4 {
		t.Errorf("rollup: %v, want 4 items changed (both sources and both users)", rep)
	}
	item, _ = f.store.Sources.ByID.Get(ctx(t), fh.Source{UserID: u.UserID, SourceID: src.SourceID})
	user, _ := f.store.Users.ByID.Get(ctx(t), fh.User{UserID: u.UserID})
	if item.EventCount != 6 || user.UsageThisMonth != 6 || !item.LastEventAt.Equal(last.ReceivedAt.Time()) {
		t.Errorf("after the rollup: eventCount %d lastEventAt %v, usageThisMonth %d; want 6, %v, 6", item.EventCount, item.LastEventAt, user.UsageThisMonth, last.ReceivedAt.Time())
	}
	if rep := runRollup(t, s, f.main); rep.Changed != 0 {
		t.Errorf("a second rollup: %v, want nothing changed", rep)
	}
	// The exact read after a rollup: the same figures.
	if counts, _ := s.Sources.Counts(ctx(t), u.UserID, src.SourceID); counts.EventCount != 6 {
		t.Errorf("Counts after the rollup: %d, want 6", counts.EventCount)
	}
}

// A source paused, resumed or deleted, and a plan changed, by a scaled
// store refuse (or change) the very next ingest of another scaled store
// that remembers the source's owner and plan: the state travels in the
// shards and the ingest's own transaction checks it (issue 22, sharded
// counters and state). Only accepted ingests are counted.
func TestScaledStateChangesRefuseInTransaction_FH12_FH13(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, ferryhook.ScaledProfile())
	admin := f.store
	u := mustUser(t, admin, "state@example.com")
	src := mustSource(t, admin, u.UserID, "stripe")
	s := scaledStore(t, f)
	accepted := int64(0)
	ingest := func() error {
		_, err := ingestOnce(ctx(t), s, src.SourceID)
		if err == nil {
			accepted++
		}
		return err
	}
	if err := ingest(); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Sources.Update(ctx(t), u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusPaused)}); err != nil {
		t.Fatal(err)
	}
	if err := ingest(); !errors.Is(err, ferryhook.ErrSourcePaused) {
		t.Fatalf("ingest into a source paused behind the cache: %v, want ErrSourcePaused", err)
	}
	if _, err := admin.Sources.Update(ctx(t), u.UserID, src.SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusActive)}); err != nil {
		t.Fatal(err)
	}
	if err := ingest(); err != nil {
		t.Fatalf("ingest after resume: %v", err)
	}
	pro := fh.PlanPro
	if _, err := admin.Users.Update(ctx(t), u.UserID, ferryhook.UserUpdate{Plan: &pro}); err != nil {
		t.Fatal(err)
	}
	ev, err := ingestOnce(ctx(t), s, src.SourceID)
	if err != nil {
		t.Fatal(err)
	}
	accepted++
	if want := fh.PlanPro.ExpiresAt(ev.ReceivedAt); ev.ExpiresAt != want {
		t.Errorf("expiresAt %d after the upgrade, want the pro retention %d", ev.ExpiresAt, want)
	}
	if err := admin.Sources.Delete(ctx(t), u.UserID, src.SourceID); err != nil {
		t.Fatal(err)
	}
	if err := ingest(); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("ingest into a deleted source: %v, want ErrNotFound", err)
	}
	if n := storedEvents(t, admin, src.SourceID); n != accepted {
		t.Errorf("%d events stored, %d ingests accepted", n, accepted)
	}
	if usage, err := admin.Users.Usage(ctx(t), u.UserID); err != nil || usage != accepted {
		t.Errorf("usage %d (%v), want %d", usage, err, accepted)
	}
	if _, err := admin.Sources.Counts(ctx(t), u.UserID, src.SourceID); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Counts of a deleted source: %v, want ErrNotFound", err)
	}
}

// A pause written on the source item by a writer that does not know the
// shards (the running service's sources.update) is not seen by the scaled
// ingest until the rollup copies it into the shards; then it is.
func TestScaledRollupCopiesForeignState(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, ferryhook.ScaledProfile())
	u := mustUser(t, f.store, "foreign@example.com")
	src := mustSource(t, f.store, u.UserID, "stripe")
	s := scaledStore(t, f)
	if _, err := ingestOnce(ctx(t), s, src.SourceID); err != nil {
		t.Fatal(err)
	}
	k, _ := ferryhook.SourceKey(u.UserID, src.SourceID)
	if _, err := f.main.Client().UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: aws.String(f.main.Name()), Key: rawKeyOf(f.main, k),
		UpdateExpression:          aws.String("SET #s = :p"),
		ExpressionAttributeNames:  map[string]string{"#s": "status"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": &types.AttributeValueMemberS{Value: "paused"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ingestOnce(ctx(t), s, src.SourceID); err != nil {
		t.Fatalf("before the rollup the shards still say active: %v", err)
	}
	runRollup(t, f.store, f.main)
	if _, err := ingestOnce(ctx(t), s, src.SourceID); !errors.Is(err, ferryhook.ErrSourcePaused) {
		t.Fatalf("after the rollup: %v, want ErrSourcePaused", err)
	}
	if item, _ := f.store.Sources.ByID.Get(ctx(t), fh.Source{UserID: u.UserID, SourceID: src.SourceID}); item.EventCount != 2 {
		t.Errorf("eventCount %d after the rollup, want 2", item.EventCount)
	}
}

// Exactly once, all or nothing, in the scaled profile: an ingest whose
// response is lost after DynamoDB applied it is resent with the same
// idempotency token and counted once; one canceled by TransactionConflict
// is retried and counted once; the rollup and the exact reads agree with
// the events stored. Writers, rollups and a direct increment of the user's
// usage by another writer (the service's incrementUsage) run at once: the
// rollup keeps the direct increment.
func TestScaledIngestUnderFaults_FH11_FH13_FH14(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, ferryhook.ScaledProfile())
	u := mustUser(t, f.store, "faults@example.com")
	var srcs []fh.Source
	for i := range 3 {
		srcs = append(srcs, mustSource(t, f.store, u.UserID, fmt.Sprintf("source %d", i)))
	}

	// Lost responses: a transaction applied, its answer thrown away twice
	// (the SDK's third attempt gets DynamoDB Local's answer to the same
	// token). The first 4 transactions pass untouched.
	lost := &tabletest.LostResponses{Op: "TransactWriteItems", Times: 2, After: 4}
	ls := scaledStore(t, f, lost.Option())
	for range 6 {
		if _, err := ingestOnce(ctx(t), ls, srcs[0].SourceID); err != nil {
			t.Fatal(err)
		}
	}
	if lost.Lost() != 2 {
		t.Fatalf("%d responses lost, want 2", lost.Lost())
	}
	// Conflicts: the first 3 transactions canceled with TransactionConflict.
	conflict := &tabletest.TxConflicts{}
	conflict.Left.Store(3)
	cs := scaledStore(t, f, func(o *dynamodb.Options) { o.HTTPClient = conflict })
	if _, err := ingestOnce(ctx(t), cs, srcs[1].SourceID); err != nil {
		t.Fatal(err)
	}
	if conflict.Seen.Load() < 4 {
		t.Fatalf("%d transactions sent, want the 3 conflicts retried", conflict.Seen.Load())
	}

	// Concurrent writers on all three sources, rollups, and the service's
	// own usage increments.
	var wg sync.WaitGroup
	var direct atomic.Int64
	stop := make(chan struct{})
	for w := range 4 {
		ws := scaledStore(t, f)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 8 {
				if _, err := ingestOnce(context.Background(), ws, srcs[(w+i)%3].SourceID); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	rolls := make(chan error, 1)
	go func() {
		for {
			select {
			case <-stop:
				rolls <- nil
				return
			default:
			}
			if _, err := f.main.RunJob(context.Background(), f.store.RollupJob()); err != nil {
				rolls <- err
				return
			}
		}
	}()
	for range 3 {
		if _, err := f.store.Users.IncrementUsage(ctx(t), u.UserID, 1); err != nil {
			t.Fatal(err)
		}
		direct.Add(1)
	}
	wg.Wait()
	close(stop)
	if err := <-rolls; err != nil {
		t.Fatal(err)
	}
	runRollup(t, f.store, f.main)

	var total int64
	for _, src := range srcs {
		n := storedEvents(t, f.store, src.SourceID)
		total += n
		counts, err := f.store.Sources.Counts(ctx(t), u.UserID, src.SourceID)
		if err != nil {
			t.Fatal(err)
		}
		item, _ := f.store.Sources.ByID.Get(ctx(t), fh.Source{UserID: u.UserID, SourceID: src.SourceID})
		if counts.EventCount != n || item.EventCount != n {
			t.Errorf("source %s: %d events stored, exact count %d, rolled-up eventCount %d", src.Name, n, counts.EventCount, item.EventCount)
		}
	}
	if want := int64(6 + 1 + 32); total != want {
		t.Errorf("%d events stored, want %d (each ingest once)", total, want)
	}
	usage, _ := f.store.Users.Usage(ctx(t), u.UserID)
	user, _ := f.store.Users.ByID.Get(ctx(t), fh.User{UserID: u.UserID})
	if want := total + direct.Load(); usage != want || user.UsageThisMonth != want {
		t.Errorf("usage exact %d, rolled-up %d; want %d (the events and the 3 direct increments)", usage, user.UsageThisMonth, want)
	}

	// A new billing period zeroes the item, the shards and the rollup item
	// at once; the next ingests count from 0.
	if _, err := f.store.Users.ResetUsage(ctx(t), u.UserID, user.UsagePeriodStart.AddDate(0, 1, 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := ingestOnce(ctx(t), ls, srcs[2].SourceID); err != nil {
		t.Fatal(err)
	}
	runRollup(t, f.store, f.main)
	usage, _ = f.store.Users.Usage(ctx(t), u.UserID)
	user, _ = f.store.Users.ByID.Get(ctx(t), fh.User{UserID: u.UserID})
	if usage != 1 || user.UsageThisMonth != 1 {
		t.Errorf("after a reset and one ingest: exact %d, rolled-up %d, want 1", usage, user.UsageThisMonth)
	}
}

// newFixtureStore is a default-profile store on f's tables: what the
// running service writes, without counter shards.
func newFixtureStore(f fixture) *ferryhook.Store {
	return ferryhook.New(f.main, f.events)
}
