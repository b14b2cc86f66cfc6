package podcastflow_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

func record(o pf.OrgID, d pf.Date, st pf.BillingStatus) *pf.BillingRecord {
	return &pf.BillingRecord{
		OrganizationID: o, Date: d, OrganizationName: "Org " + string(o), Plan: pf.PlanEnterprise,
		Amount: 499.99, Status: st, DueDate: d.Time().AddDate(0, 0, 30),
		InvoiceURL: "https://billing.example.com/" + string(o) + "/" + string(d) + ".pdf",
	}
}

// PF-10: an organization's billing records, all and by date range.
func TestBillingRecords_PF10(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	months := []pf.Date{"2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01"}
	var want []pf.BillingRecord
	for _, d := range months {
		r := record("o1", d, pf.BillingPaid)
		if err := s.Billing.PutRecord(ctx, r); err != nil {
			t.Fatal(err)
		}
		want = append(want, *r)
	}
	if err := s.Billing.PutRecord(ctx, record("o2", "2024-02-01", pf.BillingOverdue)); err != nil {
		t.Fatal(err)
	}

	all := collect(t, s.Billing.Records.All(ctx, pf.BillingRecord{OrganizationID: "o1"}, table.Limit(3)))
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("PF-10 all (-want +got):\n%s", diff)
	}
	p, err := s.Billing.Records.Between(ctx, pf.BillingRecord{OrganizationID: "o1", Date: "2024-02-01"}, pf.BillingRecord{OrganizationID: "o1", Date: "2024-03-31"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want[1:3], p.Items); diff != "" {
		t.Errorf("PF-10 range (-want +got):\n%s", diff)
	}
	pg, err := s.Billing.Records.List(ctx, pf.BillingRecord{OrganizationID: "o1"}, table.Limit(2), table.Desc())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]pf.Date{"2024-04-01", "2024-03-01"}, dates(pg.Items, func(r pf.BillingRecord) pf.Date { return r.Date })); diff != "" {
		t.Errorf("PF-10 newest first (-want +got):\n%s", diff)
	}
	got, err := s.Billing.Records.Get(ctx, pf.BillingRecord{OrganizationID: "o1", Date: "2024-03-01"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want[2], got); diff != "" {
		t.Errorf("Record (-want +got):\n%s", diff)
	}
	inRange := collect(t, s.Billing.Records.AllBetween(ctx, pf.BillingRecord{OrganizationID: "o1", Date: "2024-01-15"}, pf.BillingRecord{OrganizationID: "o1", Date: "2024-01-31"}))
	if len(inRange) != 0 {
		t.Errorf("PF-10 empty range = %d records", len(inRange))
	}
}

// PF-11: billing metrics of one day and of a date range.
func TestBillingMetrics_PF11(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	seedMetrics(t, s, 30)
	got, err := s.Billing.Metrics.Get(ctx, pf.BillingMetrics{Date: day0.AddDays(5)})
	if err != nil {
		t.Fatal(err)
	}
	want := pf.BillingMetrics{Date: day0.AddDays(5), TotalRevenue: 1005.5, MonthlyRecurring: 900, OverdueAmount: 5, ChurnRate: 1.5, CreatedAt: got.CreatedAt}
	if diff := cmp.Diff(want, got); diff != "" || time.Since(got.CreatedAt) > time.Minute {
		t.Errorf("PF-11 one day (-want +got):\n%s", diff)
	}
	all := collect(t, s.Billing.Metrics.AllBetween(ctx, pf.BillingMetrics{Date: day0.AddDays(20)}, pf.BillingMetrics{Date: day0.AddDays(40)}, table.Limit(4)))
	if diff := cmp.Diff(span(day0.AddDays(20), 10), dates(all, func(m pf.BillingMetrics) pf.Date { return m.Date })); diff != "" {
		t.Errorf("PF-11 range (-want +got):\n%s", diff)
	}
	p, err := s.Billing.Metrics.Between(ctx, pf.BillingMetrics{Date: day0}, pf.BillingMetrics{Date: day0.AddDays(1)})
	if err != nil || len(p.Items) != 2 {
		t.Errorf("PF-11 page: %d items, %v; want 2", len(p.Items), err)
	}
	if _, err := s.Billing.Metrics.Get(ctx, pf.BillingMetrics{Date: "1999-12-31"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("PF-11 missing: err = %v, want ErrNotFound", err)
	}
}
