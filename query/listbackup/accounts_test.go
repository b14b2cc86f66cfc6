package listbackup_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

func seedTree(t *testing.T, f *fixture) {
	t.Helper()
	c := ctx(t)
	accts := []lb.Account{
		{AccountID: "root", AccountName: "Acme", AccountPath: "/acme/", AccountType: lb.AccountConglomerate},
		{AccountID: "sub", AccountName: "Acme EU", ParentAccountID: "root", AccountPath: "/acme/eu/", AccountType: lb.AccountSubsidiary, Level: 1},
		{AccountID: "subx", AccountName: "Acme EUX", ParentAccountID: "root", AccountPath: "/acme/eux/", AccountType: lb.AccountSubsidiary, Level: 1},
		{AccountID: "div", AccountName: "Acme EU Retail", ParentAccountID: "sub", AccountPath: "/acme/eu/retail/", AccountType: lb.AccountDivision, Level: 2},
		{AccountID: "loc", AccountName: "Paris", ParentAccountID: "div", AccountPath: "/acme/eu/retail/paris/", AccountType: lb.AccountLocation, Level: 3},
		{AccountID: "loc2", AccountName: "EU HQ", ParentAccountID: "sub", AccountPath: "/acme/eu/hq/", AccountType: lb.AccountLocation, Level: 2},
		{AccountID: "other", AccountName: "Other", AccountPath: "/other/", AccountType: lb.AccountConglomerate},
	}
	for i := range accts {
		must(t, f.Accounts.Create(c, &accts[i]))
	}
}

func acctIDs(items []lb.Account) []lb.AccountID {
	return ids(items, func(a lb.Account) lb.AccountID { return a.AccountID })
}

