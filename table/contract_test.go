package table_test

// The tests of docs/guarantees.md's "What happens if the response is lost" table
// and of the engine's contract under faults (issue 9): each test injects
// the fault in front of the real DynamoDB Local.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// faultyFixture opens f's table through a client with the given faults and
// a request counter.
func faultyFixture(t *testing.T, f fixture, opts []func(*table.Options), faults ...func(*dynamodb.Options)) (fixture, *tabletest.RequestCounter) {
	t.Helper()
	rc := &tabletest.RequestCounter{}
	client := tabletest.NewClient(t, append(faults, rc.Option())...)
	tb := table.New(client, f.t.Schema(), opts...)
	return fixture{t: tb, members: table.NewEntity(tb, memberDef), notes: table.NewEntity(tb, noteDef)}, rc
}

// Lost response, Create without guards (one PutItem): the SDK's retry meets
// the item its first attempt wrote and recognises its write token.
func TestLostResponseCreate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lost := &tabletest.LostResponses{Op: "PutItem", Times: 1}
	ff, _ := faultyFixture(t, f, nil, lost.Option())
	c := ctx(t)
	if err := ff.notes.Create(c, &note{MemberID: "m1", Seq: 1, Text: "once"}); err != nil {
		t.Fatalf("Create with a lost response = %v, want success", err)
	}
	if lost.Lost() != 1 || lost.Calls() != 2 {
		t.Fatalf("lost %d of %d PutItem calls, want 1 of 2 (the SDK retried)", lost.Lost(), lost.Calls())
	}
	// A second, genuine create of the same key still fails.
	if err := ff.notes.Create(c, &note{MemberID: "m1", Seq: 1, Text: "twice"}); !errors.Is(err, table.ErrAlreadyExists) {
		t.Fatalf("second Create = %v, want ErrAlreadyExists", err)
	}
}

// Lost response, Create with unique guards (one transaction): the SDK
// resends the transaction with its idempotency token.
func TestLostResponseCreateWithGuards(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lost := &tabletest.LostResponses{Op: "TransactWriteItems", Times: 1, Drop: true}
	ff, _ := faultyFixture(t, f, nil, lost.Option())
	c := ctx(t)
	if err := ff.members.Create(c, &member{ID: "a", Email: "a@x.io", Status: "on"}); err != nil {
		t.Fatalf("Create with a lost response = %v, want success", err)
	}
	if lost.Lost() != 1 {
		t.Fatalf("lost %d responses, want 1", lost.Lost())
	}
	if _, err := f.members.GetByUnique(c, table.Unique{Name: "email", Value: "a@x.io"}); err != nil {
		t.Fatal(err)
	}
}

// Lost response, Add: the retried UpdateItem is recognised by its token and
// the counter moves once.
func TestLostResponseAddCountsOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	f.create(t, member{ID: "a", Email: "a@x.io", Status: "on"})
	lost := &tabletest.LostResponses{Op: "UpdateItem", Times: 1}
	ff, _ := faultyFixture(t, f, nil, lost.Option())
	k := table.Key{PK: "MEMBER#a", SK: "PROFILE"}
	n, err := ff.members.Add(c, k, "logins", 5)
	if err != nil || n != 5 {
		t.Fatalf("Add with a lost response = %d, %v; want 5, nil", n, err)
	}
	got, err := f.members.Get(c, k)
	if err != nil || got.Logins != 5 {
		t.Fatalf("stored logins = %d, %v; want 5 (counted once)", got.Logins, err)
	}
	// Patch.Add with IfEqual: the retry must not report its own write as a
	// failed condition either.
	lost2 := &tabletest.LostResponses{Op: "UpdateItem", Times: 1}
	ff2, _ := faultyFixture(t, f, nil, lost2.Option())
	m, err := ff2.members.Patch(c, k, table.Patch{Add: map[string]int64{"logins": 1}, IfEqual: map[string]any{"status": "on"}, Set: map[string]any{"note": "n"}})
	if err != nil || m.Logins != 6 {
		t.Fatalf("Patch with a lost response = %d, %v; want 6, nil", m.Logins, err)
	}
	if lost2.Lost() != 1 {
		t.Fatalf("lost %d, want 1", lost2.Lost())
	}
}

