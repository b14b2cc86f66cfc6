package listbackup_test

import (
	"context"
	"fmt"
	"iter"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/internal/patterncost"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// costRun is what the per-area parts of TestRequestCosts share: the store
// on the counted client, its context and clock, and the one Costs.
type costRun struct {
	s     *listbackup.Store
	c     context.Context
	clock *clock
	costs *patterncost.Costs
	// first records the methods once has measured.
	first map[string]bool
}

// m measures one call of method (see patterncost.Costs.Measure).
func (r *costRun) m(t *testing.T, method, note string, fn func() error) {
	t.Helper()
	r.costs.Measure(t, method, note, fn)
}

// once measures the first call of method it is given (a write that also
// sets up data, in a loop) and runs every later one as setup, failing the
// test on an error.
func (r *costRun) once(t *testing.T, method, note string, fn func() error) {
	t.Helper()
	if r.first[method] {
		must(t, fn())
		return
	}
	if r.first == nil {
		r.first = map[string]bool{}
	}
	r.first[method] = true
	r.m(t, method, note, fn)
}

// listed is what a measured list call returned: page(s.X.List(...)).of(n)
// fails unless it is a last page of n items, so that a note ("a page of
// 2") says what the call did.
type listed struct {
	n    int
	more bool
	err  error
}

func page[T any](p table.Page[T], err error) listed { return listed{len(p.Items), p.More(), err} }

func (l listed) of(n int) error {
	if l.err != nil {
		return l.err
	}
	if l.n != n || l.more {
		return fmt.Errorf("a page of %d (more: %v), want a last page of %d", l.n, l.more, n)
	}
	return nil
}

// drain iterates over seq and fails unless it yields n items.
func drain[T any](n int, seq iter.Seq2[T, error]) error {
	got := 0
	for _, err := range seq {
		if err != nil {
			return err
		}
		got++
	}
	if got != n {
		return fmt.Errorf("%d items, want %d", got, n)
	}
	return nil
}

// TestRequestCosts measures one call of every ListBackup method that
// serves a catalog pattern (LB-1..LB-83) and holds each to the requests
// recorded in docs/patterns/listbackup.requests.json (see
// patterncost.Costs): a method that starts to send one more request fails
// here. The data each part needs is set up with the store's own methods
// first; nothing runs in parallel on the counted client.
func TestRequestCosts_LB1_to_LB83(t *testing.T) {
	f := newFixture(t)
	rc := &tabletest.RequestCounter{Capacity: true}
	meter := capacity.NewMeter(tabletest.Client(t))
	client := tabletest.NewClient(t, rc.Option(), meter.Option())
	tbl := table.New(client, f.tbl.Schema(), func(o *table.Options) { o.Cipher, o.Now = tabletest.Cipher(), f.clock.Now })
	// A long deadline: the meter reads every item it charges, and a busy machine is slow.
	c, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	r := &costRun{s: listbackup.New(tbl), c: c, clock: f.clock,
		costs: &patterncost.Costs{App: "listbackup", Root: "../..", Counter: rc, Meter: meter, Tables: []*table.Table{tbl}}}
	meter.Learn(tbl)

	t.Run("accounts", func(t *testing.T) { costAccounts(t, r) })
	t.Run("memberships and teams", func(t *testing.T) { costMembershipsTeams(t, r) })
	t.Run("users", func(t *testing.T) { costUsers(t, r) })
	t.Run("sources, jobs, connections", func(t *testing.T) { costSources(t, r) })
	t.Run("activities", func(t *testing.T) { costActivities(t, r) })
	t.Run("oauth and refresh tokens", func(t *testing.T) { costOAuth(t, r) })
	t.Run("tags", func(t *testing.T) { costTags(t, r) })
	t.Run("notifications", func(t *testing.T) { costNotifications(t, r) })
	t.Run("schedules and runs", func(t *testing.T) { costSync(t, r) })
	t.Run("API keys and webhooks", func(t *testing.T) { costKeysHooks(t, r) })
	t.Run("usage and plans", func(t *testing.T) { costUsagePlans(t, r) })
	t.Run("entities of ListBackup's code", func(t *testing.T) { costCodeLayout(t, r) })
	r.costs.Check(t)
}

// costCodeLayout: LB-69..LB-83, the entities of ListBackup's own code.
func costCodeLayout(t *testing.T, r *costRun) {
	s, c := r.s, r.c
	at := r.clock.Now()
	r.m(t, "SourceGroups.Create", "", func() error {
		return s.SourceGroups.Create(c, &lb.SourceGroup{GroupID: "group:1", AccountID: "acct-code", ConnectionID: "conn:1", Name: "My Keap"})
	})
	for _, id := range []lb.SourceID{"src-code-1", "src-code-2"} {
		must(t, s.Sources.Create(c, &lb.Source{AccountID: "acct-code", SourceID: id, SourceName: "Contacts", ConnectionID: "conn:1",
			GroupID: "group:1", Status: lb.SourceActive}))
	}
	r.m(t, "SourceGroups.ByID.Get", "", func() error { _, err := s.SourceGroups.ByID.Get(c, lb.SourceGroup{GroupID: "group:1"}); return err })
	r.m(t, "SourceGroups.ByAccount.List", "a page of 1", func() error {
		return page(s.SourceGroups.ByAccount.List(c, lb.SourceGroup{AccountID: "acct-code"})).of(1)
	})
	r.m(t, "SourceGroups.ByAccount.All", "1 group, 1 page", func() error { return drain(1, s.SourceGroups.ByAccount.All(c, lb.SourceGroup{AccountID: "acct-code"})) })
	r.m(t, "SourceGroups.Sources.List", "a page of 2", func() error { return page(s.SourceGroups.Sources.List(c, lb.Source{GroupID: "group:1"})).of(2) })
	r.m(t, "SourceGroups.Sources.All", "2 sources, 1 page", func() error { return drain(2, s.SourceGroups.Sources.All(c, lb.Source{GroupID: "group:1"})) })
	for _, u := range []lb.UserID{"user-code-1", "user-code-2"} {
		r.once(t, "TeamMembers.Add", "", func() error {
			return s.TeamMembers.Add(c, &lb.TeamMembership{TeamID: "team-code", UserID: u, Role: "member"})
		})
	}
	r.m(t, "TeamMembers.ByTeam.List", "a page of 2", func() error { return page(s.TeamMembers.ByTeam.List(c, lb.TeamMembership{TeamID: "team-code"})).of(2) })
	r.m(t, "TeamMembers.ByTeam.All", "2 members, 1 page", func() error { return drain(2, s.TeamMembers.ByTeam.All(c, lb.TeamMembership{TeamID: "team-code"})) })
	r.m(t, "TeamMembers.ByUser.List", "a page of 1", func() error {
		return page(s.TeamMembers.ByUser.List(c, lb.TeamMembership{UserID: "user-code-1"})).of(1)
	})
	r.m(t, "TeamMembers.ByUser.All", "1 membership, 1 page", func() error { return drain(1, s.TeamMembers.ByUser.All(c, lb.TeamMembership{UserID: "user-code-1"})) })
	r.m(t, "Labels.Create", "", func() error {
		return s.Labels.Create(c, &lb.Label{TagID: "label-1", AccountID: "acct-code", Name: "Production", Color: "#ff0000"})
	})
	r.m(t, "Labels.Tag", "", func() error {
		return s.Labels.Tag(c, &lb.EntityTag{EntityTagID: "et-1", AccountID: "acct-code", EntityType: "source", EntityID: "src-code-1", TagID: "label-1"})
	})
	r.m(t, "Labels.ByID.Get", "", func() error { _, err := s.Labels.ByID.Get(c, lb.Label{TagID: "label-1"}); return err })
	r.m(t, "Labels.ByAccount.List", "a page of 1", func() error { return page(s.Labels.ByAccount.List(c, lb.Label{AccountID: "acct-code"})).of(1) })
	r.m(t, "Labels.ByAccount.All", "1 label, 1 page", func() error { return drain(1, s.Labels.ByAccount.All(c, lb.Label{AccountID: "acct-code"})) })
	r.m(t, "Labels.OfEntity.List", "a page of 1", func() error {
		return page(s.Labels.OfEntity.List(c, lb.EntityTag{EntityType: "source", EntityID: "src-code-1"})).of(1)
	})
	r.m(t, "Labels.OfEntity.All", "1 label, 1 page", func() error {
		return drain(1, s.Labels.OfEntity.All(c, lb.EntityTag{EntityType: "source", EntityID: "src-code-1"}))
	})
	r.m(t, "Labels.Tagged.List", "a page of 1", func() error { return page(s.Labels.Tagged.List(c, lb.EntityTag{TagID: "label-1"})).of(1) })
	r.m(t, "Labels.Tagged.All", "1 entity, 1 page", func() error { return drain(1, s.Labels.Tagged.All(c, lb.EntityTag{TagID: "label-1"})) })
	r.m(t, "MFACodes.Create", "", func() error {
		return s.MFACodes.Create(c, &lb.MFACode{CodeID: "code-1", UserID: "user-code-1", Code: "123456", CreatedAt: at, ExpiresAt: at.Add(5 * time.Minute)})
	})
	r.m(t, "MFACodes.ByUser.List", "a page of 1", func() error { return page(s.MFACodes.ByUser.List(c, lb.MFACode{UserID: "user-code-1"})).of(1) })
	r.m(t, "MFACodes.ByUser.All", "1 code, 1 page", func() error { return drain(1, s.MFACodes.ByUser.All(c, lb.MFACode{UserID: "user-code-1"})) })
	r.m(t, "Catalog.PutPlatform", "a new platform", func() error {
		return s.Catalog.PutPlatform(c, &lb.CatalogPlatform{PlatformID: "keap", Name: "Keap"})
	})
	r.m(t, "Catalog.PutSource", "a new source template", func() error {
		return s.Catalog.PutSource(c, &lb.CatalogSource{PlatformSourceID: "keap-contacts", PlatformID: "keap", Name: "Contacts"})
	})
	r.m(t, "Catalog.Platform.Get", "", func() error { _, err := s.Catalog.Platform.Get(c, lb.CatalogPlatform{PlatformID: "keap"}); return err })
	r.m(t, "Catalog.Platforms.List", "a page of 1", func() error { return page(s.Catalog.Platforms.List(c, lb.CatalogPlatform{})).of(1) })
	r.m(t, "Catalog.Platforms.All", "1 platform, 1 page", func() error { return drain(1, s.Catalog.Platforms.All(c, lb.CatalogPlatform{})) })
	r.m(t, "Catalog.Source.Get", "", func() error {
		_, err := s.Catalog.Source.Get(c, lb.CatalogSource{PlatformSourceID: "keap-contacts"})
		return err
	})
	r.m(t, "Catalog.Sources.List", "a page of 1", func() error { return page(s.Catalog.Sources.List(c, lb.CatalogSource{PlatformID: "keap"})).of(1) })
	r.m(t, "Catalog.Sources.All", "1 template, 1 page", func() error { return drain(1, s.Catalog.Sources.All(c, lb.CatalogSource{PlatformID: "keap"})) })
	for i, st := range []lb.InboxStatus{lb.InboxUnread, lb.InboxUnread, lb.InboxRead} {
		r.once(t, "Inbox.Create", "", func() error {
			return s.Inbox.Create(c, &lb.InboxNotification{NotificationID: lb.NotificationID(fmt.Sprintf("inbox-%d", i+1)), AccountID: "acct-code",
				UserID: "user-code-1", Type: lb.InboxInfo, Category: "backup", Title: "Backup done", Message: "1,200 records", Status: st,
				CreatedAt: at.Add(time.Duration(i) * time.Minute)})
		})
	}
	r.m(t, "Inbox.ByID.Get", "", func() error {
		_, err := s.Inbox.ByID.Get(c, lb.InboxNotification{NotificationID: "inbox-1"})
		return err
	})
	r.m(t, "Inbox.ByUser.List", "a page of 3", func() error { return page(s.Inbox.ByUser.List(c, lb.InboxNotification{UserID: "user-code-1"})).of(3) })
	r.m(t, "Inbox.ByUser.All", "3 notifications, 1 page", func() error { return drain(3, s.Inbox.ByUser.All(c, lb.InboxNotification{UserID: "user-code-1"})) })
	r.m(t, "Inbox.ByStatus.List", "a page of 2 unread", func() error {
		return page(s.Inbox.ByStatus.List(c, lb.InboxNotification{UserID: "user-code-1", Status: lb.InboxUnread})).of(2)
	})
	r.m(t, "Inbox.ByStatus.All", "2 unread, 1 page", func() error {
		return drain(2, s.Inbox.ByStatus.All(c, lb.InboxNotification{UserID: "user-code-1", Status: lb.InboxUnread}))
	})
	r.m(t, "Inbox.ByAccount.List", "a page of 3", func() error {
		return page(s.Inbox.ByAccount.List(c, lb.InboxNotification{AccountID: "acct-code"})).of(3)
	})
	r.m(t, "Inbox.ByAccount.All", "3 notifications, 1 page", func() error { return drain(3, s.Inbox.ByAccount.All(c, lb.InboxNotification{AccountID: "acct-code"})) })
	r.m(t, "Inbox.MarkRead", "", func() error { _, err := s.Inbox.MarkRead(c, "inbox-1"); return err })
	r.m(t, "Inbox.MarkUnread", "", func() error { _, err := s.Inbox.MarkUnread(c, "inbox-1"); return err })
	r.m(t, "Inbox.Archive", "", func() error { _, err := s.Inbox.Archive(c, "inbox-2"); return err })
	r.m(t, "Inbox.Delete", "", func() error { return s.Inbox.Delete(c, "inbox-3") })
}

// costAccounts: LB-5..LB-9 (AccountScope.Get), LB-63.
func costAccounts(t *testing.T, r *costRun) {
	s, c := r.s, r.c
	for _, a := range []lb.Account{
		{AccountID: "root", AccountName: "Acme", AccountPath: "/acme/", AccountType: lb.AccountConglomerate},
		{AccountID: "other", AccountName: "Other", AccountPath: "/other/", AccountType: lb.AccountConglomerate},
	} {
		must(t, s.Accounts.Create(c, &a))
	}
	r.m(t, "Accounts.Create", "a child account (the parent read first)", func() error {
		return s.Accounts.Create(c, &lb.Account{AccountID: "sub", AccountName: "Acme EU", ParentAccountID: "root",
			AccountPath: "/acme/eu/", AccountType: lb.AccountSubsidiary, Level: 1})
	})
	for _, a := range []lb.Account{
		{AccountID: "div", AccountName: "Acme EU Retail", ParentAccountID: "sub", AccountPath: "/acme/eu/retail/", AccountType: lb.AccountDivision, Level: 2},
		{AccountID: "sub2", AccountName: "Acme US", ParentAccountID: "root", AccountPath: "/acme/us/", AccountType: lb.AccountSubsidiary, Level: 1},
	} {
		must(t, s.Accounts.Create(c, &a))
	}
	r.m(t, "Accounts.ByID.Get", "", func() error { _, err := s.Accounts.ByID.Get(c, lb.Account{AccountID: "sub"}); return err })
	scope, err := s.ForAccount("sub")
	must(t, err)
	r.m(t, "AccountScope.Get", "", func() error { _, err := scope.Get(c); return err })
	r.m(t, "Accounts.Children.List", "a page of 2", func() error { return page(s.Accounts.Children.List(c, lb.Account{ParentAccountID: "root"})).of(2) })
	r.m(t, "Accounts.Children.All", "2 accounts, 1 page", func() error { return drain(2, s.Accounts.Children.All(c, lb.Account{ParentAccountID: "root"})) })
	r.m(t, "Accounts.ByType.List", "a page of 2", func() error {
		return page(s.Accounts.ByType.List(c, lb.Account{AccountType: lb.AccountSubsidiary})).of(2)
	})
	r.m(t, "Accounts.ByType.All", "2 accounts, 1 page", func() error { return drain(2, s.Accounts.ByType.All(c, lb.Account{AccountType: lb.AccountSubsidiary})) })
	r.m(t, "Accounts.Subtree.List", "a page of 4", func() error { return page(s.Accounts.Subtree.List(c, lb.Account{AccountPath: "/acme/"})).of(4) })
	r.m(t, "Accounts.Subtree.All", "4 accounts, 1 page", func() error { return drain(4, s.Accounts.Subtree.All(c, lb.Account{AccountPath: "/acme/"})) })
	r.m(t, "Accounts.Update", "the name", func() error {
		_, err := s.Accounts.Update(c, "sub", func(a *lb.Account) error { a.AccountName = "Acme Europe"; return nil })
		return err
	})
	r.m(t, "Accounts.Move", "an account with 1 descendant, to another parent", func() error {
		_, err := s.Accounts.Move(c, "sub", "other")
		return err
	})
	r.m(t, "Accounts.Delete", "an account without children", func() error { return s.Accounts.Delete(c, "sub2") })
}

// costMembershipsTeams: LB-9..LB-13, LB-64, LB-68 (Memberships.Remove).
func costMembershipsTeams(t *testing.T, r *costRun) {
	s, c := r.s, r.c
	for _, m := range []lb.Membership{
		{UserID: "mu1", AccountID: "ma1", Role: lb.MemberOwner, IsDefault: true},
		{UserID: "mu1", AccountID: "ma2", Role: lb.MemberViewer},
		{UserID: "mu2", AccountID: "ma1", Role: lb.MemberAdmin},
	} {
		r.once(t, "Memberships.Add", "", func() error { return s.Memberships.Add(c, &m) })
	}
	for _, tm := range []lb.Team{
		{AccountID: "ma1", TeamID: "mt1", TeamName: "Ops", Members: []lb.TeamMember{{UserID: "mu1", Role: lb.TeamRoleLead}, {UserID: "mu2", Role: lb.TeamRoleMember}}},
		{AccountID: "ma1", TeamID: "mt2", TeamName: "Dev"},
		{AccountID: "ma2", TeamID: "mt3", TeamName: "Other", Members: []lb.TeamMember{{UserID: "mu1", Role: lb.TeamRoleMember}}},
	} {
		r.once(t, "Teams.Create", "a team of 2 members", func() error { return s.Teams.Create(c, &tm) })
	}
	r.m(t, "Memberships.ByUser.List", "a page of 2", func() error { return page(s.Memberships.ByUser.List(c, lb.Membership{UserID: "mu1"})).of(2) })
	r.m(t, "Memberships.ByUser.All", "2 memberships, 1 page", func() error { return drain(2, s.Memberships.ByUser.All(c, lb.Membership{UserID: "mu1"})) })
	r.m(t, "Memberships.ByAccount.List", "a page of 2", func() error { return page(s.Memberships.ByAccount.List(c, lb.Membership{AccountID: "ma1"})).of(2) })
	r.m(t, "Memberships.ByAccount.All", "2 members, 1 page", func() error { return drain(2, s.Memberships.ByAccount.All(c, lb.Membership{AccountID: "ma1"})) })
	r.m(t, "Memberships.ByID.Get", "", func() error {
		_, err := s.Memberships.ByID.Get(c, lb.Membership{UserID: "mu1", AccountID: "ma1"})
		return err
	})
	r.m(t, "Memberships.SetRole", "", func() error {
		_, err := s.Memberships.SetRole(c, listbackup.MembershipRef{UserID: "mu2", AccountID: "ma1"}, lb.MemberMember)
		return err
	})
	r.m(t, "Teams.ByAccount.List", "a page of 2", func() error { return page(s.Teams.ByAccount.List(c, lb.Team{AccountID: "ma1"})).of(2) })
	r.m(t, "Teams.ByAccount.All", "2 teams, 1 page", func() error { return drain(2, s.Teams.ByAccount.All(c, lb.Team{AccountID: "ma1"})) })
	r.m(t, "Teams.ByID.Get", "", func() error { _, err := s.Teams.ByID.Get(c, lb.Team{TeamID: "mt1"}); return err })
	r.m(t, "Teams.Update", "the name", func() error {
		_, err := s.Teams.Update(c, "mt1", func(tm *lb.Team) error { tm.TeamName = "Operations"; return nil })
		return err
	})
	r.m(t, "Teams.SetMemberRole", "", func() error { _, err := s.Teams.SetMemberRole(c, "mt1", "mu2", lb.TeamRoleLead); return err })
	r.m(t, "Memberships.Remove", "an account with 2 teams, the user in 1", func() error { return s.Memberships.Remove(c, "mu1", "ma1") })
	r.m(t, "Teams.Delete", "", func() error { return s.Teams.Delete(c, "mt2") })
}

// costUsers: LB-1..LB-4, LB-68 (Users.Erase).
func costUsers(t *testing.T, r *costRun) {
	s, c := r.s, r.c
	r.m(t, "Users.Create", "", func() error { return s.Users.Create(c, newUser("uu1", "Ada@Example.com", "Ada")) })
	r.m(t, "Users.ByID.Get", "", func() error { _, err := s.Users.ByID.Get(c, lb.User{UserID: "uu1"}); return err })
	r.m(t, "Users.GetByEmail", "", func() error { _, err := s.Users.GetByEmail(c, "ada@example.com"); return err })
	r.m(t, "Users.GetByUsername", "", func() error { _, err := s.Users.GetByUsername(c, "ADA"); return err })
	name := "Countess of Lovelace"
	r.m(t, "Users.UpdateProfile", "the name", func() error {
		_, err := s.Users.UpdateProfile(c, "uu1", listbackup.ProfileChange{Name: &name})
		return err
	})
	r.m(t, "Users.Update", "the email (its guard moves)", func() error {
		_, err := s.Users.Update(c, "uu1", func(u *lb.User) error { u.Email = "ada@lovelace.org"; return nil })
		return err
	})

	// The user to erase: 1 membership in an account with 1 team the user
	// is in, 1 refresh token, 1 API key, 1 notification.
	must(t, s.Memberships.Add(c, &lb.Membership{UserID: "uu1", AccountID: "ua1", Role: lb.MemberMember}))
	must(t, s.Teams.Create(c, &lb.Team{AccountID: "ua1", TeamID: "ut1", TeamName: "T", Members: []lb.TeamMember{{UserID: "uu1", Role: lb.TeamRoleMember}}}))
	_, _, err := s.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: "uu1", AccountID: "ua1"})
	must(t, err)
	_, _, err = s.APIKeys.Create(c, listbackup.NewAPIKey{AccountID: "ua1", UserID: "uu1", Name: "ci", Permissions: []string{"read"}})
	must(t, err)
	must(t, s.Notifications.Send(c, &lb.Notification{UserID: "uu1", NotificationID: "un1", AccountID: "ua1",
		Type: lb.NotifyInApp, Category: lb.CategoryJob, Message: "hi"}))
	r.m(t, "Users.Erase", "1 membership (its account has 1 team, the user in it), 1 refresh token, 1 API key, 1 notification", func() error {
		return s.Users.Erase(c, "uu1")
	})
}