// LB-5 account by ID, LB-6 children (optionally by type), LB-7 by type,
// LB-8 subtree under a path.
func TestAccountsHierarchy_LB5_LB6_LB7_LB8(t *testing.T) {
	f := newFixture(t)
	seedTree(t, f)
	c := ctx(t)
	a, err := f.Accounts.ByID.Get(c, lb.Account{AccountID: "div"}) // LB-5
	must(t, err)
	if a.AccountPath != "/acme/eu/retail/" || a.Status != lb.AccountActive || a.Level != 2 {
		t.Errorf("LB-5: %+v", a)
	}
	cases := []struct {
		name string
		got  func() (table.Page[lb.Account], error)
		want []lb.AccountID
	}{
		{"LB-6 children of sub", func() (table.Page[lb.Account], error) {
			return f.Accounts.Children.List(c, lb.Account{ParentAccountID: "sub"})
		}, []lb.AccountID{"div", "loc2"}},
		{"LB-6 children of sub, locations", func() (table.Page[lb.Account], error) {
			return f.Accounts.Children.List(c, lb.Account{ParentAccountID: "sub", AccountType: lb.AccountLocation})
		}, []lb.AccountID{"loc2"}},
		{"LB-7 subsidiaries", func() (table.Page[lb.Account], error) {
			return f.Accounts.ByType.List(c, lb.Account{AccountType: lb.AccountSubsidiary})
		}, []lb.AccountID{"sub", "subx"}},
		{"LB-8 subtree /acme/eu/", func() (table.Page[lb.Account], error) {
			return f.Accounts.Subtree.List(c, lb.Account{AccountPath: "/acme/eu/"})
		}, []lb.AccountID{"sub", "loc2", "div", "loc"}},
		{"LB-8 whole tree", func() (table.Page[lb.Account], error) {
			return f.Accounts.Subtree.List(c, lb.Account{AccountPath: "/acme/"})
		}, []lb.AccountID{"root", "sub", "loc2", "div", "loc", "subx"}},
	}
	for _, tc := range cases {
		p, err := tc.got()
		if diff := cmp.Diff(tc.want, acctIDs(collect(t, p, err))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	// LB-8 paged with the iterator: 2 per page, same result.
	all, err := table.Collect(f.Accounts.Subtree.All(c, lb.Account{AccountPath: "/acme/eu/"}, table.Limit(2)))
	must(t, err)
	if diff := cmp.Diff([]lb.AccountID{"sub", "loc2", "div", "loc"}, acctIDs(all)); diff != "" {
		t.Errorf("LB-8 iterator (-want +got):\n%s", diff)
	}
	// A child of a missing parent is refused.
	orphan := &lb.Account{AccountID: "orphan", AccountName: "O", ParentAccountID: "nope", AccountPath: "/acme/o/", AccountType: lb.AccountDivision, Level: 1}
	wantIs(t, f.Accounts.Create(c, orphan), table.ErrNotFound)
}

// LB-9 accounts of a user, LB-10 users of an account (by role), LB-11 one
// membership; a user's membership per account is unique.
func TestMemberships_LB9_LB10_LB11(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	ms := []lb.Membership{
		{UserID: "u1", AccountID: "a1", Role: lb.MemberOwner, Permissions: lb.Permissions{"sources": {"create", "read"}}, IsDefault: true},
		{UserID: "u1", AccountID: "a2", Role: lb.MemberViewer},
		{UserID: "u2", AccountID: "a1", Role: lb.MemberAdmin},
		{UserID: "u3", AccountID: "a1", Role: lb.MemberAdmin, Status: lb.MemberPending},
	}
	for i := range ms {
		must(t, f.Memberships.Add(c, &ms[i]))
	}
	dup := lb.Membership{UserID: "u1", AccountID: "a1", Role: lb.MemberMember}
	wantIs(t, f.Memberships.Add(c, &dup), table.ErrAlreadyExists)

	p, err := f.Memberships.ByUser.List(c, lb.Membership{UserID: "u1"}) // LB-9
	if diff := cmp.Diff([]lb.AccountID{"a1", "a2"}, ids(collect(t, p, err), func(m lb.Membership) lb.AccountID { return m.AccountID })); diff != "" {
		t.Errorf("LB-9 (-want +got):\n%s", diff)
	}
	p, err = f.Memberships.ByAccount.List(c, lb.Membership{AccountID: "a1"}) // LB-10
	if diff := cmp.Diff([]lb.UserID{"u2", "u3", "u1"}, ids(collect(t, p, err), func(m lb.Membership) lb.UserID { return m.UserID })); diff != "" {
		t.Errorf("LB-10 all (-want +got):\n%s", diff)
	}
	p, err = f.Memberships.ByAccount.List(c, lb.Membership{AccountID: "a1", Role: lb.MemberAdmin}) // LB-10 by role
	if diff := cmp.Diff([]lb.UserID{"u2", "u3"}, ids(collect(t, p, err), func(m lb.Membership) lb.UserID { return m.UserID })); diff != "" {
		t.Errorf("LB-10 admins (-want +got):\n%s", diff)
	}
	m, err := f.Memberships.ByID.Get(c, lb.Membership{UserID: "u1", AccountID: "a1"}) // LB-11
	must(t, err)
	if diff := cmp.Diff(ms[0], m); diff != "" {
		t.Errorf("LB-11 (-want +got):\n%s", diff)
	}
	_, err = f.Memberships.ByID.Get(c, lb.Membership{UserID: "u2", AccountID: "a2"})
	wantIs(t, err, table.ErrNotFound)
}

// LB-12 teams of an account, LB-13 team by ID.
func TestTeams_LB12_LB13(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	for _, id := range []lb.TeamID{"t2", "t1"} {
		must(t, f.Teams.Create(c, &lb.Team{AccountID: "a1", TeamID: id, TeamName: "Team " + string(id),
			Members: []lb.TeamMember{{UserID: "u1", Role: lb.TeamRoleLead}}}))
	}
	must(t, f.Teams.Create(c, &lb.Team{AccountID: "a2", TeamID: "t3", TeamName: "Other"}))
	p, err := f.Teams.ByAccount.List(c, lb.Team{AccountID: "a1"}) // LB-12
	if diff := cmp.Diff([]lb.TeamID{"t1", "t2"}, ids(collect(t, p, err), func(x lb.Team) lb.TeamID { return x.TeamID })); diff != "" {
		t.Errorf("LB-12 (-want +got):\n%s", diff)
	}
	tm, err := f.Teams.ByID.Get(c, lb.Team{TeamID: "t1"}) // LB-13
	must(t, err)
	if tm.TeamName != "Team t1" || len(tm.Members) != 1 || tm.Members[0].Role != lb.TeamRoleLead {
		t.Errorf("LB-13: %+v", tm)
	}
}

// Bad input is refused before any request (LB-5..LB-13).
func TestAccountsBadInputSendsNothing_LB5_LB6_LB7_LB8_LB9_LB10_LB11_LB12_LB13(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	_, err := f.Accounts.ByID.Get(c, lb.Account{AccountID: ""})
	wantInvalid(t, err, "accountId")
	_, err = f.Accounts.Children.List(c, lb.Account{ParentAccountID: "a1", AccountType: "galaxy"})
	wantInvalid(t, err, "accountType")
	_, err = f.Accounts.ByType.List(c, lb.Account{AccountType: ""})
	wantInvalid(t, err, "accountType")
	_, err = f.Accounts.Subtree.List(c, lb.Account{AccountPath: "/acme/eu"}) // no trailing slash
	wantInvalid(t, err, "accountPath")
	_, err = f.Accounts.Subtree.List(c, lb.Account{AccountPath: "/acme//"})
	wantInvalid(t, err, "accountPath")
	_, err = f.Memberships.ByAccount.List(c, lb.Membership{AccountID: "a1", Role: "boss"})
	wantInvalid(t, err, "role")
	_, err = f.Memberships.ByID.Get(c, lb.Membership{UserID: "u#1", AccountID: "a1"})
	wantInvalid(t, err, "userId")
	_, err = f.Teams.ByAccount.List(c, lb.Team{AccountID: "a1"}, table.Limit(5000))
	wantInvalid(t, err, "limit")
	_, err = f.Teams.ByID.Get(c, lb.Team{})
	wantInvalid(t, err, "teamId")
	bad := &lb.Account{AccountID: "x", AccountName: "X", AccountPath: "/x/", AccountType: lb.AccountDivision, Level: 1}
	wantInvalid(t, f.Accounts.Create(c, bad), "parentAccountId")
	if n := f.requests.Load(); n != 0 {
		t.Errorf("bad input sent %d requests, want 0", n)
	}
}
