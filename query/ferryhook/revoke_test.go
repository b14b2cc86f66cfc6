package ferryhook_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// profileCase is one way of opening the tables: the library's default, or
// next to the running service.
type profileCase struct {
	name       string
	schemaOpts []table.SchemaOption
	opts       []func(*ferryhook.Options)
}

var profiles = []profileCase{
	{"default", nil, nil},
	{"service", []table.SchemaOption{table.WithLowercaseKeys()}, []func(*ferryhook.Options){ferryhook.ServiceProfile()}},
}

// rawKeyOf is k in the table's own key attribute names.
func rawKeyOf(tbl *table.Table, k table.Key) map[string]types.AttributeValue {
	s := tbl.Schema()
	return map[string]types.AttributeValue{s.PK: &types.AttributeValueMemberS{Value: k.PK}, s.SK: &types.AttributeValueMemberS{Value: k.SK}}
}

// serviceRevoke is the running service's apiKeys.delete: an UpdateItem
// that removes the GSI2 key attributes and leaves the item.
func serviceRevoke(t *testing.T, tbl *table.Table, k table.Key) {
	t.Helper()
	gsi2 := tbl.Schema().Indexes[1]
	_, err := tbl.Client().UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: aws.String(tbl.Name()), Key: rawKeyOf(tbl, k),
		UpdateExpression:         aws.String("REMOVE #p, #s"),
		ExpressionAttributeNames: map[string]string{"#p": gsi2.PK, "#s": gsi2.SK}})
	if err != nil {
		t.Fatal(err)
	}
}

// serviceUpdateLastUsed is the running service's apiKeys.updateLastUsed.
func serviceUpdateLastUsed(t *testing.T, tbl *table.Table, k table.Key, at string) {
	t.Helper()
	_, err := tbl.Client().UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: aws.String(tbl.Name()), Key: rawKeyOf(tbl, k),
		UpdateExpression:          aws.String("SET lastUsedAt = :now"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":now": &types.AttributeValueMemberS{Value: at}}})
	if err != nil {
		t.Fatal(err)
	}
}

// orphans counts the orphan guards a table's Observer reports.
type orphans struct {
	mu sync.Mutex
	n  int
}

func (o *orphans) option() func(*table.Options) {
	return func(opts *table.Options) {
		opts.Observer = func(_ context.Context, ev table.Event) {
			if ev.Op == table.OpOrphanGuard && errors.Is(ev.Err, table.ErrOrphanGuard) {
				o.mu.Lock()
				o.n++
				o.mu.Unlock()
			}
		}
	}
}

func (o *orphans) count() int { o.mu.Lock(); defer o.mu.Unlock(); return o.n }

// keyFormat is how an API key's plaintext was minted: by the library
// (naming its item) or by the running service (fh_live_ and 43 base64url
// characters, found through its hash's guard once adopted).
type keyFormat struct {
	name     string
	requests int // GetItems of one Authenticate
	mint     func(t *testing.T, f fixture, p profileCase, user fh.UserID) (plain string, k table.Key, stored fh.APIKey)
}

var keyFormats = []keyFormat{
	{"library", 1, func(t *testing.T, f fixture, _ profileCase, user fh.UserID) (string, table.Key, fh.APIKey) {
		t.Helper()
		nk, err := f.store.APIKeys.Create(ctx(t), user, ferryhook.CreateAPIKeyInput{Name: "ci", Permissions: fh.PermissionWrite})
		if err != nil {
			t.Fatal(err)
		}
		k, err := ferryhook.APIKeyKey(user, nk.APIKey.KeyID)
		if err != nil {
			t.Fatal(err)
		}
		return nk.Key, k, nk.APIKey
	}},
	{"service", 2, func(t *testing.T, f fixture, p profileCase, user fh.UserID) (string, table.Key, fh.APIKey) {
		t.Helper()
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			t.Fatal(err)
		}
		plain := "fh_live_" + base64.RawURLEncoding.EncodeToString(b[:])
		hash := ferryhook.SHA256Hex(plain)
		prefix := plain[:8]
		if p.name == "service" {
			hash, prefix = ferryhook.HMACSHA256Hex(nil)(plain), plain[:16]
		}
		id := fh.APIKeyIDs.New()
		k, err := ferryhook.APIKeyKey(user, id)
		if err != nil {
			t.Fatal(err)
		}
		sc := f.main.Schema()
		gsi2 := sc.Indexes[1]
		// As the service's apiKeys.create writes it, then adopted (its
		// guard claimed), as `singletable adopt` does.
		putRaw(t, f.main, map[string]any{sc.PK: k.PK, sc.SK: k.SK, gsi2.PK: "KEYHASH#" + hash, gsi2.SK: "KEY",
			"keyId": string(id), "userId": string(user), "name": "svc", "keyHash": hash, "keyPrefix": prefix,
			"permissions": "admin", "lastUsedAt": nil, "createdAt": "2026-11-02T00:00:00.000Z"})
		out, err := f.main.Client().GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(f.main.Name()), Key: rawKeyOf(f.main, k), ConsistentRead: aws.Bool(true)})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range f.main.Entities() {
			if e.Type() == "APIKey" {
				if _, err := e.Adopt(ctx(t), out.Item, false); err != nil {
					t.Fatalf("adopt the service's key: %v", err)
				}
			}
		}
		created, _ := fh.ParseISO("2026-11-02T00:00:00.000Z")
		return plain, k, fh.APIKey{KeyID: id, UserID: user, Name: "svc", KeyHash: hash, KeyPrefix: prefix, Permissions: fh.PermissionAdmin, CreatedAt: created}
	}},
}

