// Command listbackup walks ListBackup's data layer on one table against
// DynamoDB (DynamoDB Local unless DYNAMODB_ENDPOINT is set): it seeds an
// account tree, users, sources, jobs, activities, notifications,
// schedules, usage and plans, runs every access pattern LB-1..LB-62, then
// the writes LB-63..LB-68 (updates, soft deletes, a subtree move, an
// erasure) and a tenant-scoped view, printing each with its catalog ID
// and result; then ListBackup's job queue on the table's stream (LB-84).
//
//	go run ./examples/listbackup
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/internal/exampleenv"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := run(ctx); err != nil {
		log.Fatal(err)
	}
}

func step(id, what string, result any) { fmt.Printf("%-6s %-52s %v\n", id, what, result) }

func run(ctx context.Context) error {
	client, keep, stop, err := exampleenv.Open(ctx)
	if err != nil {
		return err
	}
	defer stop()
	// Secrets are encrypted before they reach DynamoDB (exampleenv's cipher).
	t, drop, err := exampleenv.Table(ctx, client, keep, listbackup.Schema(listbackup.TableName))
	if err != nil {
		return err
	}
	defer drop()
	s := listbackup.New(t)
	now := time.Now().UTC()
	today := lb.DateOf(now)
	if err := seed(ctx, s, now, today); err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	for _, part := range []func(context.Context, *listbackup.Store, time.Time, lb.Date) error{users, accounts, sources, tokens, rest, writes, queue} {
		if err := part(ctx, s, now, today); err != nil {
			return err
		}
	}
	return nil
}

func seed(ctx context.Context, s *listbackup.Store, now time.Time, today lb.Date) error {
	for _, a := range []lb.Account{
		{AccountID: "acme", AccountName: "Acme Holdings", AccountPath: "/acme/", AccountType: lb.AccountConglomerate, Plan: lb.PlanEnterprise},
		{AccountID: "acme-eu", AccountName: "Acme EU", ParentAccountID: "acme", AccountPath: "/acme/eu/", AccountType: lb.AccountSubsidiary, Level: 1},
		{AccountID: "acme-eu-retail", AccountName: "Retail", ParentAccountID: "acme-eu", AccountPath: "/acme/eu/retail/", AccountType: lb.AccountDivision, Level: 2},
		{AccountID: "acme-paris", AccountName: "Paris", ParentAccountID: "acme-eu-retail", AccountPath: "/acme/eu/retail/paris/", AccountType: lb.AccountLocation, Level: 3},
	} {
		if err := s.Accounts.Create(ctx, &a); err != nil {
			return err
		}
	}
	if err := s.Users.Create(ctx, &lb.User{UserID: "ada", Email: "Ada@Acme.example", Username: "ada", Name: "Ada", AccountID: "acme",
		MFAEnabled: true, MFASecret: "JBSWY3DPEHPK3PXP"}); err != nil {
		return err
	}
	for _, m := range []lb.Membership{{UserID: "ada", AccountID: "acme", Role: lb.MemberOwner, IsDefault: true}, {UserID: "ada", AccountID: "acme-eu", Role: lb.MemberAdmin}} {
		if err := s.Memberships.Add(ctx, &m); err != nil {
			return err
		}
	}
	if err := s.Teams.Create(ctx, &lb.Team{AccountID: "acme", TeamID: "ops", TeamName: "Ops"}); err != nil {
		return err
	}
	for _, src := range []lb.Source{
		{AccountID: "acme", SourceID: "keap-1", SourceName: "Keap CRM", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth, Credentials: lb.SourceCredentials{Type: "oauth", Data: "secret"}},
		{AccountID: "acme", SourceID: "stripe-1", SourceName: "Stripe", Platform: lb.PlatformStripe, ConnectionType: lb.ConnAPIKey, Status: lb.SourcePaused},
	} {
		if err := s.Sources.Create(ctx, &src); err != nil {
			return err
		}
	}
	for i := range 3 {
		if err := s.Jobs.Create(ctx, &lb.Job{AccountID: "acme", JobID: lb.JobID(fmt.Sprintf("job-%d", i)), JobType: lb.JobBackup, SourceID: "keap-1",
			CreatedAt: now.Add(time.Duration(i) * time.Minute)}); err != nil {
			return err
		}
		if err := s.Activities.Record(ctx, &lb.Activity{AccountID: "acme", UserID: "ada", EventType: "sync.completed", ResourceType: lb.ResSource,
			ResourceID: "keap-1", Action: lb.ActionSync, CreatedAt: now.Add(time.Duration(i) * time.Minute)}); err != nil {
			return err
		}
		if err := s.Notifications.Send(ctx, &lb.Notification{UserID: "ada", AccountID: "acme", Type: lb.NotifyInApp, Category: lb.CategoryJob,
			Message: fmt.Sprintf("backup %d done", i), CreatedAt: now.Add(time.Duration(i) * time.Minute)}); err != nil {
			return err
		}
	}
	if err := s.Connections.Create(ctx, &lb.Connection{ConnectionID: "conn-1", AccountID: "acme", UserID: "ada", Platform: lb.PlatformKeap,
		ConnectionType: lb.ConnOAuth, Credentials: lb.ConnectionCredentials{AccessToken: "at", RefreshToken: "rt"}}); err != nil {
		return err
	}
	if err := s.Schedules.Create(ctx, &lb.SyncSchedule{SourceID: "keap-1", ScheduleID: "hourly", ScheduleType: lb.ScheduleHourly,
		DataTypes: []string{"contacts"}, IsActive: true, NextRunAt: now.Add(-time.Minute)}); err != nil {
		return err
	}
	if err := s.Usage.Put(ctx, &lb.UsageMetrics{AccountID: "acme-eu", MetricDate: today, APICalls: 12}); err != nil {
		return err
	}
	for _, p := range []lb.BillingPlan{
		{PlanID: "free", PlanName: "Free", PlanType: lb.PlanFree, Currency: "USD", IsActive: true, IsDefault: true},
		{PlanID: "pro", PlanName: "Pro", PlanType: lb.PlanProfessional, Price: 4900, Currency: "USD", IsActive: true},
		{PlanID: "legacy", PlanName: "Legacy", PlanType: lb.PlanStarter, Price: 900, Currency: "USD"},
	} {
		if err := s.Plans.Put(ctx, &p); err != nil {
			return err
		}
	}
	return nil
}

