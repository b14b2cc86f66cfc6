package listbackup_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

// TestAccountScope (issue 11 §2): through Store.ForAccount, another
// account's items are not found and not changed, whichever by-ID method
// reaches for them (LB-14, LB-16, LB-23, LB-24, LB-39, LB-40, LB-52..LB-55,
// LB-64..LB-67), its lists come back empty and its cursors are refused;
// the owner's own scope reaches them.
func TestAccountScope(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	// a2's items
	must(t, f.Sources.Create(c, &lb.Source{AccountID: "a2", SourceID: "s2", SourceName: "Shop", Platform: lb.PlatformStripe, ConnectionType: lb.ConnOAuth}))
	must(t, f.Sources.Create(c, &lb.Source{AccountID: "a2", SourceID: "s3", SourceName: "Shop 2", Platform: lb.PlatformStripe, ConnectionType: lb.ConnOAuth}))
	must(t, f.Jobs.Create(c, &lb.Job{AccountID: "a2", JobID: "j2", JobType: lb.JobSync, SourceID: "s2", MaxRetries: 3}))
	must(t, f.Connections.Create(c, &lb.Connection{ConnectionID: "c2", AccountID: "a2", UserID: "u2", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth}))
	must(t, f.Webhooks.Create(c, &lb.Webhook{WebhookID: "w2", AccountID: "a2", URL: "https://example.com/h", Events: []string{"sync.completed"}, IsActive: true, Secret: "whsec_a2"}))
	_, key2, err := f.APIKeys.Create(c, listbackup.NewAPIKey{AccountID: "a2", UserID: "u2", Name: "ci", Permissions: []string{"*"}})
	must(t, err)
	must(t, f.Teams.Create(c, &lb.Team{AccountID: "a2", TeamID: "t2", TeamName: "Other"}))
	must(t, f.Tags.Create(c, &lb.Tag{AccountID: "a2", TagID: "g2", TagKey: "env", TagValue: "prod", ResourceType: lb.ResSource}))

	a1, err := f.ForAccount("a1")
	must(t, err)
	a2, err := f.ForAccount("a2")
	must(t, err)
	ref := listbackup.TagRef{AccountID: "a2", ResourceType: lb.ResSource, TagKey: "env", TagValue: "prod"}
	before := f.requests.Load()
	attacks := map[string]error{}
	_, attacks["Sources.ByID.Get"] = a1.Sources.ByID.Get(c, lb.Source{SourceID: "s2"})
	_, attacks["Sources.Update"] = a1.Sources.Update(c, "s2", func(s *lb.Source) error { s.SourceName = "pwned"; return nil })
	attacks["Sources.Delete"] = a1.Sources.Delete(c, "s2")
	_, attacks["Jobs.Get"] = a1.Jobs.ByID.Get(c, lb.Job{JobID: "j2"})
	_, attacks["Jobs.Update"] = a1.Jobs.Update(c, "j2", func(j *lb.Job) error { j.MaxRetries = 99; return nil })
	_, attacks["Connections.ByID.Get"] = a1.Connections.ByID.Get(c, lb.Connection{ConnectionID: "c2"})
	_, attacks["Connections.Update"] = a1.Connections.Update(c, "c2", func(x *lb.Connection) error { x.Status = lb.ConnectionRevoked; return nil })
	attacks["Connections.Delete"] = a1.Connections.Delete(c, "c2")
	_, attacks["Webhooks.ByID.Get"] = a1.Webhooks.ByID.Get(c, lb.Webhook{WebhookID: "w2"})
	_, attacks["Webhooks.Update"] = a1.Webhooks.Update(c, "w2", func(w *lb.Webhook) error { w.URL = "https://evil.example/h"; return nil })
	attacks["Webhooks.Delete"] = a1.Webhooks.Delete(c, "w2")
	_, attacks["APIKeys.Get"] = a1.APIKeys.ByID.Get(c, lb.APIKey{APIKeyID: key2.APIKeyID})
	_, attacks["APIKeys.Revoke"] = a1.APIKeys.Revoke(c, key2.APIKeyID)
	_, attacks["APIKeys.TouchLastUsed"] = a1.APIKeys.TouchLastUsed(c, key2.APIKeyID)
	_, attacks["Teams.Get"] = a1.Teams.ByID.Get(c, lb.Team{TeamID: "t2"})
	_, attacks["Teams.Update"] = a1.Teams.Update(c, "t2", func(x *lb.Team) error { x.TeamName = "pwned"; return nil })
	attacks["Teams.Delete"] = a1.Teams.Delete(c, "t2")
	_, attacks["Tags.Get"] = a1.Tags.Get(c, "g2")
	_, attacks["Tags.Update"] = a1.Tags.Update(c, ref, func(x *lb.Tag) error { x.Color = "#000000"; return nil })
	attacks["Tags.Delete"] = a1.Tags.Delete(c, ref)
	for name, err := range attacks {
		if !errors.Is(err, table.ErrNotFound) {
			t.Errorf("%s of a2's item through a1: %v, want table.ErrNotFound", name, err)
		}
	}
	if n := f.requests.Load() - before; n == 0 {
		t.Fatal("no request was made: the test proves nothing")
	}
	// nothing changed
	src, err := a2.Sources.ByID.Get(c, lb.Source{SourceID: "s2"})
	if err != nil || src.SourceName != "Shop" {
		t.Fatalf("a2's source: %+v, %v", src, err)
	}
	if j, err := a2.Jobs.ByID.Get(c, lb.Job{JobID: "j2"}); err != nil || j.MaxRetries != 3 {
		t.Fatalf("a2's job: %+v, %v", j, err)
	}
	if w, err := a2.Webhooks.ByID.Get(c, lb.Webhook{WebhookID: "w2"}); err != nil || w.URL != "https://example.com/h" {
		t.Fatalf("a2's webhook: %+v, %v", w, err)
	}
	if k, err := a2.APIKeys.ByID.Get(c, lb.APIKey{APIKeyID: key2.APIKeyID}); err != nil || k.Status != key2.Status || !k.LastUsedAt.IsZero() {
		t.Fatalf("a2's key: %+v, %v", k, err)
	}
	if tm, err := a2.Teams.ByID.Get(c, lb.Team{TeamID: "t2"}); err != nil || tm.TeamName != "Other" {
		t.Fatalf("a2's team: %+v, %v", tm, err)
	}
	if tg, err := a2.Tags.Get(c, "g2"); err != nil || tg.Color != "" {
		t.Fatalf("a2's tag: %+v, %v", tg, err)
	}
	if _, err := a2.Connections.ByID.Get(c, lb.Connection{ConnectionID: "c2"}); err != nil {
		t.Fatalf("a2's connection: %v", err)
	}
	// lists: a2's partition through a1 is empty; a2's cursor is refused by a1
	if p, err := a1.Sources.ByAccount.List(c, lb.Source{AccountID: "a2"}); err != nil || len(p.Items) != 0 {
		t.Fatalf("a2's sources through a1: %+v, %v", p.Items, err)
	}
	p2, err := a2.Sources.ByAccount.List(c, lb.Source{AccountID: "a2"}, table.Limit(1))
	if err != nil || len(p2.Items) != 1 || p2.Cursor == "" {
		t.Fatalf("a2's first page: %+v, %v", p2, err)
	}
	if p, err := a1.Sources.ByAccount.List(c, lb.Source{AccountID: "a1"}, table.After(p2.Cursor)); !errors.Is(err, table.ErrInvalidCursor) {
		t.Fatalf("a2's cursor on a1's list: %+v, %v; want table.ErrInvalidCursor", p.Items, err)
	}
	if p, err := a1.Sources.ByAccount.List(c, lb.Source{AccountID: "a2"}, table.After(p2.Cursor)); !errors.Is(err, table.ErrInvalidCursor) {
		t.Fatalf("a2's cursor through a1 on a2's list: %+v, %v; want table.ErrInvalidCursor (the scope is sealed in)", p.Items, err)
	}
	// the owner's scope works, writes included; creating into another account is refused
	if _, err := a2.Sources.Update(c, "s2", func(s *lb.Source) error { s.SourceName = "Shop A"; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := a1.Sources.Create(c, &lb.Source{AccountID: "a2", SourceID: "s9", SourceName: "x", Platform: lb.PlatformStripe, ConnectionType: lb.ConnOAuth}); err == nil {
		t.Fatal("a1 created a source in a2")
	}
	if _, err := f.ForAccount(""); err == nil {
		t.Fatal("an empty account was accepted")
	}
}