// Every way an API key stops being valid makes the next Authenticate fail
// with ErrInvalidAPIKey, in both profiles and for both key formats (issue
// 26 §1; FH-6, FH-11 apiKeys.delete): the running service's
// apiKeys.delete (REMOVE of gsi2pk and gsi2sk), the item deleted outright
// by another writer, and the library's own APIKeys.Delete. A live key is
// returned as stored, with the lastUsedAt the service's updateLastUsed
// wrote: a key the library minted in one GetItem of its item (a forged
// secret naming the same item is refused), a key in the service's format
// in two (its guard, then its item; a guard left by a deleted item is an
// orphan, reported and removed).
func TestAuthenticateRefusesEveryRevocation_FH6(t *testing.T) {
	t.Parallel()
	for _, p := range profiles {
		for _, kf := range keyFormats {
			t.Run(p.name+"/"+kf.name, func(t *testing.T) {
				t.Parallel()
				var seen orphans
				f := newFixtureWith(t, p.schemaOpts, []func(*table.Options){seen.option()}, p.opts...)
				s := f.store
				u := mustUser(t, s, "revoke@example.com")
				newKey := func() (string, table.Key, fh.APIKey) {
					t.Helper()
					plain, k, stored := kf.mint(t, f, p, u.UserID)
					if _, err := s.APIKeys.Authenticate(ctx(t), plain); err != nil {
						t.Fatalf("a fresh key: %v", err)
					}
					return plain, k, stored
				}

				// The stored key, lastUsedAt included.
				plain, k, want := newKey()
				at := "2026-11-25T10:11:12.345Z"
				serviceUpdateLastUsed(t, f.main, k, at)
				rc := &tabletest.RequestCounter{}
				counted := ferryhook.New(table.New(tabletest.NewClient(t, rc.Option()), f.main.Schema()),
					table.New(tabletest.NewClient(t, rc.Option()), f.events.Schema()), p.opts...)
				got, err := counted.APIKeys.Authenticate(ctx(t), plain)
				if err != nil {
					t.Fatal(err)
				}
				want.LastUsedAt, _ = fh.ParseISO(at)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("Authenticate after the service's updateLastUsed (-want +got):\n%s", diff)
				}
				if rc.Total() != kf.requests || rc.Of("GetItem") != kf.requests {
					t.Errorf("Authenticate took %v, want %d GetItems", rc.Ops(), kf.requests)
				}
				if kf.name == "library" {
					forged := plain[:len(plain)-4] + "AAAA"
					if forged == plain {
						forged = plain[:len(plain)-4] + "BBBB"
					}
					_, err := s.APIKeys.Authenticate(ctx(t), forged)
					wantIs(t, err, ferryhook.ErrInvalidAPIKey)
				}

				// 1. The service's apiKeys.delete.
				serviceRevoke(t, f.main, k)
				rc.Reset()
				_, err = counted.APIKeys.Authenticate(ctx(t), plain)
				wantIs(t, err, ferryhook.ErrInvalidAPIKey)
				if _, err := s.APIKeys.GetByHash(ctx(t), want.KeyHash); !errors.Is(err, ferryhook.ErrInvalidAPIKey) {
					t.Errorf("GetByHash of a revoked key: %v", err)
				}

				// 2. The item deleted outright by another writer.
				plain, k, want = newKey()
				if _, err := f.main.Client().DeleteItem(ctx(t), &dynamodb.DeleteItemInput{TableName: aws.String(f.main.Name()), Key: rawKeyOf(f.main, k)}); err != nil {
					t.Fatal(err)
				}
				_, err = s.APIKeys.Authenticate(ctx(t), plain)
				wantIs(t, err, ferryhook.ErrInvalidAPIKey)
				if kf.name == "service" {
					if seen.count() != 1 {
						t.Errorf("orphan guards reported: %d, want 1", seen.count())
					}
					guard := table.GuardKey(table.Unique{Name: "keyhash", Value: want.KeyHash})
					if out, err := f.main.Client().GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(f.main.Name()), Key: rawKeyOf(f.main, guard), ConsistentRead: aws.Bool(true)}); err != nil || out.Item != nil {
						t.Errorf("the orphan guard is still stored (%v)", err)
					}
				}
				_, err = s.APIKeys.Authenticate(ctx(t), plain) // and again
				wantIs(t, err, ferryhook.ErrInvalidAPIKey)

				// 3. The library's own revoke.
				plain, _, want = newKey()
				if err := s.APIKeys.Delete(ctx(t), ferryhook.APIKeyRef{User: u.UserID, Key: want.KeyID}); err != nil {
					t.Fatal(err)
				}
				_, err = s.APIKeys.Authenticate(ctx(t), plain)
				wantIs(t, err, ferryhook.ErrInvalidAPIKey)
			})
		}
	}
}

