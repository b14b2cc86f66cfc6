package table_test

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
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/singletable/singletable/table"
)

var ignoreTimes = cmpopts.IgnoreFields(member{}, "CreatedAt", "UpdatedAt")

func TestCreateGetNeverOverwrites(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	m := member{ID: "m1", Email: "Ann@example.com", Status: "active", Team: "red"}
	if err := f.members.Create(c, &m); err != nil {
		t.Fatal(err)
	}
	if m.Version != 1 || m.CreatedAt.IsZero() || !m.CreatedAt.Equal(m.UpdatedAt) {
		t.Fatalf("after create: version %d createdAt %v updatedAt %v", m.Version, m.CreatedAt, m.UpdatedAt)
	}
	got, err := f.members.Get(c, table.Key{PK: "MEMBER#m1", SK: "PROFILE"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(m, got, ignoreTimes); diff != "" {
		t.Errorf("get (-want +got):\n%s", diff)
	}
	again := member{ID: "m1", Email: "other@example.com", Status: "x"}
	err = f.members.Create(c, &again)
	if !errors.Is(err, table.ErrAlreadyExists) {
		t.Fatalf("second create: got %v, want ErrAlreadyExists", err)
	}
	got, _ = f.members.Get(c, table.Key{PK: "MEMBER#m1", SK: "PROFILE"})
	if got.Email != "Ann@example.com" {
		t.Errorf("create overwrote: email %q", got.Email)
	}
	// The other email's guard was not left behind by the failed create.
	if _, err := f.t.LookupUnique(c, table.Unique{Name: "email", Value: "other@example.com"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("orphan guard after failed create: %v", err)
	}
	// No-unique entity: plain conditional put.
	n := note{MemberID: "m1", Seq: 1, Text: "hi"}
	if err := f.notes.Create(c, &n); err != nil {
		t.Fatal(err)
	}
	if err := f.notes.Create(c, &n); !errors.Is(err, table.ErrAlreadyExists) {
		t.Errorf("second note create: %v", err)
	}
}

func TestGetMissingAndBadKeys(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	_, err := f.members.Get(c, table.Key{PK: "MEMBER#none", SK: "PROFILE"})
	if !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("got %v, want ErrNotFound", err)
	}
	var op *table.OpError
	if !errors.As(err, &op) || op.Op != "get" || op.Entity != "Member" {
		t.Errorf("error does not name op and entity: %#v", err)
	}
	bad := []table.Key{
		{PK: "", SK: "PROFILE"},
		{PK: "A", SK: ""},
		{PK: strings.Repeat("é", 1025), SK: "x"}, // 2050 bytes, 1025 runes
		{PK: "A", SK: strings.Repeat("x", 1025)},
		{PK: "A\x00", SK: "x"},
		{PK: "A\xff", SK: "x"},
	}
	for _, k := range bad {
		_, err := f.members.Get(c, k)
		var ve *table.ValidationError
		if !errors.Is(err, table.ErrInvalidKey) || !errors.As(err, &ve) || ve.Field == "" {
			t.Errorf("Get(%q/%q): got %v, want a ValidationError matching ErrInvalidKey", k.PK[:min(len(k.PK), 10)], k.SK[:min(len(k.SK), 10)], err)
		}
	}
}

func TestValidationBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	f := newFixture(t, func(o *table.Options) {
		o.Observer = func(_ context.Context, ev table.Event) { requests.Add(1) }
	})
	c := ctx(t)
	cases := []struct {
		name  string
		m     member
		field string
	}{
		{"empty id", member{Email: "a@b.c"}, "id"},
		{"bad email", member{ID: "x", Email: "nope"}, "email"},
	}
	for _, tc := range cases {
		err := f.members.Create(c, &tc.m)
		var ve *table.ValidationError
		if !errors.As(err, &ve) || ve.Field != tc.field || !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: got %v, want ValidationError on %s", tc.name, err, tc.field)
		}
	}
	big := member{ID: "big", Email: "a@b.c", Note: strings.Repeat("x", 401*1024)}
	if err := f.members.Create(c, &big); !errors.Is(err, table.ErrItemTooLarge) {
		t.Errorf("oversized: got %v, want ErrItemTooLarge", err)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests sent for bad input, want 0", n)
	}
	if _, err := f.members.Get(c, table.Key{PK: "MEMBER#big", SK: "PROFILE"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("oversized item was written: %v", err)
	}
}

func TestUpdateMovesIndexesAndGuards(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "m1", Email: "a@example.com", Status: "active", Team: "red"})
	got, err := f.members.Update(c, k, func(m *member) error {
		m.Status, m.Team, m.Email = "suspended", "", "b@example.com"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || got.Status != "suspended" {
		t.Fatalf("update returned %+v", got)
	}
	ids := func(q table.Query) []string {
		var out []string
		for v, err := range f.members.ListAll(c, q) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v.ID)
		}
		return out
	}
	if got := ids(table.Query{Index: table.GSI1, PK: "STATUS#active"}); len(got) != 0 {
		t.Errorf("stale index entry under old status: %v", got)
	}
	if diff := cmp.Diff([]string{"m1"}, ids(table.Query{Index: table.GSI1, PK: "STATUS#suspended"})); diff != "" {
		t.Errorf("new status (-want +got):\n%s", diff)
	}
	if got := ids(table.Query{Index: table.GSI2, PK: "TEAM#red"}); len(got) != 0 {
		t.Errorf("sparse index kept entry after team cleared: %v", got)
	}
	// Old email released, new email held.
	if _, err := f.t.LookupUnique(c, table.Unique{Name: "email", Value: "a@example.com"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("old guard left behind: %v", err)
	}
	owner, err := f.t.LookupUnique(c, table.Unique{Name: "email", Value: "b@example.com"})
	if err != nil || owner != k {
		t.Errorf("new guard: owner %v err %v", owner, err)
	}
	// Someone else can now take the released email, not the held one.
	if err := f.members.Create(c, &member{ID: "m2", Email: "a@example.com", Status: "active"}); err != nil {
		t.Errorf("released email not reusable: %v", err)
	}
	err = f.members.Create(c, &member{ID: "m3", Email: "B@example.com", Status: "active"})
	if !errors.Is(err, table.ErrUniqueViolation) || !errors.Is(err, table.ErrAlreadyExists) {
		t.Errorf("duplicate email: got %v, want ErrUniqueViolation", err)
	}
	// Changing m2's email to m1's is refused and changes nothing.
	_, err = f.members.Update(c, table.Key{PK: "MEMBER#m2", SK: "PROFILE"}, func(m *member) error {
		m.Email = "b@example.com"
		return nil
	})
	if !errors.Is(err, table.ErrUniqueViolation) {
		t.Errorf("update to taken email: %v", err)
	}
	m2, _ := f.members.Get(c, table.Key{PK: "MEMBER#m2", SK: "PROFILE"})
	if m2.Email != "a@example.com" || m2.Version != 1 {
		t.Errorf("failed update changed m2: %+v", m2)
	}
}

