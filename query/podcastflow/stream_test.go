package podcastflow_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/tabletest"
)

// pfHeard counts what a router heard, per entity type and event.
type pfHeard struct {
	events map[string][]string // entity type -> events in order
	lib    map[string]int      // the engine's item kind -> records
}

// pfListen registers, by its Go type (feed.HandleType), a handler for
// s's entity of type T that records each change: its event, after
// checking the images its event must have.
func pfListen[T any](t *testing.T, s *podcastflow.Store, r *feed.Router, h *pfHeard, check func(table.ItemChange[T]) error) {
	feed.HandleType(r, func(_ context.Context, c table.ItemChange[T]) error {
		typ := s.Table().Classify(c.Record).Entity.Type()
		switch {
		case c.Event == table.Created && (c.New == nil || c.Old != nil),
			c.Event == table.Modified && (c.New == nil || c.Old == nil),
			c.Event == table.Removed && (c.New != nil || c.Old == nil):
			return fmt.Errorf("%s %s: old %v new %v", typ, c.Event, c.Old != nil, c.New != nil)
		}
		if check != nil {
			if err := check(c); err != nil {
				return err
			}
		}
		h.events[typ] = append(h.events[typ], c.Event.String())
		return nil
	})
}

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
	must2(s.Billing.SetRecordStatus(ctx, "o1", "2024-01-01", pf.BillingPaid))

	arn, err := feed.StreamARN(ctx, tbl)
	must(err)
	recs, err := feed.ReadAll(ctx, feed.StreamsClient(tbl.Client()), arn)
	must(err)

	h := &pfHeard{events: map[string][]string{}, lib: map[string]int{}}
	r := feed.NewRouter(tbl)
	r.Strict() // a record of an entity without a handler is an error
	r.Library(func(_ context.Context, _ table.Record, kind string) error { h.lib[kind]++; return nil })
	// No Unknown handler: a record of no declared entity fails RouteAll.
	var emails []string
	pfListen(t, s, r, h, func(c table.ItemChange[pf.UserProfile]) error {
		if c.New != nil && (c.Old == nil || c.Old.Email != c.New.Email) {
			emails = append(emails, c.New.Email)
		}
		return nil
	})
	pfListen[pf.UserPreferences](t, s, r, h, func(c table.ItemChange[pf.UserPreferences]) error {
		if c.New != nil && c.New.UserID == "" || c.Old != nil && c.Old.UserID == "" {
			return fmt.Errorf("preferences without the user ID their key holds")
		}
		return nil
	})
	pfListen[pf.OrganizationProfile](t, s, r, h, nil)
	pfListen[pf.OrganizationSettings](t, s, r, h, nil)
	var maintenance []bool
	pfListen(t, s, r, h, func(c table.ItemChange[pf.PlatformSettings]) error {
		maintenance = append(maintenance, c.New.MaintenanceMode)
		return nil
	})
	pfListen[pf.GlobalMetrics](t, s, r, h, nil)
	pfListen[pf.OrganizationMetrics](t, s, r, h, nil)
	var billing []pf.BillingStatus
	pfListen(t, s, r, h, func(c table.ItemChange[pf.BillingRecord]) error {
		billing = append(billing, c.New.Status)
		return nil
	})
	pfListen[pf.BillingMetrics](t, s, r, h, nil)
	n, err := r.RouteAll(ctx, recs)
	if err != nil || n != len(recs) {
		t.Fatalf("RouteAll: %d of %d records, %v", n, len(recs), err)
	}

	// Every entity the store binds was written and heard.
	var counts []string
	total := 0
	for _, e := range tbl.Entities() {
		evs := h.events[e.Type()]
		if len(evs) == 0 {
			t.Errorf("PF-15: no change of %s heard", e.Type())
		}
		counts = append(counts, fmt.Sprintf("%s %d", e.Type(), len(evs)))
		total += len(evs)
	}
	t.Logf("PF-15: %d records: %s; library %v", len(recs), strings.Join(counts, ", "), h.lib)
	if lib := h.lib[table.GuardType]; total+lib != len(recs) || len(h.lib) != 1 {
		t.Errorf("%d entity records + library %v, want all %d records", total, h.lib, len(recs))
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
		if got := h.events[typ]; !slices.Equal(got, w) {
			t.Errorf("%s events %v, want %v", typ, got, w)
		}
	}
	// Guards: u1's and u2's emails created, u1's old one removed and its
	// new one created, u2's removed with it.
	if h.lib[table.GuardType] != 5 {
		t.Errorf("%d guard records, want 5", h.lib[table.GuardType])
	}
	if want := []string{"u1@example.com", "u2@example.com", "u1.new@example.com"}; !slices.Equal(emails, want) {
		t.Errorf("emails heard %v, want %v", emails, want)
	}
	if !slices.Equal(maintenance, []bool{false, true}) || !slices.Equal(billing, []pf.BillingStatus{pf.BillingPending, pf.BillingPaid}) {
		t.Errorf("platform maintenance %v, billing %v", maintenance, billing)
	}
}