// costSources: LB-14..LB-17, LB-23..LB-29, LB-65.
func costSources(t *testing.T, r *costRun) {
	s, c := r.s, r.c
	for _, src := range []lb.Source{
		{AccountID: "sa1", SourceID: "ss1", SourceName: "Keap", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth},
		{AccountID: "sa1", SourceID: "ss2", SourceName: "Stripe", Platform: lb.PlatformStripe, ConnectionType: lb.ConnAPIKey},
		{AccountID: "sa1", SourceID: "ss3", SourceName: "Stripe 2", Platform: lb.PlatformStripe, ConnectionType: lb.ConnAPIKeyCore},
	} {
		r.once(t, "Sources.Create", "", func() error { return s.Sources.Create(c, &src) })
	}
	r.m(t, "Sources.ByID.Get", "", func() error { _, err := s.Sources.ByID.Get(c, lb.Source{SourceID: "ss1"}); return err })
	r.m(t, "Sources.ByAccount.List", "a page of 3", func() error { return page(s.Sources.ByAccount.List(c, lb.Source{AccountID: "sa1"})).of(3) })
	r.m(t, "Sources.ByAccount.All", "3 sources, 1 page", func() error { return drain(3, s.Sources.ByAccount.All(c, lb.Source{AccountID: "sa1"})) })
	r.m(t, "Sources.ByPlatform.List", "a page of 2", func() error {
		return page(s.Sources.ByPlatform.List(c, lb.Source{AccountID: "sa1", Platform: lb.PlatformStripe})).of(2)
	})
	r.m(t, "Sources.ByPlatform.All", "2 sources, 1 page", func() error {
		return drain(2, s.Sources.ByPlatform.All(c, lb.Source{AccountID: "sa1", Platform: lb.PlatformStripe}))
	})
	r.m(t, "Sources.ByStatus.List", "a page of 3", func() error {
		return page(s.Sources.ByStatus.List(c, lb.Source{AccountID: "sa1", Status: lb.SourceActive})).of(3)
	})
	r.m(t, "Sources.ByStatus.All", "3 sources, 1 page", func() error {
		return drain(3, s.Sources.ByStatus.All(c, lb.Source{AccountID: "sa1", Status: lb.SourceActive}))
	})
	r.m(t, "Sources.Update", "the status (its index entry moves)", func() error {
		_, err := s.Sources.Update(c, "ss2", func(src *lb.Source) error { src.Status = lb.SourcePaused; return nil })
		return err
	})
	must(t, s.Schedules.Create(c, &lb.SyncSchedule{SourceID: "ss3", ScheduleID: "sh1", ScheduleType: lb.ScheduleHourly,
		DataTypes: []string{"contacts"}, IsActive: true, NextRunAt: t0.Add(time.Hour)}))
	r.m(t, "Sources.Delete", "a source with 1 active schedule (turned off)", func() error { return s.Sources.Delete(c, "ss3") })

	for i, id := range []lb.JobID{"sj1", "sj2", "sj3"} {
		jb := &lb.Job{AccountID: "sa1", JobID: id, JobType: lb.JobSync, SourceID: "ss1", MaxRetries: 3}
		if i == 2 {
			jb.Status, jb.SourceID = lb.JobRunning, "ss2"
		}
		r.once(t, "Jobs.Create", "", func() error { return s.Jobs.Create(c, jb) })
		r.clock.Add(time.Second)
	}
	r.m(t, "Jobs.ByID.Get", "", func() error { _, err := s.Jobs.ByID.Get(c, lb.Job{JobID: "sj1"}); return err })
	r.m(t, "Jobs.ByAccount.List", "a page of 3", func() error { return page(s.Jobs.ByAccount.List(c, lb.Job{AccountID: "sa1"})).of(3) })
	r.m(t, "Jobs.ByAccount.All", "3 jobs, 1 page", func() error { return drain(3, s.Jobs.ByAccount.All(c, lb.Job{AccountID: "sa1"})) })
	r.m(t, "Jobs.ByStatus.List", "a page of 2", func() error {
		return page(s.Jobs.ByStatus.List(c, lb.Job{AccountID: "sa1", Status: lb.JobPending})).of(2)
	})
	r.m(t, "Jobs.ByStatus.All", "2 jobs, 1 page", func() error { return drain(2, s.Jobs.ByStatus.All(c, lb.Job{AccountID: "sa1", Status: lb.JobPending})) })
	r.m(t, "Jobs.BySource.List", "a page of 2", func() error { return page(s.Jobs.BySource.List(c, lb.Job{SourceID: "ss1"})).of(2) })
	r.m(t, "Jobs.BySource.All", "2 jobs, 1 page", func() error { return drain(2, s.Jobs.BySource.All(c, lb.Job{SourceID: "ss1"})) })
	r.m(t, "Jobs.Update", "the status (its index entry moves)", func() error {
		_, err := s.Jobs.Update(c, "sj3", func(jb *lb.Job) error { jb.Status = lb.JobCompleted; return nil })
		return err
	})
	r.m(t, "Jobs.Delete", "a job not running", func() error { return s.Jobs.Delete(c, "sj3") })

	for _, cn := range []lb.Connection{
		{ConnectionID: "sc1", AccountID: "sa1", UserID: "su1", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth,
			Credentials: lb.ConnectionCredentials{AccessToken: "at", RefreshToken: "rt"}},
		{ConnectionID: "sc2", AccountID: "sa1", UserID: "su2", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth},
		{ConnectionID: "sc3", AccountID: "sa1", UserID: "su1", Platform: lb.PlatformStripe, ConnectionType: lb.ConnAPIKey},
	} {
		r.once(t, "Connections.Create", "with credentials", func() error { return s.Connections.Create(c, &cn) })
	}
	r.m(t, "Connections.ByID.Get", "", func() error { _, err := s.Connections.ByID.Get(c, lb.Connection{ConnectionID: "sc1"}); return err })
	r.m(t, "Connections.ByAccountPlatform.List", "a page of 2", func() error {
		return page(s.Connections.ByAccountPlatform.List(c, lb.Connection{AccountID: "sa1", Platform: lb.PlatformKeap})).of(2)
	})
	r.m(t, "Connections.ByAccountPlatform.All", "2 connections, 1 page", func() error {
		return drain(2, s.Connections.ByAccountPlatform.All(c, lb.Connection{AccountID: "sa1", Platform: lb.PlatformKeap}))
	})
	r.m(t, "Connections.ByUserPlatform.List", "a page of 1", func() error {
		return page(s.Connections.ByUserPlatform.List(c, lb.Connection{UserID: "su1", Platform: lb.PlatformKeap})).of(1)
	})
	r.m(t, "Connections.ByUserPlatform.All", "1 connection, 1 page", func() error {
		return drain(1, s.Connections.ByUserPlatform.All(c, lb.Connection{UserID: "su1", Platform: lb.PlatformKeap}))
	})
	r.m(t, "Connections.Update", "the status", func() error {
		_, err := s.Connections.Update(c, "sc1", func(cn *lb.Connection) error { cn.Status = lb.ConnectionError; return nil })
		return err
	})
	r.m(t, "Connections.Delete", "", func() error { return s.Connections.Delete(c, "sc1") })
}

