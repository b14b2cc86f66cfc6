package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
)

func ids(us []pf.UserProfile) string {
	var out []string
	for _, u := range us {
		out = append(out, string(u.UserID)+"("+string(u.Role)+")")
	}
	return strings.Join(out, " ")
}

func run(ctx context.Context, s *podcastflow.Store, today pf.Date) error {
	u, err := s.Users.Profile.Get(ctx, pf.UserProfile{UserID: "sam"})
	if err != nil {
		return err
	}
	fmt.Printf("PF-1  user sam: %s <%s> role=%s status=%s org=%s\n", u.Name, u.Email, u.Role, u.Status, u.OrganizationID)
	if u, err = s.Users.RecordLogin(ctx, "sam", time.Now()); err != nil {
		return err
	}
	fmt.Printf("      lastLogin recorded: %s\n", u.LastLogin.Format(time.RFC3339))

	p, err := s.Users.Preferences.Get(ctx, pf.UserPreferences{UserID: "sam"})
	if err != nil {
		return err
	}
	fmt.Printf("PF-2  preferences of sam: theme=%s language=%s timezone=%s notifications=%v\n", p.Theme, p.Language, p.Timezone, p.Notifications)

	both, err := s.Users.GetWithPreferences(ctx, "sam")
	if err != nil {
		return err
	}
	fmt.Printf("PF-3  sam with preferences (one Query): %s, theme %s\n", both.Profile.Name, both.Preferences.Theme)

	page, err := s.Users.AllUsers.List(ctx, pf.UserProfile{}, table.Limit(4))
	if err != nil {
		return err
	}
	fmt.Printf("PF-4  all users, first page of 4: %s (more: %v)\n", ids(page.Items), page.More())
	n := 0
	for _, err := range s.Users.AllUsers.All(ctx, pf.UserProfile{}, table.Limit(4)) {
		if err != nil {
			return err
		}
		n++
	}
	fmt.Printf("      all users by iterator: %d\n", n)

	o, err := s.Organizations.GetWithSettings(ctx, "acme")
	if err != nil {
		return err
	}
	fmt.Printf("PF-5  organization acme: %s plan=%s status=%s features=%v; settings sso=%v approval=%v\n",
		o.Profile.Name, o.Profile.Plan, o.Profile.Status, o.Profile.Features, o.Settings.SSOEnabled, o.Settings.RequireApproval)

	var names []string
	for org, err := range s.Organizations.AllOrganizations.All(ctx, pf.OrganizationProfile{}, table.Limit(2)) {
		if err != nil {
			return err
		}
		names = append(names, string(org.OrganizationID)+"("+string(org.Status)+")")
	}
	fmt.Printf("PF-6  all organizations: %s\n", strings.Join(names, " "))

	ps, err := s.Platform.Settings.Get(ctx, pf.PlatformSettings{})
	if err != nil {
		return err
	}
	fmt.Printf("PF-7  platform settings v%d: %s, maintenance=%v\n", ps.Version, ps.PlatformName, ps.MaintenanceMode)
	stale := ps
	ps.MaintenanceMode = !ps.MaintenanceMode
	if err := s.Platform.ReplaceSettings(ctx, &ps); err != nil {
		return err
	}
	stale.RequireMFA = true
	err = s.Platform.ReplaceSettings(ctx, &stale)
	fmt.Printf("      replaced -> v%d maintenance=%v; a stale replace: conflict=%v\n", ps.Version, ps.MaintenanceMode, errors.Is(err, table.ErrConflict))

	g, err := s.Analytics.GlobalMetrics.Get(ctx, pf.GlobalMetrics{Date: today})
	if err != nil {
		return err
	}
	fmt.Printf("PF-8  global metrics %s: users=%d active=%d revenue=%.2f uptime=%.2f%%\n", g.Date, g.TotalUsers, g.ActiveUsers, g.TotalRevenue, g.Uptime)
	gr, err := s.Analytics.GlobalMetrics.Between(ctx, pf.GlobalMetrics{Date: today.AddDays(-6)}, pf.GlobalMetrics{Date: today})
	if err != nil {
		return err
	}
	fmt.Printf("      last 7 days: %d days, %s .. %s\n", len(gr.Items), gr.Items[0].Date, gr.Items[len(gr.Items)-1].Date)

	om, err := s.Analytics.OrganizationMetrics.Get(ctx, pf.OrganizationMetrics{OrganizationID: "bayside", Date: today})
	if err != nil {
		return err
	}
	fmt.Printf("PF-9  bayside metrics %s: users=%d revenue=%.2f apiCalls=%d\n", om.Date, om.Users, om.Revenue, om.APICalls)
	var calls int64
	days := 0
	for m, err := range s.Analytics.OrganizationMetrics.AllBetween(ctx, pf.OrganizationMetrics{OrganizationID: "bayside", Date: today.AddDays(-29)}, pf.OrganizationMetrics{OrganizationID: "bayside", Date: today}, table.Limit(10)) {
		if err != nil {
			return err
		}
		calls += m.APICalls
		days++
	}
	fmt.Printf("      bayside over 30 days: %d days, %d API calls\n", days, calls)

	var recs []string
	for r, err := range s.Billing.Records.All(ctx, pf.BillingRecord{OrganizationID: "cove"}) {
		if err != nil {
			return err
		}
		recs = append(recs, fmt.Sprintf("%s %s %.2f", r.Date, r.Status, r.Amount))
	}
	fmt.Printf("PF-10 cove billing records: %s\n", strings.Join(recs, "; "))
	rb, err := s.Billing.Records.Between(ctx, pf.BillingRecord{OrganizationID: "acme", Date: today.AddDays(-40)}, pf.BillingRecord{OrganizationID: "acme", Date: today})
	if err != nil {
		return err
	}
	fmt.Printf("      acme records of the last 40 days: %d\n", len(rb.Items))

	bm, err := s.Billing.Metrics.Get(ctx, pf.BillingMetrics{Date: today})
	if err != nil {
		return err
	}
	fmt.Printf("PF-11 billing metrics %s: revenue=%.2f mrr=%.2f overdue=%.2f churn=%.1f%%\n", bm.Date, bm.TotalRevenue, bm.MonthlyRecurring, bm.OverdueAmount, bm.ChurnRate)
	bmr, err := s.Billing.Metrics.Between(ctx, pf.BillingMetrics{Date: today.AddDays(-13)}, pf.BillingMetrics{Date: today})
	if err != nil {
		return err
	}
	fmt.Printf("      last 14 days: %d days\n", len(bmr.Items))

	ou, err := s.Users.ByOrganization.List(ctx, pf.UserProfile{OrganizationID: "acme"})
	if err != nil {
		return err
	}
	fmt.Printf("PF-12 users of acme: %s\n", ids(ou.Items))
	if _, err := s.Users.MoveToOrganization(ctx, "tom", "bayside"); err != nil {
		return err
	}
	ou, _ = s.Users.ByOrganization.List(ctx, pf.UserProfile{OrganizationID: "bayside"})
	fmt.Printf("      tom moved to bayside: %s\n", ids(ou.Items))
	defer s.Users.MoveToOrganization(ctx, "tom", "acme") //nolint:errcheck // restore the seed for the next run

	for _, r := range pf.Roles.Values() {
		ru, err := s.Users.ByRole.List(ctx, pf.UserProfile{Role: r})
		if err != nil {
			return err
		}
		fmt.Printf("PF-13 %-8s %s\n", r+":", ids(ru.Items))
	}
	if _, err := s.Users.ChangeRole(ctx, "sid", pf.RoleProducer); err != nil {
		return err
	}
	ru, _ := s.Users.ByRole.List(ctx, pf.UserProfile{Role: pf.RoleProducer})
	fmt.Printf("      sid promoted to producer: %s\n", ids(ru.Items))
	defer s.Users.ChangeRole(ctx, "sid", pf.RoleSeller) //nolint:errcheck

	if _, err := s.Users.SetStatus(ctx, "cal", pf.UserSuspended); err != nil {
		return err
	}
	defer s.Users.SetStatus(ctx, "cal", pf.UserActive) //nolint:errcheck
	for _, st := range []pf.EntityStatus{"suspended", "trial", "overdue", "pending"} {
		var got []string
		for e, err := range table.Every(ctx, s.Statuses.List, st) {
			if err != nil {
				return err
			}
			switch {
			case e.User != nil:
				got = append(got, "user "+string(e.User.UserID))
			case e.Organization != nil:
				got = append(got, "org "+string(e.Organization.OrganizationID))
			case e.Billing != nil:
				got = append(got, "billing "+string(e.Billing.OrganizationID)+"/"+string(e.Billing.Date))
			}
		}
		fmt.Printf("PF-14 %-10s %s\n", st+":", strings.Join(got, ", "))
	}
	act, err := s.Statuses.ListOfType(ctx, "active", pf.EntityOrganization)
	if err != nil {
		return err
	}
	fmt.Printf("PF-14 active organizations only: %d\n", len(act.Items))
	_, err = s.Statuses.ListOfType(ctx, "paid", pf.EntityUser)
	fmt.Printf("      bad input is refused before any request: %v\n", err)
	return nil
}
