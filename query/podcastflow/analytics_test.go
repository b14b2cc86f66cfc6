package podcastflow_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
)

const day0 pf.Date = "2024-02-25" // the series crosses a month end and 29 Feb

// metricsOf builds days of global, organization (one per org a day) and
// billing metrics from day0 on.
func metricsOf(days int, orgs ...pf.OrgID) (g []*pf.GlobalMetrics, o []*pf.OrganizationMetrics, b []*pf.BillingMetrics) {
	for i := range days {
		d := day0.AddDays(i)
		g = append(g, &pf.GlobalMetrics{Date: d, TotalUsers: int64(100 + i), ActiveUsers: int64(50 + i),
			TotalOrganizations: 3, TotalRevenue: 1000.5 + float64(i), StorageUsed: 1.25, APICalls: 10000,
			Uptime: 99.95, AvgResponseTime: 120.5})
		b = append(b, &pf.BillingMetrics{Date: d, TotalRevenue: 1000.5 + float64(i), MonthlyRecurring: 900,
			OverdueAmount: float64(i), ChurnRate: 1.5})
		for _, id := range orgs {
			o = append(o, &pf.OrganizationMetrics{OrganizationID: id, Date: d, Users: int64(i), Revenue: 10,
				Plan: pf.PlanStarter, StorageUsed: 2.5, APICalls: 100, ActiveUsers: 1})
		}
	}
	return g, o, b
}

func seedMetrics(t *testing.T, s *podcastflow.Store, days int, orgs ...pf.OrgID) {
	t.Helper()
	g, o, b := metricsOf(days, orgs...)
	ctx := t.Context()
	if err := s.Analytics.PutGlobalMetrics(ctx, g...); err != nil {
		t.Fatal(err)
	}
	if err := s.Analytics.PutOrganizationMetrics(ctx, o...); err != nil {
		t.Fatal(err)
	}
	if err := s.Billing.PutMetrics(ctx, b...); err != nil {
		t.Fatal(err)
	}
}

func dates[T any](items []T, date func(T) pf.Date) []pf.Date {
	out := make([]pf.Date, len(items))
	for i, it := range items {
		out[i] = date(it)
	}
	return out
}

func span(from pf.Date, n int) []pf.Date {
	var out []pf.Date
	for i := range n {
		out = append(out, from.AddDays(i))
	}
	return out
}

// PF-8: global metrics of one day and of an inclusive date range.
func TestGlobalMetrics_PF8(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	seedMetrics(t, s, 30)

	got, err := s.Analytics.GlobalMetrics.Get(ctx, pf.GlobalMetrics{Date: "2024-02-29"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Date != "2024-02-29" || got.TotalUsers != 104 || got.CreatedAt.IsZero() {
		t.Errorf("PF-8 one day = %+v", got)
	}
	p, err := s.Analytics.GlobalMetrics.Between(ctx, pf.GlobalMetrics{Date: "2024-02-28"}, pf.GlobalMetrics{Date: "2024-03-02"})
	if err != nil {
		t.Fatal(err)
	}
	want := []pf.Date{"2024-02-28", "2024-02-29", "2024-03-01", "2024-03-02"}
	if diff := cmp.Diff(want, dates(p.Items, func(m pf.GlobalMetrics) pf.Date { return m.Date })); diff != "" {
		t.Errorf("PF-8 range (-want +got):\n%s", diff)
	}
	all := collect(t, s.Analytics.GlobalMetrics.AllBetween(ctx, pf.GlobalMetrics{Date: day0}, pf.GlobalMetrics{Date: day0.AddDays(29)}, table.Limit(7)))
	if diff := cmp.Diff(span(day0, 30), dates(all, func(m pf.GlobalMetrics) pf.Date { return m.Date })); diff != "" {
		t.Errorf("PF-8 30 days (-want +got):\n%s", diff)
	}
	desc, err := s.Analytics.GlobalMetrics.Between(ctx, pf.GlobalMetrics{Date: "2024-03-01"}, pf.GlobalMetrics{Date: "2024-03-03"}, table.Desc())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]pf.Date{"2024-03-03", "2024-03-02", "2024-03-01"}, dates(desc.Items, func(m pf.GlobalMetrics) pf.Date { return m.Date })); diff != "" {
		t.Errorf("PF-8 newest first (-want +got):\n%s", diff)
	}
	one, err := s.Analytics.GlobalMetrics.Between(ctx, pf.GlobalMetrics{Date: "2024-03-01"}, pf.GlobalMetrics{Date: "2024-03-01"})
	if err != nil || len(one.Items) != 1 {
		t.Errorf("PF-8 one-day range: %d items, %v; want 1", len(one.Items), err)
	}
	if _, err := s.Analytics.GlobalMetrics.Get(ctx, pf.GlobalMetrics{Date: "2023-01-01"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("PF-8 missing day: err = %v, want ErrNotFound", err)
	}
}

// PF-9: one organization's metrics of one day and of a date range; other
// organizations' series in the same partition are not mixed in.
func TestOrganizationMetrics_PF9(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	seedMetrics(t, s, 30, "o1", "o10", "o2") // "o1" is a prefix of "o10"

	got, err := s.Analytics.OrganizationMetrics.Get(ctx, pf.OrganizationMetrics{OrganizationID: "o1", Date: day0.AddDays(3)})
	if err != nil {
		t.Fatal(err)
	}
	if got.OrganizationID != "o1" || got.Users != 3 || got.Date != day0.AddDays(3) {
		t.Errorf("PF-9 one day = %+v", got)
	}
	p, err := s.Analytics.OrganizationMetrics.Between(ctx, pf.OrganizationMetrics{OrganizationID: "o1", Date: day0}, pf.OrganizationMetrics{OrganizationID: "o1", Date: day0.AddDays(29)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(span(day0, 30), dates(p.Items, func(m pf.OrganizationMetrics) pf.Date { return m.Date })); diff != "" {
		t.Errorf("PF-9 range (-want +got):\n%s", diff)
	}
	for _, m := range p.Items {
		if m.OrganizationID != "o1" {
			t.Fatalf("PF-9 range for o1 returned %s", m.OrganizationID)
		}
	}
	all := collect(t, s.Analytics.OrganizationMetrics.AllBetween(ctx, pf.OrganizationMetrics{OrganizationID: "o2", Date: day0.AddDays(10)}, pf.OrganizationMetrics{OrganizationID: "o2", Date: day0.AddDays(14)}, table.Limit(2)))
	if diff := cmp.Diff(span(day0.AddDays(10), 5), dates(all, func(m pf.OrganizationMetrics) pf.Date { return m.Date })); diff != "" {
		t.Errorf("PF-9 iterator (-want +got):\n%s", diff)
	}
}
