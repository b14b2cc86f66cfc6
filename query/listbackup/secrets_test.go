package listbackup_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// raw reads an item with the plain SDK, bypassing the library.
func raw(t *testing.T, f *fixture, k table.Key) map[string]types.AttributeValue {
	t.Helper()
	it := tabletest.RawItem(t, f.tbl, k)
	if it == nil {
		t.Fatalf("no item at %v", k)
	}
	return it
}

// at returns the value at a dotted path of a raw item.
func at(t *testing.T, item map[string]types.AttributeValue, path string) types.AttributeValue {
	t.Helper()
	var av types.AttributeValue = &types.AttributeValueMemberM{Value: item}
	for _, p := range strings.Split(path, ".") {
		m, ok := av.(*types.AttributeValueMemberM)
		if !ok {
			t.Fatalf("%s: not a map at %s", path, p)
		}
		av = m.Value[p]
	}
	return av
}

// str returns the string at a dotted path of a raw item.
func str(t *testing.T, item map[string]types.AttributeValue, path string) string {
	t.Helper()
	parts := strings.Split(path, ".")
	var av types.AttributeValue = &types.AttributeValueMemberM{Value: item}
	for _, p := range parts {
		m, ok := av.(*types.AttributeValueMemberM)
		if !ok {
			t.Fatalf("%s: not a map at %s", path, p)
		}
		av = m.Value[p]
	}
	s, ok := av.(*types.AttributeValueMemberS)
	if !ok {
		t.Fatalf("%s: not a string (%T)", path, av)
	}
	return s.Value
}

func wantSealed(t *testing.T, item map[string]types.AttributeValue, path, plain string) {
	t.Helper()
	b, ok := at(t, item, path).(*types.AttributeValueMemberB)
	if !ok || !strings.HasPrefix(string(b.Value), "STS1") || strings.Contains(string(b.Value), plain) {
		t.Errorf("%s stored as %#v: want a binary envelope (STS1...) without the plaintext", path, at(t, item, path))
	}
}

// Secrets at rest (CATALOG "Sensitive fields"; LB-32 token fields): mfaSecret,
// source and connection credentials, OAuth tokens and webhook secrets are
// encrypted before they reach DynamoDB; the library reads them back in
// plaintext.
func TestSecretsEncryptedAtRest_LB32(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	u := newUser("u1", "ada@example.com", "ada")
	u.MFAEnabled, u.MFASecret = true, "JBSWY3DPEHPK3PXP"
	must(t, f.Users.Create(c, u))
	src := &lb.Source{AccountID: "a1", SourceID: "s1", SourceName: "Shop", Platform: lb.PlatformStripe, ConnectionType: lb.ConnOAuth,
		Credentials: lb.SourceCredentials{Type: "oauth", Data: "sk_live_supersecret"}}
	must(t, f.Sources.Create(c, src))
	conn := &lb.Connection{ConnectionID: "c1", AccountID: "a1", UserID: "u1", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth,
		Credentials: lb.ConnectionCredentials{AccessToken: "conn-access-123", RefreshToken: "conn-refresh-456", Scope: "full"}}
	must(t, f.Connections.Create(c, conn))
	tok := &lb.OAuthToken{SourceID: "s1", AccountID: "a1", Platform: lb.PlatformStripe,
		Tokens: lb.OAuthTokenSet{AccessToken: "oauth-access-789", RefreshToken: "oauth-refresh-012", TokenType: "bearer"}}
	must(t, f.OAuthTokens.Save(c, tok))
	hook := &lb.Webhook{WebhookID: "w1", AccountID: "a1", URL: "https://example.com/h", Events: []string{"sync.completed"}, IsActive: true, Secret: "whsec_abc123"}
	must(t, f.Webhooks.Create(c, hook))

	uk := listbackup.Key(lb.User{UserID: "u1"})
	wantSealed(t, raw(t, f, uk), "mfaSecret", "JBSWY3DPEHPK3PXP")
	sk := listbackup.Key(lb.Source{SourceID: "s1"})
	wantSealed(t, raw(t, f, sk), "credentials.encryptedData", "sk_live_supersecret")
	ck := listbackup.Key(lb.Connection{ConnectionID: "c1"})
	craw := raw(t, f, ck)
	wantSealed(t, craw, "credentials.accessToken", "conn-access-123")
	wantSealed(t, craw, "credentials.refreshToken", "conn-refresh-456")
	tk := listbackup.Key(lb.OAuthToken{SourceID: "s1"})
	traw := raw(t, f, tk)
	wantSealed(t, traw, "tokens.accessToken", "oauth-access-789")
	wantSealed(t, traw, "tokens.refreshToken", "oauth-refresh-012")
	wk := listbackup.Key(lb.Webhook{WebhookID: "w1"})
	wantSealed(t, raw(t, f, wk), "secret", "whsec_abc123")

	gu, err := f.Users.ByID.Get(c, lb.User{UserID: "u1"})
	must(t, err)
	gs, err := f.Sources.ByID.Get(c, lb.Source{SourceID: "s1"})
	must(t, err)
	gc, err := f.Connections.ByID.Get(c, lb.Connection{ConnectionID: "c1"})
	must(t, err)
	gt, err := f.OAuthTokens.BySource.Get(c, lb.OAuthToken{SourceID: "s1"})
	must(t, err)
	gw, err := f.Webhooks.ByID.Get(c, lb.Webhook{WebhookID: "w1"})
	must(t, err)
	got := []string{gu.MFASecret, gs.Credentials.Data, gc.Credentials.AccessToken, gc.Credentials.RefreshToken, gt.Tokens.AccessToken, gt.Tokens.RefreshToken, gw.Secret}
	want := []string{"JBSWY3DPEHPK3PXP", "sk_live_supersecret", "conn-access-123", "conn-refresh-456", "oauth-access-789", "oauth-refresh-012", "whsec_abc123"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("secret %d read back as %q, want %q", i, got[i], want[i])
		}
	}
	// LB-32 refresh: new tokens are encrypted too, the refresh token kept.
	r, err := f.OAuthTokens.Refresh(c, "s1", lb.OAuthTokenSet{AccessToken: "oauth-access-NEW", TokenType: "bearer", ExpiresIn: 3600})
	must(t, err)
	if r.Tokens.AccessToken != "oauth-access-NEW" || r.Tokens.RefreshToken != "oauth-refresh-012" || r.LastRefreshedAt.IsZero() {
		t.Errorf("LB-32 refresh: %+v", r.Tokens)
	}
	wantSealed(t, raw(t, f, tk), "tokens.accessToken", "oauth-access-NEW")
}

func numAttr(t *testing.T, item map[string]types.AttributeValue, name string) int64 {
	t.Helper()
	n, ok := item[name].(*types.AttributeValueMemberN)
	if !ok {
		t.Fatalf("%s is not a number: %T", name, item[name])
	}
	var v int64
	for _, ch := range n.Value {
		v = v*10 + int64(ch-'0')
	}
	return v
}
