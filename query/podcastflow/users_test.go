package podcastflow_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
)

// PF-1, PF-2, PF-3: profile, preferences, and both from one Query.
func TestUserProfileAndPreferences_PF1_PF2_PF3(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	mustCreateOrgs(t, s, "o1")
	u := mustCreateUser(t, s, user("u1", "o1", pf.RoleProducer))

	got, err := s.Users.Profile.Get(ctx, pf.UserProfile{UserID: "u1"}) // PF-1
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(*u, got, equateEmpty); diff != "" {
		t.Errorf("PF-1 Get (-want +got):\n%s", diff)
	}

	// PF-3 before any preferences: profile, nil preferences.
	both, err := s.Users.GetWithPreferences(ctx, "u1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(podcastflow.UserWithPreferences{Profile: *u}, both, equateEmpty); diff != "" {
		t.Errorf("PF-3 without preferences (-want +got):\n%s", diff)
	}
	if _, err := s.Users.Preferences.Get(ctx, pf.UserPreferences{UserID: "u1"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("PF-2 before save: err = %v, want ErrNotFound", err)
	}

	p := &pf.UserPreferences{UserID: "u1", Notifications: pf.NotificationPrefs{Enabled: true}, Theme: "dark", Language: "en", Timezone: "Europe/Paris"}
	if err := s.Users.PutPreferences(ctx, p); err != nil {
		t.Fatal(err)
	}
	gotP, err := s.Users.Preferences.Get(ctx, pf.UserPreferences{UserID: "u1"}) // PF-2
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(*p, gotP); diff != "" {
		t.Errorf("PF-2 Preferences (-want +got):\n%s", diff)
	}
	both, err = s.Users.GetWithPreferences(ctx, "u1") // PF-3
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(podcastflow.UserWithPreferences{Profile: *u, Preferences: p}, both, equateEmpty); diff != "" {
		t.Errorf("PF-3 (-want +got):\n%s", diff)
	}

	for name, err := range map[string]error{
		"PF-1": func() error { _, err := s.Users.Profile.Get(ctx, pf.UserProfile{UserID: "nobody"}); return err }(),
		"PF-3": func() error { _, err := s.Users.GetWithPreferences(ctx, "nobody"); return err }(),
	} {
		if !errors.Is(err, table.ErrNotFound) {
			t.Errorf("%s missing user: err = %v, want ErrNotFound", name, err)
		}
	}
}

// PF-4: all users, paginated by a Query on GSI4 (no Scan), page form and
// iterator form.
func TestListAllUsers_PF4(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	mustCreateOrgs(t, s, "o1", "o2")
	var want []pf.UserID
	for i, r := range pf.Roles.Values() {
		id := "u" + string(rune('a'+i))
		o := "o1"
		if i%2 == 1 {
			o = "o2"
		}
		mustCreateUser(t, s, user(id, o, r))
		want = append(want, pf.UserID(id))
	}
	// Other entities in the table never show up in the users list.
	if err := s.Users.PutPreferences(ctx, &pf.UserPreferences{UserID: "ua", Theme: "light"}); err != nil {
		t.Fatal(err)
	}

	var got []pf.UserID
	cursor, pages := "", 0
	for {
		p, err := s.Users.AllUsers.List(ctx, pf.UserProfile{}, table.Limit(4), table.After(cursor))
		if err != nil {
			t.Fatal(err)
		}
		pages++
		got = append(got, userIDs(p.Items)...)
		if !p.More() {
			break
		}
		cursor = p.Cursor
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PF-4 pages (-want +got):\n%s", diff)
	}
	if pages < 2 {
		t.Errorf("PF-4 read %d pages of 4 for %d users, want at least 2", pages, len(want))
	}
	if diff := cmp.Diff(want, userIDs(collect(t, s.Users.AllUsers.All(ctx, pf.UserProfile{}, table.Limit(2))))); diff != "" {
		t.Errorf("PF-4 iterator (-want +got):\n%s", diff)
	}
	if _, err := s.Users.AllUsers.List(ctx, pf.UserProfile{}, table.After("not-a-cursor")); !errors.Is(err, table.ErrInvalidCursor) {
		t.Errorf("PF-4 bad cursor: err = %v, want ErrInvalidCursor", err)
	}
}

// PF-12 and PF-13: users of an organization (GSI1) and by role (GSI2).
func TestUsersByOrganizationAndRole_PF12_PF13(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	mustCreateOrgs(t, s, "o1", "o2")
	mustCreateUser(t, s, user("u1", "o1", pf.RoleSeller))
	mustCreateUser(t, s, user("u2", "o1", pf.RoleTalent))
	mustCreateUser(t, s, user("u3", "o2", pf.RoleSeller))
	mustCreateUser(t, s, user("m1", "", pf.RoleMaster)) // master: no organization

	byOrg := func(o pf.OrgID) []pf.UserID {
		p, err := s.Users.ByOrganization.List(ctx, pf.UserProfile{OrganizationID: o})
		if err != nil {
			t.Fatal(err)
		}
		return userIDs(p.Items)
	}
	byRole := func(r pf.Role) []pf.UserID {
		return userIDs(collect(t, s.Users.ByRole.All(ctx, pf.UserProfile{Role: r}, table.Limit(1))))
	}
	if diff := cmp.Diff([]pf.UserID{"u1", "u2"}, byOrg("o1")); diff != "" {
		t.Errorf("PF-12 o1 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]pf.UserID{"u3"}, userIDs(collect(t, s.Users.ByOrganization.All(ctx, pf.UserProfile{OrganizationID: "o2"})))); diff != "" {
		t.Errorf("PF-12 o2 iterator (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]pf.UserID{"u1", "u3"}, byRole(pf.RoleSeller)); diff != "" {
		t.Errorf("PF-13 seller (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]pf.UserID{"m1"}, byRole(pf.RoleMaster)); diff != "" {
		t.Errorf("PF-13 master (-want +got):\n%s", diff)
	}
	if got := byRole(pf.RoleClient); len(got) != 0 {
		t.Errorf("PF-13 client = %v, want none", got)
	}
}

// PF-13: after a role change the user is listed under the new role only.
func TestRoleChangeMovesUser_PF13(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	mustCreateOrgs(t, s, "o1")
	mustCreateUser(t, s, user("u1", "o1", pf.RoleSeller))

	got, err := s.Users.ChangeRole(ctx, "u1", pf.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if got.Role != pf.RoleAdmin {
		t.Errorf("ChangeRole returned role %q", got.Role)
	}
	for role, want := range map[pf.Role][]pf.UserID{pf.RoleSeller: nil, pf.RoleAdmin: {"u1"}} {
		p, err := s.Users.ByRole.List(ctx, pf.UserProfile{Role: role})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, userIDs(p.Items), equateEmpty); diff != "" {
			t.Errorf("PF-13 %s after role change (-want +got):\n%s", role, diff)
		}
	}
	if _, err := s.Users.ChangeRole(ctx, "u1", "owner"); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("ChangeRole to unknown role: err = %v, want ErrInvalidInput", err)
	}
}

// PF-12: moving a user to another organization moves it between the
// organizations' user lists in the same write.
func TestOrganizationChangeMovesUser_PF12(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	mustCreateOrgs(t, s, "o1", "o2")
	mustCreateUser(t, s, user("u1", "o1", pf.RoleProducer))

	if _, err := s.Users.MoveToOrganization(ctx, "u1", "o2"); err != nil {
		t.Fatal(err)
	}
	for o, want := range map[pf.OrgID][]pf.UserID{"o1": nil, "o2": {"u1"}} {
		p, err := s.Users.ByOrganization.List(ctx, pf.UserProfile{OrganizationID: o})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, userIDs(p.Items), equateEmpty); diff != "" {
			t.Errorf("PF-12 %s after move (-want +got):\n%s", o, diff)
		}
	}
	if _, err := s.Users.MoveToOrganization(ctx, "u1", "nowhere"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("move to missing organization: err = %v, want ErrNotFound", err)
	}
}

// Emails are unique (case-insensitively); a user's organization must
// exist; a user ID is created once.
func TestCreateUserRules(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	mustCreateOrgs(t, s, "o1")
	mustCreateUser(t, s, user("u1", "o1", pf.RoleClient))

	dupEmail := user("u2", "o1", pf.RoleClient)
	dupEmail.Email = "U1@Example.com"
	if err := s.Users.Create(ctx, dupEmail); !errors.Is(err, table.ErrUniqueViolation) {
		t.Errorf("duplicate email: err = %v, want ErrUniqueViolation", err)
	}
	if err := s.Users.Create(ctx, user("u1", "o1", pf.RoleClient)); !errors.Is(err, table.ErrAlreadyExists) || errors.Is(err, table.ErrUniqueViolation) {
		t.Errorf("duplicate ID: err = %v, want ErrAlreadyExists only", err)
	}
	if err := s.Users.Create(ctx, user("u3", "missing", pf.RoleClient)); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("missing organization: err = %v, want ErrNotFound", err)
	}
	got, err := s.Users.GetByEmail(ctx, "u1@EXAMPLE.com")
	if err != nil || got.UserID != "u1" {
		t.Errorf("GetByEmail = %v, %v; want u1", got.UserID, err)
	}

	// An email change frees the old email.
	if _, err := s.Users.Update(ctx, "u1", func(u *pf.UserProfile) error { u.Email = "new@example.com"; return nil }); err != nil {
		t.Fatal(err)
	}
	mustCreateUser(t, s, dupEmail)
}

// lastLogin is set in one UpdateItem; updatedAt is left alone.
func TestRecordLogin(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	mustCreateOrgs(t, s, "o1")
	u := mustCreateUser(t, s, user("u1", "o1", pf.RoleTalent))
	at := time.Date(2024, 5, 1, 9, 30, 0, 123_000_000, time.UTC)
	got, err := s.Users.RecordLogin(ctx, "u1", at)
	if err != nil {
		t.Fatal(err)
	}
	want := *u
	want.LastLogin = at
	if diff := cmp.Diff(want, got, equateEmpty); diff != "" {
		t.Errorf("RecordLogin (-want +got):\n%s", diff)
	}
	if _, err := s.Users.RecordLogin(ctx, "nobody", at); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("RecordLogin missing user: err = %v, want ErrNotFound", err)
	}
}

// Delete removes the profile, preferences and email guard.
func TestDeleteUser(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	mustCreateOrgs(t, s, "o1")
	mustCreateUser(t, s, user("u1", "o1", pf.RoleTalent))
	if err := s.Users.PutPreferences(ctx, &pf.UserPreferences{UserID: "u1", Theme: "dark"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Users.Delete(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Users.GetWithPreferences(ctx, "u1"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("after delete: err = %v, want ErrNotFound", err)
	}
	if _, err := s.Users.Preferences.Get(ctx, pf.UserPreferences{UserID: "u1"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("preferences after delete: err = %v, want ErrNotFound", err)
	}
	p, err := s.Users.AllUsers.List(ctx, pf.UserProfile{})
	if err != nil || len(p.Items) != 0 {
		t.Errorf("PF-4 after delete = %v, %v; want none", userIDs(p.Items), err)
	}
	mustCreateUser(t, s, user("u1", "o1", pf.RoleTalent)) // the email is free again
	if err := s.Users.Delete(ctx, "ghost"); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("delete missing user: err = %v, want ErrNotFound", err)
	}
}
