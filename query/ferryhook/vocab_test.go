package ferryhook_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
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

// serviceAccepts is the running service's rule for every enum attribute of
// the six entities, read from its code (Jrjoseph831/ferryhook): the types
// of packages/core/src/types/index.ts and the zod enums of
// api/sources/{create,update}.ts, api/apiKeys/create.ts and
// api/connections/*.ts. DeliveryAttempt has no enum.
var serviceAccepts = map[string]map[string][]string{
	"User":       {"plan": {"free", "starter", "pro", "team"}},
	"Source":     {"provider": {"stripe", "github", "shopify", "twilio", "sendgrid", "slack", "custom"}, "signingAlgorithm": {"stripe", "github", "shopify", "generic-hmac-sha256", "none"}, "status": {"active", "paused", "deleted"}},
	"Connection": {"status": {"active", "paused", "deleted"}},
	"APIKey":     {"permissions": {"read", "write", "admin"}},
	"Event":      {"status": {"received", "processing", "filtered", "signature_failed", "delivered", "retrying", "failed"}},
}

// serviceWrites is every attribute the service's db/*.ts create writes
// (null when unset), besides the keys.
var serviceWrites = map[string][]string{
	"User":            {"userId", "email", "name", "passwordHash", "plan", "stripeCustomerId", "stripeSubId", "githubId", "googleId", "usageThisMonth", "usagePeriodStart", "createdAt", "updatedAt"},
	"Source":          {"sourceId", "userId", "name", "provider", "signingSecret", "signingAlgorithm", "status", "eventCount", "lastEventAt", "createdAt"},
	"Connection":      {"connectionId", "sourceId", "userId", "name", "destinationUrl", "signingSecret", "filters", "transform", "retryConfig", "status", "deliveryCount", "failureCount", "createdAt", "updatedAt"},
	"APIKey":          {"keyId", "userId", "name", "keyHash", "keyPrefix", "permissions", "lastUsedAt", "createdAt"},
	"Event":           {"eventId", "sourceId", "userId", "status", "headers", "body", "sourceIp", "contentType", "method", "receivedAt", "processedAt", "deliveredAt", "expiresAt"},
	"DeliveryAttempt": {"eventId", "connectionId", "attemptNumber", "destinationUrl", "statusCode", "responseBody", "latencyMs", "error", "attemptedAt"},
}

// entityOfSK names the entity of a service-shaped item by its sort key.
func entityOfSK(sk string) string {
	for pre, e := range map[string]string{"PROFILE": "User", "SRC#": "Source", "CONN#": "Connection", "KEY#": "APIKey", "EVT#": "Event", "ATT#": "DeliveryAttempt"} {
		if strings.HasPrefix(sk, pre) {
			return e
		}
	}
	return ""
}

func scanAll(t *testing.T, tbl *table.Table) []map[string]types.AttributeValue {
	t.Helper()
	var out []map[string]types.AttributeValue
	p := dynamodb.NewScanPaginator(tbl.Client(), &dynamodb.ScanInput{TableName: aws.String(tbl.Name()), ConsistentRead: aws.Bool(true)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Items...)
	}
	return out
}

func rawS(item map[string]types.AttributeValue, attr string) string {
	if s, ok := item[attr].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return fmt.Sprintf("<%T>", item[attr])
}