// costActivities: LB-18..LB-22.
func costActivities(t *testing.T, r *costRun) {
	s, c := r.s, r.c
	rec := func(i int, id lb.EventID, user lb.UserID, rt lb.ResourceType, et lb.EventType) *lb.Activity {
		return &lb.Activity{AccountID: "aa1", EventID: id, UserID: user, EventType: et, ResourceType: rt, Action: lb.ActionCreate,
			CreatedAt: t0.Add(time.Duration(i) * time.Hour), Details: lb.ActivityDetails{After: lb.Object{"name": "x"}}}
	}
	r.m(t, "Activities.Record", "", func() error { return s.Activities.Record(c, rec(0, "ae1", "au1", lb.ResSource, "source.created")) })
	must(t, s.Activities.Record(c, rec(1, "ae2", "au1", lb.ResSource, "sync.completed")))
	must(t, s.Activities.Record(c, rec(2, "ae3", "au2", lb.ResJob, "sync.completed")))
	acct, user := lb.Activity{AccountID: "aa1"}, lb.Activity{UserID: "au1"}
	res, evt := lb.Activity{AccountID: "aa1", ResourceType: lb.ResSource}, lb.Activity{AccountID: "aa1", EventType: "sync.completed"}
	r.m(t, "Activities.ByAccount.Between", "a page of 3", func() error { return page(s.Activities.ByAccount.Between(c, acct, acct)).of(3) })
	r.m(t, "Activities.ByAccount.AllBetween", "3 activities, 1 page", func() error { return drain(3, s.Activities.ByAccount.AllBetween(c, acct, acct)) })
	r.m(t, "Activities.ByUser.Between", "a page of 2", func() error { return page(s.Activities.ByUser.Between(c, user, user)).of(2) })
	r.m(t, "Activities.ByUser.AllBetween", "2 activities, 1 page", func() error { return drain(2, s.Activities.ByUser.AllBetween(c, user, user)) })
	r.m(t, "Activities.ByResourceType.Between", "a page of 2", func() error { return page(s.Activities.ByResourceType.Between(c, res, res)).of(2) })
	r.m(t, "Activities.ByResourceType.AllBetween", "2 activities, 1 page", func() error {
		return drain(2, s.Activities.ByResourceType.AllBetween(c, res, res))
	})
	r.m(t, "Activities.ByEventType.Between", "a page of 2", func() error { return page(s.Activities.ByEventType.Between(c, evt, evt)).of(2) })
	r.m(t, "Activities.ByEventType.AllBetween", "2 activities, 1 page", func() error {
		return drain(2, s.Activities.ByEventType.AllBetween(c, evt, evt))
	})
}

