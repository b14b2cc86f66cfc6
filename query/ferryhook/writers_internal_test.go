package ferryhook

// Every attribute the Ferryhook service writes survives the library
// (issue 26 §6). The service's db/*.ts writes, per entity: users.create
// (userId, email, name, passwordHash, plan, stripeCustomerId, stripeSubId,
// githubId, googleId: null when absent, usageThisMonth, usagePeriodStart,
// createdAt, updatedAt, gsi1pk/gsi1sk), apiKeys.create (keyId, userId,
// name, keyHash, keyPrefix, permissions, lastUsedAt: null, createdAt,
// gsi2pk/gsi2sk) and updateLastUsed, sources.create (sourceId, userId,
// name, provider, signingSecret, signingAlgorithm "none" by default,
// status, eventCount, lastEventAt: null, createdAt, gsi3pk/gsi3sk),
// connections.create (filters, transform, retryConfig as JSON strings or
// null, counters, timestamps), events.create (headers as a JSON string,
// receivedAt in milliseconds, processedAt and deliveredAt null, expiresAt
// in seconds, gsi1pk/gsi1sk) and updateStatus (milliseconds), and
// attempts.create. Every one is a field of the library's types: none needs
// the catch-all. Each item below is shaped as the service stores it
// (values are ours); the library reads it, updates one field and rewrites
// it whole (Upsert: the service keeps no version, so Replace does not
// apply), and every other attribute must be stored byte for byte as before.

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

