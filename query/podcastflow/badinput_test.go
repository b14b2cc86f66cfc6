package podcastflow_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Bad input (unknown role or status, malformed date, empty or malformed
// IDs, reversed date range, bad page size) is refused with a
// *table.ValidationError naming the field, before any request is sent.
// Covers the inputs of PF-1 ... PF-14.
func TestBadInput_PF1_to_PF14(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	tbl := tabletest.NewTable(t, podcastflow.Schema(""), func(o *table.Options) {
		o.Observer = func(context.Context, table.Event) { requests.Add(1) }
	})
	s := podcastflow.New(tbl)
	ctx := t.Context()
	err1 := func(_ any, err error) error { return err }

	noOrg := user("u1", "", pf.RoleSeller)
	badEmail := user("u1", "o1", pf.RoleSeller)
	badEmail.Email = "not an email"
	badOrgPlan := org("o1")
	badOrgPlan.Plan = "free"
	badRecord := record("o1", "2024-01-01", "refunded")

	cases := []struct {
		name  string
		field string
		err   error
	}{
		{"PF-1 empty user ID", "userId", err1(s.Users.Profile.Get(ctx, pf.UserProfile{UserID: ""}))},
		{"PF-1 user ID with delimiter", "userId", err1(s.Users.Profile.Get(ctx, pf.UserProfile{UserID: "a#b"}))},
		{"PF-2 empty user ID", "userId", err1(s.Users.Preferences.Get(ctx, pf.UserPreferences{UserID: ""}))},
		{"PF-3 empty user ID", "userId", err1(s.Users.GetWithPreferences(ctx, ""))},
		{"PF-4 negative limit", "limit", err1(s.Users.AllUsers.List(ctx, pf.UserProfile{}, table.Limit(-1)))},
		{"PF-4 huge limit", "limit", err1(s.Users.AllUsers.List(ctx, pf.UserProfile{}, table.Limit(5000)))},
		{"PF-5 empty org ID", "organizationId", err1(s.Organizations.Profile.Get(ctx, pf.OrganizationProfile{OrganizationID: ""}))},
		{"PF-5 settings empty org ID", "organizationId", err1(s.Organizations.GetWithSettings(ctx, ""))},
		{"PF-6 negative limit", "limit", err1(s.Organizations.AllOrganizations.List(ctx, pf.OrganizationProfile{}, table.Limit(-5)))},
		{"PF-7 master default role", "defaultUserRole", s.Platform.InitSettings(ctx, &pf.PlatformSettings{DefaultUserRole: pf.RoleMaster})},
		{"PF-7 unknown default role", "defaultUserRole", s.Platform.InitSettings(ctx, &pf.PlatformSettings{DefaultUserRole: "guest"})},
		{"PF-8 malformed date", "date", err1(s.Analytics.GlobalMetrics.Get(ctx, pf.GlobalMetrics{Date: "2024-1-5"}))},
		{"PF-8 impossible date", "date", err1(s.Analytics.GlobalMetrics.Between(ctx, pf.GlobalMetrics{Date: "2024-02-30"}, pf.GlobalMetrics{Date: "2024-03-01"}))},
		{"PF-8 reversed range", "date", err1(s.Analytics.GlobalMetrics.Between(ctx, pf.GlobalMetrics{Date: "2024-03-02"}, pf.GlobalMetrics{Date: "2024-03-01"}))},
		{"PF-8 bad metrics", "date", s.Analytics.PutGlobalMetrics(ctx, &pf.GlobalMetrics{Date: "yesterday"})},
		{"PF-9 empty org ID", "organizationId", err1(s.Analytics.OrganizationMetrics.Get(ctx, pf.OrganizationMetrics{OrganizationID: "", Date: "2024-01-01"}))},
		{"PF-9 malformed date", "date", err1(s.Analytics.OrganizationMetrics.Get(ctx, pf.OrganizationMetrics{OrganizationID: "o1", Date: "20240101"}))},
		{"PF-9 reversed range", "organizationId, date", err1(s.Analytics.OrganizationMetrics.Between(ctx, pf.OrganizationMetrics{OrganizationID: "o1", Date: "2024-02-01"}, pf.OrganizationMetrics{OrganizationID: "o1", Date: "2024-01-01"}))},
		{"PF-9 range empty org", "organizationId", err1(s.Analytics.OrganizationMetrics.Between(ctx, pf.OrganizationMetrics{OrganizationID: "", Date: "2024-01-01"}, pf.OrganizationMetrics{OrganizationID: "", Date: "2024-02-01"}))},
		{"PF-10 empty org ID", "organizationId", err1(s.Billing.Records.List(ctx, pf.BillingRecord{OrganizationID: ""}))},
		{"PF-10 reversed range", "date", err1(s.Billing.Records.Between(ctx, pf.BillingRecord{OrganizationID: "o1", Date: "2024-12-01"}, pf.BillingRecord{OrganizationID: "o1", Date: "2024-01-01"}))},
		{"PF-10 malformed to", "date", err1(s.Billing.Records.Between(ctx, pf.BillingRecord{OrganizationID: "o1", Date: "2024-01-01"}, pf.BillingRecord{OrganizationID: "o1", Date: "2024-13-01"}))},
		{"PF-10 unknown billing status", "status", s.Billing.PutRecord(ctx, badRecord)},
		{"PF-11 malformed date", "date", err1(s.Billing.Metrics.Get(ctx, pf.BillingMetrics{Date: "2024-13-01"}))},
		{"PF-11 reversed range", "date", err1(s.Billing.Metrics.Between(ctx, pf.BillingMetrics{Date: "2024-01-02"}, pf.BillingMetrics{Date: "2024-01-01"}))},
		{"PF-12 empty org ID", "organizationId", err1(s.Users.ByOrganization.List(ctx, pf.UserProfile{OrganizationID: ""}))},
		{"PF-13 unknown role", "role", err1(s.Users.ByRole.List(ctx, pf.UserProfile{Role: "owner"}))},
		{"PF-13 empty role", "role", err1(s.Users.ByRole.List(ctx, pf.UserProfile{Role: ""}))},
		{"PF-14 unknown status", "status", err1(s.Statuses.List(ctx, "deleted"))},
		{"PF-14 unknown type", "entityType", err1(s.Statuses.ListOfType(ctx, "active", "PODCAST"))},
		{"PF-14 status of another type", "status", err1(s.Statuses.ListOfType(ctx, "paid", pf.EntityUser))},
		{"create user without organization", "organizationId", s.Users.Create(ctx, noOrg)},
		{"create user bad email", "email", s.Users.Create(ctx, badEmail)},
		{"create user unknown role", "role", s.Users.Create(ctx, user("u1", "o1", "owner"))},
		{"change to unknown role", "role", err1(s.Users.ChangeRole(ctx, "u1", "owner"))},
		{"unknown user status", "status", err1(s.Users.SetStatus(ctx, "u1", "deleted"))},
		{"unknown org status", "status", err1(s.Organizations.SetStatus(ctx, "o1", "closed"))},
		{"unknown plan", "plan", s.Organizations.Create(ctx, badOrgPlan)},
		{"zero login time", "lastLogin", err1(s.Users.RecordLogin(ctx, "u1", zeroTime))},
		{"bad email lookup", "email", err1(s.Users.GetByEmail(ctx, "nope"))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantValidation(t, c.err, c.field)
		})
	}
	// The iterator form yields the validation error once.
	n := 0
	for _, err := range s.Users.ByRole.All(ctx, pf.UserProfile{Role: "owner"}) {
		n++
		if !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("ByRole.All(owner) yielded %v", err)
		}
	}
	if n != 1 {
		t.Errorf("ByRole.All(owner) yielded %d times, want 1", n)
	}
	if got := requests.Load(); got != 0 {
		t.Errorf("%d requests sent for bad input, want 0", got)
	}
}