func TestUpdateMissingIsNotAnUpsert(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := table.Key{PK: "MEMBER#ghost", SK: "PROFILE"}
	_, err := f.members.Update(c, k, func(m *member) error { m.Note = "x"; return nil })
	if !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("got %v, want ErrNotFound", err)
	}
	if _, err := f.members.Patch(c, k, table.Patch{Set: map[string]any{"note": "x"}}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("patch: got %v, want ErrNotFound", err)
	}
	if _, err := f.members.Add(c, k, "logins", 1); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("add: got %v, want ErrNotFound", err)
	}
	if err := f.members.Delete(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("delete: got %v, want ErrNotFound", err)
	}
	if _, err := f.members.Get(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("an item appeared: %v", err)
	}
	// The primary key cannot change in an update.
	f.create(t, member{ID: "m1", Email: "a@b.c", Status: "s"})
	_, err = f.members.Update(c, table.Key{PK: "MEMBER#m1", SK: "PROFILE"}, func(m *member) error { m.ID = "m9"; return nil })
	if !errors.Is(err, table.ErrInvalidKey) {
		t.Errorf("key change: got %v, want ErrInvalidKey", err)
	}
}

func TestReplaceStaleVersionConflicts(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "m1", Email: "a@b.c", Status: "s"})
	a, _ := f.members.Get(c, k)
	b, _ := f.members.Get(c, k)
	a.Note, b.Note = "from a", "from b"
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, it := range []*member{&a, &b} {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = f.members.Replace(c, it) }()
	}
	wg.Wait()
	var ok, conflict int
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, table.ErrConflict):
			conflict++
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 1 || conflict != 1 {
		t.Fatalf("two writers on version 1: %d ok, %d conflicts; want 1 and 1", ok, conflict)
	}
	got, _ := f.members.Get(c, k)
	if got.Version != 2 {
		t.Errorf("version after one replace = %d, want 2", got.Version)
	}
}

