package ferryhook_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
)

// convention is how a deployment names its key attributes and hashes keys.
type convention struct {
	name       string
	schemaOpts []table.SchemaOption
	storeOpts  []func(*ferryhook.Options)
	hash       func(string) string
	prefixLen  int
	pk, sk     string
	gsi        [4][2]string // gsi[i] = {pk, sk} attribute names of GSIi
}

var conventions = []convention{
	{name: "document", hash: ferryhook.SHA256Hex, prefixLen: 8, pk: "PK", sk: "SK",
		gsi: [4][2]string{{}, {"GSI1PK", "GSI1SK"}, {"GSI2PK", "GSI2SK"}, {"GSI3PK", "GSI3SK"}}},
	{name: "service", schemaOpts: []table.SchemaOption{table.WithLowercaseKeys()},
		storeOpts: []func(*ferryhook.Options){ferryhook.ServiceKeyHashing()},
		hash:      ferryhook.HMACSHA256Hex(nil), prefixLen: 16, pk: "pk", sk: "sk",
		gsi: [4][2]string{{}, {"gsi1pk", "gsi1sk"}, {"gsi2pk", "gsi2sk"}, {"gsi3pk", "gsi3sk"}}},
}

// putRaw writes item with the plain SDK, as the document's service does:
// attributevalue maps, nil as NULL, no _type or version attribute.
func putRaw(t *testing.T, tbl *table.Table, item map[string]any) {
	t.Helper()
	av, err := attributevalue.MarshalMap(item)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.Client().PutItem(ctx(t), &dynamodb.PutItemInput{TableName: aws.String(tbl.Name()), Item: av}); err != nil {
		t.Fatal(err)
	}
}