func n[T any](p table.Page[T], err error) any {
	if err != nil {
		return err
	}
	return fmt.Sprintf("%d items", len(p.Items))
}

func users(ctx context.Context, s *listbackup.Store, _ time.Time, _ lb.Date) error {
	u, err := s.Users.ByID.Get(ctx, lb.User{UserID: "ada"})
	if err != nil {
		return err
	}
	step("LB-1", "get user by ID", u.Email)
	u, err = s.Users.GetByEmail(ctx, "ada@acme.example")
	step("LB-2", "get user by email (normalized, unique)", u.UserID)
	if err != nil {
		return err
	}
	u, err = s.Users.GetByUsername(ctx, "ADA")
	step("LB-3", "get user by username (unique)", u.UserID)
	if err != nil {
		return err
	}
	name := "Ada Lovelace"
	u, err = s.Users.UpdateProfile(ctx, "ada", listbackup.ProfileChange{Name: &name})
	step("LB-4", "update user profile", u.Name)
	dup := s.Users.Create(ctx, &lb.User{UserID: "eve", Email: "ADA@acme.example"})
	step("LB-2", "duplicate email refused", errors.Is(dup, table.ErrUniqueViolation))
	return err
}

func accounts(ctx context.Context, s *listbackup.Store, _ time.Time, _ lb.Date) error {
	a, err := s.Accounts.ByID.Get(ctx, lb.Account{AccountID: "acme-eu"})
	step("LB-5", "get account by ID", a.AccountPath)
	step("LB-6", "children of acme-eu (divisions)", n(s.Accounts.Children.List(ctx, lb.Account{ParentAccountID: "acme-eu", AccountType: lb.AccountDivision})))
	step("LB-7", "accounts of type location", n(s.Accounts.ByType.List(ctx, lb.Account{AccountType: lb.AccountLocation})))
	step("LB-8", "subtree under /acme/eu/", n(s.Accounts.Subtree.List(ctx, lb.Account{AccountPath: "/acme/eu/"})))
	step("LB-9", "accounts of user ada", n(s.Memberships.ByUser.List(ctx, lb.Membership{UserID: "ada"})))
	step("LB-10", "admins of acme-eu", n(s.Memberships.ByAccount.List(ctx, lb.Membership{AccountID: "acme-eu", Role: lb.MemberAdmin})))
	m, err2 := s.Memberships.ByID.Get(ctx, lb.Membership{UserID: "ada", AccountID: "acme"})
	step("LB-11", "ada's membership in acme", m.Role)
	step("LB-12", "teams of acme", n(s.Teams.ByAccount.List(ctx, lb.Team{AccountID: "acme"})))
	tm, err3 := s.Teams.ByID.Get(ctx, lb.Team{TeamID: "ops"})
	step("LB-13", "team by ID", tm.TeamName)
	return errors.Join(err, err2, err3)
}