// Under ServiceProfile every enum value the library writes is one the
// running service accepts, and every attribute the service always writes
// is written (issue 26 §2; FH-11 users/sources/connections/apiKeys/
// events/attempts.create and updates): the library writes through its
// whole write surface, then every stored item is checked against the
// service's rules. The document's names are mapped (hmac-sha256 ->
// generic-hmac-sha256, unset -> none); those the service has no name for
// are refused.
func TestServiceProfileWritesTheServiceVocabulary_FH11(t *testing.T) {
	t.Parallel()
	f := newFixture(t, []table.SchemaOption{table.WithLowercaseKeys()}, ferryhook.ServiceProfile(), ferryhook.SigningSecretsAsStored())
	s := f.store
	c := ctx(t)
	var u fh.User
	for i, plan := range []fh.Plan{fh.PlanFree, fh.PlanStarter, fh.PlanPro, fh.PlanTeam} {
		var err error
		u, err = s.Users.Create(c, ferryhook.CreateUserInput{Email: fmt.Sprintf("v%d@example.com", i), Name: "V", GitHubID: "1", Plan: plan})
		if err != nil {
			t.Fatal(err)
		}
	}
	var srcs []fh.Source
	mk := func(p fh.Provider, secret string, alg fh.SigningAlgorithm) fh.Source {
		t.Helper()
		src, err := s.Sources.Create(c, u.UserID, ferryhook.CreateSourceInput{Name: string(p) + string(alg), Provider: p, SigningSecret: secret, SigningAlgorithm: alg})
		if err != nil {
			t.Fatalf("source %s/%q: %v", p, alg, err)
		}
		srcs = append(srcs, src)
		return src
	}
	mk(fh.ProviderCustom, "", "")                                                                         // unset: none
	if got := mk(fh.ProviderStripe, "whsec_x", ""); got.SigningAlgorithm != fh.SigningGenericHMACSHA256 { // the document's default
		t.Errorf("default algorithm %q, want generic-hmac-sha256", got.SigningAlgorithm)
	}
	if got := mk(fh.ProviderGitHub, "s", fh.SigningHMACSHA256); got.SigningAlgorithm != fh.SigningGenericHMACSHA256 {
		t.Errorf("hmac-sha256 written as %q, want generic-hmac-sha256", got.SigningAlgorithm)
	}
	for _, a := range fh.ServiceSigningAlgorithms {
		mk(fh.ProviderShopify, "s", a)
	}
	for _, p := range fh.ServiceProviders {
		mk(p, "", fh.SigningNone)
	}
	for _, a := range []fh.SigningAlgorithm{fh.SigningHMACSHA1, fh.SigningHMACSHA512, "rot13"} {
		_, err := s.Sources.Create(c, u.UserID, ferryhook.CreateSourceInput{Name: "x", Provider: fh.ProviderCustom, SigningSecret: "s", SigningAlgorithm: a})
		wantInvalid(t, err, "signingAlgorithm")
		_, err = s.Sources.Update(c, u.UserID, srcs[0].SourceID, ferryhook.SourceUpdate{SigningAlgorithm: &a})
		wantInvalid(t, err, "signingAlgorithm")
	}
	h256, empty := fh.SigningHMACSHA256, ""
	if got, err := s.Sources.Update(c, u.UserID, srcs[0].SourceID, ferryhook.SourceUpdate{SigningAlgorithm: &h256}); err != nil || got.SigningAlgorithm != fh.SigningGenericHMACSHA256 {
		t.Fatalf("update to hmac-sha256: %q %v", got.SigningAlgorithm, err)
	}
	if got, err := s.Sources.Update(c, u.UserID, srcs[1].SourceID, ferryhook.SourceUpdate{SigningSecret: &empty}); err != nil || got.SigningAlgorithm != fh.SigningGenericHMACSHA256 {
		t.Fatalf("clearing the secret: %q %v", got.SigningAlgorithm, err)
	}
	if _, err := s.Sources.Update(c, u.UserID, srcs[2].SourceID, ferryhook.SourceUpdate{Status: new(fh.StatusPaused)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Sources.Delete(c, u.UserID, srcs[3].SourceID); err != nil {
		t.Fatal(err)
	}
	conn, err := s.Connections.Create(c, u.UserID, srcs[0].SourceID, ferryhook.CreateConnectionInput{Name: "c", DestinationURL: "https://example.com/h"})
	if err != nil {
		t.Fatal(err)
	}
	conn2, err := s.Connections.Create(c, u.UserID, srcs[0].SourceID, ferryhook.CreateConnectionInput{Name: "c2", DestinationURL: "https://example.com/h2"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Connections.Update(c, u.UserID, srcs[0].SourceID, conn.ConnectionID, ferryhook.ConnectionUpdate{Status: new(fh.StatusPaused)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Connections.Delete(c, u.UserID, srcs[0].SourceID, conn2.ConnectionID); err != nil {
		t.Fatal(err)
	}
	for _, p := range []fh.Permission{fh.PermissionRead, fh.PermissionWrite, fh.PermissionAdmin} {
		if _, err := s.APIKeys.Create(c, u.UserID, ferryhook.CreateAPIKeyInput{Name: string(p), Permissions: p}); err != nil {
			t.Fatal(err)
		}
	}
	for _, st := range fh.ServiceEventStatuses {
		in := eventInput(srcs[0], time.Now())
		in.Body, in.ContentType, in.Headers, in.SourceIP, in.Method = "", "", "", "", ""
		ev, err := s.Events.Create(c, in)
		if err != nil {
			t.Fatal(err)
		}
		if st != fh.EventReceived {
			if _, err := s.Events.UpdateStatus(c, ev.EventID, st); err != nil {
				t.Fatalf("status %s: %v", st, err)
			}
		}
		if st == fh.EventDelivered {
			if _, err := s.Attempts.Create(c, ev.EventID, 1, ferryhook.CreateAttemptInput{ConnectionID: conn.ConnectionID, DestinationURL: conn.DestinationURL}); err != nil {
				t.Fatal(err)
			}
		}
	}

	seen := map[string]int{}
	for _, tbl := range []*table.Table{f.main, f.events} {
		for _, item := range scanAll(t, tbl) {
			e := entityOfSK(rawS(item, "sk"))
			if e == "" {
				continue // a guard
			}
			seen[e]++
			for attr, set := range serviceAccepts[e] {
				if v := rawS(item, attr); !slices.Contains(set, v) {
					t.Errorf("%s %s: %s = %s, which the service does not accept", e, rawS(item, "sk"), attr, v)
				}
			}
			for _, attr := range serviceWrites[e] {
				if _, ok := item[attr]; !ok {
					t.Errorf("%s %s: %s not written (the service always writes it)", e, rawS(item, "sk"), attr)
				}
			}
		}
	}
	for e := range serviceWrites {
		if seen[e] == 0 {
			t.Errorf("no %s written", e)
		}
	}
}

// Every enum value the running service writes, in an item shaped as its
// db/*.ts writes it (raw PutItem), reads back as itself under
// ServiceProfile, and a library write of another field leaves it as stored
// (issue 26 §2; FH-1, FH-4, FH-5, FH-8, FH-10, FH-11).
func TestServiceProfileReadsAndKeepsTheServiceVocabulary_FH11(t *testing.T) {
	t.Parallel()
	f := newFixture(t, []table.SchemaOption{table.WithLowercaseKeys()}, ferryhook.ServiceProfile(), ferryhook.SigningSecretsAsStored())
	s := f.store
	c := ctx(t)
	const created = "2026-11-01T00:00:00.000Z"
	stored := func(tbl *table.Table, pk, sk, attr string) string {
		t.Helper()
		return rawS(tabletest.RawItem(t, tbl, table.Key{PK: pk, SK: sk}), attr)
	}
	id := func(prefix string, i int) string { return fmt.Sprintf("%s%016d", prefix, i) }
	newName := "renamed"

	// Users: plan.
	var owner fh.UserID
	for i, plan := range serviceAccepts["User"]["plan"] {
		uid := id("usr_", i)
		putRaw(t, f.main, map[string]any{"pk": "USER#" + uid, "sk": "PROFILE", "gsi1pk": "EMAIL#p" + uid + "@example.com", "gsi1sk": "USER",
			"userId": uid, "email": "p" + uid + "@example.com", "name": "P", "passwordHash": nil, "plan": plan, "stripeCustomerId": nil,
			"stripeSubId": nil, "githubId": "1", "googleId": nil, "usageThisMonth": 0, "usagePeriodStart": "2026-11-01", "createdAt": created, "updatedAt": created})
		got, err := s.Users.ByID.Get(c, fh.User{UserID: fh.UserID(uid)})
		if err != nil || string(got.Plan) != plan {
			t.Fatalf("user plan %s read as %q, %v", plan, got.Plan, err)
		}
		if _, err := s.Users.Update(c, fh.UserID(uid), ferryhook.UserUpdate{Name: &newName}); err != nil {
			t.Fatal(err)
		}
		if v := stored(f.main, "USER#"+uid, "PROFILE", "plan"); v != plan {
			t.Errorf("plan %s written back as %s", plan, v)
		}
		owner = fh.UserID(uid)
	}

	// Sources: provider, signingAlgorithm, status (deleted reads as not
	// found, as in the service).
	n := 0
	putSource := func(provider, alg, status string) (fh.SourceID, string) {
		n++
		sid := id("src_", n)
		putRaw(t, f.main, map[string]any{"pk": "USER#" + string(owner), "sk": "SRC#" + sid, "gsi3pk": "SRCID#" + sid, "gsi3sk": "SOURCE",
			"sourceId": sid, "userId": string(owner), "name": "S", "provider": provider, "signingSecret": nil, "signingAlgorithm": alg,
			"status": status, "eventCount": 0, "lastEventAt": nil, "createdAt": created})
		return fh.SourceID(sid), "SRC#" + sid
	}
	sa := serviceAccepts["Source"]
	for _, v := range sa["provider"] {
		sid, sk := putSource(v, "none", "active")
		got, err := s.Sources.GetByID(c, sid)
		if err != nil || string(got.Provider) != v {
			t.Fatalf("provider %s read as %q, %v", v, got.Provider, err)
		}
		if _, err := s.Sources.Update(c, owner, sid, ferryhook.SourceUpdate{Name: &newName}); err != nil {
			t.Fatalf("update of a %s source: %v", v, err)
		}
		if got := stored(f.main, "USER#"+string(owner), sk, "provider"); got != v {
			t.Errorf("provider %s written back as %s", v, got)
		}
	}
	var firstSource fh.SourceID
	for _, v := range sa["signingAlgorithm"] {
		sid, sk := putSource("custom", v, "active")
		firstSource = sid
		got, err := s.Sources.ByID.Get(c, fh.Source{UserID: owner, SourceID: sid})
		if err != nil || string(got.SigningAlgorithm) != v {
			t.Fatalf("signingAlgorithm %s read as %q, %v", v, got.SigningAlgorithm, err)
		}
		if _, err := s.Sources.Update(c, owner, sid, ferryhook.SourceUpdate{Name: &newName}); err != nil {
			t.Fatalf("update of a source signed %s: %v", v, err)
		}
		alg := fh.SigningAlgorithm(v) // and set to itself
		if _, err := s.Sources.Update(c, owner, sid, ferryhook.SourceUpdate{SigningAlgorithm: &alg}); err != nil {
			t.Fatalf("setting %s: %v", v, err)
		}
		if got := stored(f.main, "USER#"+string(owner), sk, "signingAlgorithm"); got != v {
			t.Errorf("signingAlgorithm %s written back as %s", v, got)
		}
	}
	for _, v := range sa["status"] {
		sid, sk := putSource("custom", "none", v)
		got, err := s.Sources.ByID.Get(c, fh.Source{UserID: owner, SourceID: sid})
		if v == "deleted" {
			wantIs(t, err, table.ErrNotFound)
			continue
		}
		if err != nil || string(got.Status) != v {
			t.Fatalf("source status %s read as %q, %v", v, got.Status, err)
		}
		if _, err := s.Sources.Update(c, owner, sid, ferryhook.SourceUpdate{Name: &newName}); err != nil {
			t.Fatal(err)
		}
		if got := stored(f.main, "USER#"+string(owner), sk, "status"); got != v {
			t.Errorf("source status %s written back as %s", v, got)
		}
	}

	// Connections: status.
	for i, v := range serviceAccepts["Connection"]["status"] {
		cid := id("conn_", i)
		putRaw(t, f.main, map[string]any{"pk": "SRC#" + string(firstSource), "sk": "CONN#" + cid, "connectionId": cid, "sourceId": string(firstSource),
			"userId": string(owner), "name": "C", "destinationUrl": "https://example.com/h", "signingSecret": "whsec_1", "filters": nil,
			"transform": nil, "retryConfig": nil, "status": v, "deliveryCount": 0, "failureCount": 0, "createdAt": created, "updatedAt": created})
		got, err := s.Connections.ByID.Get(c, fh.Connection{UserID: owner, SourceID: firstSource, ConnectionID: fh.ConnectionID(cid)})
		if v == "deleted" {
			wantIs(t, err, table.ErrNotFound)
			continue
		}
		if err != nil || string(got.Status) != v {
			t.Fatalf("connection status %s read as %q, %v", v, got.Status, err)
		}
		if _, err := s.Connections.Update(c, owner, firstSource, fh.ConnectionID(cid), ferryhook.ConnectionUpdate{Name: &newName}); err != nil {
			t.Fatal(err)
		}
		if got := stored(f.main, "SRC#"+string(firstSource), "CONN#"+cid, "status"); got != v {
			t.Errorf("connection status %s written back as %s", v, got)
		}
	}

	// API keys: permissions.
	for i, v := range serviceAccepts["APIKey"]["permissions"] {
		kid := id("key_", i)
		plain := "fh_live_" + kid
		hash := ferryhook.HMACSHA256Hex(nil)(plain)
		putRaw(t, f.main, map[string]any{"pk": "USER#" + string(owner), "sk": "KEY#" + kid, "gsi2pk": "KEYHASH#" + hash, "gsi2sk": "KEY",
			"keyId": kid, "userId": string(owner), "name": "k", "keyHash": hash, "keyPrefix": plain[:16], "permissions": v, "lastUsedAt": nil, "createdAt": created})
		got, err := s.APIKeys.Authenticate(c, plain)
		if err != nil || string(got.Permissions) != v {
			t.Fatalf("permissions %s read as %q, %v", v, got.Permissions, err)
		}
		if _, err := s.APIKeys.UpdateLastUsed(c, ferryhook.APIKeyRef{User: owner, Key: fh.APIKeyID(kid)}); err != nil {
			t.Fatal(err)
		}
		if got := stored(f.main, "USER#"+string(owner), "KEY#"+kid, "permissions"); got != v {
			t.Errorf("permissions %s written back as %s", v, got)
		}
	}

	// Events: status, read by ID and written back by UpdateStatus.
	now := time.Now()
	for i, v := range serviceAccepts["Event"]["status"] {
		eid := id("evt_", i)
		at := now.UnixMilli() + int64(i)
		sk := fmt.Sprintf("EVT#%d#%s", at, eid)
		putRaw(t, f.events, map[string]any{"pk": "SRC#" + string(firstSource), "sk": sk, "gsi1pk": "EVTID#" + eid, "gsi1sk": "EVENT",
			"eventId": eid, "sourceId": string(firstSource), "userId": string(owner), "status": v, "headers": "{}", "body": "", "sourceIp": "203.0.113.1",
			"contentType": "", "method": "POST", "receivedAt": at, "processedAt": nil, "deliveredAt": nil, "expiresAt": now.Add(time.Hour).Unix()})
		got, err := s.Events.GetByID(c, fh.EventID(eid))
		if err != nil || string(got.Status) != v {
			t.Fatalf("event status %s read as %q, %v", v, got.Status, err)
		}
		if _, err := s.Events.UpdateStatus(c, fh.EventID(eid), got.Status); err != nil {
			t.Fatalf("writing back %s: %v", v, err)
		}
		if got := stored(f.events, "SRC#"+string(firstSource), sk, "status"); got != v {
			t.Errorf("event status %s written back as %s", v, got)
		}
	}
	// The default profile keeps the document's vocabulary: a service-only
	// value is refused as a new write there.
	d := newStore(t)
	du := mustUser(t, d, "doc@example.com")
	_, err := d.Sources.Create(c, du.UserID, ferryhook.CreateSourceInput{Name: "x", Provider: fh.ProviderCustom, SigningSecret: "s", SigningAlgorithm: fh.SigningGenericHMACSHA256})
	if !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("default profile wrote a service-only algorithm: %v", err)
	}
}
