package podcastflow_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
)

// PF-5: an organization's profile, and profile with settings from one Query.
func TestGetOrganization_PF5(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	o := org("o1")
	if err := s.Organizations.Create(ctx, o); err != nil {
		t.Fatal(err)
	}
	got, err := s.Organizations.Profile.Get(ctx, pf.OrganizationProfile{OrganizationID: "o1"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(*o, got, equateEmpty); diff != "" {
		t.Errorf("PF-5 Get (-want +got):\n%s", diff)
	}
	both, err := s.Organizations.GetWithSettings(ctx, "o1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(podcastflow.OrganizationWithSettings{Profile: *o}, both, equateEmpty); diff != "" {
		t.Errorf("PF-5 without settings (-want +got):\n%s", diff)
	}

	st := &pf.OrganizationSettings{
		OrganizationID: "o1", AllowedDomains: []string{"o1.example.com"}, RequireApproval: true,
		SSOEnabled: true, CustomBranding: map[string]any{"primaryColor": "#ff0066"},
	}
	if err := s.Organizations.PutSettings(ctx, st); err != nil {
		t.Fatal(err)
	}
	both, err = s.Organizations.GetWithSettings(ctx, "o1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(podcastflow.OrganizationWithSettings{Profile: *o, Settings: st}, both, equateEmpty); diff != "" {
		t.Errorf("PF-5 with settings (-want +got):\n%s", diff)
	}
	gotSt, err := s.Organizations.Settings.Get(ctx, pf.OrganizationSettings{OrganizationID: "o1"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(*st, gotSt, equateEmpty); diff != "" {
		t.Errorf("Settings (-want +got):\n%s", diff)
	}
	if _, err := s.Organizations.GetWithSettings(ctx, "nope"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("PF-5 missing: err = %v, want ErrNotFound", err)
	}
	if err := s.Organizations.Create(ctx, org("o1")); !errors.Is(err, table.ErrAlreadyExists) {
		t.Errorf("duplicate organization: err = %v, want ErrAlreadyExists", err)
	}
}

// PF-6: all organizations, paginated by a Query on GSI4 (no Scan).
func TestListAllOrganizations_PF6(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	ids := []pf.OrgID{"o1", "o2", "o3", "o4", "o5"}
	for _, id := range ids {
		mustCreateOrgs(t, s, string(id))
	}
	mustCreateUser(t, s, user("u1", "o1", pf.RoleAdmin)) // users are not organizations

	first, err := s.Organizations.AllOrganizations.List(ctx, pf.OrganizationProfile{}, table.Limit(3))
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Items) != 3 || !first.More() {
		t.Fatalf("PF-6 first page: %d items, more=%v; want 3 and more", len(first.Items), first.More())
	}
	var got []pf.OrgID
	for o, err := range s.Organizations.AllOrganizations.All(ctx, pf.OrganizationProfile{}, table.Limit(2)) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, o.OrganizationID)
	}
	if diff := cmp.Diff(ids, got); diff != "" {
		t.Errorf("PF-6 (-want +got):\n%s", diff)
	}
}

// Deleting an organization removes its profile and settings together.
func TestDeleteOrganization(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	mustCreateOrgs(t, s, "o1")
	if err := s.Organizations.PutSettings(ctx, &pf.OrganizationSettings{OrganizationID: "o1", SSOEnabled: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.Organizations.Delete(ctx, "o1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Organizations.Settings.Get(ctx, pf.OrganizationSettings{OrganizationID: "o1"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("settings after delete: err = %v, want ErrNotFound", err)
	}
	if err := s.Organizations.Delete(ctx, "o1"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("delete missing: err = %v, want ErrNotFound", err)
	}
}
