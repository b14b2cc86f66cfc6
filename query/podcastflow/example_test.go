package podcastflow_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// A user's role change moves it between the by-role lists (PF-13) in the
// same write; a list page comes with an opaque cursor.
func Example() {
	t, done := tabletest.ForExample("Example")
	defer done()
	now := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	s := podcastflow.New(tabletest.NewTable(t, podcastflow.Schema(""),
		func(o *table.Options) { o.Now = func() time.Time { return now } }))
	ctx := context.Background()

	_ = s.Organizations.Create(ctx, &pf.OrganizationProfile{OrganizationID: "acme", Name: "Acme Audio", Plan: pf.PlanStarter})
	for _, id := range []pf.UserID{"ann", "bob"} {
		err := s.Users.Create(ctx, &pf.UserProfile{UserID: id, Email: string(id) + "@acme.example",
			Name: string(id), Role: pf.RoleSeller, OrganizationID: "acme"})
		if err != nil {
			panic(err)
		}
	}
	if _, err := s.Users.ChangeRole(ctx, "bob", pf.RoleProducer); err != nil {
		panic(err)
	}
	for _, r := range []pf.Role{pf.RoleSeller, pf.RoleProducer} {
		for u, err := range s.Users.ByRole.All(ctx, pf.UserProfile{Role: r}) {
			if err != nil {
				panic(err)
			}
			fmt.Println("PF-13", r, u.UserID, u.CreatedAt.Format(time.RFC3339))
		}
	}
	page, _ := s.Users.AllUsers.List(ctx, pf.UserProfile{}, table.Limit(1))
	fmt.Println("PF-4 first page:", page.Items[0].UserID, "more:", page.More())

	_, err := s.Users.ByRole.List(ctx, pf.UserProfile{Role: "owner"})
	fmt.Println(errors.Is(err, table.ErrInvalidInput))
	// Output:
	// PF-13 seller ann 2024-03-01T12:00:00Z
	// PF-13 producer bob 2024-03-01T12:00:00Z
	// PF-4 first page: ann more: true
	// true
}

// Metrics of a date range (PF-8) are one Query with BETWEEN on the sort key:
// the declared pattern's Between.
func ExampleAnalytics_globalMetricsRange() {
	t, done := tabletest.ForExample("ExampleRange")
	defer done()
	s := podcastflow.New(tabletest.NewTable(t, podcastflow.Schema("")))
	ctx := context.Background()
	var days []*pf.GlobalMetrics
	for i := range 10 {
		days = append(days, &pf.GlobalMetrics{Date: pf.Date("2024-02-25").AddDays(i), TotalUsers: int64(100 + i), Uptime: 99.9})
	}
	if err := s.Analytics.PutGlobalMetrics(ctx, days...); err != nil {
		panic(err)
	}
	p, err := s.Analytics.GlobalMetrics.Between(ctx, pf.GlobalMetrics{Date: "2024-02-28"}, pf.GlobalMetrics{Date: "2024-03-01"})
	if err != nil {
		panic(err)
	}
	for _, m := range p.Items {
		fmt.Println(m.Date, m.TotalUsers)
	}
	_, err = s.Analytics.GlobalMetrics.Between(ctx, pf.GlobalMetrics{Date: "2024-03-01"}, pf.GlobalMetrics{Date: "2024-02-28"})
	fmt.Println(err)
	// Output:
	// 2024-02-28 103
	// 2024-02-29 104
	// 2024-03-01 105
	// query GlobalMetrics: singletable: invalid GlobalMetrics date: reversed range: to GLOBAL#2024-02-28 is before from GLOBAL#2024-03-01
}
