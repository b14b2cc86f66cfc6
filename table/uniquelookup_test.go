package table_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

type login struct {
	ID    string `dynamo:"id"`
	Email string `dynamo:"email"`
	Name  string `dynamo:"name"`
}

var loginDef = table.Def[login]{
	Type:      "Login",
	Keys:      table.Template{PK: "LOGIN#{id}", SK: "L"},
	IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "LEMAIL#{email}", SK: "L"}},
	UniqueOn:  []string{"email"},
}

// orphanLog collects the orphan-guard reports of a table's Observer.
type orphanLog struct {
	mu   sync.Mutex
	seen []*table.OrphanGuardError
}

func (l *orphanLog) option() func(*table.Options) {
	return func(o *table.Options) {
		o.Observer = func(_ context.Context, ev table.Event) {
			if ev.Op != table.OpOrphanGuard {
				return
			}
			var oe *table.OrphanGuardError
			if !errors.As(ev.Err, &oe) || !errors.Is(ev.Err, table.ErrOrphanGuard) {
				panic("an OrphanGuard event without an *OrphanGuardError")
			}
			l.mu.Lock()
			l.seen = append(l.seen, oe)
			l.mu.Unlock()
		}
	}
}

func (l *orphanLog) reports() []*table.OrphanGuardError {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*table.OrphanGuardError(nil), l.seen...)
}

func rawKey(k table.Key) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}}
}

// TestGuardIsNeverTheTruth (issue 26 §1): a guard whose item another
// writer deleted, or whose item no longer holds the value, answers no
// lookup (GetByUnique nor Table.LookupUnique); the orphan is reported to
// the Observer and removed, and a value taken out of an index by another
// writer is refused with table.Indexed while its guard stays.
func TestGuardIsNeverTheTruth(t *testing.T) {
	t.Parallel()
	var log orphanLog
	tb := tabletest.NewTable(t, table.NewSchema("truth"), log.option())
	logins := table.NewEntity(tb, loginDef)
	c := ctx(t)
	mk := func(id, email string) table.Key {
		t.Helper()
		if err := logins.Create(c, &login{ID: id, Email: email, Name: "n-" + id}); err != nil {
			t.Fatal(err)
		}
		return table.Key{PK: "LOGIN#" + id, SK: "L"}
	}
	u := func(email string) table.Unique { return table.Unique{Name: "email", Value: email} }
	guardStored := func(email string) bool {
		t.Helper()
		return len(tabletest.RawItem(t, tb, table.GuardKey(u(email)))) > 0
	}

	// 1. The item deleted outright by another writer: both lookups refuse.
	for i, lookup := range []func(table.Unique) (login, error){
		func(v table.Unique) (login, error) { return logins.GetByUnique(c, v) },
		func(v table.Unique) (login, error) {
			k, err := tb.LookupUnique(c, v)
			return login{ID: k.PK, Name: k.SK}, err
		},
	} {
		email := []string{"gone1@x.io", "gone2@x.io"}[i]
		k := mk("gone"+email[4:5], email)
		if got, err := lookup(u(email)); err != nil || got.Name == "" {
			t.Fatalf("live lookup: %+v %v", got, err)
		}
		if _, err := tb.Client().DeleteItem(c, &dynamodb.DeleteItemInput{TableName: aws.String(tb.Name()), Key: rawKey(k)}); err != nil {
			t.Fatal(err)
		}
		if got, err := lookup(u(email)); !errors.Is(err, table.ErrNotFound) {
			t.Fatalf("lookup %d of a deleted item answered %+v, %v; want ErrNotFound", i, got, err)
		}
		if guardStored(email) {
			t.Errorf("orphan guard of %s not removed", email)
		}
	}
	r := log.reports()
	if len(r) != 2 || !r[0].OwnerMissing || !r[0].Removed || r[0].Guard.Value != "gone1@x.io" {
		t.Fatalf("orphan reports %+v, want two, owner missing, removed", r)
	}

	// 2. The item no longer holds the value (another writer changed it).
	k := mk("moved", "old@x.io")
	if _, err := tb.Client().UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String(tb.Name()), Key: rawKey(k),
		UpdateExpression:          aws.String("SET email = :e"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":e": &types.AttributeValueMemberS{Value: "new@x.io"}}}); err != nil {
		t.Fatal(err)
	}
	if got, err := logins.GetByUnique(c, u("old@x.io")); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("lookup of a value the item gave up: %+v, %v", got, err)
	}
	r = log.reports()
	if len(r) != 3 || r[2].OwnerMissing || !r[2].Removed || r[2].Guard.Owner != k {
		t.Fatalf("orphan report %+v, want owner %v holding another value, removed", r[len(r)-1], k)
	}
	// The value is free again.
	mk("taker", "old@x.io")

	// 3. Out of an index by another writer's REMOVE: refused with
	// Indexed, found without; the guard is no orphan and stays.
	k = mk("revoked", "rev@x.io")
	if _, err := tb.Client().UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String(tb.Name()), Key: rawKey(k),
		UpdateExpression: aws.String("REMOVE GSI1PK, GSI1SK")}); err != nil {
		t.Fatal(err)
	}
	if _, err := logins.GetByUnique(c, u("rev@x.io"), table.Indexed(table.GSI1)); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("Indexed lookup of an item out of GSI1: %v", err)
	}
	if got, err := logins.GetByUnique(c, u("rev@x.io")); err != nil || got.ID != "revoked" {
		t.Fatalf("plain lookup: %+v %v", got, err)
	}
	if !guardStored("rev@x.io") || len(log.reports()) != 3 {
		t.Fatalf("the guard of an unindexed item was treated as an orphan")
	}
}

