package table_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// throttled returns the fixture's entities on a client whose meter throttles
// a partition past 1 WCU per modeled second, with a quick SDK retryer
// (3 attempts) and quick engine retries (3).
func throttled(t *testing.T, f fixture) (*capacity.Meter, *table.Entity[member], *table.Entity[note]) {
	t.Helper()
	m := capacity.NewMeter(tabletest.Client(t))
	m.Throttle, m.WriteLimit = true, 1
	client := tabletest.NewClient(t, m.Option(), func(o *dynamodb.Options) {
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = 3
			so.MaxBackoff = 20 * time.Millisecond
		})
	})
	tb := table.New(client, f.t.Schema(), func(o *table.Options) {
		o.Cipher, o.ConflictRetries, o.BatchBackoff = tabletest.Cipher(), 3, time.Millisecond
	})
	return m, table.NewEntity(tb, memberDef), table.NewEntity(tb, noteDef)
}

// TestHotPartitionThrottled: a write to a partition key past its limit in
// the modeled second gets the error DynamoDB sends (with its throttle
// reason); the SDK (single writes) and the engine (transactions, batches)
// retry it, and succeed once a modeled second has passed, or give up with
// table.ErrThrottled.
func TestHotPartitionThrottled(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	m, members, notes := throttled(t, f)

	// Never a new second: every attempt on the hot key is refused.
	if err := notes.Create(c, &note{MemberID: "m1", Seq: 1}); err != nil {
		t.Fatal(err)
	}
	err := notes.Create(c, &note{MemberID: "m1", Seq: 2})
	if !errors.Is(err, table.ErrThrottled) {
		t.Fatalf("write to a hot key: %v, want ErrThrottled", err)
	}
	var pte *types.ProvisionedThroughputExceededException
	if !errors.As(err, &pte) || len(pte.ThrottlingReasons) != 1 {
		t.Fatalf("write to a hot key: %v, want a ProvisionedThroughputExceededException with a reason", err)
	}
	if r := pte.ThrottlingReasons[0]; aws.ToString(r.Reason) != "TableWriteKeyRangeThroughputExceeded" || !strings.HasSuffix(aws.ToString(r.Resource), "table/"+f.t.Name()) {
		t.Errorf("reason %s on %s", aws.ToString(r.Reason), aws.ToString(r.Resource))
	}
	if m.Throttled() != 3 {
		t.Errorf("%d attempts throttled, want the SDK's 3", m.Throttled())
	}
	// Another key is not throttled.
	if err := notes.Create(c, &note{MemberID: "m2", Seq: 1}); err != nil {
		t.Errorf("write to a cold key: %v", err)
	}
	// A transaction on the hot key: canceled with ThrottlingError, retried
	// by the engine, then ErrThrottled (and ErrTransactionCanceled).
	err = members.Create(c, &member{ID: "m1", Email: "m1@example.com", Status: "s"})
	var te *table.TxError
	if !errors.Is(err, table.ErrThrottled) || !errors.As(err, &te) || te.Failed()[0].Code != "ThrottlingError" {
		t.Fatalf("transaction on a hot key: %v, want a TxError matching ErrThrottled", err)
	}
	if n := m.Throttled(); n != 3+1+3 {
		t.Errorf("%d attempts throttled in all, want 3 + 1 + 3 engine retries", n)
	}

	// A modeled second passes every 2 requests: the retries get through.
	m.Reset()
	m.RequestsPerSecond = 2
	if err := notes.Create(c, &note{MemberID: "m3", Seq: 1}); err != nil {
		t.Fatal(err)
	}
	if err := notes.Create(c, &note{MemberID: "m3", Seq: 2}); err != nil {
		t.Errorf("single write retried by the SDK: %v", err)
	}
	if err := members.Create(c, &member{ID: "m3", Email: "m3@example.com", Status: "s"}); err != nil {
		t.Errorf("transaction retried by the engine: %v", err)
	}
	if err := notes.BatchPut(c, []*note{{MemberID: "m3", Seq: 3}, {MemberID: "m3", Seq: 4}}); err != nil {
		t.Errorf("batch retried by the engine: %v", err)
	}
	if m.Throttled() < 3 {
		t.Errorf("%d attempts throttled, want at least one per write", m.Throttled())
	}
	for seq := 1; seq <= 4; seq++ {
		if _, err := f.notes.Get(c, table.Key{PK: "MEMBER#m3", SK: "NOTE#000" + itoa(seq)}); err != nil {
			t.Errorf("note %d: %v", seq, err)
		}
	}
	if _, err := f.members.Get(c, table.Key{PK: "MEMBER#m3", SK: "PROFILE"}); err != nil {
		t.Errorf("member: %v", err)
	}
}
