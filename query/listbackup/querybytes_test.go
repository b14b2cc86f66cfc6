package listbackup_test

import (
	"testing"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestQueryRequestsUnchanged: the reads rewritten as declared patterns
// (time ranges through RangeOn, partitions through Entity.Partition and
// Entity.Prefix) send the same Query byte for byte as before: the golden
// file was written by the methods they replace (commit 7580135), each
// range open or closed, each order, with and without a limit.
func TestQueryRequestsUnchanged_LB6_LB7_LB8_LB9_LB10_LB12_LB18_LB19_LB20_LB21_LB23_LB25_LB26_LB43(t *testing.T) {
	f := newFixture(t)
	log := &tabletest.RequestLog{}
	s := storeWith(t, f, log.Option())
	x := ctx(t)
	do := func(label string, f func() error) {
		log.Mark(label)
		if err := f(); err != nil {
			log.Note("error " + err.Error())
		}
	}
	t1, t2 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 2, 1, 12, 30, 0, 0, time.UTC)
	type rg struct{ from, to time.Time }
	ranges := map[string]rg{"none": {}, "both": {t1, t2}, "from": {from: t1}, "to": {to: t2}}
	for _, rn := range []string{"none", "both", "from", "to"} {
		r := ranges[rn]
		for _, o := range [][]table.ListOption{nil, {table.Desc(), table.Limit(5)}} {
			act := func(a lb.Activity) (lb.Activity, lb.Activity) {
				from, to := a, a
				from.CreatedAt, to.CreatedAt = r.from, r.to
				return from, to
			}
			do("ActivitiesByAccount "+rn, func() error {
				a, b := act(lb.Activity{AccountID: "acct1"})
				_, err := s.Activities.ByAccount.Between(x, a, b, o...)
				return err
			})
			do("ActivitiesByUser "+rn, func() error {
				a, b := act(lb.Activity{UserID: "user1"})
				_, err := s.Activities.ByUser.Between(x, a, b, o...)
				return err
			})
			do("ActivitiesByResourceType "+rn, func() error {
				a, b := act(lb.Activity{AccountID: "acct1", ResourceType: "source"})
				_, err := s.Activities.ByResourceType.Between(x, a, b, o...)
				return err
			})
			do("ActivitiesByEventType "+rn, func() error {
				a, b := act(lb.Activity{AccountID: "acct1", EventType: "source.created"})
				_, err := s.Activities.ByEventType.Between(x, a, b, o...)
				return err
			})
			do("NotificationsByAccount "+rn, func() error {
				a, b := lb.Notification{AccountID: "acct1", CreatedAt: r.from}, lb.Notification{AccountID: "acct1", CreatedAt: r.to}
				_, err := s.Notifications.ByAccount.Between(x, a, b, o...)
				return err
			})
		}
	}
	for _, o := range [][]table.ListOption{nil, {table.Desc(), table.Limit(5)}} {
		do("ListChildren empty", func() error {
			_, err := s.Accounts.Children.List(x, lb.Account{ParentAccountID: "acct1"}, o...)
			return err
		})
		do("ListChildren typed", func() error {
			_, err := s.Accounts.Children.List(x, lb.Account{ParentAccountID: "acct1", AccountType: lb.AccountType("division")}, o...)
			return err
		})
		do("AccountsByType", func() error {
			_, err := s.Accounts.ByType.List(x, lb.Account{AccountType: lb.AccountType("division")}, o...)
			return err
		})
		do("ListSubtree", func() error {
			_, err := s.Accounts.Subtree.List(x, lb.Account{AccountPath: "/root/acct1/"}, o...)
			return err
		})
		do("MembershipsByUser", func() error { _, err := s.Memberships.ByUser.List(x, lb.Membership{UserID: "user1"}, o...); return err })
		do("MembershipsByAccount empty", func() error {
			_, err := s.Memberships.ByAccount.List(x, lb.Membership{AccountID: "acct1"}, o...)
			return err
		})
		do("MembershipsByAccount role", func() error {
			_, err := s.Memberships.ByAccount.List(x, lb.Membership{AccountID: "acct1", Role: lb.MemberRole("admin")}, o...)
			return err
		})
		do("TeamsByAccount", func() error { _, err := s.Teams.ByAccount.List(x, lb.Team{AccountID: "acct1"}, o...); return err })
		do("JobsByAccount", func() error { _, err := s.Jobs.ByAccount.List(x, lb.Job{AccountID: "acct1"}, o...); return err })
		do("JobsByStatus", func() error {
			_, err := s.Jobs.ByStatus.List(x, lb.Job{AccountID: "acct1", Status: lb.JobStatus("running")}, o...)
			return err
		})
		do("JobsBySource", func() error { _, err := s.Jobs.BySource.List(x, lb.Job{SourceID: "src1"}, o...); return err })
	}
	tabletest.Golden(t, "query_requests", log.String())
}
