package table_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

func TestBatchWriteRetriesUnprocessed(t *testing.T) {
	t.Parallel()
	fault := &tabletest.Unprocessed{Fraction: 0.3}
	client := tabletest.NewClient(t, fault.Option())
	f := newFixture(t)
	faulty := table.NewEntity(table.New(client, f.t.Schema(), func(o *table.Options) { o.BatchBackoff = time.Millisecond }), noteDef)
	c := ctx(t)
	items := make([]*note, 60)
	for i := range items {
		items[i] = &note{MemberID: "m1", Seq: i + 1, Text: "x"}
	}
	if err := faulty.BatchPut(c, items); err != nil {
		t.Fatal(err)
	}
	if fault.Rounds() <= 3 {
		t.Errorf("only %d BatchWriteItem rounds for 60 items with 30%% held back: retries did not happen", fault.Rounds())
	}
	var n int
	for _, err := range f.notes.ListAll(c, table.Query{PK: "MEMBER#m1"}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 60 {
		t.Errorf("stored %d of 60 items", n)
	}
	// BatchGet through the same faulty client gets all 60 back.
	ks := make([]table.Key, 60)
	for i := range ks {
		ks[i] = table.Key{PK: "MEMBER#m1", SK: fmt.Sprintf("NOTE#%04d", i+1)}
	}
	got, err := faulty.BatchGet(c, ks)
	if err != nil || len(got) != 60 {
		t.Fatalf("batch get: %d items, %v", len(got), err)
	}
	for i, n := range got {
		if n.Seq != i+1 {
			t.Fatalf("batch get order: item %d has seq %d", i, n.Seq)
		}
	}
}

func TestBatchWriteGivesUpListingExactKeys(t *testing.T) {
	t.Parallel()
	client := tabletest.NewClient(t, (&tabletest.Unprocessed{Fraction: 0.3, RoundUp: true}).Option())
	f := newFixture(t)
	faulty := table.NewEntity(table.New(client, f.t.Schema(), func(o *table.Options) {
		o.BatchBackoff, o.MaxBatchAttempts = time.Millisecond, 2
	}), noteDef)
	items := make([]*note, 10)
	for i := range items {
		items[i] = &note{MemberID: "m1", Seq: i + 1}
	}
	err := faulty.BatchPut(ctx(t), items)
	var be *table.BatchError
	if !errors.As(err, &be) || !errors.Is(err, table.ErrUnprocessed) {
		t.Fatalf("got %v, want a BatchError", err)
	}
	// Two rounds: 10 sent, 3 held back; 3 sent, 1 held back. The error
	// lists exactly the key that is not in the table.
	stored := map[string]bool{}
	for n, err := range f.notes.ListAll(ctx(t), table.Query{PK: "MEMBER#m1"}) {
		if err != nil {
			t.Fatal(err)
		}
		stored[fmt.Sprintf("NOTE#%04d", n.Seq)] = true
	}
	for _, k := range be.Keys {
		if stored[k.SK] {
			t.Errorf("key %s listed as not written but it is stored", k.SK)
		}
	}
	if len(be.Keys) != 1 || len(be.Keys)+len(stored) != 10 {
		t.Errorf("%d listed + %d stored != 10", len(be.Keys), len(stored))
	}
}

func TestBatchRejectsDuplicatesAndConditions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	n := &note{MemberID: "m1", Seq: 1}
	if err := f.notes.BatchPut(c, []*note{n, n}); !errors.Is(err, table.ErrDuplicateItem) {
		t.Errorf("duplicate put: %v", err)
	}
	k := table.Key{PK: "A", SK: "B"}
	if _, err := f.notes.BatchGet(c, []table.Key{k, k}); !errors.Is(err, table.ErrDuplicateItem) {
		t.Errorf("duplicate get: %v", err)
	}
	if err := f.t.BatchWrite(c, f.notes.DeleteOp(k)); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("conditional op in a batch: %v", err)
	}
	if err := f.members.BatchPut(c, []*member{{ID: "x", Email: "a@b.c"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("batch put of an entity with unique values: %v", err)
	}
}

// faultyClient is a client of the binary's DynamoDB Local with fault f
// and a quick retryer (3 attempts).
func faultyClient(t *testing.T, f *tabletest.Errors) *dynamodb.Client {
	return tabletest.NewClient(t, f.Option(), func(o *dynamodb.Options) {
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = 3
			so.MaxBackoff = 20 * time.Millisecond
		})
	})
}