func sources(ctx context.Context, s *listbackup.Store, now time.Time, _ lb.Date) error {
	src, err := s.Sources.ByID.Get(ctx, lb.Source{SourceID: "keap-1"})
	step("LB-14", "source by ID (credentials decrypted)", src.SourceName)
	step("LB-15", "sources of acme", n(s.Sources.ByAccount.List(ctx, lb.Source{AccountID: "acme"})))
	step("LB-16", "sources of acme on stripe", n(s.Sources.ByPlatform.List(ctx, lb.Source{AccountID: "acme", Platform: lb.PlatformStripe})))
	step("LB-17", "paused sources of acme", n(s.Sources.ByStatus.List(ctx, lb.Source{AccountID: "acme", Status: lb.SourcePaused})))
	// A request handler gets one account's view: another account's IDs are
	// not found there, whatever the handler forgets to check.
	other, errScope := s.ForAccount("someone-else")
	if errScope != nil {
		return errScope
	}
	_, errFor := other.Sources.ByID.Get(ctx, lb.Source{SourceID: "keap-1"})
	step("scope", "acme's source through another account's scope", errFor)
	if !errors.Is(errFor, table.ErrNotFound) {
		return fmt.Errorf("another account's scope reached acme's source: %v", errFor)
	}
	// in returns the bounds of the last hour for an activity with base's partition fields.
	in := func(base lb.Activity) (lb.Activity, lb.Activity) {
		from, to := base, base
		from.CreatedAt, to.CreatedAt = now.Add(-time.Hour), now.Add(time.Hour)
		return from, to
	}
	from, to := in(lb.Activity{AccountID: "acme"})
	step("LB-18", "activities of acme, last hour, newest first", n(s.Activities.ByAccount.Between(ctx, from, to, table.Limit(50))))
	from, to = in(lb.Activity{UserID: "ada"})
	step("LB-19", "activities of ada", n(s.Activities.ByUser.Between(ctx, from, to)))
	from, to = in(lb.Activity{AccountID: "acme", ResourceType: lb.ResSource})
	step("LB-20", "activities on sources", n(s.Activities.ByResourceType.Between(ctx, from, to)))
	from, to = in(lb.Activity{AccountID: "acme", EventType: "sync.completed"})
	step("LB-21", "sync.completed activities", n(s.Activities.ByEventType.Between(ctx, from, to)))
	step("LB-22", "activity retention", lb.ActivityRetention)
	step("LB-23", "jobs of acme, newest first", n(s.Jobs.ByAccount.List(ctx, lb.Job{AccountID: "acme"})))
	jb, err2 := s.Jobs.ByID.Get(ctx, lb.Job{JobID: "job-1"})
	step("LB-24", "job by ID", jb.Status)
	step("LB-25", "pending jobs of acme", n(s.Jobs.ByStatus.List(ctx, lb.Job{AccountID: "acme", Status: lb.JobPending})))
	step("LB-26", "jobs of keap-1 by creation, newest first", n(s.Jobs.BySource.List(ctx, lb.Job{SourceID: "keap-1"}, table.Desc())))
	c, err3 := s.Connections.ByID.Get(ctx, lb.Connection{ConnectionID: "conn-1"})
	step("LB-27", "connection by ID", c.Platform)
	step("LB-28", "keap connections of acme", n(s.Connections.ByAccountPlatform.List(ctx, lb.Connection{AccountID: "acme", Platform: lb.PlatformKeap})))
	step("LB-29", "keap connections of ada", n(s.Connections.ByUserPlatform.List(ctx, lb.Connection{UserID: "ada", Platform: lb.PlatformKeap})))
	return errors.Join(err, err2, err3)
}