// TestOrphanCleanupSparesAReclaim (issue 26 §1): the delete of an orphan
// guard is conditioned so that a re-claim landing between the lookup's
// reads and the delete is kept: the lookup reports the orphan, removes
// nothing, and the re-created item is found.
func TestOrphanCleanupSparesAReclaim(t *testing.T) {
	t.Parallel()
	var log orphanLog
	base := tabletest.NewTable(t, table.NewSchema("reclaim"))
	hold := &tabletest.Hold{Op: "TransactWriteItems"}
	held := table.New(tabletest.NewClient(t, hold.Option()), base.Schema(), log.option())
	slow := table.NewEntity(held, loginDef)
	logins := table.NewEntity(base, loginDef)
	c := ctx(t)
	k := table.Key{PK: "LOGIN#ann", SK: "L"}
	if err := logins.Create(c, &login{ID: "ann", Email: "ann@x.io", Name: "first"}); err != nil {
		t.Fatal(err)
	}
	if _, err := base.Client().DeleteItem(c, &dynamodb.DeleteItemInput{TableName: aws.String(base.Name()), Key: rawKey(k)}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := slow.GetByUnique(c, table.Unique{Name: "email", Value: "ann@x.io"})
		done <- err
	}()
	<-hold.Arrived() // the orphan's delete is in flight
	if err := logins.Create(c, &login{ID: "ann", Email: "ann@x.io", Name: "again"}); err != nil {
		t.Fatalf("re-claim: %v", err)
	}
	hold.Release()
	if err := <-done; !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("the lookup that found the orphan: %v", err)
	}
	r := log.reports()
	if len(r) != 1 || r[0].Removed || r[0].DeleteErr == nil {
		t.Fatalf("reports %+v: want one orphan, not removed", r)
	}
	got, err := logins.GetByUnique(c, table.Unique{Name: "email", Value: "ann@x.io"})
	if err != nil || got.Name != "again" {
		t.Fatalf("the re-claimed value: %+v, %v", got, err)
	}
}

// TestGetByIndexChecksStoredIndexKey (issue 26 §1): a GSI that still lists
// an item whose index attributes another writer removed (the index lags)
// does not make GetByIndex return it.
func TestGetByIndexChecksStoredIndexKey(t *testing.T) {
	t.Parallel()
	base := tabletest.NewTable(t, table.NewSchema("stale"))
	stale := &tabletest.StaleQueries{}
	tb := table.New(tabletest.NewClient(t, stale.Option()), base.Schema())
	logins := table.NewEntity(tb, loginDef)
	c := ctx(t)
	if err := logins.Create(c, &login{ID: "bo", Email: "bo@x.io", Name: "Bo"}); err != nil {
		t.Fatal(err)
	}
	q := table.Query{Index: table.GSI1, PK: "LEMAIL#bo@x.io", SK: table.SKEquals("L")}
	if got, err := logins.GetByIndex(c, q); err != nil || got.ID != "bo" {
		t.Fatalf("GetByIndex: %+v %v", got, err)
	}
	if _, err := base.Client().UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String(base.Name()), Key: rawKey(table.Key{PK: "LOGIN#bo", SK: "L"}),
		UpdateExpression: aws.String("REMOVE GSI1PK, GSI1SK")}); err != nil {
		t.Fatal(err)
	}
	if got, err := logins.GetByIndex(c, q); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("a stale index entry answered: %+v, %v", got, err)
	}
}