func TestThrottlingRetriedThenTyped(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "m1", Email: "a@b.c", Status: "s"})
	// Two throttles, three attempts: the SDK's retries absorb them.
	th := &tabletest.Errors{Op: "GetItem", Code: "ProvisionedThroughputExceededException", Times: 2}
	e := table.NewEntity(table.New(faultyClient(t, th), f.t.Schema()), memberDef)
	if _, err := e.Get(c, k); err != nil {
		t.Errorf("get after 2 throttles: %v", err)
	}
	if th.Calls() != 3 {
		t.Errorf("%d attempts, want 3", th.Calls())
	}
	// Throttled on every attempt: a typed error.
	th2 := &tabletest.Errors{Op: "GetItem", Code: "ThrottlingException", Times: 1000}
	e2 := table.NewEntity(table.New(faultyClient(t, th2), f.t.Schema()), memberDef)
	if _, err := e2.Get(c, k); !errors.Is(err, table.ErrThrottled) {
		t.Errorf("always throttled: got %v, want ErrThrottled", err)
	}
	// A network error is retried by the SDK too.
	th3 := &tabletest.Errors{Op: "PutItem", Times: 1} // a network error
	e3 := table.NewEntity(table.New(faultyClient(t, th3), f.t.Schema()), noteDef)
	if err := e3.Create(c, &note{MemberID: "m1", Seq: 1}); err != nil {
		t.Errorf("create after one connection reset: %v", err)
	}
	// A throttled batch round is retried by the batch loop itself.
	th4 := &tabletest.Errors{Op: "BatchWriteItem", Code: "ProvisionedThroughputExceededException", Times: 4} // more than the SDK's 3 attempts
	e4 := table.NewEntity(table.New(faultyClient(t, th4), f.t.Schema(), func(o *table.Options) { o.BatchBackoff = time.Millisecond }), noteDef)
	if err := e4.BatchPut(c, []*note{{MemberID: "m2", Seq: 1}, {MemberID: "m2", Seq: 2}}); err != nil {
		t.Errorf("batch after throttling: %v", err)
	}
	if _, err := f.notes.Get(c, table.Key{PK: "MEMBER#m2", SK: "NOTE#0002"}); err != nil {
		t.Errorf("batch item missing: %v", err)
	}
}