func TestCountersConcurrent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "m1", Email: "a@b.c", Status: "s"})
	var wg sync.WaitGroup
	var failed atomic.Int64
	for g := 0; g < 100; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				if _, err := f.members.Add(c, k, "logins", 1); err != nil {
					failed.Add(1)
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	got, _ := f.members.Get(c, k)
	if got.Logins != 1000 || failed.Load() != 0 {
		t.Errorf("100 goroutines x 10 increments: logins = %d (failures %d), want 1000", got.Logins, failed.Load())
	}
	if _, err := f.members.Add(c, k, "email", 1); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("counter on an indexed field: %v", err)
	}
}

func TestConcurrentUpdatesNeverLost(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "m1", Email: "a@b.c", Status: "s"})
	var wg sync.WaitGroup
	for g := 0; g < 10; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := f.members.Update(c, k, func(m *member) error { m.Logins++; return nil }); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, _ := f.members.Get(c, k)
	if got.Logins != 10 || got.Version != 11 {
		t.Errorf("10 concurrent read-modify-write updates: logins %d version %d, want 10 and 11", got.Logins, got.Version)
	}
}

func TestUniqueConcurrentCreates(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	var wg sync.WaitGroup
	var ok, taken atomic.Int64
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := member{ID: fmt.Sprintf("m%02d", i), Email: "same@example.com", Status: "active"}
			switch err := f.members.Create(c, &m); {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, table.ErrUniqueViolation):
				taken.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 1 || taken.Load() != 49 {
		t.Fatalf("50 creates of one email: %d ok, %d taken; want 1 and 49", ok.Load(), taken.Load())
	}
	owners := countItems(t, f.t, "Member")
	guards := countItems(t, f.t, table.GuardType)
	if owners != 1 || guards != 1 {
		t.Errorf("after the race: %d members and %d guards, want 1 and 1", owners, guards)
	}
}