// Lost response, Update: the change function's effect lands once.
func TestLostResponseUpdateAppliesOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	f.create(t, member{ID: "a", Email: "a@x.io", Status: "on"})
	// Without an expiry the guards stay put: one conditional UpdateItem.
	lost := &tabletest.LostResponses{Op: "UpdateItem", Times: 1}
	ff, _ := faultyFixture(t, f, nil, lost.Option())
	noTTL := memberDef
	noTTL.TTL = table.TTL{}
	members := table.NewEntity(ff.t, noTTL)
	k := table.Key{PK: "MEMBER#a", SK: "PROFILE"}
	var calls atomic.Int32
	got, err := members.Update(c, k, func(m *member) error { calls.Add(1); m.Logins++; return nil })
	if err != nil || got.Logins != 1 {
		t.Fatalf("Update = %d, %v", got.Logins, err)
	}
	if calls.Load() != 1 || lost.Lost() != 1 {
		t.Fatalf("change ran %d times with %d lost responses, want 1 and 1", calls.Load(), lost.Lost())
	}
	stored, _ := f.members.Get(c, k)
	if stored.Logins != 1 || stored.Version != 2 {
		t.Fatalf("stored logins %d version %d, want 1 and 2", stored.Logins, stored.Version)
	}
	// The same through a transaction (the email moves its guard).
	lostTx := &tabletest.LostResponses{Op: "TransactWriteItems", Times: 1}
	ffTx, _ := faultyFixture(t, f, nil, lostTx.Option())
	calls.Store(0)
	if _, err := ffTx.members.Update(c, k, func(m *member) error { calls.Add(1); m.Logins++; m.Email = "b@x.io"; return nil }); err != nil {
		t.Fatal(err)
	}
	stored, _ = f.members.Get(c, k)
	if calls.Load() != 1 || stored.Logins != 2 {
		t.Fatalf("change ran %d times, logins %d; want 1 and 2", calls.Load(), stored.Logins)
	}
}

// Lost response, Take: the item consumed is still returned.
func TestLostResponseTakeReturnsItem(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	if err := f.notes.Create(c, &note{MemberID: "m1", Seq: 7, Text: "state"}); err != nil {
		t.Fatal(err)
	}
	lost := &tabletest.LostResponses{Op: "UpdateItem", Times: 1, Drop: true}
	ff, _ := faultyFixture(t, f, nil, lost.Option())
	k := table.Key{PK: "MEMBER#m1", SK: "NOTE#0007"}
	got, err := ff.notes.Take(c, k)
	if err != nil || got.Text != "state" {
		t.Fatalf("Take with a lost response = %+v, %v; want the item", got, err)
	}
	if _, err := f.notes.Take(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("second Take = %v, want ErrNotFound", err)
	}
	if _, err := f.notes.Get(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("Get after Take = %v, want ErrNotFound", err)
	}
}

// A transaction repeated with the same idempotency token and other content
// gives ErrIdempotencyMismatch; the same content is applied once.
func TestIdempotencyTokenMismatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	a, _ := f.notes.PutOp(&note{MemberID: "m", Seq: 1, Text: "a"})
	b, _ := f.notes.PutOp(&note{MemberID: "m", Seq: 2, Text: "b"})
	opts := []table.TxOption{table.IdempotencyToken(fmt.Sprint(time.Now().UnixNano()))}
	if err := f.t.TransactWith(c, opts, a); err != nil {
		t.Fatal(err)
	}
	if err := f.t.TransactWith(c, opts, a); err != nil {
		t.Fatalf("same token, same content = %v, want success", err)
	}
	if err := f.t.TransactWith(c, opts, b); !errors.Is(err, table.ErrIdempotencyMismatch) {
		t.Fatalf("same token, other content = %v, want ErrIdempotencyMismatch", err)
	}
}

// BatchWrite interrupted while a chunk is in flight: the chunk's keys are
// reported as unknown, never as not written; earlier chunks as written,
// later ones as not written.
func TestBatchWriteReportsThreeSets(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lost := &tabletest.LostResponses{Op: "BatchWriteItem", Times: 1, After: 1}
	noRetry := func(o *dynamodb.Options) { o.Retryer = retry.AddWithMaxAttempts(retry.NewStandard(), 1) }
	ff, _ := faultyFixture(t, f, nil, lost.Option(), noRetry)
	c := ctx(t)
	items := make([]*note, 60)
	for i := range items {
		items[i] = &note{MemberID: "b", Seq: i + 1, Text: "x"}
	}
	err := ff.notes.BatchPut(c, items)
	var be *table.BatchError
	if !errors.As(err, &be) || !errors.Is(err, table.ErrUnprocessed) {
		t.Fatalf("BatchPut = %v, want a *BatchError", err)
	}
	if len(be.Written) != 25 || len(be.Unknown) != 25 || len(be.Keys) != 10 {
		t.Fatalf("written %d, unknown %d, not written %d; want 25, 25, 10", len(be.Written), len(be.Unknown), len(be.Keys))
	}
	// The unknown chunk was in fact applied (the response was lost), the
	// not-written keys are absent: the report never lied.
	for _, k := range be.Keys {
		if _, err := f.notes.Get(c, k); !errors.Is(err, table.ErrNotFound) {
			t.Fatalf("key %v reported not written but stored: %v", k, err)
		}
	}
	for _, k := range append(be.Written, be.Unknown...) {
		if _, err := f.notes.Get(c, k); err != nil {
			t.Fatalf("key %v: %v", k, err)
		}
	}
}