// costOAuth: LB-30..LB-37.
func costOAuth(t *testing.T, r *costRun) {
	s, c := r.s, r.c
	var st lb.OAuthState
	r.m(t, "OAuthStates.Create", "", func() (err error) {
		st, err = s.OAuthStates.Create(c, listbackup.NewOAuthState{AccountID: "oa1", UserID: "ou1", Platform: lb.PlatformKeap,
			RedirectURI: "https://app.example.com/cb", Metadata: lb.OAuthStateMetadata{SourceID: "os1"}})
		return err
	})
	r.m(t, "OAuthStates.Consume", "", func() error { _, err := s.OAuthStates.Consume(c, st.State); return err })

	for _, x := range []struct {
		src lb.SourceID
		p   lb.Platform
	}{{"os1", lb.PlatformKeap}, {"os2", lb.PlatformStripe}, {"os3", lb.PlatformKeap}} {
		r.once(t, "OAuthTokens.Save", "new tokens", func() error {
			return s.OAuthTokens.Save(c, &lb.OAuthToken{SourceID: x.src, AccountID: "oa1", Platform: x.p, Tokens: lb.OAuthTokenSet{AccessToken: "at-" + string(x.src)}})
		})
	}
	r.m(t, "OAuthTokens.BySource.Get", "", func() error { _, err := s.OAuthTokens.BySource.Get(c, lb.OAuthToken{SourceID: "os1"}); return err })
	r.m(t, "OAuthTokens.Refresh", "", func() error {
		_, err := s.OAuthTokens.Refresh(c, "os1", lb.OAuthTokenSet{AccessToken: "at-2", RefreshToken: "rt-2"})
		return err
	})
	r.m(t, "OAuthTokens.ByPlatform.List", "a page of 2", func() error {
		return page(s.OAuthTokens.ByPlatform.List(c, lb.OAuthToken{AccountID: "oa1", Platform: lb.PlatformKeap})).of(2)
	})
	r.m(t, "OAuthTokens.ByPlatform.All", "2 token sets, 1 page", func() error {
		return drain(2, s.OAuthTokens.ByPlatform.All(c, lb.OAuthToken{AccountID: "oa1", Platform: lb.PlatformKeap}))
	})

	var plain string
	var rt lb.RefreshToken
	r.m(t, "RefreshTokens.Issue", "", func() (err error) {
		plain, rt, err = s.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: "ou1", AccountID: "oa1", UserAgent: "test"})
		return err
	})
	r.clock.Add(time.Minute)
	_, _, err := s.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: "ou1", AccountID: "oa1"}) // another login
	must(t, err)
	r.m(t, "RefreshTokens.GetByToken", "", func() error { _, err := s.RefreshTokens.GetByToken(c, plain); return err })
	r.clock.Add(time.Minute)
	r.m(t, "RefreshTokens.Rotate", "steady state", func() error { _, _, err := s.RefreshTokens.Rotate(c, plain, "test", "10.0.0.1"); return err })
	r.m(t, "RefreshTokens.ByUser.List", "a page of 3", func() error { return page(s.RefreshTokens.ByUser.List(c, lb.RefreshToken{UserID: "ou1"})).of(3) })
	r.m(t, "RefreshTokens.ByUser.All", "3 tokens, 1 page", func() error { return drain(3, s.RefreshTokens.ByUser.All(c, lb.RefreshToken{UserID: "ou1"})) })
	r.m(t, "RefreshTokens.Family.List", "a page of 2", func() error {
		return page(s.RefreshTokens.Family.List(c, lb.RefreshToken{TokenFamily: rt.TokenFamily})).of(2)
	})
	r.m(t, "RefreshTokens.Family.All", "2 tokens, 1 page", func() error {
		return drain(2, s.RefreshTokens.Family.All(c, lb.RefreshToken{TokenFamily: rt.TokenFamily}))
	})
	r.m(t, "RefreshTokens.RevokeFamily", "a family of 2 tokens, both marked", func() error {
		n, err := s.RefreshTokens.RevokeFamily(c, rt.TokenFamily, "ou1", "logout everywhere")
		if err == nil && n != 2 {
			err = fmt.Errorf("%d tokens marked, want 2", n)
		}
		return err
	})
}

