package listbackup_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	lb "github.com/singletable/singletable/entity/listbackup"
	"github.com/singletable/singletable/table"
)

// LB-64: update and delete a team; change a member's role (in a team and
// in the account).
func TestTeamsUpdateDeleteAndRoles_LB64(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	must(t, f.Teams.Create(c, &lb.Team{AccountID: "a1", TeamID: "t1", TeamName: "Ops",
		Members: []lb.TeamMember{{UserID: "u1", Role: lb.TeamRoleLead}, {UserID: "u2", Role: lb.TeamRoleMember}}}))
	must(t, f.Teams.Create(c, &lb.Team{AccountID: "a1", TeamID: "t2", TeamName: "Dev"}))

	tm, err := f.Teams.Update(c, "t1", func(t *lb.Team) error { t.TeamName = "Operations"; t.Description = "24/7"; return nil })
	must(t, err)
	if tm.TeamName != "Operations" || !tm.UpdatedAt.Equal(t0) {
		t.Errorf("LB-64 update returned %+v", tm)
	}
	_, err = f.Teams.Update(c, "t1", func(t *lb.Team) error { t.AccountID = "a2"; return nil })
	wantInvalid(t, err, "accountId")
	_, err = f.Teams.Update(c, "nope", func(*lb.Team) error { return nil })
	wantIs(t, err, table.ErrNotFound)

	tm, err = f.Teams.SetMemberRole(c, "t1", "u2", lb.TeamRoleLead)
	must(t, err)
	got, err := f.Teams.Get(c, "t1")
	must(t, err)
	want := []lb.TeamMember{{UserID: "u1", Role: lb.TeamRoleLead}, {UserID: "u2", Role: lb.TeamRoleLead}}
	if diff := cmp.Diff(want, got.Members); diff != "" || got.TeamName != "Operations" || got.Description != "24/7" {
		t.Errorf("LB-64 role change (-want +got):\n%s\n%+v", diff, got)
	}
	_, err = f.Teams.SetMemberRole(c, "t1", "u9", lb.TeamRoleLead)
	wantIs(t, err, table.ErrNotFound)

	// The account member's role moves its LB-10 index entry.
	must(t, f.Memberships.Add(c, &lb.Membership{UserID: "u1", AccountID: "a1", Role: lb.MemberViewer}))
	_, err = f.Memberships.SetRole(c, "u1", "a1", lb.MemberAdmin)
	must(t, err)
	p, err := f.Memberships.ListByAccount(c, "a1", lb.MemberAdmin)
	if diff := cmp.Diff([]lb.UserID{"u1"}, ids(collect(t, p, err), func(m lb.Membership) lb.UserID { return m.UserID })); diff != "" {
		t.Errorf("LB-64 account role (-want +got):\n%s", diff)
	}

	must(t, f.Teams.Delete(c, "t1"))
	_, err = f.Teams.Get(c, "t1")
	wantIs(t, err, table.ErrNotFound)
	wantIs(t, f.Teams.Delete(c, "t1"), table.ErrNotFound)
	tp, err := f.Teams.ListByAccount(c, "a1")
	if diff := cmp.Diff([]lb.TeamID{"t2"}, ids(collect(t, tp, err), func(x lb.Team) lb.TeamID { return x.TeamID })); diff != "" {
		t.Errorf("LB-64 list after delete (-want +got):\n%s", diff)
	}
}

// Bad input to the LB-63..LB-68 writes is refused before any request.
func TestWritesBadInputSendsNothing_LB63_LB64_LB65_LB66_LB67_LB68(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	noop := func(*lb.Team) error { return nil }
	_, err := f.Teams.Update(c, "", noop)
	wantInvalid(t, err, "teamId")
	wantInvalid(t, f.Teams.Delete(c, "t#1"), "teamId")
	_, err = f.Teams.SetMemberRole(c, "t1", "u1", "boss")
	wantInvalid(t, err, "role")
	_, err = f.Teams.SetMemberRole(c, "t1", "", lb.TeamRoleLead)
	wantInvalid(t, err, "userId")
	if n := f.requests.Load(); n != 0 {
		t.Errorf("bad input sent %d requests, want 0", n)
	}
}
