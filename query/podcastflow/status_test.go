package podcastflow_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
)

// entityIDs names each status entity as {type}:{id}.
func entityIDs(es []podcastflow.StatusEntity) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		switch {
		case e.User != nil:
			out = append(out, "USER:"+string(e.User.UserID))
		case e.Organization != nil:
			out = append(out, "ORG:"+string(e.Organization.OrganizationID))
		case e.Billing != nil:
			out = append(out, "BILLING:"+string(e.Billing.OrganizationID)+"/"+string(e.Billing.Date))
		}
	}
	return out
}

// PF-14: entities by status, of every type or of one, and status changes
// move the entries in the same write.
func TestEntitiesByStatus_PF14(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	mustCreateOrgs(t, s, "o1", "o2")
	mustCreateUser(t, s, user("u1", "o1", pf.RoleSeller))
	mustCreateUser(t, s, user("u2", "o2", pf.RoleClient))
	if err := s.Billing.PutRecord(ctx, record("o1", "2024-03-01", pf.BillingOverdue)); err != nil {
		t.Fatal(err)
	}

	list := func(st pf.EntityStatus, typ pf.EntityType) []string {
		t.Helper()
		if typ == "" {
			return entityIDs(collect(t, table.Every(ctx, s.Statuses.List, st, table.Limit(2))))
		}
		p, err := s.Statuses.ListOfType(ctx, st, typ)
		if err != nil {
			t.Fatal(err)
		}
		return entityIDs(p.Items)
	}
	check := func(what string, want, got []string) {
		t.Helper()
		if diff := cmp.Diff(want, got, equateEmpty); diff != "" {
			t.Errorf("PF-14 %s (-want +got):\n%s", what, diff)
		}
	}
	check("active", []string{"ORG:o1", "ORG:o2", "USER:u1", "USER:u2"}, list("active", ""))
	check("active users", []string{"USER:u1", "USER:u2"}, list("active", pf.EntityUser))
	check("active orgs", []string{"ORG:o1", "ORG:o2"}, list("active", pf.EntityOrganization))
	check("overdue", []string{"BILLING:o1/2024-03-01"}, list("overdue", ""))

	if _, err := s.Users.SetStatus(ctx, "u2", pf.UserSuspended); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Organizations.SetStatus(ctx, "o1", pf.OrgSuspended); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Billing.SetRecordStatus(ctx, podcastflow.RecordRef{Org: "o1", Date: "2024-03-01"}, pf.BillingPaid); err != nil {
		t.Fatal(err)
	}
	check("active after changes", []string{"ORG:o2", "USER:u1"}, list("active", ""))
	check("suspended", []string{"ORG:o1", "USER:u2"}, list("suspended", ""))
	check("suspended users", []string{"USER:u2"}, list("suspended", pf.EntityUser))
	check("overdue after payment", nil, list("overdue", ""))
	check("paid billing", []string{"BILLING:o1/2024-03-01"}, list("paid", pf.EntityBilling))

	p, err := s.Statuses.List(ctx, "suspended")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 2 || p.Items[0].Type != pf.EntityOrganization || p.Items[1].Type != pf.EntityUser {
		t.Errorf("PF-14 List types = %+v", p.Items)
	}
}