// Every transactional write path retries cancellations caused only by
// TransactionConflict; a Create with a unique value no longer fails on one.
func TestTransactionConflictsRetried(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	fault := &tabletest.TxConflicts{}
	fault.Left.Store(3)
	ff, _ := faultyFixture(t, f, nil, func(o *dynamodb.Options) { o.HTTPClient = fault })
	c := ctx(t)
	if err := ff.members.Create(c, &member{ID: "a", Email: "a@x.io", Status: "on"}); err != nil {
		t.Fatalf("Create under 3 conflicts = %v, want success", err)
	}
	if fault.Seen.Load() != 4 {
		t.Fatalf("%d transactions sent, want 4 (3 conflicts, then success)", fault.Seen.Load())
	}
	// Bounded: with more conflicts than retries the error is ErrConflict-free
	// TxError naming TransactionConflict.
	fault.Left.Store(1000)
	fault.Seen.Store(0)
	ff2, _ := faultyFixture(t, f, []func(*table.Options){func(o *table.Options) { o.ConflictRetries = 2 }}, func(o *dynamodb.Options) { o.HTTPClient = fault })
	err := ff2.members.Create(c, &member{ID: "b", Email: "b@x.io", Status: "on"})
	var te *table.TxError
	if !errors.As(err, &te) || fault.Seen.Load() != 3 {
		t.Fatalf("Create under endless conflicts = %v after %d sends, want a TxError after 3", err, fault.Seen.Load())
	}
}

// clock is a settable clock for a table.
type clock struct{ now atomic.Int64 }

func (c *clock) Now() time.Time               { return time.Unix(0, c.now.Load()) }
func (c *clock) set(t time.Time)              { c.now.Store(t.UnixNano()) }
func (c *clock) add(d time.Duration)          { c.now.Add(int64(d)) }
func withClock(c *clock) func(*table.Options) { return func(o *table.Options) { o.Now = c.Now } }

// An item past its TTL but still stored counts as absent for every write,
// and its unique values are free again.
func TestExpiredItemsAbsentForWrites(t *testing.T) {
	t.Parallel()
	var clk clock
	clk.set(time.Now())
	f := newFixture(t, withClock(&clk))
	c := ctx(t)
	exp := clk.Now().Add(time.Hour)
	for _, id := range []string{"a", "b"} {
		f.create(t, member{ID: id, Email: id + "@x.io", Status: "on", ExpiresAt: exp})
	}
	ka := table.Key{PK: "MEMBER#a", SK: "PROFILE"}
	readA, err := f.members.Get(c, ka) // read while live, replaced once expired
	if err != nil {
		t.Fatal(err)
	}
	clk.add(2 * time.Hour) // both expired; DynamoDB Local keeps them (the TTL is in its future)
	if _, err := f.members.Patch(c, ka, table.Patch{Set: map[string]any{"note": "x"}}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Patch of expired = %v, want ErrNotFound", err)
	}
	if _, err := f.members.Add(c, ka, "logins", 1); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Add of expired = %v, want ErrNotFound", err)
	}
	if _, err := f.members.Update(c, ka, func(*member) error { return nil }); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Update of expired = %v, want ErrNotFound", err)
	}
	readA.Note = "late"
	if err := f.members.Replace(c, &readA); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Replace of expired = %v, want ErrNotFound", err)
	}
	if err := f.members.Delete(c, ka); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Delete of expired = %v, want ErrNotFound", err)
	}
	if err := f.notes.Create(c, &note{MemberID: "n", Seq: 1}); err != nil {
		t.Fatal(err)
	}
	// Create takes the expired item's key and its email.
	if err := f.members.Create(c, &member{ID: "a", Email: "a@x.io", Status: "new"}); err != nil {
		t.Fatalf("Create over an expired item = %v, want success", err)
	}
	// Another item takes b's email: b's guard expired with b.
	if err := f.members.Create(c, &member{ID: "c", Email: "b@x.io", Status: "on"}); err != nil {
		t.Fatalf("Create with an expired owner's email = %v, want success", err)
	}
	got, err := f.members.GetByUnique(c, table.Unique{Name: "email", Value: "b@x.io"})
	if err != nil || got.ID != "c" {
		t.Fatalf("GetByUnique(b@x.io) = %q, %v; want c", got.ID, err)
	}
}