// costTags: LB-38..LB-41, LB-66.
func costTags(t *testing.T, r *costRun) {
	s, c := r.s, r.c
	for _, tg := range []lb.Tag{
		{AccountID: "ta1", TagID: "tt1", TagKey: "env", TagValue: "production", ResourceType: lb.ResSource, Color: "#ff0000"},
		{AccountID: "ta1", TagID: "tt2", TagKey: "env", TagValue: "staging", ResourceType: lb.ResSource},
		{AccountID: "ta1", TagID: "tt3", TagKey: "team", TagValue: "ops", ResourceType: lb.ResSource},
	} {
		r.once(t, "Tags.Create", "", func() error { return s.Tags.Create(c, &tg) })
	}
	r.m(t, "Tags.ByResourceType.List", "a page of 3", func() error {
		return page(s.Tags.ByResourceType.List(c, lb.Tag{AccountID: "ta1", ResourceType: lb.ResSource})).of(3)
	})
	r.m(t, "Tags.ByResourceType.All", "3 tags, 1 page", func() error {
		return drain(3, s.Tags.ByResourceType.All(c, lb.Tag{AccountID: "ta1", ResourceType: lb.ResSource}))
	})
	r.m(t, "Tags.ByKey.List", "a page of 2", func() error {
		return page(s.Tags.ByKey.List(c, lb.Tag{AccountID: "ta1", ResourceType: lb.ResSource, TagKey: "env"})).of(2)
	})
	r.m(t, "Tags.ByKey.All", "2 tags, 1 page", func() error {
		return drain(2, s.Tags.ByKey.All(c, lb.Tag{AccountID: "ta1", ResourceType: lb.ResSource, TagKey: "env"}))
	})
	r.m(t, "Tags.Get", "", func() error { _, err := s.Tags.Get(c, "tt1"); return err })
	ref := listbackup.TagRef{AccountID: "ta1", ResourceType: lb.ResSource, TagKey: "env", TagValue: "production"}
	_, err := s.Tags.Attach(c, ref, "ts1", "tu1")
	must(t, err)
	r.m(t, "Tags.Attach", "a second resource", func() error { _, err := s.Tags.Attach(c, ref, "ts2", "tu1"); return err })
	r.m(t, "Tags.Detach", "", func() error { _, err := s.Tags.Detach(c, ref, "ts1"); return err })
	r.m(t, "Tags.Update", "the color and description", func() error {
		_, err := s.Tags.Update(c, ref, func(tg *lb.Tag) error { tg.Color, tg.Description = "#00ff00", "live"; return nil })
		return err
	})
	r.m(t, "Tags.Delete", "a tag with 1 resource attached", func() error { return s.Tags.Delete(c, ref) })
}

