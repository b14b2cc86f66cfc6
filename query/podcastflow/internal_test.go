package podcastflow

import (
	"errors"
	"testing"

	pf "github.com/singletable/singletable/entity/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// The fields GSI keys and the email guard derive from are refused by
// Patch, so they can only change through Update, which moves the index
// entries (PF-12, PF-13, PF-14) and guards in the same write.
func TestPatchRefusesIndexedFields_PF12_PF13_PF14(t *testing.T) {
	t.Parallel()
	s := New(tabletest.NewTable(t, Schema("")))
	k, _ := pf.UserProfileKey("u1")
	ok, _ := pf.OrganizationProfileKey("o1")
	bk, _ := pf.BillingRecordKey("o1", "2024-01-01")
	for _, f := range []string{"role", "organizationId", "status", "email", "userId"} {
		if _, err := s.Users.e.users.Patch(t.Context(), k, table.Patch{Set: map[string]any{f: "x"}}); !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("user Patch %s: err = %v, want ErrInvalidInput", f, err)
		}
	}
	if _, err := s.Organizations.e.orgs.Patch(t.Context(), ok, table.Patch{Set: map[string]any{"status": "active"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("organization Patch status: err = %v, want ErrInvalidInput", err)
	}
	if _, err := s.Billing.e.billing.Patch(t.Context(), bk, table.Patch{Set: map[string]any{"status": "paid"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("billing Patch status: err = %v, want ErrInvalidInput", err)
	}
}

// GSI key values are exactly the documented design.
func TestIndexKeys(t *testing.T) {
	t.Parallel()
	u := &pf.UserProfile{UserID: "u1", Role: pf.RoleTalent, Status: pf.UserActive, OrganizationID: "o1"}
	got, err := userIndexes(u)
	if err != nil {
		t.Fatal(err)
	}
	want := map[table.Index]table.IndexKey{
		table.GSI1: {PK: "ORG#o1", SK: "USER#u1"},
		table.GSI2: {PK: "ROLE#talent", SK: "USER#u1"},
		table.GSI3: {PK: "STATUS#active", SK: "USER#u1"},
		table.GSI4: {PK: "USERS", SK: "USER#u1"},
	}
	for ix, k := range want {
		if got[ix] != k {
			t.Errorf("user GSI%d = %+v, want %+v", ix, got[ix], k)
		}
	}
	u.Role, u.OrganizationID = pf.RoleMaster, ""
	if got, _ := userIndexes(u); len(got) != 3 {
		t.Errorf("master without organization has %d index entries, want 3 (no GSI1)", len(got))
	}
	r, err := billingIndexes(&pf.BillingRecord{OrganizationID: "o1", Date: "2024-01-01", Status: pf.BillingOverdue})
	if err != nil || r[table.GSI3] != (table.IndexKey{PK: "STATUS#overdue", SK: "BILLING#o1#2024-01-01"}) {
		t.Errorf("billing GSI3 = %+v, %v", r, err)
	}
	o, err := orgIndexes(&pf.OrganizationProfile{OrganizationID: "o1", Status: pf.OrgTrial})
	if err != nil || o[table.GSI3] != (table.IndexKey{PK: "STATUS#trial", SK: "ORG#o1"}) || o[table.GSI4] != (table.IndexKey{PK: "ORGS", SK: "ORG#o1"}) {
		t.Errorf("organization GSIs = %+v, %v", o, err)
	}
}