// A guard written before guards carried their owner's TTL (no TTL on the
// guard) is taken over when its owner has expired or is gone, in one
// transaction conditioned on the owner staying absent.
func TestGuardOfGoneOwnerTakenOver(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	gk := table.GuardKey(table.Unique{Name: "email", Value: "old@x.io"})
	putRaw(t, f.t, map[string]string{"PK": gk.PK, "SK": gk.SK, "_type": table.GuardType, "ownerPK": "MEMBER#gone", "ownerSK": "PROFILE", "uniqueName": "email", "uniqueValue": "old@x.io"})
	if err := f.members.Create(c, &member{ID: "new", Email: "old@x.io", Status: "on"}); err != nil {
		t.Fatalf("Create over an orphaned guard = %v, want success", err)
	}
	// A live owner keeps its value.
	if err := f.members.Create(c, &member{ID: "thief", Email: "old@x.io", Status: "on"}); !errors.Is(err, table.ErrUniqueViolation) {
		t.Fatalf("Create over a live guard = %v, want ErrUniqueViolation", err)
	}
}

// Entity[A] can never change or delete an item of entity B; items written
// by another service without a type attribute stay writable.
func TestWritesBoundToEntityType(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	f.create(t, member{ID: "a", Email: "a@x.io", Status: "on"})
	// A Note entity aimed at the member's key (a bug, or an attacker's ID).
	k := table.Key{PK: "MEMBER#a", SK: "PROFILE"}
	if _, err := f.notes.Patch(c, k, table.Patch{Set: map[string]any{"text": "x"}}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Note Patch of a Member = %v, want ErrNotFound", err)
	}
	if _, err := f.notes.Add(c, k, "likes", 1); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Note Add on a Member = %v, want ErrNotFound", err)
	}
	if err := f.notes.Delete(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Note Delete of a Member = %v, want ErrNotFound", err)
	}
	if _, err := f.notes.Take(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Note Take of a Member = %v, want ErrNotFound", err)
	}
	if err := f.t.Transact(c, f.notes.DeleteOp(k)); !errors.Is(err, table.ErrTransactionCanceled) {
		t.Errorf("Note DeleteOp of a Member = %v, want a canceled transaction", err)
	}
	if _, err := f.members.Get(c, k); err != nil {
		t.Fatalf("member after foreign writes: %v", err)
	}
	// Untyped item of another service: writable.
	putRaw(t, f.t, map[string]string{"PK": "MEMBER#z", "SK": "NOTE#0001", "text": "legacy"})
	got, err := f.notes.Patch(c, table.Key{PK: "MEMBER#z", SK: "NOTE#0001"}, table.Patch{Set: map[string]any{"text": "new"}})
	if err != nil || got.Text != "new" {
		t.Fatalf("Patch of an untyped item = %+v, %v", got, err)
	}
}

// Guard names and values go through the key grammar, before any request.
func TestGuardKeyGrammar(t *testing.T) {
	t.Parallel()
	a := table.GuardKey(table.Unique{Name: "code", Value: "sub#v"})
	b := table.GuardKey(table.Unique{Name: "code", Value: "sub%23v"})
	if a == b {
		t.Fatalf("two values share guard %v", a)
	}
	f := newFixture(t)
	ff, rc := faultyFixture(t, f, nil)
	c := ctx(t)
	for name, email := range map[string]string{
		"2049 bytes":     strings.Repeat("a", 2049) + "@x.io",
		"invalid utf8":   "a\xff@x.io",
		"invalid utf8 2": "a\xfe@x.io",
	} {
		err := ff.members.Create(c, &member{ID: "a", Email: email, Status: "on"})
		if !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: Create = %v, want ErrInvalidInput", name, err)
		}
	}
	if n := rc.Total(); n != 0 {
		t.Fatalf("%d requests sent for refused input, want 0", n)
	}
}