// costNotifications: LB-42..LB-46.
func costNotifications(t *testing.T, r *costRun) {
	s, c := r.s, r.c
	var sent []lb.Notification
	for i, id := range []lb.NotificationID{"nn1", "nn2", "nn3"} {
		n := lb.Notification{UserID: "nu1", NotificationID: id, AccountID: "na1", Type: lb.NotifyInApp, Category: lb.CategoryJob,
			Subject: "Job done", Message: "Your backup finished", Title: "Done"}
		if i == 0 {
			r.m(t, "Notifications.Send", "", func() error { return s.Notifications.Send(c, &n) })
		} else {
			must(t, s.Notifications.Send(c, &n))
		}
		sent = append(sent, n)
		r.clock.Add(time.Minute)
	}
	na1 := lb.Notification{AccountID: "na1"}
	r.m(t, "Notifications.MarkRead", "", func() error {
		_, err := s.Notifications.MarkRead(c, listbackup.NotificationRef{UserID: "nu1", CreatedAt: sent[0].CreatedAt, NotificationID: "nn1"})
		return err
	})
	r.m(t, "Notifications.ByUser.List", "a page of 3", func() error { return page(s.Notifications.ByUser.List(c, lb.Notification{UserID: "nu1"})).of(3) })
	r.m(t, "Notifications.ByUser.All", "3 notifications, 1 page", func() error { return drain(3, s.Notifications.ByUser.All(c, lb.Notification{UserID: "nu1"})) })
	r.m(t, "Notifications.ByAccount.Between", "a page of 3", func() error { return page(s.Notifications.ByAccount.Between(c, na1, na1)).of(3) })
	r.m(t, "Notifications.ByAccount.AllBetween", "3 notifications, 1 page", func() error { return drain(3, s.Notifications.ByAccount.AllBetween(c, na1, na1)) })
	r.m(t, "Notifications.ByStatus.List", "a page of 2", func() error {
		return page(s.Notifications.ByStatus.List(c, lb.Notification{UserID: "nu1", Status: lb.NotificationPending})).of(2)
	})
	r.m(t, "Notifications.ByStatus.All", "2 notifications, 1 page", func() error {
		return drain(2, s.Notifications.ByStatus.All(c, lb.Notification{UserID: "nu1", Status: lb.NotificationPending}))
	})
	r.m(t, "Notifications.Unread.List", "a page of 2", func() error { return page(s.Notifications.Unread.List(c, lb.Notification{UserID: "nu1"})).of(2) })
	r.m(t, "Notifications.Unread.All", "2 notifications, 1 page", func() error { return drain(2, s.Notifications.Unread.All(c, lb.Notification{UserID: "nu1"})) })
}

