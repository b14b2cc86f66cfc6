package main

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/internal/legacytest"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// tokenConnections are platform connections as ListBackup's
// platform-connections/oauth-callback writes them (ListBackup-ai/listbackup-ai
// at c3e967f, backend/golang/cmd/handlers/platform-connections/oauth-callback/main.go):
// the provider's token response, decoded by encoding/json into a
// map[string]interface{}, is stored whole as credentials by aws-sdk-go v1's
// MarshalMap (strings S, JSON numbers N, booleans BOOL, objects M, null
// NULL), in plaintext; expiresAt is set from expires_in when the response
// has one (a nil *time.Time is NULL). Values ours; members the provider's
// documented response carries:
//
//   - Stripe Connect: access_token, refresh_token, token_type, scope,
//     livemode, stripe_user_id, stripe_publishable_key (no expires_in);
//   - Google (OpenID): access_token, expires_in, refresh_token, scope,
//     token_type, id_token;
//   - QuickBooks: x_refresh_token_expires_in, plus a member no provider
//     documents (an object, and a null), as a provider may add.
//
// secrets lists the plaintext of every value that must not reach the
// single table unsealed (the tokens and every member the library does not
// model); want the members of each connection's catch-all after the
// migration, as the library reads them back.
func tokenConnections(at time.Time) (items []map[string]v1, secrets []string, want map[lb.ConnectionID]table.Extra) {
	const user = "user:0c7e1f2a-1111-4a4a-8b8b-000000000001"
	const account = "account:aaaaaaaa-0000-4000-8000-000000000001"
	conn := func(id, platform string, creds map[string]v1, expires v1) map[string]v1 {
		return map[string]v1{"connectionId": v1s(id), "accountId": v1s(account), "userId": v1s(user), "platformId": v1s("platform:" + platform),
			"name": v1s(strings.ToUpper(platform[:1]) + platform[1:] + " Connection"), "status": v1s("active"), "authType": v1s("oauth"),
			"credentials": v1m(creds), "expiresAt": expires, "createdAt": v1t(at), "updatedAt": v1t(at)}
	}
	s := func(v string) v1 { return &types.AttributeValueMemberS{Value: v} }
	stripe := map[string]v1{"access_token": s("sk_live_AT-plaintext-stripe"), "refresh_token": s("rt_plaintext-stripe"), "token_type": s("bearer"),
		"scope": s("read_write"), "livemode": v1b(true), "stripe_user_id": s("acct_1PlaintextStripe"), "stripe_publishable_key": s("pk_live_plaintext")}
	google := map[string]v1{"access_token": s("ya29.plaintext-google"), "expires_in": v1n(3599), "refresh_token": s("1//plaintext-google-rt"),
		"scope": s("openid https://www.googleapis.com/auth/drive.readonly"), "token_type": s("Bearer"), "id_token": s("eyJhbGciOiJSUzI1NiJ9.plaintext-id-token.sig")}
	qb := map[string]v1{"access_token": s("qb-plaintext-at"), "expires_in": v1n(3600), "refresh_token": s("qb-plaintext-rt"), "token_type": s("bearer"),
		"x_refresh_token_expires_in": v1n(8726400), "realm": v1m(map[string]v1{"id": s("realm-plaintext-9130"), "sandbox": v1b(false)}),
		"deprecated_field": v1null()}
	items = []map[string]v1{
		conn("connection:33333333-0000-4000-8000-000000000003", "stripe", stripe, v1null()),
		conn("connection:44444444-0000-4000-8000-000000000004", "google", google, v1t(at.Add(3599*time.Second))),
		conn("connection:55555555-0000-4000-8000-000000000005", "quickbooks", qb, v1t(at.Add(time.Hour))),
	}
	secrets = []string{"sk_live_AT-plaintext-stripe", "rt_plaintext-stripe", "acct_1PlaintextStripe", "pk_live_plaintext",
		"ya29.plaintext-google", "1//plaintext-google-rt", "plaintext-id-token", "qb-plaintext-at", "qb-plaintext-rt", "realm-plaintext-9130", "8726400"}
	want = map[lb.ConnectionID]table.Extra{
		"connection:33333333-0000-4000-8000-000000000003": {"livemode": v1b(true), "stripe_user_id": s("acct_1PlaintextStripe"), "stripe_publishable_key": s("pk_live_plaintext")},
		"connection:44444444-0000-4000-8000-000000000004": {"id_token": s("eyJhbGciOiJSUzI1NiJ9.plaintext-id-token.sig")},
		"connection:55555555-0000-4000-8000-000000000005": {"x_refresh_token_expires_in": v1n(8726400),
			"realm": v1m(map[string]v1{"id": s("realm-plaintext-9130"), "sandbox": v1b(false)}), "deprecated_field": v1null()},
	}
	return items, secrets, want
}

