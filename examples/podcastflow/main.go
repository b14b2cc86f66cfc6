// Command podcastflow seeds a PodcastFlow Pro platform (organizations,
// users in every role, 30 days of metrics, billing records) in table
// podcastflow-pro and runs every access pattern of the catalog, PF-1 to
// PF-14, printing the results with their IDs.
//
//	go run ./examples/podcastflow
//
// It starts a DynamoDB Local for the run, or uses the one at
// DYNAMODB_ENDPOINT and keeps the data there (a second run finds the
// seed in place and reuses it).
package main

import (
	"context"
	"errors"
	"log"
	"os"
	"time"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/internal/exampleenv"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := runMain(ctx); err != nil {
		log.Fatal(err)
	}
}

// runMain opens the DynamoDB, creates the table, seeds it and runs every
// access pattern.
func runMain(ctx context.Context) error {
	client, keep, stop, err := exampleenv.Open(ctx)
	if err != nil {
		return err
	}
	defer stop()
	name := os.Getenv("PODCASTFLOW_TABLE") // the table name is configurable
	tbl, drop, err := exampleenv.Table(ctx, client, keep, podcastflow.Schema(name))
	if err != nil {
		return err
	}
	defer drop()
	s := podcastflow.New(tbl)
	today := pf.DateOf(time.Now())
	if err := seed(ctx, s, today); err != nil {
		return err
	}
	return run(ctx, s, today)
}

// ignoreExisting lets a second run against a kept table reuse the seed.
func ignoreExisting(err error) error {
	if errors.Is(err, table.ErrAlreadyExists) {
		return nil
	}
	return err
}

var orgs = []*pf.OrganizationProfile{
	{OrganizationID: "acme", Name: "Acme Audio", Domain: "acme.example", Plan: pf.PlanEnterprise, Status: pf.OrgActive,
		Features: []string{"analytics", "ads", "sso"}, Limits: map[string]int64{"maxUsers": 500, "storageGB": 2000}, CreatedBy: "mia"},
	{OrganizationID: "bayside", Name: "Bayside Podcasts", Domain: "bayside.example", Plan: pf.PlanProfessional, Status: pf.OrgActive,
		Features: []string{"analytics"}, Limits: map[string]int64{"maxUsers": 50}, CreatedBy: "mia"},
	{OrganizationID: "cove", Name: "Cove Studio", Domain: "cove.example", Plan: pf.PlanStarter, Status: pf.OrgTrial,
		Limits: map[string]int64{"maxUsers": 5}, CreatedBy: "mia"},
}

func users() []*pf.UserProfile {
	mk := func(id pf.UserID, role pf.Role, org pf.OrgID) *pf.UserProfile {
		return &pf.UserProfile{UserID: id, Email: string(id) + "@podcastflow.example", Name: string(id),
			Role: role, Status: pf.UserActive, OrganizationID: org}
	}
	return []*pf.UserProfile{
		mk("mia", pf.RoleMaster, ""),
		mk("ada", pf.RoleAdmin, "acme"), mk("sam", pf.RoleSeller, "acme"), mk("cal", pf.RoleClient, "acme"),
		mk("pia", pf.RoleProducer, "acme"), mk("tom", pf.RoleTalent, "acme"),
		mk("bea", pf.RoleAdmin, "bayside"), mk("sid", pf.RoleSeller, "bayside"), mk("tia", pf.RoleTalent, "bayside"),
		mk("cora", pf.RoleAdmin, "cove"), mk("pat", pf.RoleProducer, "cove"),
	}
}