// costSync: LB-47..LB-51.
func costSync(t *testing.T, r *costRun) {
	s, c := r.s, r.c
	now := lb.Seconds(r.clock.Now())
	for _, sc := range []lb.SyncSchedule{
		{SourceID: "ys1", ScheduleID: "yh1", ScheduleType: lb.ScheduleHourly, DataTypes: []string{"contacts"}, IsActive: true, NextRunAt: now.Add(-time.Minute)},
		{SourceID: "ys1", ScheduleID: "yd1", ScheduleType: lb.ScheduleDaily, DataTypes: []string{"orders"}, IsActive: true, NextRunAt: now.Add(-time.Hour)},
	} {
		r.once(t, "Schedules.Create", "", func() error { return s.Schedules.Create(c, &sc) })
	}
	r.m(t, "Schedules.BySource.List", "a page of 2", func() error { return page(s.Schedules.BySource.List(c, lb.SyncSchedule{SourceID: "ys1"})).of(2) })
	r.m(t, "Schedules.BySource.All", "2 schedules, 1 page", func() error { return drain(2, s.Schedules.BySource.All(c, lb.SyncSchedule{SourceID: "ys1"})) })
	r.m(t, "Schedules.Due", "a page of 2", func() error { return page(s.Schedules.Due(c, now)).of(2) })
	n := s.Schedules.Shards()
	owned := []int{table.Shard("yh1", n), table.Shard("yd1", n)}
	if owned[0] == owned[1] {
		owned = owned[:1]
	}
	r.m(t, "Schedules.DueInShards", fmt.Sprintf("a page of 2 from the %d shards that hold them", len(owned)), func() error {
		return page(s.Schedules.DueInShards(c, now, owned)).of(2)
	})
	r.m(t, "Schedules.RecordRun", "", func() error {
		_, err := s.Schedules.RecordRun(c, "ys1", "yh1", now, now.Add(time.Hour))
		return err
	})
	r.m(t, "Schedules.SetActive", "off (it leaves the due index)", func() error {
		sc, err := s.Schedules.SetActive(c, listbackup.ScheduleRef{SourceID: "ys1", ScheduleID: "yd1"}, false)
		if err == nil && sc.IsActive {
			err = fmt.Errorf("schedule still active")
		}
		return err
	})

	for i, id := range []lb.SyncID{"yr1", "yr2"} {
		r.once(t, "Runs.Record", "", func() error {
			return s.Runs.Record(c, &lb.SyncRun{SourceID: "ys1", SyncID: id, DataTypes: []string{"contacts"},
				StartedAt: now.Add(time.Duration(i) * time.Minute), RecordsProcessed: map[string]int64{}})
		})
	}
	since := listbackup.TimeRange{From: now}
	r.m(t, "Runs.BySource.List", "a page of 2", func() error { return page(s.Runs.BySource.List(c, lb.SyncRun{SourceID: "ys1"})).of(2) })
	r.m(t, "Runs.BySource.All", "2 runs, 1 page", func() error { return drain(2, s.Runs.BySource.All(c, lb.SyncRun{SourceID: "ys1"})) })
	r.m(t, "Runs.ListByStatus", "a page of 2", func() error { return page(s.Runs.ListByStatus(c, lb.RunRunning, since)).of(2) })
	r.m(t, "Runs.Finish", "completed (it moves in the status index)", func() error {
		run, err := s.Runs.Finish(c, "ys1", now, "yr1", lb.RunCompleted, map[string]int64{"contacts": 1200}, nil)
		if err == nil && run.Status != lb.RunCompleted {
			err = fmt.Errorf("run status %q after Finish", run.Status)
		}
		return err
	})
}