func TestTransactionReportsFailingAction(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	if err := f.notes.Create(c, &note{MemberID: "m1", Seq: 2}); err != nil {
		t.Fatal(err)
	}
	a, err := f.notes.CreateOp(&note{MemberID: "m1", Seq: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.notes.CreateOp(&note{MemberID: "m1", Seq: 2}) // exists
	if err != nil {
		t.Fatal(err)
	}
	err = f.t.Transact(c, append(a, b...)...)
	var te *table.TxError
	if !errors.As(err, &te) || !errors.Is(err, table.ErrTransactionCanceled) {
		t.Fatalf("got %v, want TxError", err)
	}
	failed := te.Failed()
	if len(failed) != 1 || failed[0].Index != 1 || failed[0].Code != "ConditionalCheckFailed" ||
		failed[0].Key != (table.Key{PK: "MEMBER#m1", SK: "NOTE#0002"}) || failed[0].Entity != "Note" {
		t.Errorf("failed actions: %+v", failed)
	}
	if _, err := f.notes.Get(c, table.Key{PK: "MEMBER#m1", SK: "NOTE#0001"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("canceled transaction wrote action 0: %v", err)
	}
}

func TestTransactionLimitsAndIdempotency(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	var ops []table.TxOp
	for i := 0; i < 101; i++ {
		op, _ := f.notes.PutOp(&note{MemberID: "m1", Seq: i})
		ops = append(ops, op)
	}
	if err := f.t.Transact(c, ops...); !errors.Is(err, table.ErrTooManyItems) {
		t.Errorf("101 actions: %v", err)
	}
	if err := f.t.Transact(c, ops[0], ops[0]); !errors.Is(err, table.ErrDuplicateItem) {
		t.Errorf("duplicate item: %v", err)
	}
	if err := f.t.Transact(c); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("empty transaction: %v", err)
	}
	// 100 actions pass.
	if err := f.t.Transact(c, ops[:100]...); err != nil {
		t.Fatalf("100 actions: %v", err)
	}
	// The same token twice: the second is a no-op, even though a create
	// would now fail.
	create, _ := f.notes.CreateOp(&note{MemberID: "m2", Seq: 1})
	tok := []table.TxOption{table.IdempotencyToken(fmt.Sprint(time.Now().UnixNano()))}
	if err := f.t.TransactWith(c, tok, create...); err != nil {
		t.Fatal(err)
	}
	if err := f.t.TransactWith(c, tok, create...); err != nil {
		t.Errorf("repeated idempotent transaction: %v", err)
	}
	// Patch in a transaction with a condition check on another item.
	pop, err := f.notes.PatchOp(table.Key{PK: "MEMBER#m2", SK: "NOTE#0001"}, table.Patch{Set: map[string]any{"text": "edited"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.t.Transact(c, pop, f.t.ConditionOp(table.Key{PK: "MEMBER#nobody", SK: "PROFILE"})); !errors.Is(err, table.ErrTransactionCanceled) {
		t.Errorf("condition on a missing item: %v", err)
	}
}

func TestObserverReportsCapacity(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var evs []table.Event
	f := newFixture(t, func(o *table.Options) {
		o.Observer = func(_ context.Context, ev table.Event) { mu.Lock(); evs = append(evs, ev); mu.Unlock() }
	})
	c := ctx(t)
	if err := f.notes.Create(c, &note{MemberID: "m1", Seq: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.members.List(c, table.Query{Index: table.GSI1, PK: "STATUS#x"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(evs) != 2 || evs[0].Op != "PutItem" || evs[0].Entity != "Note" || evs[0].Capacity <= 0 ||
		evs[1].Op != "Query" || evs[1].Index != "GSI1" {
		t.Errorf("events: %+v", evs)
	}
}

func TestCreateDescribeDeleteTable(t *testing.T) {
	t.Parallel()
	c := ctx(t)
	tb := tabletest.NewTable(t, table.NewSchema("lifecycle"))
	if err := tb.Create(c); err != nil { // idempotent
		t.Fatalf("second create: %v", err)
	}
	d, err := tb.Describe(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.GlobalSecondaryIndexes) != table.DefaultIndexCount || d.BillingModeSummary == nil ||
		d.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Errorf("described table: %d GSIs, billing %+v", len(d.GlobalSecondaryIndexes), d.BillingModeSummary)
	}
	// The live table is exactly the exported definition.
	want := tb.Schema().CreateTableInput()
	type ix struct{ Name, PK, SK, Projection string }
	var wantIx, gotIx []ix
	for _, g := range want.GlobalSecondaryIndexes {
		wantIx = append(wantIx, ix{*g.IndexName, *g.KeySchema[0].AttributeName, *g.KeySchema[1].AttributeName, string(g.Projection.ProjectionType)})
	}
	for _, g := range d.GlobalSecondaryIndexes {
		gotIx = append(gotIx, ix{*g.IndexName, *g.KeySchema[0].AttributeName, *g.KeySchema[1].AttributeName, string(g.Projection.ProjectionType)})
	}
	sort.Slice(gotIx, func(i, j int) bool { return gotIx[i].Name < gotIx[j].Name })
	if diff := cmp.Diff(wantIx, gotIx); diff != "" {
		t.Errorf("live GSIs differ from the definition (-want +got):\n%s", diff)
	}
	if *d.KeySchema[0].AttributeName != "PK" || *d.KeySchema[1].AttributeName != "SK" {
		t.Errorf("key schema %+v", d.KeySchema)
	}
	ttl, err := tb.Client().DescribeTimeToLive(c, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(tb.Name())})
	if err != nil || ttl.TimeToLiveDescription.TimeToLiveStatus != types.TimeToLiveStatusEnabled ||
		aws.ToString(ttl.TimeToLiveDescription.AttributeName) != "ttl" {
		t.Errorf("TTL: %+v %v", ttl, err)
	}
	if err := tb.Delete(c); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Describe(c); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("describe after delete: %v", err)
	}
	if err := tb.Delete(c); err != nil {
		t.Errorf("deleting a missing table: %v", err)
	}
}