// singletable migrate -app listbackup on connections whose credentials are
// the provider's whole token response (issue 35): before, the members the
// library does not model (stripe_user_id, id_token, ...) were not copied,
// verification reported each missing and the command exited 1. Now the
// command exits 0 with every connection copied and verified; the members
// are kept in the credentials' catch-all, sealed at rest like the tokens
// (no plaintext in the stored items) and read back unsealed through the
// library (LB-27 by ID, LB-28 by account and platform); an update of the
// connection keeps them and its soft delete drops them with the tokens
// (LB-65).
func TestMigrateCommandTokenResponses_LB27_LB28_LB65(t *testing.T) {
	c, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	client := tabletest.Client(t)
	stack := legacytest.Stack(c, t, client, "listbackup-t", listbackup.CodeLayout())
	at := time.Now().Add(-time.Hour).UTC()
	items, secrets, want := tokenConnections(at)
	legacytest.Put(t, client, stack, map[string][]map[string]types.AttributeValue{"platform-connections": items})
	main := tabletest.TableName("lbtokens", t.Name())
	t.Cleanup(func() {
		client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(main)})
	})
	t.Setenv("SINGLETABLE_SECRET_KEY", strings.Repeat("e2", 32))
	out, err := runCmd(t, "migrate", "-app", "listbackup", "-stack", stack, "-endpoint", tabletest.Endpoint(t), "-table", main, "-create", "-quiet")
	t.Logf("singletable migrate:\n%s", out)
	if err != nil {
		t.Fatalf("migrate: %v (exit %d), want exit 0", err, exitCode(err))
	}
	checkOutput(t, out, []string{
		"migrated " + stack + "-platform-connections -> Connection: seen 3, changed 3, unchanged 0, skipped 0, in conflict 0",
		"verified " + stack + "-platform-connections: 3 of 3 found (0 past their TTL, not copied), 0 differing",
	}, []string{"differs", "missing credentials", "absent", "  conflict "})

	ciph, err := secretOptions()
	if err != nil {
		t.Fatal(err)
	}
	s := listbackup.New(table.New(client, listbackup.Schema(main), ciph...))
	exporter := cmp.Exporter(func(reflect.Type) bool { return true })
	noPlaintext := func(step string, id lb.ConnectionID) table.Item {
		t.Helper()
		raw := tabletest.RawItem(t, s.Table(), table.Key{PK: "CONN#" + string(id), SK: lb.SKConn})
		text := fmt.Sprint(raw)
		for _, sec := range secrets {
			if strings.Contains(text, sec) {
				t.Errorf("%s: %s holds %q in plaintext: %v", step, id, sec, raw["credentials"])
			}
		}
		return raw
	}
	for id, extra := range want {
		conn, err := s.Connections.ByID.Get(c, lb.Connection{ConnectionID: id}) // LB-27
		if err != nil {
			t.Fatalf("LB-27 %s: %v", id, err)
		}
		if d := cmp.Diff(extra, conn.Credentials.Extra, exporter); d != "" {
			t.Errorf("LB-27 %s: the token response's other members (-want +got):\n%s", id, d)
		}
		if conn.Credentials.AccessToken == "" || conn.Credentials.RefreshToken == "" {
			t.Errorf("LB-27 %s: tokens %+v", id, conn.Credentials)
		}
		raw := noPlaintext("migrated", id)
		stored := raw["credentials"].(*types.AttributeValueMemberM).Value
		for name := range extra {
			b, ok := stored[name].(*types.AttributeValueMemberB)
			if _, null := stored[name].(*types.AttributeValueMemberNULL); null {
				continue // a NULL holds no secret
			}
			if !ok || !(bytes.HasPrefix(b.Value, []byte("STS1")) || bytes.HasPrefix(b.Value, []byte("STV1"))) {
				t.Errorf("%s: credentials.%s stored as %T, want sealed", id, name, stored[name])
			}
		}
	}
	const account = lb.AccountID("account:aaaaaaaa-0000-4000-8000-000000000001")
	const googleID = lb.ConnectionID("connection:44444444-0000-4000-8000-000000000004")
	page, err := s.Connections.ByAccountPlatform.List(c, lb.Connection{AccountID: account, Platform: lb.PlatformGoogle}) // LB-28
	if err != nil || len(page.Items) != 1 || !cmp.Equal(page.Items[0].Credentials.Extra, want[googleID], exporter) ||
		page.Items[0].Credentials.Scope != "openid https://www.googleapis.com/auth/drive.readonly" {
		t.Errorf("LB-28 the Google connection: %+v, %v", page.Items, err)
	}
	// LB-65: an update of another field keeps the members (sealed); the
	// soft delete drops them with the tokens.
	if _, err := s.Connections.Update(c, googleID, func(cn *lb.Connection) error { cn.Status = lb.ConnectionExpired; return nil }); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Connections.ByID.Get(c, lb.Connection{ConnectionID: googleID}); err != nil || !cmp.Equal(got.Credentials.Extra, want[googleID], exporter) {
		t.Errorf("LB-65 after an update: %+v, %v", got.Credentials, err)
	}
	noPlaintext("updated", googleID)
	if err := s.Connections.Delete(c, googleID); err != nil {
		t.Fatal(err)
	}
	raw := noPlaintext("deleted", googleID)
	if creds, ok := raw["credentials"].(*types.AttributeValueMemberM); ok {
		if _, has := creds.Value["id_token"]; has {
			t.Errorf("LB-65 soft delete kept credentials.id_token: %v", creds.Value)
		}
	}
}