// Every way to delete an item releases its guards: DeleteOp refuses an
// entity with unique values, DeleteOps releases them in the transaction.
func TestDeleteOpsReleaseGuards(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "a", Email: "a@x.io", Status: "on"})
	ff, rc := faultyFixture(t, f, nil)
	if err := ff.t.Transact(c, ff.members.DeleteOp(k)); !errors.Is(err, table.ErrInvalidInput) || rc.Total() != 0 {
		t.Fatalf("DeleteOp of a guarded entity = %v (%d requests), want ErrInvalidInput and none", err, rc.Total())
	}
	ops, err := f.members.DeleteOps(c, k)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.t.Transact(c, ops...); err != nil {
		t.Fatal(err)
	}
	if err := f.members.Create(c, &member{ID: "b", Email: "a@x.io", Status: "on"}); err != nil {
		t.Fatalf("email still taken after DeleteOps: %v", err)
	}
}

// A lookup by unique value checks that the owner still holds the value.
func TestGetByUniqueChecksOwner(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	f.create(t, member{ID: "a", Email: "now@x.io", Status: "on"})
	// A guard that still names a, for a value a no longer holds (a lookup
	// racing an email change sees exactly this).
	gk := table.GuardKey(table.Unique{Name: "email", Value: "then@x.io"})
	putRaw(t, f.t, map[string]string{"PK": gk.PK, "SK": gk.SK, "_type": table.GuardType, "ownerPK": "MEMBER#a", "ownerSK": "PROFILE", "uniqueName": "email", "uniqueValue": "then@x.io"})
	if _, err := f.members.GetByUnique(c, table.Unique{Name: "email", Value: "then@x.io"}); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("GetByUnique of a value the owner gave up = %v, want ErrNotFound", err)
	}
}

// Counters never overflow: the add fails in its condition, before writing.
func TestAddOverflowRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "a", Email: "a@x.io", Status: "on", Logins: math.MaxInt64 - 2})
	if _, err := f.members.Add(c, k, "logins", 5); !errors.Is(err, table.ErrConditionFailed) {
		t.Fatalf("overflowing Add = %v, want ErrConditionFailed", err)
	}
	got, err := f.members.Get(c, k)
	if err != nil || got.Logins != math.MaxInt64-2 {
		t.Fatalf("after refused Add: %d, %v", got.Logins, err)
	}
	if n, err := f.members.Add(c, k, "logins", 2); err != nil || n != math.MaxInt64 {
		t.Fatalf("Add to the limit = %d, %v", n, err)
	}
}

// A transaction over 4 MB and an expiry in the wrong unit are refused
// before any request.
func TestTransactionSizeAndTTLHorizon(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ff, rc := faultyFixture(t, f, nil)
	c := ctx(t)
	var ops []table.TxOp
	for i := range 100 {
		op, err := ff.notes.PutOp(&note{MemberID: "big", Seq: i + 1, Text: strings.Repeat("x", 45_000)})
		if err != nil {
			t.Fatal(err)
		}
		ops = append(ops, op)
	}
	if err := ff.t.Transact(c, ops...); !errors.Is(err, table.ErrItemTooLarge) {
		t.Fatalf("4.5 MB transaction = %v, want ErrItemTooLarge", err)
	}
	// A time in the wrong unit: centuries ahead.
	ms := time.Now().AddDate(300, 0, 0)
	err := ff.members.Create(c, &member{ID: "a", Email: "a@x.io", Status: "on", ExpiresAt: ms})
	var ve *table.ValidationError
	if !errors.As(err, &ve) || ve.Field != "ttl" {
		t.Fatalf("Create with a TTL in milliseconds = %v, want a ValidationError on ttl", err)
	}
	if rc.Total() != 0 {
		t.Fatalf("%d requests sent, want 0", rc.Total())
	}
}

