package ferryhook_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// The running service's writes of API keys, byte for byte (the reference
// service's packages/core/src/db/apiKeys.ts, through lib-dynamodb), on a
// table opened with table.WithLowercaseKeys.

// svcPutUser is the service's users.create of a user (no email guard).
func svcPutUser(t *testing.T, tbl *table.Table, uid, email string) {
	t.Helper()
	putRaw(t, tbl, map[string]any{"pk": "USER#" + uid, "sk": "PROFILE", "gsi1pk": "EMAIL#" + email, "gsi1sk": "USER",
		"userId": uid, "email": email, "name": "Svc", "passwordHash": nil, "plan": "free", "githubId": "7",
		"usageThisMonth": 0, "createdAt": "2026-11-01T00:00:00.000Z", "updatedAt": "2026-11-01T00:00:00.000Z"})
}

// svcCreateKey is the service's apiKeys.create: generateApiKeyRaw
// (fh_live_ and 32 random bytes in base64url), hashApiKey (HMAC-SHA256
// under an empty key, hex), keyPrefix its first 16 characters, and one
// PutCommand of the item with gsi2pk/gsi2sk and lastUsedAt null. It
// returns the plaintext and the item's key.
func svcCreateKey(t *testing.T, tbl *table.Table, uid string) (string, table.Key) {
	t.Helper()
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	plain := "fh_live_" + base64.RawURLEncoding.EncodeToString(b[:])
	hash := ferryhook.HMACSHA256Hex(nil)(plain)
	kid := string(fh.APIKeyIDs.New())
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	item := map[string]types.AttributeValue{
		"pk": s("USER#" + uid), "sk": s("KEY#" + kid), "gsi2pk": s("KEYHASH#" + hash), "gsi2sk": s("KEY"),
		"keyId": s(kid), "userId": s(uid), "name": s("ci"), "keyHash": s(hash), "keyPrefix": s(plain[:16]),
		"permissions": s("admin"), "lastUsedAt": &types.AttributeValueMemberNULL{Value: true}, "createdAt": s("2026-11-02T00:00:00.000Z"),
	}
	if _, err := tbl.Client().PutItem(ctx(t), &dynamodb.PutItemInput{TableName: aws.String(tbl.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	return plain, table.Key{PK: "USER#" + uid, SK: "KEY#" + kid}
}

// svcDeleteKey is the service's apiKeys.delete, verbatim: an UpdateCommand
// with UpdateExpression "REMOVE gsi2pk, gsi2sk" and no condition.
func svcDeleteKey(t *testing.T, tbl *table.Table, k table.Key) {
	t.Helper()
	_, err := tbl.Client().UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: aws.String(tbl.Name()),
		Key:              map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: k.PK}, "sk": &types.AttributeValueMemberS{Value: k.SK}},
		UpdateExpression: aws.String("REMOVE gsi2pk, gsi2sk")})
	if err != nil {
		t.Fatal(err)
	}
}

// svcGetByHash is the service's apiKeys.getByHash (its auth middleware's
// lookup): Query gsi2 with gsi2pk = KEYHASH#{hash} AND gsi2sk = KEY,
// Limit 1. It reports whether the service finds the key.
func svcGetByHash(t *testing.T, tbl *table.Table, plain string) bool {
	t.Helper()
	out, err := tbl.Client().Query(ctx(t), &dynamodb.QueryInput{TableName: aws.String(tbl.Name()), IndexName: aws.String("gsi2"),
		KeyConditionExpression: aws.String("gsi2pk = :pk AND gsi2sk = :sk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: "KEYHASH#" + ferryhook.HMACSHA256Hex(nil)(plain)},
			":sk": &types.AttributeValueMemberS{Value: "KEY"}},
		Limit: aws.Int32(1)})
	if err != nil {
		t.Fatal(err)
	}
	return len(out.Items) > 0
}

// rawItem reads k with a consistent GetItem (nil when missing).
func rawItem(t *testing.T, tbl *table.Table, k table.Key) map[string]types.AttributeValue {
	t.Helper()
	out, err := tbl.Client().GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(tbl.Name()), Key: rawKeyOf(tbl, k), ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item
}

// adopt runs the adoption job over the main table's entities, as
// `singletable adopt -app ferryhook -profile service` does.
func adopt(t *testing.T, c context.Context, f fixture, mod func(*table.Job)) (table.JobReport, error) {
	t.Helper()
	job := table.AdoptJob("adopt-ferryhook", f.main.Entities()...)
	if mod != nil {
		mod(&job)
	}
	return f.main.RunJob(c, job)
}

// revokedKey is one key the service revoked, in a format.
type revokedKey struct {
	format string
	plain  string
	k      table.Key
	hash   string
}