// costKeysHooks: LB-52..LB-57, LB-67.
func costKeysHooks(t *testing.T, r *costRun) {
	s, c := r.s, r.c
	var plain string
	var k1 lb.APIKey
	r.m(t, "APIKeys.Create", "", func() (err error) {
		plain, k1, err = s.APIKeys.Create(c, listbackup.NewAPIKey{AccountID: "ka1", UserID: "ku1", Name: "ci", Permissions: []string{"sources:read"}})
		return err
	})
	r.clock.Add(time.Second)
	_, _, err := s.APIKeys.Create(c, listbackup.NewAPIKey{AccountID: "ka1", UserID: "ku1", Name: "old", Permissions: []string{"*"}})
	must(t, err)
	r.m(t, "APIKeys.Validate", "", func() error { _, err := s.APIKeys.Validate(c, plain); return err })
	r.m(t, "APIKeys.ByID.Get", "", func() error { _, err := s.APIKeys.ByID.Get(c, lb.APIKey{APIKeyID: k1.APIKeyID}); return err })
	r.m(t, "APIKeys.TouchLastUsed", "", func() error { _, err := s.APIKeys.TouchLastUsed(c, k1.APIKeyID); return err })
	r.m(t, "APIKeys.ByAccount.List", "a page of 2", func() error { return page(s.APIKeys.ByAccount.List(c, lb.APIKey{AccountID: "ka1"})).of(2) })
	r.m(t, "APIKeys.ByAccount.All", "2 keys, 1 page", func() error { return drain(2, s.APIKeys.ByAccount.All(c, lb.APIKey{AccountID: "ka1"})) })
	r.m(t, "APIKeys.Revoke", "", func() error { _, err := s.APIKeys.Revoke(c, k1.APIKeyID); return err })

	for _, w := range []lb.Webhook{
		{WebhookID: "kw1", AccountID: "ka1", URL: "https://a.example/h", Events: []string{"sync.completed", "sync.failed"}, IsActive: true, Secret: "s1"},
		{WebhookID: "kw2", AccountID: "ka1", URL: "https://b.example/h", Events: []string{"source.created"}, IsActive: true, Secret: "s2"},
		{WebhookID: "kw3", AccountID: "ka1", URL: "https://c.example/h", Events: []string{"sync.completed"}, IsActive: false, Secret: "s3"},
	} {
		r.once(t, "Webhooks.Create", "", func() error { return s.Webhooks.Create(c, &w) })
	}
	r.m(t, "Webhooks.ByID.Get", "", func() error { _, err := s.Webhooks.ByID.Get(c, lb.Webhook{WebhookID: "kw1"}); return err })
	r.m(t, "Webhooks.Active.List", "a page of 2", func() error { return page(s.Webhooks.Active.List(c, lb.Webhook{AccountID: "ka1"})).of(2) })
	r.m(t, "Webhooks.Active.All", "2 webhooks, 1 page", func() error { return drain(2, s.Webhooks.Active.All(c, lb.Webhook{AccountID: "ka1"})) })
	r.m(t, "Webhooks.ActiveForEvent.List", "a page of 1 (of 2 read)", func() error {
		return page(s.Webhooks.ActiveForEvent.List(c, lb.Webhook{AccountID: "ka1", Events: []string{string("sync.completed")}})).of(1)
	})
	r.m(t, "Webhooks.ActiveForEvent.All", "1 webhook (of 2 read), 1 page", func() error {
		return drain(1, s.Webhooks.ActiveForEvent.All(c, lb.Webhook{AccountID: "ka1", Events: []string{string("sync.completed")}}))
	})
	r.m(t, "Webhooks.Update", "activates it (its index entry is added)", func() error {
		_, err := s.Webhooks.Update(c, "kw3", func(w *lb.Webhook) error { w.IsActive = true; return nil })
		return err
	})
	r.m(t, "Webhooks.Delete", "", func() error { return s.Webhooks.Delete(c, "kw1") })
}

// costUsagePlans: LB-58..LB-62.
func costUsagePlans(t *testing.T, r *costRun) {
	s, c := r.s, r.c
	// The first count of a day creates its item (3 requests, see
	// Usage.Increment); the one measured is the steady state, one UpdateItem.
	deltas := map[lb.Counter]int64{lb.CounterAPICalls: 1, lb.CounterDataProcessed: 100}
	_, err := s.Usage.Increment(c, "ga1", "2025-03-14", deltas)
	must(t, err)
	r.m(t, "Usage.Increment", "steady state, 2 counters", func() error {
		_, err := s.Usage.Increment(c, "ga1", "2025-03-14", deltas)
		return err
	})
	_, err = s.Usage.Increment(c, "ga1", "2025-03-01", map[lb.Counter]int64{lb.CounterErrorCount: 2})
	must(t, err)
	r.m(t, "Usage.Put", "a new day", func() error {
		return s.Usage.Put(c, &lb.UsageMetrics{AccountID: "ga2", MetricDate: "2025-03-14", APICalls: 7})
	})
	r.m(t, "Usage.Metrics.Get", "", func() error {
		_, err := s.Usage.Metrics.Get(c, lb.UsageMetrics{AccountID: "ga1", MetricDate: "2025-03-14"})
		return err
	})
	r.m(t, "Usage.Range.Between", "a page of 2", func() error {
		return page(s.Usage.Range.Between(c, lb.UsageMetrics{AccountID: "ga1", MetricDate: "2025-03-01"}, lb.UsageMetrics{AccountID: "ga1", MetricDate: "2025-03-31"})).of(2)
	})
	r.m(t, "Usage.Range.AllBetween", "2 days, 1 page", func() error {
		return drain(2, s.Usage.Range.AllBetween(c, lb.UsageMetrics{AccountID: "ga1", MetricDate: "2025-03-01"}, lb.UsageMetrics{AccountID: "ga1", MetricDate: "2025-03-31"}))
	})
	r.m(t, "Usage.Day.List", "a page of 2", func() error { return page(s.Usage.Day.List(c, lb.UsageMetrics{MetricDate: "2025-03-14"})).of(2) })
	r.m(t, "Usage.Day.All", "2 accounts, 1 page", func() error { return drain(2, s.Usage.Day.All(c, lb.UsageMetrics{MetricDate: "2025-03-14"})) })

	for _, p := range []lb.BillingPlan{
		{PlanID: "pro", PlanName: "Pro", PlanType: lb.PlanProfessional, Price: 4900, Currency: "USD", IsActive: true, Features: []string{"hourly"}},
		{PlanID: "free", PlanName: "Free", PlanType: lb.PlanFree, Price: 0, Currency: "USD", IsActive: true, IsDefault: true},
		{PlanID: "legacy", PlanName: "Legacy", PlanType: lb.PlanStarter, Price: 900, Currency: "USD", IsActive: false},
	} {
		r.once(t, "Plans.Put", "a new active plan", func() error { return s.Plans.Put(c, &p) })
	}
	r.m(t, "Plans.ByID.Get", "", func() error { _, err := s.Plans.ByID.Get(c, lb.BillingPlan{PlanID: "pro"}); return err })
	r.m(t, "Plans.Active.List", "a page of 2", func() error { return page(s.Plans.Active.List(c, lb.BillingPlan{})).of(2) })
	r.m(t, "Plans.Active.All", "2 plans, 1 page", func() error { return drain(2, s.Plans.Active.All(c, lb.BillingPlan{})) })
}