// Patch, Add and PatchOp call Touch: updatedAt moves on every write, and
// createdAt is never overwritten.
func TestPatchTouches(t *testing.T) {
	t.Parallel()
	var clk clock
	clk.set(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	f := newFixture(t, withClock(&clk))
	c := ctx(t)
	k := f.create(t, member{ID: "a", Email: "a@x.io", Status: "on"})
	clk.add(time.Hour)
	if _, err := f.members.Add(c, k, "logins", 1); err != nil {
		t.Fatal(err)
	}
	got, _ := f.members.Get(c, k)
	if !got.UpdatedAt.Equal(clk.Now()) || !got.CreatedAt.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("after Add: created %v updated %v; want created unchanged, updated now", got.CreatedAt, got.UpdatedAt)
	}
	clk.add(time.Hour)
	op, err := f.members.PatchOp(k, table.Patch{Set: map[string]any{"note": "n"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.t.Transact(c, op); err != nil {
		t.Fatal(err)
	}
	got, _ = f.members.Get(c, k)
	if !got.UpdatedAt.Equal(clk.Now()) {
		t.Fatalf("after PatchOp: updated %v, want %v", got.UpdatedAt, clk.Now())
	}
	clk.add(time.Hour)
	got, err = f.members.Patch(c, k, table.Patch{Set: map[string]any{"note": "m"}, NoTouch: true})
	if err != nil || got.UpdatedAt.Equal(clk.Now()) {
		t.Fatalf("NoTouch patch moved updatedAt to %v (%v)", got.UpdatedAt, err)
	}
}

// Write tokens stay bounded on a hot item: Patch and Add add one each, and
// old ones are pruned.
func TestWriteTokensBounded(t *testing.T) {
	t.Parallel()
	var clk clock
	clk.set(time.Now())
	f := newFixture(t, withClock(&clk))
	c := ctx(t)
	k := f.create(t, member{ID: "a", Email: "a@x.io", Status: "on"})
	for range 40 {
		clk.add(time.Minute)
		if _, err := f.members.Add(c, k, "logins", 1); err != nil {
			t.Fatal(err)
		}
	}
	out, err := f.t.Client().GetItem(c, &dynamodb.GetItemInput{TableName: aws.String(f.t.Name()), Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}}})
	if err != nil {
		t.Fatal(err)
	}
	toks := out.Item["_wt"].(*types.AttributeValueMemberSS).Value
	if len(toks) > 32 {
		t.Fatalf("%d write tokens kept after 40 adds, want at most 32", len(toks))
	}
}

var _ = context.Background

// Attribute names in Patch, Add, conditions and filters are checked
// against T's fields before any request: a typo is an error, not a new
// attribute.
func TestAttributeTyposRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ff, rc := faultyFixture(t, f, nil)
	c := ctx(t)
	k := table.Key{PK: "MEMBER#a", SK: "PROFILE"}
	for name, call := range map[string]func() error{
		"Patch.Set": func() error {
			_, err := ff.members.Patch(c, k, table.Patch{Set: map[string]any{"nots": "x"}})
			return err
		},
		"Add": func() error { _, err := ff.members.Add(c, k, "lgoins", 1); return err },
		"IfEqual": func() error {
			_, err := ff.members.Patch(c, k, table.Patch{Set: map[string]any{"note": "x"}, IfEqual: map[string]any{"stauts": "on"}})
			return err
		},
		"IfAbsent": func() error {
			_, err := ff.members.Patch(c, k, table.Patch{Set: map[string]any{"note": "x"}, IfAbsent: []string{"nte"}})
			return err
		},
		"PatchOp": func() error { _, err := ff.members.PatchOp(k, table.Patch{Remove: []string{"notee"}}); return err },
		"Filter": func() error {
			_, err := ff.members.List(c, table.Query{PK: "MEMBER#a", Filter: map[string]any{"stauts": "on"}})
			return err
		},
		"FilterContains": func() error {
			_, err := ff.members.List(c, table.Query{PK: "MEMBER#a", FilterContains: map[string]any{"emial": "x"}})
			return err
		},
	} {
		var ve *table.ValidationError
		if err := call(); !errors.As(err, &ve) || !strings.Contains(ve.Reason, "not an attribute") {
			t.Errorf("%s with a typo: %v, want a ValidationError", name, err)
		}
	}
	if rc.Total() != 0 {
		t.Fatalf("%d requests sent for typos, want 0", rc.Total())
	}
}

// Attribute names match case-sensitively on every decode path: an item
// with "Email" and "email" decodes the same way every time, and an
// attribute differing only in case is not read into a field.
func TestDecodeIsCaseSensitive(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	type flat struct {
		ID    string `dynamo:"id"`
		Email string `dynamo:"email"`
	}
	type nested struct {
		ID    string `dynamo:"id"`
		Inner struct {
			Name string `dynamo:"name"`
		} `dynamo:"inner"`
	}
	flats := table.NewEntity(f.t, table.Def[flat]{Type: "Flat", Keys: table.Template{PK: "F#{id}", SK: "F"}})
	nesteds := table.NewEntity(f.t, table.Def[nested]{Type: "Nested", Keys: table.Template{PK: "N#{id}", SK: "N"}})
	putRaw(t, f.t, map[string]string{"PK": "F#1", "SK": "F", "id": "1", "Email": "UPPER@X.IO"})
	putRaw(t, f.t, map[string]string{"PK": "F#2", "SK": "F", "id": "2", "Email": "UPPER@X.IO", "email": "lower@x.io"})
	for range 20 {
		got, err := flats.Get(c, table.Key{PK: "F#1", SK: "F"})
		if err != nil || got.Email != "" {
			t.Fatalf("Email read into email: %+v %v", got, err)
		}
		got, err = flats.Get(c, table.Key{PK: "F#2", SK: "F"})
		if err != nil || got.Email != "lower@x.io" {
			t.Fatalf("with both spellings: %+v %v", got, err)
		}
	}
	item := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "N#1"}, "SK": &types.AttributeValueMemberS{Value: "N"},
		"id":    &types.AttributeValueMemberS{Value: "1"},
		"inner": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"Name": &types.AttributeValueMemberS{Value: "X"}}}}
	if _, err := f.t.Client().PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(f.t.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	got, err := nesteds.Get(c, table.Key{PK: "N#1", SK: "N"})
	if err != nil || got.Inner.Name != "" {
		t.Fatalf("nested Name read into name: %+v %v", got, err)
	}
}