func tokens(ctx context.Context, s *listbackup.Store, _ time.Time, _ lb.Date) error {
	st, err := s.OAuthStates.Create(ctx, listbackup.NewOAuthState{AccountID: "acme", UserID: "ada", Platform: lb.PlatformKeap, RedirectURI: "https://app.example/cb"})
	if err != nil {
		return err
	}
	step("LB-30", "create OAuth state (15 min)", st.ExpiresAt.Sub(st.CreatedAt).Round(time.Minute))
	var wins int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			if _, err := s.OAuthStates.Consume(ctx, st.State); err == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	step("LB-31", "consume OAuth state, 5 racing callbacks: winners", wins)
	if err := s.OAuthTokens.Save(ctx, &lb.OAuthToken{SourceID: "keap-1", AccountID: "acme", Platform: lb.PlatformKeap,
		Tokens: lb.OAuthTokenSet{AccessToken: "a1", RefreshToken: "r1"}}); err != nil {
		return err
	}
	tk, err := s.OAuthTokens.Refresh(ctx, "keap-1", lb.OAuthTokenSet{AccessToken: "a2"})
	step("LB-32", "refresh tokens of keap-1 (encrypted at rest)", tk.Tokens.AccessToken)
	step("LB-33", "OAuth tokens of acme on keap", n(s.OAuthTokens.ByPlatform.List(ctx, lb.OAuthToken{AccountID: "acme", Platform: lb.PlatformKeap})))
	plain, rt, err2 := s.RefreshTokens.Issue(ctx, listbackup.IssueInput{UserID: "ada", AccountID: "acme"})
	if err2 != nil {
		return err2
	}
	got, err3 := s.RefreshTokens.GetByToken(ctx, plain)
	step("LB-34", "refresh token by hash", got.TokenFamily == rt.TokenFamily)
	step("LB-35", "refresh tokens of ada", n(s.RefreshTokens.ByUser.List(ctx, lb.RefreshToken{UserID: "ada"})))
	_, _, err4 := s.RefreshTokens.Rotate(ctx, plain, "cli", "")
	step("LB-37", "rotate refresh token", err4 == nil)
	_, _, reuse := s.RefreshTokens.Rotate(ctx, plain, "attacker", "")
	step("LB-37", "reuse of rotated token", errors.Is(reuse, listbackup.ErrTokenReused))
	fam, err5 := s.RefreshTokens.Family.List(ctx, lb.RefreshToken{TokenFamily: rt.TokenFamily})
	revoked := 0
	for _, r := range fam.Items {
		if r.Revoked {
			revoked++
		}
	}
	step("LB-36", "family revoked after reuse", fmt.Sprintf("%d of %d", revoked, len(fam.Items)))
	return errors.Join(err, err3, err4, err5)
}