func seed(ctx context.Context, s *podcastflow.Store, today pf.Date) error {
	for _, o := range orgs {
		if err := ignoreExisting(s.Organizations.Create(ctx, o)); err != nil {
			return err
		}
	}
	if err := s.Organizations.PutSettings(ctx, &pf.OrganizationSettings{OrganizationID: "acme",
		AllowedDomains: []string{"acme.example"}, RequireApproval: true, SSOEnabled: true,
		CustomBranding: map[string]any{"primaryColor": "#d9480f", "colors": map[string]any{"accent": "#0b7285"}}}); err != nil {
		return err
	}
	for _, u := range users() {
		if err := ignoreExisting(s.Users.Create(ctx, u)); err != nil {
			return err
		}
	}
	if err := s.Users.PutPreferences(ctx, &pf.UserPreferences{UserID: "sam", Notifications: pf.NotificationPrefs{Enabled: true},
		Theme: "dark", Language: "en", Timezone: "America/New_York"}); err != nil {
		return err
	}
	err := s.Platform.InitSettings(ctx, &pf.PlatformSettings{PlatformName: "PodcastFlow Pro",
		SupportEmail: "support@podcastflow.example", RegistrationEnabled: true, DefaultUserRole: pf.RoleClient,
		EnforceSSL: true, SessionTimeout: 8, PasswordMinLength: 12, EmailNotifications: true, SystemAlerts: true,
		MaxUploadSize: 500, StorageQuota: 100, BackupRetention: 30, RateLimitEnabled: true, RequestsPerMinute: 600})
	if err := ignoreExisting(err); err != nil {
		return err
	}

	// 30 days of metrics, written with BatchWriteItem.
	var global []*pf.GlobalMetrics
	var orgM []*pf.OrganizationMetrics
	var billM []*pf.BillingMetrics
	for i := range 30 {
		d := today.AddDays(i - 29)
		global = append(global, &pf.GlobalMetrics{Date: d, TotalUsers: 11, ActiveUsers: int64(5 + i%6),
			TotalOrganizations: 3, TotalRevenue: 2897 + float64(i)*10, StorageUsed: 1.2, APICalls: int64(40000 + 500*i),
			Uptime: 99.97, AvgResponseTime: 85 + float64(i%5)})
		billM = append(billM, &pf.BillingMetrics{Date: d, TotalRevenue: 2897 + float64(i)*10, MonthlyRecurring: 2897,
			OverdueAmount: 99, ChurnRate: 1.2})
		for j, o := range orgs {
			orgM = append(orgM, &pf.OrganizationMetrics{OrganizationID: o.OrganizationID, Date: d, Users: int64(5 - j),
				Revenue: []float64{1999, 799, 99}[j], Plan: o.Plan, StorageUsed: float64(100 * (3 - j)),
				APICalls: int64(1000 * (i + 1)), ActiveUsers: int64(3 - j)})
		}
	}
	if err := s.Analytics.PutGlobalMetrics(ctx, global...); err != nil {
		return err
	}
	if err := s.Analytics.PutOrganizationMetrics(ctx, orgM...); err != nil {
		return err
	}
	if err := s.Billing.PutMetrics(ctx, billM...); err != nil {
		return err
	}
	// Three monthly billing records per organization; cove's last is overdue.
	first := pf.DateOf(time.Date(today.Time().Year(), today.Time().Month(), 1, 0, 0, 0, 0, time.UTC))
	for _, o := range orgs {
		for m := range 3 {
			d := pf.DateOf(first.Time().AddDate(0, m-2, 0))
			st := pf.BillingPaid
			if m == 2 {
				st = pf.BillingPending
				if o.OrganizationID == "cove" {
					st = pf.BillingOverdue
				}
			}
			r := &pf.BillingRecord{OrganizationID: o.OrganizationID, Date: d, OrganizationName: o.Name, Plan: o.Plan,
				Amount: map[pf.Plan]float64{pf.PlanEnterprise: 1999, pf.PlanProfessional: 799, pf.PlanStarter: 99}[o.Plan],
				Status: st, DueDate: d.Time().AddDate(0, 0, 14),
				InvoiceURL: "https://billing.podcastflow.example/" + string(o.OrganizationID) + "/" + string(d) + ".pdf"}
			if err := s.Billing.PutRecord(ctx, r); err != nil {
				return err
			}
		}
	}
	return nil
}