// gauge has the field kinds input at the edges reaches.
type gauge struct {
	ID     string            `dynamo:"id"`
	Value  float64           `dynamo:"value"`
	Labels map[string]string `dynamo:"labels"`
	Tags   []string          `dynamo:"tags,set"`
}

var gaugeDef = table.Def[gauge]{Type: "Gauge", Keys: table.Template{PK: "GAUGE#{id}", SK: "GAUGE"}}

// Numbers DynamoDB cannot store are refused before any request, in items,
// patches and filters; empty strings in maps are kept; an empty set is
// never an empty list.
func TestInputAtTheEdges(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ff, rc := faultyFixture(t, f, nil)
	c := ctx(t)
	gauges := table.NewEntity(ff.t, gaugeDef)
	k := table.Key{PK: "GAUGE#g", SK: "GAUGE"}
	for name, call := range map[string]func() error{
		"NaN item":    func() error { return gauges.Create(c, &gauge{ID: "g", Value: math.NaN()}) },
		"+Inf item":   func() error { return gauges.Create(c, &gauge{ID: "g", Value: math.Inf(1)}) },
		"1e200 item":  func() error { return gauges.Create(c, &gauge{ID: "g", Value: 1e200}) },
		"1e-200 item": func() error { return gauges.Create(c, &gauge{ID: "g", Value: 1e-200}) },
		"NaN patch": func() error {
			_, err := gauges.Patch(c, k, table.Patch{Set: map[string]any{"value": math.NaN()}})
			return err
		},
		"Inf if": func() error {
			_, err := gauges.Patch(c, k, table.Patch{IfEqual: map[string]any{"value": math.Inf(-1)}})
			return err
		},
		"NaN filter": func() error {
			_, err := gauges.List(c, table.Query{PK: "GAUGE#g", Filter: map[string]any{"value": math.NaN()}})
			return err
		},
	} {
		if err := call(); !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: %v, want ErrInvalidInput", name, err)
		}
	}
	if rc.Total() != 0 {
		t.Fatalf("%d requests sent for numbers DynamoDB cannot store, want 0", rc.Total())
	}
	if err := gauges.Create(c, &gauge{ID: "g", Value: 1.5, Labels: map[string]string{"env": "", "app": "x"}, Tags: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	got, err := gauges.Get(c, k)
	if err != nil || len(got.Labels) != 2 || got.Labels["env"] != "" {
		t.Fatalf("labels %v (%v): the empty-string entry was dropped", got.Labels, err)
	}
	if _, err := gauges.Patch(c, k, table.Patch{Set: map[string]any{"tags": []string{"b", "c"}, "labels": map[string]string{"k": ""}}}); err != nil {
		t.Fatal(err)
	}
	raw := tabletest.RawItem(t, ff.t, k)
	if _, ok := raw["tags"].(*types.AttributeValueMemberSS); !ok {
		t.Errorf("tags stored as %T, want a string set", raw["tags"])
	}
	if m, ok := raw["labels"].(*types.AttributeValueMemberM); !ok || len(m.Value) != 1 {
		t.Errorf("labels stored as %#v, want {k: \"\"}", raw["labels"])
	}
	if _, err := gauges.Patch(c, k, table.Patch{Set: map[string]any{"tags": []string{}}}); err != nil {
		t.Fatal(err)
	}
	if v, ok := tabletest.RawItem(t, ff.t, k)["tags"]; ok {
		t.Errorf("an empty set was stored as %T, want no attribute", v)
	}
}

// CreateIn: the item lands in the partition given (same sort key), a
// second create of that key fails, and a lost response is recognised by
// the retried PutItem's write token.
func TestCreateInPartition(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	lost := &tabletest.LostResponses{Op: "PutItem", Times: 1}
	ff, _ := faultyFixture(t, f, nil, lost.Option())
	c := ctx(t)
	if err := ff.notes.CreateIn(c, &note{MemberID: "m1", Seq: 1, Text: "once"}, "MEMBER#m1#3"); err != nil {
		t.Fatalf("CreateIn with a lost response = %v, want success", err)
	}
	if lost.Lost() != 1 || lost.Calls() != 2 {
		t.Fatalf("lost %d of %d PutItem calls, want 1 of 2", lost.Lost(), lost.Calls())
	}
	n := note{MemberID: "m1", Seq: 1}
	k, err := f.notes.KeyOf(&n)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.notes.Get(c, table.Key{PK: "MEMBER#m1#3", SK: k.SK}); err != nil {
		t.Fatalf("the note is not in MEMBER#m1#3: %v", err)
	}
	if _, err := f.notes.Get(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("the note is also in its own partition: %v", err)
	}
	if err := ff.notes.CreateIn(c, &note{MemberID: "m1", Seq: 1, Text: "twice"}, "MEMBER#m1#3"); !errors.Is(err, table.ErrAlreadyExists) {
		t.Fatalf("second CreateIn = %v, want ErrAlreadyExists", err)
	}
}

// TestTTLEdgeValuesAgree: for every TTL value an item may hold (written by
// another service: none, zero, negative, fractional, a string, past, the
// current second, future), the write conditions (a patch, an add, a
// create over the key) and the read agree on whether the item is live:
// an item is expired when its TTL is a number in (0, now], as DynamoDB's
// TTL deletes and Table reads see it. The conditions test expiry with one
// BETWEEN (#ttl BETWEEN 1E-130 AND now), whose result on a missing
// attribute is false.
func TestTTLEdgeValuesAgree(t *testing.T) {
	t.Parallel()
	var clk clock
	clk.set(time.Unix(1_900_000_000, 0))
	f := newFixture(t, withClock(&clk))
	c := ctx(t)
	now := clk.Now().Unix()
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	cases := []struct {
		name string
		ttl  types.AttributeValue // nil: no TTL attribute
		live bool
	}{
		{"none", nil, true},
		{"zero", n("0"), true},
		{"negative", n("-5"), true},
		{"string", &types.AttributeValueMemberS{Value: "soon"}, true},
		{"future", n(strconv.FormatInt(now+3600, 10)), true},
		{"next second", n(strconv.FormatInt(now+1, 10)), true},
		{"this second", n(strconv.FormatInt(now, 10)), false},
		{"past", n(strconv.FormatInt(now-1, 10)), false},
		{"fraction", n("0.5"), false},
	}
	for i, tc := range cases {
		id := "ttl" + strconv.Itoa(i)
		k := table.Key{PK: "MEMBER#" + id, SK: "NOTE#0001"}
		put := func() {
			item := table.Item{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK},
				"memberId": &types.AttributeValueMemberS{Value: id}, "seq": n("1"), "text": &types.AttributeValueMemberS{Value: "foreign"}}
			if tc.ttl != nil {
				item[f.t.Schema().TTLAttr] = tc.ttl
			}
			putRawItem(t, f.t, item)
		}
		put()
		_, err := f.notes.Get(c, k)
		if read := err == nil; read != tc.live || (err != nil && !errors.Is(err, table.ErrNotFound)) {
			t.Errorf("%s: Get = %v, want live %v", tc.name, err, tc.live)
		}
		_, err = f.notes.Patch(c, k, table.Patch{Set: map[string]any{"text": "patched"}})
		if ok := err == nil; ok != tc.live || (err != nil && !errors.Is(err, table.ErrNotFound)) {
			t.Errorf("%s: Patch = %v, want success %v", tc.name, err, tc.live)
		}
		put()
		_, err = f.notes.Add(c, k, "likes", 1)
		if ok := err == nil; ok != tc.live || (err != nil && !errors.Is(err, table.ErrNotFound)) {
			t.Errorf("%s: Add = %v, want success %v", tc.name, err, tc.live)
		}
		put()
		err = f.notes.Create(c, &note{MemberID: id, Seq: 1, Text: "mine"})
		if ok := err == nil; ok == tc.live || (err != nil && !errors.Is(err, table.ErrAlreadyExists)) {
			t.Errorf("%s: Create over it = %v, want success %v", tc.name, err, !tc.live)
		}
	}
}