// A key the running service wrote (never adopted: no guard), shaped as its
// apiKeys.create writes it (lastUsedAt null), authenticates through GSI2
// with every attribute; after the service's updateLastUsed it carries
// lastUsedAt; after the service's apiKeys.delete it fails, even while a
// lagging GSI2 still lists it (issue 26 §1; FH-6).
func TestAuthenticateServiceWrittenKey_FH6(t *testing.T) {
	t.Parallel()
	base := newFixture(t, []table.SchemaOption{table.WithLowercaseKeys()}, ferryhook.ServiceProfile())
	uid, kid := "usr_svckeyowner00001", "key_svckey0000000001"
	plain := "fh_live_" + "0123456789abcdef0123456789abcdef"
	hash := ferryhook.HMACSHA256Hex(nil)(plain)
	putRaw(t, base.main, map[string]any{"pk": "USER#" + uid, "sk": "PROFILE", "gsi1pk": "EMAIL#svc@example.com", "gsi1sk": "USER",
		"userId": uid, "email": "svc@example.com", "name": "Svc", "passwordHash": nil, "plan": "free", "githubId": "9",
		"usageThisMonth": 0, "createdAt": "2026-11-01T00:00:00.000Z", "updatedAt": "2026-11-01T00:00:00.000Z"})
	putRaw(t, base.main, map[string]any{"pk": "USER#" + uid, "sk": "KEY#" + kid, "gsi2pk": "KEYHASH#" + hash, "gsi2sk": "KEY",
		"keyId": kid, "userId": uid, "name": "prod", "keyHash": hash, "keyPrefix": plain[:16], "permissions": "admin",
		"lastUsedAt": nil, "createdAt": "2026-11-02T00:00:00.000Z"})
	stale := &tabletest.StaleQueries{}
	s := ferryhook.New(table.New(tabletest.NewClient(t, stale.Option()), base.main.Schema()), base.events, ferryhook.ServiceProfile())
	got, err := s.APIKeys.Authenticate(ctx(t), plain)
	if err != nil {
		t.Fatal(err)
	}
	created, _ := fh.ParseISO("2026-11-02T00:00:00.000Z")
	want := fh.APIKey{KeyID: fh.APIKeyID(kid), UserID: fh.UserID(uid), Name: "prod", KeyHash: hash, KeyPrefix: plain[:16], Permissions: fh.PermissionAdmin, CreatedAt: created}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("a service-written key (-want +got):\n%s", diff)
	}
	k := table.Key{PK: "USER#" + uid, SK: "KEY#" + kid}
	at := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	serviceUpdateLastUsed(t, base.main, k, fh.ISO(at).String())
	if got, err := s.APIKeys.Authenticate(ctx(t), plain); err != nil || !got.LastUsedAt.Equal(at) {
		t.Fatalf("after the service's updateLastUsed: lastUsedAt %v, %v", got.LastUsedAt, err)
	}
	serviceRevoke(t, base.main, k) // the stale GSI2 still answers with the key
	_, err = s.APIKeys.Authenticate(ctx(t), plain)
	wantIs(t, err, ferryhook.ErrInvalidAPIKey)
}