func rest(ctx context.Context, s *listbackup.Store, now time.Time, today lb.Date) error {
	tag := lb.Tag{AccountID: "acme", TagKey: "env", TagValue: "production", ResourceType: lb.ResSource}
	if err := s.Tags.Create(ctx, &tag); err != nil {
		return err
	}
	step("LB-38", "tags of acme on sources", n(s.Tags.ByResourceType.List(ctx, lb.Tag{AccountID: "acme", ResourceType: lb.ResSource})))
	step("LB-39", "tags with key env", n(s.Tags.ByKey.List(ctx, lb.Tag{AccountID: "acme", ResourceType: lb.ResSource, TagKey: "env"})))
	tg, err := s.Tags.Get(ctx, tag.TagID)
	step("LB-40", "tag by ID", tg.TagValue)
	tg, err2 := s.Tags.Attach(ctx, listbackup.TagRef{AccountID: "acme", ResourceType: lb.ResSource, TagKey: "env", TagValue: "production"}, "keap-1", "ada")
	step("LB-41", "attach keap-1 to env=production", len(tg.Resources))
	p, err3 := s.Notifications.ByUser.List(ctx, lb.Notification{UserID: "ada"})
	step("LB-42", "notifications of ada, newest first", n(p, err3))
	step("LB-43", "notifications of acme, last hour", n(s.Notifications.ByAccount.Between(ctx, lb.Notification{AccountID: "acme", CreatedAt: now.Add(-time.Hour)}, lb.Notification{AccountID: "acme", CreatedAt: now.Add(time.Hour)})))
	step("LB-44", "unread notifications of ada", n(s.Notifications.Unread.List(ctx, lb.Notification{UserID: "ada"})))
	var err4 error
	if len(p.Items) > 0 {
		var nt lb.Notification
		nt, err4 = s.Notifications.MarkRead(ctx, listbackup.NotificationRef{UserID: "ada", CreatedAt: p.Items[0].CreatedAt, NotificationID: p.Items[0].NotificationID})
		step("LB-45", "mark notification read", nt.Status)
	}
	step("LB-46", "notification retention", lb.NotificationRetention)
	step("LB-47", "schedules of keap-1", n(s.Schedules.BySource.List(ctx, lb.SyncSchedule{SourceID: "keap-1"})))
	step("LB-48", "schedules due now", n(s.Schedules.Due(ctx, now)))
	sc, err5 := s.Schedules.RecordRun(ctx, "keap-1", "hourly", now, now.Add(time.Hour))
	step("LB-49", "record run, next run", sc.NextRunAt.Format(time.RFC3339))
	run := lb.SyncRun{SourceID: "keap-1", DataTypes: []string{"contacts"}, RecordsProcessed: map[string]int64{}, StartedAt: now.Add(-time.Minute)}
	err6 := s.Runs.Record(ctx, &run)
	_, err7 := s.Runs.Finish(ctx, run.SourceID, run.StartedAt, run.SyncID, lb.RunFailed, nil, []string{"rate limited"})
	step("LB-50", "sync runs of keap-1", n(s.Runs.BySource.List(ctx, lb.SyncRun{SourceID: "keap-1"})))
	step("LB-51", "failed runs in the last day, oldest first", n(s.Runs.ListByStatus(ctx, lb.RunFailed, listbackup.TimeRange{From: now.Add(-24 * time.Hour)}, table.Asc())))
	key, k, err8 := s.APIKeys.Create(ctx, listbackup.NewAPIKey{AccountID: "acme", UserID: "ada", Name: "ci", Permissions: []string{"sources:read"}})
	v, err9 := s.APIKeys.Validate(ctx, key)
	step("LB-52", "validate API key by hash", v.Name)
	step("LB-53", "active API keys of acme", n(s.APIKeys.ByAccount.List(ctx, lb.APIKey{AccountID: "acme", Status: lb.KeyActive})))
	_, err10 := s.APIKeys.Revoke(ctx, k.APIKeyID)
	_, inactive := s.APIKeys.Validate(ctx, key)
	step("LB-54", "revoked key refused", errors.Is(inactive, listbackup.ErrKeyInactive))
	hook := lb.Webhook{AccountID: "acme", URL: "https://hooks.example/lb", Events: []string{"sync.completed"}, IsActive: true, Secret: "whsec"}
	err11 := s.Webhooks.Create(ctx, &hook)
	h, err12 := s.Webhooks.ByID.Get(ctx, lb.Webhook{WebhookID: hook.WebhookID})
	step("LB-55", "webhook by ID", h.URL)
	step("LB-56", "active webhooks of acme", n(s.Webhooks.Active.List(ctx, lb.Webhook{AccountID: "acme"})))
	step("LB-57", "active webhooks for sync.completed", n(s.Webhooks.ActiveForEvent.List(ctx, lb.Webhook{AccountID: "acme", Events: []string{string("sync.completed")}})))
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			_, _ = s.Usage.Increment(ctx, "acme", today, map[lb.Counter]int64{lb.CounterAPICalls: 1})
		})
	}
	wg.Wait()
	m, err13 := s.Usage.Metrics.Get(ctx, lb.UsageMetrics{AccountID: "acme", MetricDate: today})
	step("LB-61", "10 concurrent increments, apiCalls", m.APICalls)
	step("LB-58", "usage of acme today", m.MetricDate)
	step("LB-59", "usage of acme this month", n(s.Usage.Range.Between(ctx, lb.UsageMetrics{AccountID: "acme", MetricDate: today[:8] + "01"}, lb.UsageMetrics{AccountID: "acme", MetricDate: today})))
	step("LB-60", "usage of all accounts today", n(s.Usage.Day.List(ctx, lb.UsageMetrics{MetricDate: today})))
	pl, err14 := s.Plans.ByID.Get(ctx, lb.BillingPlan{PlanID: "pro"})
	step("LB-62", "plan by ID", pl.PlanName)
	step("LB-62", "active plans, no Scan", n(s.Plans.Active.List(ctx, lb.BillingPlan{})))
	return errors.Join(err, err2, err4, err5, err6, err7, err8, err9, err10, err11, err12, err13, err14)
}

