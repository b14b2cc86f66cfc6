package lb_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

func TestParseEnumsRejectUnknown(t *testing.T) {
	t.Parallel()
	if v, err := lb.MemberRoles.Parse("viewer"); err != nil || v != lb.MemberViewer {
		t.Errorf("MemberRoles.Parse(viewer) = %q, %v", v, err)
	}
	for name, err := range map[string]error{
		"status":     func() error { _, err := lb.SourceStatuses.Parse("sleeping"); return err }(),
		"platform":   func() error { _, err := lb.Platforms.Parse("myspace"); return err }(),
		"eventType":  func() error { _, err := lb.ParseEventType("Bad Event"); return err }(),
		"metricDate": func() error { _, err := lb.ParseDate("2025-02-30"); return err }(),
	} {
		var ve *table.ValidationError
		if !errors.As(err, &ve) || ve.Field != name || !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func TestKeysRoundTrip(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	k, err := lb.TagKeyOf("a1", lb.ResSource, "env#x", "100%")
	if err != nil {
		t.Fatal(err)
	}
	a, rt, tk, tv, err := lb.ParseTagKey(k)
	if err != nil || a != "a1" || rt != lb.ResSource || tk != "env#x" || tv != "100%" {
		t.Errorf("tag key %v parsed as %s %s %q %q %v", k, a, rt, tk, tv, err)
	}
	k, _ = lb.ActivityKey("a1", at, "e1")
	acct, got, ev, err := lb.ParseActivityKey(k)
	if diff := cmp.Diff([]any{lb.AccountID("a1"), at, lb.EventID("e1")}, []any{acct, got, ev}); diff != "" || err != nil {
		t.Errorf("activity key round trip (-want +got):\n%s %v", diff, err)
	}
	k, _ = lb.MembershipKey("u1", "a1")
	if u, err := lb.ParseUserKey(k); err != nil || u != "u1" || k.SK != "MEMBER#a1" {
		t.Errorf("membership key %v: %s %v", k, u, err)
	}
	k = table.Key{PK: "ACCOUNT#a1", SK: "USAGE#2025-03-14"} // a usage key (query/listbackup builds it through its entity)
	if a, err := lb.ParseAccountKey(k); err != nil || a != "a1" {
		t.Errorf("usage key %v", k)
	}
	k, _ = lb.RunKey("s1", at, "r1")
	if s, err := lb.ParseSourceKey(k); err != nil || s != "s1" {
		t.Errorf("run key %v", k)
	}
	if _, err := lb.UserKey("a#b"); !errors.Is(err, table.ErrInvalidKey) {
		t.Errorf("UserKey(a#b) = %v, want ErrInvalidKey", err)
	}
}

func TestHashAndSecrets(t *testing.T) {
	t.Parallel()
	if h := lb.Hash("abc"); h != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" || lb.CheckHash("h", h) != nil {
		t.Errorf("Hash(abc) = %s", h)
	}
	if a, b := lb.NewSecret(32), lb.NewSecret(32); a == b || len(a) != 43 {
		t.Errorf("NewSecret: %q %q", a, b)
	}
	if u := lb.NewUUID(); len(u) != 36 || u[14] != '4' {
		t.Errorf("NewUUID = %s", u)
	}
	if lb.PathRoot("/acme/eu/") != "acme" || lb.CheckPath("p", "/acme/eu") == nil {
		t.Error("path helpers")
	}
}

// LB-63: a move's mark is validated with the account; PathLeaf names the
// segment an account keeps when it moves.
func TestAccountMoveMark_LB63(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{"/acme/": "acme", "/acme/eu/": "eu", "/acme/eu/retail/": "retail"} {
		if got := lb.PathLeaf(p); got != want {
			t.Errorf("PathLeaf(%q) = %q, want %q", p, got, want)
		}
	}
	a := lb.Account{AccountID: "sub", AccountName: "EU", ParentAccountID: "root", AccountPath: "/acme/eu/",
		AccountType: lb.AccountSubsidiary, Level: 1, Status: lb.AccountActive}
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	a.Move = lb.AccountMove{FromPath: "/acme/eu/", ToPath: "/other/eu", ToParent: "other", ToLevel: 1}
	var ve *table.ValidationError
	if err := a.Validate(); !errors.As(err, &ve) || ve.Field != "move.toPath" {
		t.Errorf("bad move mark: err = %v, want a ValidationError for move.toPath", err)
	}
	if !a.Move.Pending() || (lb.AccountMove{}).Pending() {
		t.Error("Pending")
	}
}

// Every key helper builds its key from the declared template, byte for
// byte the mapping's.
func TestKeyHelpersDocumentFormat(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	const ts = "2025-01-02T03:04:05.000000006Z"
	hash := lb.Hash("token")
	for _, c := range []struct {
		k    func() (table.Key, error)
		want table.Key
	}{
		{func() (table.Key, error) { return lb.UserKey("u1") }, table.Key{PK: "USER#u1", SK: "PROFILE"}},
		{func() (table.Key, error) { return lb.MembershipKey("u1", "a1") }, table.Key{PK: "USER#u1", SK: "MEMBER#a1"}},
		{func() (table.Key, error) { return lb.AccountKey("a1") }, table.Key{PK: "ACCOUNT#a1", SK: "PROFILE"}},
		{func() (table.Key, error) { return lb.TeamKey("t1") }, table.Key{PK: "TEAM#t1", SK: "TEAM"}},
		{func() (table.Key, error) { return lb.SourceKey("s1") }, table.Key{PK: "SOURCE#s1", SK: "SOURCE"}},
		{func() (table.Key, error) { return lb.OAuthTokenKey("s1") }, table.Key{PK: "SOURCE#s1", SK: "OAUTH"}},
		{func() (table.Key, error) { return lb.ScheduleKey("s1", "sc1") }, table.Key{PK: "SOURCE#s1", SK: "SCHED#sc1"}},
		{func() (table.Key, error) { return lb.RunKey("s1", at, "r1") }, table.Key{PK: "SOURCE#s1", SK: "RUN#" + ts + "#r1"}},
		{func() (table.Key, error) { return lb.ActivityKey("a1", at, "e1") }, table.Key{PK: "ACTIVITY#a1", SK: "EVT#" + ts + "#e1"}},
		{func() (table.Key, error) { return lb.JobKey("j1") }, table.Key{PK: "JOB#j1", SK: "JOB"}},
		{func() (table.Key, error) { return lb.ConnectionKey("c1") }, table.Key{PK: "CONN#c1", SK: "CONN"}},
		{func() (table.Key, error) { return lb.OAuthStateKey("st1") }, table.Key{PK: "OAUTHSTATE#st1", SK: "STATE"}},
		{func() (table.Key, error) { return lb.RefreshTokenKey(hash) }, table.Key{PK: "RTOKEN#" + hash, SK: "RTOKEN"}},
		{func() (table.Key, error) { return lb.TokenFamilyKey("f1") }, table.Key{PK: "RTFAM#f1", SK: "FAMILY"}},
		{func() (table.Key, error) { return lb.TagKeyOf("a1", lb.ResSource, "env#x", "100%") }, table.Key{PK: "TAGS#a1#source", SK: "TAG#env%23x#100%25"}},
		{func() (table.Key, error) { return lb.NotificationKey("u1", at, "n1") }, table.Key{PK: "NOTIF#u1", SK: "N#" + ts + "#n1"}},
		{func() (table.Key, error) { return lb.APIKeyKey("k1") }, table.Key{PK: "APIKEY#k1", SK: "APIKEY"}},
		{func() (table.Key, error) { return lb.WebhookKey("w1") }, table.Key{PK: "WEBHOOK#w1", SK: "WEBHOOK"}},
	} {
		got, err := c.k()
		if err != nil || got != c.want {
			t.Errorf("got %v, %v; want %v", got, err, c.want)
		}
	}
	// A zero time is refused naming the field, as before the templates.
	var ve *table.ValidationError
	if _, err := lb.RunKey("s1", time.Time{}, "r1"); !errors.As(err, &ve) || ve.Field != "startedAt" {
		t.Errorf("RunKey(zero time) = %v, want a ValidationError for startedAt", err)
	}
	if _, _, _, err := lb.ParseActivityKey(table.Key{PK: "ACTIVITY#a1", SK: "EVT#yesterday#e1"}); err == nil {
		t.Error("ParseActivityKey accepted a sort key whose time is not a timestamp")
	}
}