func iso(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// Data written by the document's own service, in its documented format,
// reads back through the library: FH-1, FH-2, FH-3, FH-4, FH-5, FH-6,
// FH-7, FH-8, FH-9, FH-10, under the document's attribute names and under
// the running service's lower-case names and key hashing; then the
// library updates and ingests into it.
func TestLegacyServiceData_FH1_FH2_FH3_FH4_FH5_FH6_FH7_FH8_FH9_FH10(t *testing.T) {
	t.Parallel()
	for _, c := range conventions {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// The service stored signing secrets in plaintext: adopting its
			// data reads them (table.Options.AcceptPlaintextSecrets) and
			// every write, or the adoption job, seals them.
			adopt := func(o *table.Options) { o.AcceptPlaintextSecrets = true }
			f := newFixtureWith(t, c.schemaOpts, []func(*table.Options){adopt}, c.storeOpts...)
			s := f.store
			created := time.Date(2024, 5, 1, 9, 30, 0, 0, time.UTC)
			uid, sid1, sid2 := "usr_V1StGXR8_Z5jdHi6", "src_aaaaaaaaaaaaaaaa", "src_bbbbbbbbbbbbbbbb"
			cid, kid := "conn_cccccccccccccccc", "key_kkkkkkkkkkkkkkkk"
			plain := "fh_legacyplaintextkey0123456789ab"
			putRaw(t, f.main, map[string]any{
				c.pk: "USER#" + uid, c.sk: "PROFILE", c.gsi[1][0]: "EMAIL#old@example.com", c.gsi[1][1]: "USER",
				"userId": uid, "email": "old@example.com", "name": "Old Timer", "passwordHash": nil, "plan": "starter",
				"stripeCustomerId": nil, "stripeSubId": nil, "githubId": "583231", "googleId": nil,
				"usageThisMonth": 7, "usagePeriodStart": "2024-05-01T00:00:00.000Z", "createdAt": iso(created), "updatedAt": iso(created),
			})
			for _, sid := range []string{sid1, sid2} {
				putRaw(t, f.main, map[string]any{
					c.pk: "USER#" + uid, c.sk: "SRC#" + sid, c.gsi[3][0]: "SRCID#" + sid, c.gsi[3][1]: "SOURCE",
					"sourceId": sid, "userId": uid, "name": "Stripe " + sid, "provider": "stripe", "signingSecret": nil,
					"signingAlgorithm": nil, "status": "active", "eventCount": 3, "lastEventAt": nil, "createdAt": iso(created),
				})
			}
			putRaw(t, f.main, map[string]any{
				c.pk: "SRC#" + sid1, c.sk: "CONN#" + cid, "connectionId": cid, "sourceId": sid1, "userId": uid,
				"name": "Billing", "destinationUrl": "https://billing.example.com/hook", "signingSecret": "whsec_x",
				"filters": nil, "transform": nil, "retryConfig": `{"max":5}`, "status": "active",
				"deliveryCount": 2, "failureCount": 1, "createdAt": iso(created), "updatedAt": iso(created),
			})
			putRaw(t, f.main, map[string]any{
				c.pk: "USER#" + uid, c.sk: "KEY#" + kid, c.gsi[2][0]: "KEYHASH#" + c.hash(plain), c.gsi[2][1]: "KEY",
				"keyId": kid, "userId": uid, "name": "Production", "keyHash": c.hash(plain), "keyPrefix": plain[:c.prefixLen],
				"permissions": "write", "lastUsedAt": nil, "createdAt": iso(created),
			})
			now := time.Now().Truncate(time.Millisecond)
			var evIDs []string
			for i, id := range []string{"evt_eeeeeeeeeeeeeee1", "evt_eeeeeeeeeeeeeee2", "evt_eeeeeeeeeeeeeee3"} {
				at := now.Add(time.Duration(i-3) * time.Minute).UnixMilli()
				putRaw(t, f.events, map[string]any{
					c.pk: "SRC#" + sid1, c.sk: "EVT#" + itoa(at) + "#" + id, c.gsi[1][0]: "EVTID#" + id, c.gsi[1][1]: "EVENT",
					"eventId": id, "sourceId": sid1, "userId": uid, "status": "delivered", "headers": `{"a":"b"}`,
					"body": `{"n":` + itoa(int64(i)) + `}`, "sourceIp": "198.51.100.4", "contentType": "application/json",
					"method": "POST", "receivedAt": at, "processedAt": nil, "deliveredAt": at + 250,
					"expiresAt": at/1000 + 604800,
				})
				evIDs = append(evIDs, id)
			}
			putRaw(t, f.events, map[string]any{
				c.pk: "EVT#" + evIDs[0], c.sk: "ATT#1", "eventId": evIDs[0], "connectionId": cid, "attemptNumber": 1,
				"destinationUrl": "https://billing.example.com/hook", "statusCode": 0, "responseBody": nil,
				"latencyMs": 30000, "error": "timeout", "attemptedAt": now.UnixMilli(),
			})

			wantUser := fh.User{UserID: fh.UserID(uid), Email: "old@example.com", Name: "Old Timer", Plan: fh.PlanStarter,
				GitHubID: "583231", UsageThisMonth: 7, UsagePeriodStart: fh.ISO(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)),
				CreatedAt: fh.ISO(created), UpdatedAt: fh.ISO(created)}
			u, err := s.Users.ByID.Get(ctx(t), fh.User{UserID: fh.UserID(uid)}) // FH-1
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantUser, u); diff != "" {
				t.Errorf("FH-1 (-want +got):\n%s", diff)
			}
			if u, err = s.Users.GetByEmail(ctx(t), "Old@Example.com"); err != nil || u.UserID != fh.UserID(uid) { // FH-2
				t.Fatalf("FH-2: %v, %v", u.UserID, err)
			}
			srcs, err := s.Sources.ByUser.List(ctx(t), fh.Source{UserID: fh.UserID(uid)}) // FH-3
			if err != nil {
				t.Fatal(err)
			}
			wantSrc := fh.Source{SourceID: fh.SourceID(sid1), UserID: fh.UserID(uid), Name: "Stripe " + sid1,
				Provider: fh.ProviderStripe, Status: fh.StatusActive, EventCount: 3, CreatedAt: fh.ISO(created)}
			wantSrc2 := wantSrc
			wantSrc2.SourceID, wantSrc2.Name = fh.SourceID(sid2), "Stripe "+sid2
			if diff := cmp.Diff([]fh.Source{wantSrc, wantSrc2}, srcs.Items); diff != "" {
				t.Errorf("FH-3 (-want +got):\n%s", diff)
			}
			if got, err := s.Sources.GetByID(ctx(t), fh.SourceID(sid1)); err != nil || got != wantSrc { // FH-4
				t.Fatalf("FH-4: %+v, %v", got, err)
			}
			conns, err := s.Connections.BySource.List(ctx(t), fh.Connection{UserID: fh.UserID(uid), SourceID: fh.SourceID(sid1)}) // FH-5
			if err != nil {
				t.Fatal(err)
			}
			wantConn := fh.Connection{ConnectionID: fh.ConnectionID(cid), SourceID: fh.SourceID(sid1), UserID: fh.UserID(uid),
				Name: "Billing", DestinationURL: "https://billing.example.com/hook", SigningSecret: "whsec_x",
				RetryConfig: `{"max":5}`, Status: fh.StatusActive, DeliveryCount: 2, FailureCount: 1,
				CreatedAt: fh.ISO(created), UpdatedAt: fh.ISO(created)}
			if diff := cmp.Diff([]fh.Connection{wantConn}, conns.Items); diff != "" {
				t.Errorf("FH-5 (-want +got):\n%s", diff)
			}
			wantKey := fh.APIKey{KeyID: fh.APIKeyID(kid), UserID: fh.UserID(uid), Name: "Production", KeyHash: c.hash(plain),
				KeyPrefix: plain[:c.prefixLen], Permissions: fh.PermissionWrite, CreatedAt: fh.ISO(created)}
			if got, err := s.APIKeys.Authenticate(ctx(t), plain); err != nil || got != wantKey { // FH-6
				t.Fatalf("FH-6: %+v, %v", got, err)
			}
			keys, err := s.APIKeys.ByUser.List(ctx(t), fh.APIKey{UserID: fh.UserID(uid)}) // FH-10
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]fh.APIKey{wantKey}, keys.Items); diff != "" {
				t.Errorf("FH-10 (-want +got):\n%s", diff)
			}
			evs, err := s.Events.ListBySource(ctx(t), fh.SourceID(sid1), table.Limit(2)) // FH-7
			if err != nil {
				t.Fatal(err)
			}
			if len(evs.Items) != 2 || string(evs.Items[0].EventID) != evIDs[2] || string(evs.Items[1].EventID) != evIDs[1] || evs.Cursor == "" {
				t.Fatalf("FH-7 first page: %+v", evs)
			}
			ev, err := s.Events.GetByID(ctx(t), fh.EventID(evIDs[0])) // FH-8
			if err != nil {
				t.Fatal(err)
			}
			at := now.Add(-3 * time.Minute).UnixMilli()
			wantEv := fh.Event{EventID: fh.EventID(evIDs[0]), SourceID: fh.SourceID(sid1), UserID: fh.UserID(uid),
				Status: fh.EventDelivered, Headers: `{"a":"b"}`, Body: `{"n":0}`, SourceIP: "198.51.100.4",
				ContentType: "application/json", Method: "POST", ReceivedAt: fh.UnixMillis(at), DeliveredAt: fh.UnixMillis(at + 250),
				ExpiresAt: fh.UnixSeconds(at/1000 + 604800)}
			if diff := cmp.Diff(wantEv, ev); diff != "" {
				t.Errorf("FH-8 (-want +got):\n%s", diff)
			}
			atts, err := s.Attempts.ByEvent.List(ctx(t), fh.DeliveryAttempt{EventID: fh.EventID(evIDs[0])}) // FH-9
			if err != nil {
				t.Fatal(err)
			}
			wantAtt := fh.DeliveryAttempt{EventID: fh.EventID(evIDs[0]), ConnectionID: fh.ConnectionID(cid), AttemptNumber: 1,
				DestinationURL: "https://billing.example.com/hook", LatencyMs: 30000, Error: "timeout", AttemptedAt: fh.Millis(now)}
			if diff := cmp.Diff([]fh.DeliveryAttempt{wantAtt}, atts.Items); diff != "" {
				t.Errorf("FH-9 (-want +got):\n%s", diff)
			}

			// The library writes into the existing data: update, ingest,
			// and a new key under the same convention, same attribute names.
			name := "Stripe Live"
			if _, err := s.Sources.Update(ctx(t), fh.UserID(uid), fh.SourceID(sid1), ferryhook.SourceUpdate{Name: &name}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Ingest(ctx(t), fh.SourceID(sid1), req); err != nil {
				t.Fatal(err)
			}
			got, err := s.Sources.GetByID(ctx(t), fh.SourceID(sid1))
			if err != nil || got.Name != name || got.EventCount != 4 {
				t.Fatalf("after update and ingest: %+v, %v", got, err)
			}
			if u, err := s.Users.ByID.Get(ctx(t), fh.User{UserID: fh.UserID(uid)}); err != nil || u.UsageThisMonth != 8 {
				t.Fatalf("usage after ingest: %d, %v", u.UsageThisMonth, err)
			}
			// A sign-up with the legacy user's email is refused although it
			// has no guard item (GSI1 check).
			_, err = s.Users.Create(ctx(t), ferryhook.CreateUserInput{Email: "old@example.com", Name: "Copy", GitHubID: "1"})
			wantIs(t, err, ferryhook.ErrEmailTaken)
			k, err := s.APIKeys.Create(ctx(t), fh.UserID(uid), ferryhook.CreateAPIKeyInput{Name: "new"})
			if err != nil {
				t.Fatal(err)
			}
			key, _ := ferryhook.APIKeyKey(fh.UserID(uid), k.APIKey.KeyID)
			out, err := f.main.Client().GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(f.main.Name()),
				Key: mustAV(t, map[string]any{c.pk: key.PK, c.sk: key.SK})})
			if err != nil || out.Item == nil {
				t.Fatalf("raw GetItem of the new key under %s/%s: %v", c.pk, c.sk, err)
			}
			var raw map[string]any
			if err := attributevalue.UnmarshalMap(out.Item, &raw); err != nil {
				t.Fatal(err)
			}
			wantRaw := map[string]any{c.gsi[2][0]: "KEYHASH#" + c.hash(k.Key), c.gsi[2][1]: "KEY", "keyPrefix": k.Key[:c.prefixLen]}
			gotRaw := map[string]any{c.gsi[2][0]: raw[c.gsi[2][0]], c.gsi[2][1]: raw[c.gsi[2][1]], "keyPrefix": raw["keyPrefix"]}
			if diff := cmp.Diff(wantRaw, gotRaw); diff != "" {
				t.Errorf("new key as stored (-want +got):\n%s", diff)
			}
		})
	}
}

func mustAV(t *testing.T, m map[string]any) map[string]types.AttributeValue {
	t.Helper()
	av, err := attributevalue.MarshalMap(m)
	if err != nil {
		t.Fatal(err)
	}
	return av
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