// wantRevoked checks that a revoked key stays revoked for everyone: the
// library's Authenticate and GetByHash refuse it (ErrInvalidAPIKey), the
// service's own getByHash does not find it, and its item still lacks
// gsi2pk and gsi2sk (adoption did not put it back in GSI2).
func wantRevoked(t *testing.T, f fixture, r revokedKey, when string) {
	t.Helper()
	if _, err := f.store.APIKeys.Authenticate(ctx(t), r.plain); !errors.Is(err, ferryhook.ErrInvalidAPIKey) {
		t.Errorf("%s: Authenticate of the %s key the service revoked: err = %v, want ErrInvalidAPIKey", when, r.format, err)
	}
	if _, err := f.store.APIKeys.GetByHash(ctx(t), r.hash); !errors.Is(err, ferryhook.ErrInvalidAPIKey) {
		t.Errorf("%s: GetByHash of the %s key the service revoked: err = %v, want ErrInvalidAPIKey", when, r.format, err)
	}
	if svcGetByHash(t, f.main, r.plain) {
		t.Errorf("%s: the service's own getByHash finds the %s key it revoked", when, r.format)
	}
	raw := rawItem(t, f.main, r.k)
	if raw == nil {
		t.Fatalf("%s: the revoked %s key's item is gone", when, r.format)
	}
	for _, a := range []string{"gsi2pk", "gsi2sk"} {
		if _, ok := raw[a]; ok {
			t.Errorf("%s: the revoked %s key's item holds %s again", when, r.format, a)
		}
	}
}

// guardOf reports whether the key-hash guard of hash is stored.
func guardOf(t *testing.T, f fixture, hash string) bool {
	t.Helper()
	return rawItem(t, f.main, table.GuardKey(table.Unique{Name: "keyhash", Value: hash})) != nil
}

// newKeys creates one key in each format for uid: the service's own
// (fh_live_ and 43 base64url characters, found through its guard or GSI2)
// and the library's (naming its item).
func newKeys(t *testing.T, f fixture, uid string) []revokedKey {
	t.Helper()
	plain, k := svcCreateKey(t, f.main, uid)
	nk, err := f.store.APIKeys.Create(ctx(t), fh.UserID(uid), ferryhook.CreateAPIKeyInput{Name: "lib", Permissions: fh.PermissionWrite})
	if err != nil {
		t.Fatal(err)
	}
	lk, err := ferryhook.APIKeyKey(fh.UserID(uid), nk.APIKey.KeyID)
	if err != nil {
		t.Fatal(err)
	}
	keys := []revokedKey{
		{"service", plain, k, ferryhook.HMACSHA256Hex(nil)(plain)},
		{"library", nk.Key, lk, nk.APIKey.KeyHash},
	}
	for _, r := range keys {
		if _, err := f.store.APIKeys.Authenticate(ctx(t), r.plain); err != nil {
			t.Fatalf("a fresh %s key: %v", r.format, err)
		}
	}
	return keys
}

// A key the running service revoked (its apiKeys.delete: REMOVE gsi2pk,
// gsi2sk) never authenticates again, whatever the order of the
// revocation and the adoption job (issue 35, FH-6, FH-11 apiKeys.delete):
// revoked before adoption, after it, between its dry run and its run. The
// adoption job does not put the item back in GSI2 (the service's own
// getByHash would find it again) nor claim its key-hash guard; a guard
// claimed before the revocation does not authenticate it. Both key
// formats: the service's fh_live_ keys (guard or GSI2 path) and the
// library's (the item they name).
func TestRevokedKeyStaysRevokedAcrossAdoption_FH6_FH11(t *testing.T) {
	t.Parallel()
	orders := []struct {
		name string
		run  func(t *testing.T, f fixture, revoke func())
	}{
		{"revoke-then-adopt", func(t *testing.T, f fixture, revoke func()) {
			revoke()
			if _, err := adopt(t, ctx(t), f, nil); err != nil {
				t.Fatal(err)
			}
		}},
		{"adopt-then-revoke", func(t *testing.T, f fixture, revoke func()) {
			if _, err := adopt(t, ctx(t), f, nil); err != nil {
				t.Fatal(err)
			}
			revoke()
		}},
		{"dry-run-revoke-run", func(t *testing.T, f fixture, revoke func()) {
			dry, err := adopt(t, ctx(t), f, func(j *table.Job) { j.DryRun = true })
			if err != nil {
				t.Fatal(err)
			}
			if dry.Changed == 0 {
				t.Errorf("the dry run plans nothing (%v): the service's key has no guard yet", dry)
			}
			revoke()
			if _, err := adopt(t, ctx(t), f, nil); err != nil {
				t.Fatal(err)
			}
		}},
		{"revoke-adopt-adopt-again", func(t *testing.T, f fixture, revoke func()) {
			revoke()
			for range 2 {
				if _, err := adopt(t, ctx(t), f, nil); err != nil {
					t.Fatal(err)
				}
			}
		}},
	}
	for _, o := range orders {
		t.Run(o.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, []table.SchemaOption{table.WithLowercaseKeys()}, ferryhook.ServiceProfile())
			uid := "usr_revokeorder00001"
			svcPutUser(t, f.main, uid, "Rev@Example.com")
			keys := newKeys(t, f, uid)
			live, _ := svcCreateKey(t, f.main, uid) // never revoked
			o.run(t, f, func() {
				for _, r := range keys {
					svcDeleteKey(t, f.main, r.k)
				}
			})
			for _, r := range keys {
				wantRevoked(t, f, r, o.name)
			}
			if o.name != "adopt-then-revoke" && guardOf(t, f, keys[0].hash) {
				t.Errorf("%s: adoption claimed the key-hash guard of a key the service revoked", o.name)
			}
			if _, err := f.store.APIKeys.Authenticate(ctx(t), live); err != nil {
				t.Errorf("%s: the key never revoked: %v", o.name, err)
			}
			if !guardOf(t, f, ferryhook.HMACSHA256Hex(nil)(live)) {
				t.Errorf("%s: adoption did not claim the guard of the live service key", o.name)
			}
		})
	}
}

