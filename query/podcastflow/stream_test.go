package podcastflow_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed/feedtest"
	"github.com/singletable/singletable/table/tabletest"
)

// PF-15: every write of the PodcastFlow store, on its own table's
// NEW_AND_OLD_IMAGES stream (declared by podcastflow.Schema, as the
// service's deployment declares it), heard as a typed change of its
// entity: each of the nine entities created, modified and (where the
// store deletes) removed, the email guards as the library's items, no
// record unknown and every image decoded. The store uses its default four
// index shards, so users and organizations land in sharded index
// partitions.
func TestEveryWriteHeard_PF15(t *testing.T) {
	t.Parallel()
	if podcastflow.Schema("").Stream != types.StreamViewTypeNewAndOldImages {
		t.Fatalf("podcastflow.Schema declares stream %q, want NEW_AND_OLD_IMAGES", podcastflow.Schema("").Stream)
	}
	tbl := tabletest.NewTable(t, podcastflow.Schema(""))
	s := podcastflow.New(tbl)
	ctx := t.Context()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must2 := func(_ any, err error) { t.Helper(); must(err) }

	// Organizations and their settings.
	must(s.Organizations.Create(ctx, org("o1")))
	must(s.Organizations.Create(ctx, org("o2")))
	must2(s.Organizations.SetStatus(ctx, "o1", pf.OrgSuspended))
	must(s.Organizations.PutSettings(ctx, &pf.OrganizationSettings{OrganizationID: "o1", AllowedDomains: []string{"o1.example.com"}, CustomBranding: map[string]any{"logoUrl": "https://cdn/o1.png"}}))
	must(s.Organizations.PutSettings(ctx, &pf.OrganizationSettings{OrganizationID: "o1", AllowedDomains: []string{"o1.example.com"}, SSOEnabled: true}))
	must(s.Organizations.PutSettings(ctx, &pf.OrganizationSettings{OrganizationID: "o2", RequireApproval: true}))
	// Users: created, role changed, moved, logged in, email changed (the
	// guard moves), one deleted with its preferences.
	must(s.Users.Create(ctx, user("u1", "o1", pf.RoleSeller)))
	must(s.Users.Create(ctx, user("u2", "o1", pf.RoleProducer)))
	must2(s.Users.ChangeRole(ctx, "u1", pf.RoleAdmin))
	must2(s.Users.MoveToOrganization(ctx, "u2", "o2"))
	must2(s.Users.RecordLogin(ctx, "u1", time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)))
	must2(s.Users.Update(ctx, "u1", func(u *pf.UserProfile) error { u.Email = "u1.new@example.com"; return nil }))
	must(s.Users.PutPreferences(ctx, &pf.UserPreferences{UserID: "u1", Theme: "dark", Notifications: pf.NotificationPrefs{Channels: map[string]bool{"email": true}}}))
	must(s.Users.PutPreferences(ctx, &pf.UserPreferences{UserID: "u1", Theme: "light"}))
	must(s.Users.PutPreferences(ctx, &pf.UserPreferences{UserID: "u2", Language: "fr"}))
	must(s.Users.Delete(ctx, "u2"))
	must(s.Organizations.Delete(ctx, "o2")) // its profile and settings
	// Platform settings, versioned.
	must(s.Platform.InitSettings(ctx, platformSettings()))
	must2(s.Platform.UpdateSettings(ctx, func(p *pf.PlatformSettings) error { p.MaintenanceMode = true; return nil }))
	// Metrics and billing.
	g, om, bm := metricsOf(2, "o1")
	must(s.Analytics.PutGlobalMetrics(ctx, g...))
	must(s.Analytics.PutOrganizationMetrics(ctx, om...))
	must(s.Billing.PutMetrics(ctx, bm...))
	g[0].ActiveUsers++
	must(s.Analytics.PutGlobalMetrics(ctx, g[0])) // a day's metrics written again
	must(s.Billing.PutRecord(ctx, record("o1", "2024-01-01", pf.BillingPending)))
	must2(s.Billing.SetRecordStatus(ctx, podcastflow.RecordRef{Org: "o1", Date: "2024-01-01"}, pf.BillingPaid))

	h := feedtest.New()
	r := h.Router(tbl)
	var emails []string
	feedtest.Listen(h, r, func(c table.ItemChange[pf.UserProfile]) error {
		if c.New != nil && (c.Old == nil || c.Old.Email != c.New.Email) {
			emails = append(emails, c.New.Email)
		}
		return nil
	})
	feedtest.Listen[pf.UserPreferences](h, r, func(c table.ItemChange[pf.UserPreferences]) error {
		if c.New != nil && c.New.UserID == "" || c.Old != nil && c.Old.UserID == "" {
			return fmt.Errorf("preferences without the user ID their key holds")
		}
		return nil
	})
	feedtest.Listen[pf.OrganizationProfile](h, r, nil)
	feedtest.Listen[pf.OrganizationSettings](h, r, nil)
	var maintenance []bool
	feedtest.Listen(h, r, func(c table.ItemChange[pf.PlatformSettings]) error {
		maintenance = append(maintenance, c.New.MaintenanceMode)
		return nil
	})
	feedtest.Listen[pf.GlobalMetrics](h, r, nil)
	feedtest.Listen[pf.OrganizationMetrics](h, r, nil)
	var billing []pf.BillingStatus
	feedtest.Listen(h, r, func(c table.ItemChange[pf.BillingRecord]) error {
		billing = append(billing, c.New.Status)
		return nil
	})
	feedtest.Listen[pf.BillingMetrics](h, r, nil)
	h.Route(t, ctx, r)

	// Every entity the store binds was written and heard; the email
	// guards are the library's only records.
	t.Logf("PF-15: %s", h.EveryEntity(t, tbl))
	if len(h.Library) != 1 {
		t.Errorf("library records %v, want guards only", h.Library)
	}
	want := map[string][]string{
		podcastflow.TypeOrganizationProfile:  {"created", "created", "modified", "removed"},
		podcastflow.TypeOrganizationSettings: {"created", "modified", "created", "removed"},
		podcastflow.TypeUserProfile:          {"created", "created", "modified", "modified", "modified", "modified", "removed"},
		podcastflow.TypeUserPreferences:      {"created", "modified", "created", "removed"},
		podcastflow.TypePlatformSettings:     {"created", "modified"},
		podcastflow.TypeGlobalMetrics:        {"created", "created", "modified"},
		podcastflow.TypeOrganizationMetrics:  {"created", "created"},
		podcastflow.TypeBillingMetrics:       {"created", "created"},
		podcastflow.TypeBillingRecord:        {"created", "modified"},
	}
	for typ, w := range want {
		if got := h.Events[typ]; !slices.Equal(got, w) {
			t.Errorf("%s events %v, want %v", typ, got, w)
		}
	}
	// Guards: u1's and u2's emails created, u1's old one removed and its
	// new one created, u2's removed with it.
	if h.Library[table.GuardType] != 5 {
		t.Errorf("%d guard records, want 5", h.Library[table.GuardType])
	}
	if want := []string{"u1@example.com", "u2@example.com", "u1.new@example.com"}; !slices.Equal(emails, want) {
		t.Errorf("emails heard %v, want %v", emails, want)
	}
	if !slices.Equal(maintenance, []bool{false, true}) || !slices.Equal(billing, []pf.BillingStatus{pf.BillingPending, pf.BillingPaid}) {
		t.Errorf("platform maintenance %v, billing %v", maintenance, billing)
	}
}