func sv(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func nv(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}
func nullv() types.AttributeValue { return &types.AttributeValueMemberNULL{Value: true} }
func keyOf(tb *table.Table, k table.Key) table.Item {
	s := tb.Schema()
	return table.Item{s.PK: sv(k.PK), s.SK: sv(k.SK)}
}

// modelledBy returns the top-level attribute names T models.
func modelledBy[T any]() map[string]bool {
	out := map[string]bool{}
	rt := reflect.TypeFor[T]()
	for i := range rt.NumField() {
		if name, _, _ := strings.Cut(rt.Field(i).Tag.Get("dynamo"), ","); name != "-" && name != "" {
			out[name] = true
		}
	}
	return out
}

// serviceItemSurvives writes item raw under k, checks that T models every
// attribute, then that Update with change and Upsert of the read item
// changed by change leave every other attribute as stored.
func serviceItemSurvives[T any](t *testing.T, tb *table.Table, e *table.Entity[T], k table.Key, item table.Item, change func(*T), changed ...string) {
	t.Helper()
	for n, v := range keyOf(tb, k) {
		item[n] = v
	}
	if _, err := tb.Client().PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(tb.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	stored := tabletest.RawItem(t, tb, k)
	skip := map[string]bool{"updatedAt": true}
	for n := range keyOf(tb, k) {
		skip[n] = true
	}
	for _, c := range changed {
		skip[c] = true
	}
	check := tabletest.Unchanged(t, tb, k, slices.Collect(maps.Keys(skip))...)
	modelled := modelledBy[T]()
	s := tb.Schema()
	for n := range stored {
		isIndex := false
		for _, ix := range s.Indexes {
			isIndex = isIndex || n == ix.PK || n == ix.SK
		}
		if !skip[n] && !isIndex && n != s.TTLAttr && !modelled[n] {
			t.Errorf("%T does not model %s, which the service writes", *new(T), n)
		}
	}
	if _, err := e.Update(t.Context(), k, func(x *T) error { change(x); return nil }); err != nil {
		t.Fatalf("Update: %v", err)
	}
	check("Update")
	v, err := e.Get(t.Context(), k)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	change(&v)
	if err := e.Upsert(context.WithoutCancel(t.Context()), &v); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
	check("Upsert")
}

// TestServiceAttributesSurvive: one item per entity as the service writes
// it, next to the service (lower-case keys, the service profile, signing
// secrets as the service stores them).
func TestServiceAttributesSurvive(t *testing.T) {
	t.Parallel()
	lower := []table.SchemaOption{table.WithLowercaseKeys()}
	main := tabletest.NewTable(t, MainSchema(DefaultMainTable, lower...))
	events := tabletest.NewTable(t, EventsSchema(DefaultEventsTable, lower...))
	s := New(main, events, ServiceProfile(), SigningSecretsAsStored())
	created := "2026-11-01T09:30:00.000Z"
	uid, sid, cid, kid, eid := "usr_V1StGXR8_Z5jdHi6", "src_aaaaaaaaaaaaaaaa", "conn_cccccccccccccccc", "key_kkkkkkkkkkkkkkkk", "evt_eeeeeeeeeeeeeee1"
	at := time.Now().Truncate(time.Millisecond).UnixMilli()
	hash := SHA256Hex("fh_live_0123456789abcdef0123456789ab")

	t.Run("User", func(t *testing.T) {
		serviceItemSurvives(t, main, s.user, table.Key{PK: "USER#" + uid, SK: "PROFILE"}, table.Item{
			"gsi1pk": sv("EMAIL#Ann@Example.com"), "gsi1sk": sv("USER"), "userId": sv(uid), "email": sv("Ann@Example.com"),
			"name": sv("Ann"), "passwordHash": sv(bcryptLike), "plan": sv("free"), "stripeCustomerId": nullv(), "stripeSubId": nullv(),
			"githubId": nullv(), "googleId": nullv(), "usageThisMonth": nv(0), "usagePeriodStart": sv("2026-11-01"),
			"createdAt": sv(created), "updatedAt": sv(created)},
			func(u *fh.User) { u.Name += "!" }, "name")
	})
	t.Run("APIKey", func(t *testing.T) {
		serviceItemSurvives(t, main, s.apiKey, table.Key{PK: "USER#" + uid, SK: "KEY#" + kid}, table.Item{
			"gsi2pk": sv("KEYHASH#" + hash), "gsi2sk": sv("KEY"), "keyId": sv(kid), "userId": sv(uid), "name": sv("Production"),
			"keyHash": sv(hash), "keyPrefix": sv("fh_live_0123"), "permissions": sv("write"), "lastUsedAt": nullv(), "createdAt": sv(created)},
			func(k *fh.APIKey) { k.Name += "!" }, "name")
	})
	t.Run("Source", func(t *testing.T) {
		serviceItemSurvives(t, main, s.source, table.Key{PK: "USER#" + uid, SK: "SRC#" + sid}, table.Item{
			"gsi3pk": sv("SRCID#" + sid), "gsi3sk": sv("SOURCE"), "sourceId": sv(sid), "userId": sv(uid), "name": sv("Stripe"),
			"provider": sv("stripe"), "signingSecret": sv("whsec_service"), "signingAlgorithm": sv("none"), "status": sv("active"),
			"eventCount": nv(0), "lastEventAt": nullv(), "createdAt": sv(created)},
			func(x *fh.Source) { x.Name += "!" }, "name")
	})
	t.Run("Connection", func(t *testing.T) {
		serviceItemSurvives(t, main, s.conn, table.Key{PK: "SRC#" + sid, SK: "CONN#" + cid}, table.Item{
			"connectionId": sv(cid), "sourceId": sv(sid), "userId": sv(uid), "name": sv("Billing"),
			"destinationUrl": sv("https://billing.example.com/hook"), "signingSecret": sv("whsec_out"), "filters": sv(`{"type":["invoice.paid"]}`),
			"transform": nullv(), "retryConfig": sv(`{"maxRetries":5}`), "status": sv("active"), "deliveryCount": nv(0),
			"failureCount": nv(0), "createdAt": sv(created), "updatedAt": sv(created)},
			func(c *fh.Connection) { c.Name += "!" }, "name")
	})
	t.Run("Event", func(t *testing.T) {
		serviceItemSurvives(t, events, s.event, table.Key{PK: "SRC#" + sid, SK: "EVT#" + strconv.FormatInt(at, 10) + "#" + eid}, table.Item{
			"gsi1pk": sv("EVTID#" + eid), "gsi1sk": sv("EVENT"), "eventId": sv(eid), "sourceId": sv(sid), "userId": sv(uid),
			"status": sv("received"), "headers": sv(`{"content-type":"application/json"}`), "body": sv(`{"id":1}`),
			"sourceIp": sv("198.51.100.4"), "contentType": sv("application/json"), "method": sv("POST"), "receivedAt": nv(at),
			"processedAt": nullv(), "deliveredAt": nullv(), "expiresAt": nv(at/1000 + 7*86400)},
			func(e *fh.Event) { e.Status = fh.EventStatus("processing") }, "status")
	})
	t.Run("DeliveryAttempt", func(t *testing.T) {
		serviceItemSurvives(t, events, s.attempt, table.Key{PK: "EVT#" + eid, SK: "ATT#1"}, table.Item{
			"eventId": sv(eid), "connectionId": sv(cid), "attemptNumber": nv(1), "destinationUrl": sv("https://billing.example.com/hook"),
			"statusCode": nv(502), "responseBody": nullv(), "latencyMs": nv(120), "error": nullv(), "attemptedAt": nv(at)},
			func(a *fh.DeliveryAttempt) { a.LatencyMs++ }, "latencyMs")
	})
}

var bcryptLike = "$2b$10$" + strings.Repeat("a", 53)
