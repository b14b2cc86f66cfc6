package podcastflow_test

import (
	"errors"
	"iter"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

// newStore returns a store on a fresh table of the PodcastFlow schema.
func newStore(t *testing.T) *podcastflow.Store {
	t.Helper()
	return podcastflow.New(tabletest.NewTable(t, podcastflow.Schema("")))
}

var equateEmpty = cmpopts.EquateEmpty()

func org(id string) *pf.OrganizationProfile {
	return &pf.OrganizationProfile{
		OrganizationID: pf.OrgID(id), Name: "Org " + id, Domain: id + ".example.com",
		Plan: pf.PlanProfessional, Status: pf.OrgActive,
		Features: []string{"analytics", "ads"}, Limits: map[string]int64{"maxUsers": 50},
		CreatedBy: "u-master",
	}
}

func user(id, orgID string, role pf.Role) *pf.UserProfile {
	return &pf.UserProfile{
		UserID: pf.UserID(id), Email: id + "@example.com", Name: "User " + id,
		Role: role, Status: pf.UserActive, OrganizationID: pf.OrgID(orgID),
		Phone: "+1-555-0100", Avatar: "https://cdn.example.com/" + id + ".png",
	}
}

// mustCreateOrgs creates organizations with the given IDs.
func mustCreateOrgs(t *testing.T, s *podcastflow.Store, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if err := s.Organizations.Create(t.Context(), org(id)); err != nil {
			t.Fatal(err)
		}
	}
}

// mustCreateUser creates u and returns it as stored.
func mustCreateUser(t *testing.T, s *podcastflow.Store, u *pf.UserProfile) *pf.UserProfile {
	t.Helper()
	if err := s.Users.Create(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	return u
}

func collect[T any](t *testing.T, seq iter.Seq2[T, error]) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func userIDs(us []pf.UserProfile) []pf.UserID {
	out := make([]pf.UserID, len(us))
	for i, u := range us {
		out[i] = u.UserID
	}
	return out
}

// wantValidation checks that err is a *table.ValidationError naming field.
func wantValidation(t *testing.T, err error, field string) {
	t.Helper()
	var ve *table.ValidationError
	if !errors.As(err, &ve) || !errors.Is(err, table.ErrInvalidInput) {
		t.Fatalf("err = %v, want a *table.ValidationError for %s", err, field)
	}
	if ve.Field != field {
		t.Errorf("ValidationError.Field = %q, want %q (%v)", ve.Field, field, err)
	}
}

var zeroTime time.Time