// countItems counts items of one entity type with a Scan of the test table
// (test-only: no request path scans).
func countItems(t *testing.T, tb *table.Table, typ string) int {
	t.Helper()
	out, err := tb.Client().Scan(ctx(t), &dynamodb.ScanInput{
		TableName:                 aws.String(tb.Name()),
		FilterExpression:          aws.String("#t = :t"),
		ExpressionAttributeNames:  map[string]string{"#t": tb.Schema().TypeAttr},
		ExpressionAttributeValues: map[string]types.AttributeValue{":t": &types.AttributeValueMemberS{Value: typ}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return int(out.Count)
}

func TestDeleteRemovesGuards(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	f.create(t, member{ID: "m1", Email: "a@b.c", Status: "s"})
	if err := f.members.Delete(c, table.Key{PK: "MEMBER#m1", SK: "PROFILE"}); err != nil {
		t.Fatal(err)
	}
	if n := countItems(t, f.t, table.GuardType); n != 0 {
		t.Errorf("%d guards after delete, want 0", n)
	}
	if err := f.members.Create(c, &member{ID: "m2", Email: "a@b.c", Status: "s"}); err != nil {
		t.Errorf("email not free after delete: %v", err)
	}
}

func TestTTLExpiredNeverReturned(t *testing.T) {
	t.Parallel()
	now := time.Now()
	clock := atomic.Pointer[time.Time]{}
	clock.Store(&now)
	f := newFixture(t, func(o *table.Options) { o.Now = func() time.Time { return *clock.Load() } })
	c := ctx(t)
	f.create(t, member{ID: "m1", Email: "a@b.c", Status: "s", ExpiresAt: now.Add(time.Hour)})
	keep := member{ID: "m2", Email: "b@b.c", Status: "s"}
	if err := f.members.Create(c, &keep); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "MEMBER#m1", SK: "PROFILE"}
	if _, err := f.members.Get(c, k); err != nil {
		t.Fatalf("before expiry: %v", err)
	}
	later := now.Add(2 * time.Hour) // DynamoDB has not deleted it: the item is still stored
	clock.Store(&later)
	if _, err := f.members.Get(c, k); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Get past TTL: %v, want ErrNotFound", err)
	}
	p, err := f.members.List(c, table.Query{Index: table.GSI1, PK: "STATUS#s"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 1 || p.Items[0].ID != "m2" {
		t.Errorf("Query past TTL returned %+v, want only m2", p.Items)
	}
	got, err := f.members.BatchGet(c, []table.Key{k, {PK: "MEMBER#m2", SK: "PROFILE"}})
	if err != nil || len(got) != 1 || got[0].ID != "m2" {
		t.Errorf("BatchGet past TTL: %v %v", got, err)
	}
	if _, err := f.members.Patch(c, k, table.Patch{Set: map[string]any{"note": "x"}}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("Patch past TTL: %v", err)
	}
}

func TestPatchRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "m1", Email: "a@b.c", Status: "s"})
	got, err := f.members.Patch(c, k, table.Patch{Set: map[string]any{"note": "hello"}, Add: map[string]int64{"logins": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Note != "hello" || got.Logins != 2 || got.Version != 2 {
		t.Errorf("patched item %+v", got)
	}
	for _, field := range []string{"email", "PK", "GSI1PK", "_v"} {
		_, err := f.members.Patch(c, k, table.Patch{Set: map[string]any{field: "x"}})
		var ve *table.ValidationError
		if !errors.As(err, &ve) || ve.Field != field {
			t.Errorf("patch of %s: got %v, want ValidationError", field, err)
		}
	}
	_, err = f.members.Patch(c, k, table.Patch{Set: map[string]any{"note": "n"}, IfEqual: map[string]any{"note": "other"}})
	if !errors.Is(err, table.ErrConditionFailed) {
		t.Errorf("failed IfEqual: %v", err)
	}
	v := int64(1)
	_, err = f.members.Patch(c, k, table.Patch{Set: map[string]any{"note": "n"}, IfVersion: &v})
	if !errors.Is(err, table.ErrConflict) {
		t.Errorf("stale IfVersion: %v", err)
	}
}

func TestTransactGet(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	f.create(t, member{ID: "m1", Email: "a@b.c", Status: "s"})
	if err := f.notes.Create(c, &note{MemberID: "m1", Seq: 1, Text: "n"}); err != nil {
		t.Fatal(err)
	}
	var gm member
	var gn, missing note
	ops := []table.TxGet{
		f.members.GetOp(table.Key{PK: "MEMBER#m1", SK: "PROFILE"}, &gm),
		f.notes.GetOp(table.Key{PK: "MEMBER#m1", SK: "NOTE#0001"}, &gn),
		f.notes.GetOp(table.Key{PK: "MEMBER#m1", SK: "NOTE#0002"}, &missing),
	}
	if err := f.t.TransactGet(c, ops...); err != nil {
		t.Fatal(err)
	}
	if !ops[0].Found() || !ops[1].Found() || ops[2].Found() || gm.Email != "a@b.c" || gn.Text != "n" {
		t.Errorf("found %v %v %v; got %+v %+v", ops[0].Found(), ops[1].Found(), ops[2].Found(), gm, gn)
	}
	if err := f.t.TransactGet(c, ops[0], ops[0]); !errors.Is(err, table.ErrDuplicateItem) {
		t.Errorf("duplicate read: %v", err)
	}
}

// TestUpdateGuardsItemsWrittenElsewhere: an item written by another service
// (no version attribute, no guard) gets its guard on its first update.
func TestUpdateGuardsItemsWrittenElsewhere(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	putRaw(t, f.t, map[string]string{"PK": "MEMBER#legacy", "SK": "PROFILE", "id": "legacy", "email": "old@example.com", "status": "active"})
	k := table.Key{PK: "MEMBER#legacy", SK: "PROFILE"}
	got, err := f.members.Update(c, k, func(m *member) error { m.Note = "reindexed"; return nil })
	if err != nil || got.Version != 1 {
		t.Fatalf("update of a foreign item: %+v %v", got, err)
	}
	owner, err := f.t.LookupUnique(c, table.Unique{Name: "email", Value: "old@example.com"})
	if err != nil || owner != k {
		t.Errorf("guard after first update: %v %v", owner, err)
	}
	if err := f.members.Create(c, &member{ID: "new", Email: "old@example.com", Status: "s"}); !errors.Is(err, table.ErrUniqueViolation) {
		t.Errorf("legacy email taken by a new member: %v", err)
	}
}

func TestPatchIfNotEqualAndQueryFilter(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	for i, note := range []string{"keep", "drop", "keep"} {
		f.create(t, member{ID: fmt.Sprintf("m%d", i), Email: fmt.Sprintf("m%d@b.c", i), Status: "s", Note: note})
	}
	k := table.Key{PK: "MEMBER#m1", SK: "PROFILE"}
	_, err := f.members.Patch(c, k, table.Patch{Set: map[string]any{"logins": 1}, IfNotEqual: map[string]any{"note": "drop"}})
	if !errors.Is(err, table.ErrConditionFailed) {
		t.Errorf("IfNotEqual on a matching value: %v", err)
	}
	if _, err := f.members.Patch(c, k, table.Patch{Set: map[string]any{"logins": 1}, IfNotEqual: map[string]any{"note": "other", "team": "x"}}); err != nil {
		t.Errorf("IfNotEqual on another value and a missing attribute: %v", err)
	}
	var ids []string
	for m, err := range f.members.ListAll(c, table.Query{Index: table.GSI1, PK: "STATUS#s", Filter: map[string]any{"note": "keep"}, Limit: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	if diff := cmp.Diff([]string{"m0", "m2"}, ids); diff != "" {
		t.Errorf("filtered query (-want +got):\n%s", diff)
	}
	p, err := f.members.List(c, table.Query{Index: table.GSI1, PK: "STATUS#s", Filter: map[string]any{"note": "keep"}, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.members.List(c, table.Query{Index: table.GSI1, PK: "STATUS#s", Filter: map[string]any{"note": "drop"}, Cursor: p.Cursor}); !errors.Is(err, table.ErrInvalidCursor) {
		t.Errorf("cursor reused with another filter: %v", err)
	}
}

func TestEnsureGuards(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	putRaw(t, f.t, map[string]string{"PK": "MEMBER#old", "SK": "PROFILE", "id": "old", "email": "old@example.com"})
	k := table.Key{PK: "MEMBER#old", SK: "PROFILE"}
	if err := f.members.EnsureGuards(c, k); err != nil {
		t.Fatal(err)
	}
	if owner, err := f.t.LookupUnique(c, table.Unique{Name: "email", Value: "old@example.com"}); err != nil || owner != k {
		t.Errorf("guard: %v %v", owner, err)
	}
	if err := f.members.EnsureGuards(c, k); err != nil {
		t.Errorf("second call: %v", err)
	}
	if got, _ := f.members.Get(c, k); got.Version != 1 {
		t.Errorf("version %d after two EnsureGuards, want 1 (the second writes nothing)", got.Version)
	}
}

// TestPutDoesNotResetTheVersion: an unconditional Put between a read and a
// version-checked write makes that write fail, even when the Put's item
// carries the version that was read (no ABA).
func TestPutDoesNotResetTheVersion(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	writer := table.NewEntity(f.t, table.Def[note]{Type: "Note", Keys: noteDef.Keys})
	n := note{MemberID: "m1", Seq: 1, Text: "v1"}
	if err := writer.Create(c, &n); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "MEMBER#m1", SK: "NOTE#0001"}
	v := int64(1)
	n.Text = "put"
	if err := writer.Put(c, &n); err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Patch(c, k, table.Patch{Set: map[string]any{"text": "stale"}, IfVersion: &v}); !errors.Is(err, table.ErrConflict) {
		t.Errorf("a write checked against the version read before a Put: %v, want ErrConflict", err)
	}
}

func TestBatchAndTransactionTableChecks(t *testing.T) {
	t.Parallel()
	a, b := newFixture(t), newFixture(t)
	c := ctx(t)
	op, err := b.notes.PutOp(&note{MemberID: "m1", Seq: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.t.BatchWrite(c, op); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("batch of another table's op through this table: %v", err)
	}
	// The same key in two tables is not a duplicate within one transaction.
	opA, _ := a.notes.PutOp(&note{MemberID: "m1", Seq: 1})
	if err := a.t.Transact(c, opA, op); err != nil {
		t.Errorf("one key in two tables: %v", err)
	}
}

func TestTakeOnceAndNeverAfterExpiry(t *testing.T) {
	t.Parallel()
	now := time.Now()
	f := newFixture(t, func(o *table.Options) { o.Now = func() time.Time { return now } })
	c := ctx(t)
	type state struct {
		ID  string    `dynamo:"id"`
		Exp time.Time `dynamo:"exp"`
	}
	states := table.NewEntity(f.t, table.Def[state]{
		Type: "State",
		Keys: table.Template{PK: "STATE#{id}", SK: "STATE"},
		TTL:  table.TTL{From: "exp"},
	})
	if err := states.Create(c, &state{ID: "live", Exp: now.Add(15 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if err := states.Create(c, &state{ID: "old", Exp: now.Add(-time.Minute)}); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "STATE#live", SK: "STATE"}
	var wg sync.WaitGroup
	var won, lost atomic.Int64
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			switch _, err := states.Take(c, k); {
			case err == nil:
				won.Add(1)
			case errors.Is(err, table.ErrNotFound):
				lost.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if won.Load() != 1 || lost.Load() != 19 {
		t.Errorf("20 concurrent takes: %d won, %d lost; want 1 and 19", won.Load(), lost.Load())
	}
	if _, err := states.Take(c, table.Key{PK: "STATE#old", SK: "STATE"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("take of an expired item still stored: %v, want ErrNotFound", err)
	}
}

func TestFilterContainsAndIfAbsent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	type hook struct {
		ID        string   `dynamo:"id"`
		Events    []string `dynamo:"events,set"`
		RotatedAt string   `dynamo:"rotatedAt"`
	}
	hooks := table.NewEntity(f.t, table.Def[hook]{Type: "Hook", Keys: table.Template{PK: "HOOKS", SK: "HOOK#{id}"}})
	for _, h := range []hook{{"a", []string{"sync.done", "sync.failed"}, ""}, {"b", []string{"user.created"}, ""}, {"c", []string{"sync.failed"}, ""}} {
		if err := hooks.Create(c, &h); err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	for h, err := range hooks.ListAll(c, table.Query{PK: "HOOKS", FilterContains: map[string]any{"events": "sync.failed"}}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, h.ID)
	}
	if diff := cmp.Diff([]string{"a", "c"}, ids); diff != "" {
		t.Errorf("contains filter (-want +got):\n%s", diff)
	}
	k := table.Key{PK: "HOOKS", SK: "HOOK#a"}
	if _, err := hooks.Patch(c, k, table.Patch{Set: map[string]any{"rotatedAt": "now"}, IfAbsent: []string{"rotatedAt"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := hooks.Patch(c, k, table.Patch{Set: map[string]any{"rotatedAt": "again"}, IfAbsent: []string{"rotatedAt"}}); !errors.Is(err, table.ErrConditionFailed) {
		t.Errorf("second IfAbsent patch: %v, want ErrConditionFailed", err)
	}
	if !f.t.Now().Before(time.Now().Add(time.Second)) {
		t.Error("Table.Now is not the table's clock")
	}
}
