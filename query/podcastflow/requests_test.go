package podcastflow_test

import (
	"context"
	"iter"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/internal/patterncost"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// drain iterates seq to its end.
func drain[T any](seq iter.Seq2[T, error]) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestRequestCosts measures one call of every PodcastFlow method that
// serves a catalog pattern (PF-1..PF-14) and holds each to the requests
// recorded in docs/patterns/podcastflow.requests.json (see
// patterncost.Costs): a method that starts to send one more request fails.
func TestRequestCosts_PF1_PF2_PF3_PF4_PF5_PF6_PF7_PF8_PF9_PF10_PF11_PF12_PF13_PF14(t *testing.T) {
	rc := &tabletest.RequestCounter{Capacity: true}
	meter := capacity.NewMeter(tabletest.Client(t))
	tb := tabletest.NewTable(t, podcastflow.Schema(""))
	metered := table.New(tabletest.NewClient(t, rc.Option(), meter.Option()), tb.Schema())
	s := podcastflow.New(metered)
	meter.Learn(metered)
	costs := &patterncost.Costs{App: "podcastflow", Root: "../..", Counter: rc, Meter: meter, Tables: []*table.Table{metered}}
	// A long deadline: the meter reads every item it charges, and a busy machine is slow.
	c, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	m := func(method, note string, fn func() error) { t.Helper(); costs.Measure(t, method, note, fn) }
	get := func(fn func() (any, error)) func() error { return func() error { _, err := fn(); return err } }

	// Setup: two organizations, three users, preferences, metrics and
	// billing records, through the store; the first write of each kind is
	// measured.
	m("Organizations.Create", "", func() error { return s.Organizations.Create(c, org("o1")) })
	mustCreateOrgs(t, s, "o2")
	m("Organizations.PutSettings", "new settings", func() error {
		return s.Organizations.PutSettings(c, &pf.OrganizationSettings{OrganizationID: "o1", AllowedDomains: []string{"o1.example.com"}, SSOEnabled: true})
	})
	m("Users.Create", "", func() error { return s.Users.Create(c, user("u1", "o1", pf.RoleAdmin)) })
	mustCreateUser(t, s, user("u2", "o1", pf.RoleTalent))
	mustCreateUser(t, s, user("u3", "o2", pf.RoleTalent))
	m("Users.PutPreferences", "new preferences", func() error {
		return s.Users.PutPreferences(c, &pf.UserPreferences{UserID: "u1", Theme: "dark", Language: "en"})
	})
	if err := s.Platform.InitSettings(c, platformSettings()); err != nil {
		t.Fatal(err)
	}
	g, om, bm := metricsOf(5, "o1")
	m("Analytics.PutGlobalMetrics", "5 days", func() error { return s.Analytics.PutGlobalMetrics(c, g...) })
	m("Analytics.PutOrganizationMetrics", "5 days of 1 organization", func() error { return s.Analytics.PutOrganizationMetrics(c, om...) })
	m("Billing.PutMetrics", "5 days", func() error { return s.Billing.PutMetrics(c, bm...) })
	for i := range 3 {
		if err := s.Billing.PutRecord(c, record("o1", day0.AddDays(i), pf.BillingPending)); err != nil {
			t.Fatal(err)
		}
	}
	from, to := day0, day0.AddDays(2)

	m("Users.Profile.Get", "", get(func() (any, error) { return s.Users.Profile.Get(c, pf.UserProfile{UserID: "u1"}) }))
	m("Users.GetByEmail", "", get(func() (any, error) { return s.Users.GetByEmail(c, "U1@Example.com") }))
	m("Users.RecordLogin", "", get(func() (any, error) { return s.Users.RecordLogin(c, "u1", time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)) }))
	m("Users.Update", "the name", get(func() (any, error) {
		return s.Users.Update(c, "u1", func(u *pf.UserProfile) error { u.Name = "Ada"; return nil })
	}))
	m("Users.Preferences.Get", "", get(func() (any, error) { return s.Users.Preferences.Get(c, pf.UserPreferences{UserID: "u1"}) }))
	m("Users.GetWithPreferences", "", get(func() (any, error) { return s.Users.GetWithPreferences(c, "u1") }))
	m("Users.AllUsers.List", "a page of 3", get(func() (any, error) { return s.Users.AllUsers.List(c, pf.UserProfile{}) }))
	m("Users.AllUsers.All", "3 users, 1 page", func() error { return drain(s.Users.AllUsers.All(c, pf.UserProfile{})) })
	m("Users.ByOrganization.List", "a page of 2", get(func() (any, error) { return s.Users.ByOrganization.List(c, pf.UserProfile{OrganizationID: "o1"}) }))
	m("Users.ByOrganization.All", "2 users, 1 page", func() error { return drain(s.Users.ByOrganization.All(c, pf.UserProfile{OrganizationID: "o1"})) })
	m("Users.ByRole.List", "a page of 2", get(func() (any, error) { return s.Users.ByRole.List(c, pf.UserProfile{Role: pf.RoleTalent}) }))
	m("Users.ByRole.All", "2 users, 1 page", func() error { return drain(s.Users.ByRole.All(c, pf.UserProfile{Role: pf.RoleTalent})) })
	m("Users.ChangeRole", "", get(func() (any, error) { return s.Users.ChangeRole(c, "u2", pf.RoleProducer) }))
	m("Users.SetStatus", "", get(func() (any, error) { return s.Users.SetStatus(c, "u2", pf.UserSuspended) }))
	m("Users.MoveToOrganization", "", get(func() (any, error) { return s.Users.MoveToOrganization(c, "u3", "o1") }))
	m("Users.Reindex", "", get(func() (any, error) { return s.Users.Reindex(c, "u1") }))

	m("Organizations.Profile.Get", "", get(func() (any, error) {
		return s.Organizations.Profile.Get(c, pf.OrganizationProfile{OrganizationID: "o1"})
	}))
	m("Organizations.Settings.Get", "", get(func() (any, error) {
		return s.Organizations.Settings.Get(c, pf.OrganizationSettings{OrganizationID: "o1"})
	}))
	m("Organizations.GetWithSettings", "", get(func() (any, error) { return s.Organizations.GetWithSettings(c, "o1") }))
	m("Organizations.AllOrganizations.List", "a page of 2", get(func() (any, error) { return s.Organizations.AllOrganizations.List(c, pf.OrganizationProfile{}) }))
	m("Organizations.AllOrganizations.All", "2 organizations, 1 page", func() error { return drain(s.Organizations.AllOrganizations.All(c, pf.OrganizationProfile{})) })
	m("Organizations.Update", "the name", get(func() (any, error) {
		return s.Organizations.Update(c, "o2", func(o *pf.OrganizationProfile) error { o.Name = "Org Two"; return nil })
	}))
	m("Organizations.SetStatus", "", get(func() (any, error) { return s.Organizations.SetStatus(c, "o2", pf.OrgSuspended) }))
	m("Organizations.Reindex", "", get(func() (any, error) { return s.Organizations.Reindex(c, "o1") }))

	m("Platform.Settings.Get", "", get(func() (any, error) { return s.Platform.Settings.Get(c, pf.PlatformSettings{}) }))
	m("Platform.UpdateSettings", "", get(func() (any, error) {
		return s.Platform.UpdateSettings(c, func(p *pf.PlatformSettings) error { p.SessionTimeout = 12; return nil })
	}))
	cur, err := s.Platform.Settings.Get(c, pf.PlatformSettings{})
	if err != nil {
		t.Fatal(err)
	}
	cur.MaxUploadSize = 600
	m("Platform.ReplaceSettings", "", func() error { return s.Platform.ReplaceSettings(c, &cur) })

	m("Analytics.GlobalMetrics.Get", "", get(func() (any, error) { return s.Analytics.GlobalMetrics.Get(c, pf.GlobalMetrics{Date: day0}) }))
	m("Analytics.GlobalMetrics.Between", "3 days", get(func() (any, error) {
		return s.Analytics.GlobalMetrics.Between(c, pf.GlobalMetrics{Date: from}, pf.GlobalMetrics{Date: to})
	}))
	m("Analytics.GlobalMetrics.AllBetween", "3 days, 1 page", func() error {
		return drain(s.Analytics.GlobalMetrics.AllBetween(c, pf.GlobalMetrics{Date: from}, pf.GlobalMetrics{Date: to}))
	})
	m("Analytics.OrganizationMetrics.Get", "", get(func() (any, error) {
		return s.Analytics.OrganizationMetrics.Get(c, pf.OrganizationMetrics{OrganizationID: "o1", Date: day0})
	}))
	m("Analytics.OrganizationMetrics.Between", "3 days", get(func() (any, error) {
		return s.Analytics.OrganizationMetrics.Between(c, pf.OrganizationMetrics{OrganizationID: "o1", Date: from}, pf.OrganizationMetrics{OrganizationID: "o1", Date: to})
	}))
	m("Analytics.OrganizationMetrics.AllBetween", "3 days, 1 page", func() error {
		return drain(s.Analytics.OrganizationMetrics.AllBetween(c, pf.OrganizationMetrics{OrganizationID: "o1", Date: from}, pf.OrganizationMetrics{OrganizationID: "o1", Date: to}))
	})

	m("Billing.Records.List", "a page of 3", get(func() (any, error) { return s.Billing.Records.List(c, pf.BillingRecord{OrganizationID: "o1"}) }))
	m("Billing.Records.All", "3 records, 1 page", func() error { return drain(s.Billing.Records.All(c, pf.BillingRecord{OrganizationID: "o1"})) })
	m("Billing.Records.Between", "3 records", get(func() (any, error) {
		return s.Billing.Records.Between(c, pf.BillingRecord{OrganizationID: "o1", Date: from}, pf.BillingRecord{OrganizationID: "o1", Date: to})
	}))
	m("Billing.Records.AllBetween", "3 records, 1 page", func() error {
		return drain(s.Billing.Records.AllBetween(c, pf.BillingRecord{OrganizationID: "o1", Date: from}, pf.BillingRecord{OrganizationID: "o1", Date: to}))
	})
	m("Billing.Records.Get", "", get(func() (any, error) {
		return s.Billing.Records.Get(c, pf.BillingRecord{OrganizationID: "o1", Date: day0})
	}))
	m("Billing.UpdateRecord", "the amount", get(func() (any, error) {
		return s.Billing.UpdateRecord(c, podcastflow.RecordRef{Org: "o1", Date: day0.AddDays(1)}, func(r *pf.BillingRecord) error { r.Amount = 599.99; return nil })
	}))
	m("Billing.SetRecordStatus", "", get(func() (any, error) {
		return s.Billing.SetRecordStatus(c, podcastflow.RecordRef{Org: "o1", Date: day0}, pf.BillingPaid)
	}))
	m("Billing.ReindexRecord", "", get(func() (any, error) { return s.Billing.ReindexRecord(c, podcastflow.RecordRef{Org: "o1", Date: day0}) }))
	m("Billing.PutRecord", "", func() error { return s.Billing.PutRecord(c, record("o2", day0, pf.BillingOverdue)) })
	m("Billing.Metrics.Get", "", get(func() (any, error) { return s.Billing.Metrics.Get(c, pf.BillingMetrics{Date: day0}) }))
	m("Billing.Metrics.Between", "3 days", get(func() (any, error) {
		return s.Billing.Metrics.Between(c, pf.BillingMetrics{Date: from}, pf.BillingMetrics{Date: to})
	}))
	m("Billing.Metrics.AllBetween", "3 days, 1 page", func() error {
		return drain(s.Billing.Metrics.AllBetween(c, pf.BillingMetrics{Date: from}, pf.BillingMetrics{Date: to}))
	})

	m("Statuses.List", "a page of the active", get(func() (any, error) { return s.Statuses.List(c, pf.EntityStatus("active")) }))
	m("Statuses.ListOfType", "active users", get(func() (any, error) {
		return s.Statuses.ListOfType(c, pf.EntityStatus("active"), pf.EntityUser)
	}))
	// Deletes last: a user with preferences, an organization with settings.
	m("Users.Delete", "with preferences", func() error { return s.Users.Delete(c, "u1") })
	m("Organizations.Delete", "with settings", func() error { return s.Organizations.Delete(c, "o1") })
	// Platform.InitSettings creates the settings once: measured on a
	// table of its own.
	s2 := podcastflow.New(table.New(tabletest.NewClient(t, rc.Option(), meter.Option()), tabletest.NewTable(t, podcastflow.Schema("")).Schema()))
	m("Platform.InitSettings", "", func() error { return s2.Platform.InitSettings(c, platformSettings()) })
	costs.Check(t)
}