// An adoption interrupted after its first page and resumed from its
// checkpoint, with the service revoking every key in between, leaves no
// revoked key authenticating (issue 35, FH-6, FH-11 apiKeys.delete): the
// keys visited before the interruption had their guard claimed (then the
// item answers: no GSI2 attributes, refused), those visited after it are
// left out of GSI2 and get no guard.
func TestRevokedKeyAcrossInterruptedAdoption_FH6_FH11(t *testing.T) {
	t.Parallel()
	f := newFixture(t, []table.SchemaOption{table.WithLowercaseKeys()}, ferryhook.ServiceProfile())
	uid := "usr_revokeresume0001"
	svcPutUser(t, f.main, uid, "Resume@Example.com")
	var keys []revokedKey
	for range 3 {
		keys = append(keys, newKeys(t, f, uid)...)
	}
	live, _ := svcCreateKey(t, f.main, uid)
	c, cancel := context.WithCancel(ctx(t))
	pages := 0
	page := func(j *table.Job) {
		j.Segments, j.PageSize = 1, 1
		j.Progress = func(table.JobReport) {
			if pages++; pages == 1 {
				cancel()
			}
		}
	}
	first, err := adopt(t, c, f, page)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the interrupted run: %v (%v), want context.Canceled", err, first)
	}
	if first.Scanned != 1 {
		t.Fatalf("the interrupted run scanned %d items, want 1 (one page)", first.Scanned)
	}
	for _, r := range keys {
		svcDeleteKey(t, f.main, r.k)
	}
	rep, err := adopt(t, ctx(t), f, func(j *table.Job) { page(j); j.Resume, j.Progress = true, nil })
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Resumed || rep.Conflicted != 0 {
		t.Errorf("the resumed run: %v (resumed %v)", rep, rep.Resumed)
	}
	for i, r := range keys {
		wantRevoked(t, f, r, fmt.Sprintf("resumed, key %d", i))
	}
	if _, err := f.store.APIKeys.Authenticate(ctx(t), live); err != nil {
		t.Errorf("the key never revoked: %v", err)
	}
}

// A revocation that lands while the adoption's write is in flight (its
// scan read the key live, the service revokes it, then the write that
// claims the guard arrives) does not leave a guard for the revoked key:
// the write is conditioned on gsi2pk and gsi2sk as read, fails, and the
// job re-reads the key, revoked (issue 35, FH-6, FH-11 apiKeys.delete).
func TestRevokedDuringAdoptionWrite_FH6_FH11(t *testing.T) {
	t.Parallel()
	f := newFixture(t, []table.SchemaOption{table.WithLowercaseKeys()}, ferryhook.ServiceProfile())
	plain, k := svcCreateKey(t, f.main, "usr_revokeinflight01")
	hold := &tabletest.Hold{Op: "TransactWriteItems"}
	held := table.New(tabletest.NewClient(t, hold.Option()), f.main.Schema())
	ferryhook.New(held, f.events, ferryhook.ServiceProfile()) // binds the entities to held
	type result struct {
		rep table.JobReport
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := held.RunJob(ctx(t), table.AdoptJob("adopt-ferryhook", held.Entities()...))
		done <- result{rep, err}
	}()
	select {
	case <-hold.Arrived():
	case r := <-done:
		t.Fatalf("the adoption wrote no transaction: %v %v", r.rep, r.err)
	}
	svcDeleteKey(t, f.main, k)
	hold.Release()
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if r.rep.Changed != 0 || r.rep.Unchanged != 1 {
		t.Errorf("adoption: %v, want the revoked key unchanged", r.rep)
	}
	hash := ferryhook.HMACSHA256Hex(nil)(plain)
	wantRevoked(t, f, revokedKey{"service", plain, k, hash}, "revoked in flight")
	if guardOf(t, f, hash) {
		t.Errorf("adoption claimed the guard of a key the service revoked while its write was in flight")
	}
}