// writes shows the changes ListBackup's store makes beyond creates
// (LB-63..LB-68): updates, soft deletes, a subtree move and an erasure.
func writes(ctx context.Context, s *listbackup.Store, _ time.Time, _ lb.Date) error {
	a, err := s.Accounts.Update(ctx, "acme-paris", func(a *lb.Account) error { a.AccountName = "Paris Opera"; return nil })
	step("LB-63", "account renamed", a.AccountName)
	moved, err2 := s.Accounts.Move(ctx, "acme-eu-retail", "acme")
	paris, err3 := s.Accounts.ByID.Get(ctx, lb.Account{AccountID: "acme-paris"})
	step("LB-63", "retail moved under acme; paris's path follows", moved.AccountPath+" "+paris.AccountPath)
	step("LB-63", "account with live children cannot be deleted", errors.Is(s.Accounts.Delete(ctx, "acme-eu-retail"), table.ErrConflict))
	err4 := s.Accounts.Delete(ctx, "acme-paris")
	_, gone := s.Accounts.ByID.Get(ctx, lb.Account{AccountID: "acme-paris"})
	step("LB-63", "leaf account soft-deleted, then not found", errors.Is(gone, table.ErrNotFound))

	err5 := s.Teams.Create(ctx, &lb.Team{AccountID: "acme", TeamID: "night", TeamName: "Night shift",
		Members: []lb.TeamMember{{UserID: "ada", Role: lb.TeamRoleMember}}})
	tm, err6 := s.Teams.SetMemberRole(ctx, "night", "ada", lb.TeamRoleLead)
	step("LB-64", "ada leads the night shift", tm.Members[0].Role)
	err7 := s.Teams.Delete(ctx, "night")

	src, err8 := s.Sources.Update(ctx, "keap-1", func(x *lb.Source) error { x.SourceName = "Keap (main)"; return nil })
	step("LB-65", "source renamed", src.SourceName)
	err9 := s.Connections.Delete(ctx, "conn-1")
	_, connGone := s.Connections.ByID.Get(ctx, lb.Connection{ConnectionID: "conn-1"})
	step("LB-65", "connection soft-deleted (tokens dropped)", errors.Is(connGone, table.ErrNotFound))

	tag := lb.Tag{AccountID: "acme", TagKey: "tier", TagValue: "gold", ResourceType: lb.ResSource}
	err10 := s.Tags.Create(ctx, &tag)
	ref := listbackup.TagRef{AccountID: "acme", ResourceType: lb.ResSource, TagKey: "tier", TagValue: "gold"}
	tg, err11 := s.Tags.Update(ctx, ref, func(x *lb.Tag) error { x.Color = "#ffd700"; return nil })
	step("LB-66", "tag recoloured, then deleted", tg.Color)
	err12 := s.Tags.Delete(ctx, ref)

	hook := lb.Webhook{AccountID: "acme", URL: "https://hooks.example/old", Events: []string{"sync.failed"}, IsActive: true, Secret: "whsec2"}
	err13 := s.Webhooks.Create(ctx, &hook)
	err14 := s.Webhooks.Delete(ctx, hook.WebhookID)
	active, err15 := s.Webhooks.Active.List(ctx, lb.Webhook{AccountID: "acme"})
	step("LB-67", "webhook soft-deleted; active webhooks of acme", len(active.Items))

	err16 := s.Memberships.Remove(ctx, "ada", "acme-eu")
	step("LB-68", "ada removed from acme-eu; her memberships", n(s.Memberships.ByUser.List(ctx, lb.Membership{UserID: "ada"})))
	err17 := s.Users.Create(ctx, &lb.User{UserID: "leaver", Email: "leaver@acme.example", Username: "leaver", Name: "Leaver", AccountID: "acme"})
	err18 := s.Memberships.Add(ctx, &lb.Membership{UserID: "leaver", AccountID: "acme", Role: lb.MemberViewer})
	err19 := s.Users.Erase(ctx, "leaver")
	_, erased := s.Users.GetByEmail(ctx, "leaver@acme.example")
	step("LB-68", "leaver erased, email free again", errors.Is(erased, table.ErrNotFound))
	return errors.Join(err, err2, err3, err4, err5, err6, err7, err8, err9, err10, err11, err12, err13, err14, err15, err16, err17, err18, err19)
}
