package podcastflow

import (
	"context"
	"iter"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

// Analytics serves the metrics patterns, PF-8 and PF-9. All metrics live
// in partition ANALYTICS, ordered by date within each series.
type Analytics struct{ e *entities }

// PutGlobalMetrics writes days of global metrics with BatchWriteItem
// (upserts, 25 per request, unprocessed items retried). Errors:
// *table.ValidationError (before any request), *table.BatchError.
//
// Pattern: PF-8 (its write side).
func (a *Analytics) PutGlobalMetrics(ctx context.Context, ms ...*pf.GlobalMetrics) (err error) {
	ctx, call := a.e.t.Call(ctx, "PF-8", "podcastflow.Analytics.PutGlobalMetrics")
	defer func() { call.End(err) }()
	return a.e.globalM.BatchPut(ctx, ms)
}

// GlobalMetrics returns the global metrics of one day (PF-8): GetItem
// PK = ANALYTICS, SK = GLOBAL#{date}. Errors: *table.ValidationError
// (malformed date), table.ErrNotFound.
func (a *Analytics) GlobalMetrics(ctx context.Context, d pf.Date) (_ pf.GlobalMetrics, err error) {
	ctx, call := a.e.t.Call(ctx, "PF-8", "podcastflow.Analytics.GlobalMetrics")
	defer func() { call.End(err) }()
	k, err := pf.GlobalMetricsKey(d)
	if err != nil {
		return pf.GlobalMetrics{}, err
	}
	return a.e.globalM.Get(ctx, k)
}

// GlobalMetricsRange returns one page of the global metrics from one day
// to another, both inclusive, by date (PF-8): Query PK = ANALYTICS,
// SK BETWEEN GLOBAL#{from} AND GLOBAL#{to}. Errors: *table.ValidationError
// (malformed date, reversed range), table.ErrInvalidCursor.
func (a *Analytics) GlobalMetricsRange(ctx context.Context, from, to pf.Date, opts ...table.ListOption) (_ table.Page[pf.GlobalMetrics], err error) {
	ctx, call := a.e.t.Call(ctx, "PF-8", "podcastflow.Analytics.GlobalMetricsRange")
	defer func() { call.End(err) }()
	if err := dateRange(from, to); err != nil {
		return table.Page[pf.GlobalMetrics]{}, err
	}
	lo, _ := pf.GlobalMetricsSK(from)
	hi, _ := pf.GlobalMetricsSK(to)
	return a.e.globalM.List(ctx, table.Query{PK: pf.PKAnalytics, SK: table.SKBetween(lo, hi)}, opts...)
}

// AllGlobalMetricsRange iterates over the global metrics of a date range (PF-8).
func (a *Analytics) AllGlobalMetricsRange(ctx context.Context, from, to pf.Date, opts ...table.ListOption) iter.Seq2[pf.GlobalMetrics, error] {
	return table.CallPages(ctx, a.e.t, "PF-8", "podcastflow.Analytics.AllGlobalMetricsRange", func(ctx context.Context, opts ...table.ListOption) (table.Page[pf.GlobalMetrics], error) {
		return a.GlobalMetricsRange(ctx, from, to, opts...)
	}, opts...)
}

// PutOrganizationMetrics writes days of organization metrics with
// BatchWriteItem (see [Analytics.PutGlobalMetrics]).
//
// Pattern: PF-9 (its write side).
func (a *Analytics) PutOrganizationMetrics(ctx context.Context, ms ...*pf.OrganizationMetrics) (err error) {
	ctx, call := a.e.t.Call(ctx, "PF-9", "podcastflow.Analytics.PutOrganizationMetrics")
	defer func() { call.End(err) }()
	return a.e.orgM.BatchPut(ctx, ms)
}

// OrganizationMetrics returns an organization's metrics of one day
// (PF-9): GetItem PK = ANALYTICS, SK = ORG#{organizationId}#{date}.
// Errors: *table.ValidationError, table.ErrNotFound.
func (a *Analytics) OrganizationMetrics(ctx context.Context, org pf.OrgID, d pf.Date) (_ pf.OrganizationMetrics, err error) {
	ctx, call := a.e.t.Call(ctx, "PF-9", "podcastflow.Analytics.OrganizationMetrics")
	defer func() { call.End(err) }()
	k, err := pf.OrganizationMetricsKey(org, d)
	if err != nil {
		return pf.OrganizationMetrics{}, err
	}
	return a.e.orgM.Get(ctx, k)
}

// OrganizationMetricsRange returns one page of an organization's metrics
// from one day to another, both inclusive, by date (PF-9): Query
// PK = ANALYTICS, SK BETWEEN ORG#{organizationId}#{from} AND
// ORG#{organizationId}#{to}. Errors: *table.ValidationError (empty ID,
// malformed date, reversed range), table.ErrInvalidCursor.
func (a *Analytics) OrganizationMetricsRange(ctx context.Context, org pf.OrgID, from, to pf.Date, opts ...table.ListOption) (_ table.Page[pf.OrganizationMetrics], err error) {
	ctx, call := a.e.t.Call(ctx, "PF-9", "podcastflow.Analytics.OrganizationMetricsRange")
	defer func() { call.End(err) }()
	if err := org.Validate("organizationId"); err != nil {
		return table.Page[pf.OrganizationMetrics]{}, err
	}
	if err := dateRange(from, to); err != nil {
		return table.Page[pf.OrganizationMetrics]{}, err
	}
	lo, _ := pf.OrganizationMetricsSK(org, from)
	hi, _ := pf.OrganizationMetricsSK(org, to)
	return a.e.orgM.List(ctx, table.Query{PK: pf.PKAnalytics, SK: table.SKBetween(lo, hi)}, opts...)
}

// AllOrganizationMetricsRange iterates over an organization's metrics of a
// date range (PF-9).
func (a *Analytics) AllOrganizationMetricsRange(ctx context.Context, org pf.OrgID, from, to pf.Date, opts ...table.ListOption) iter.Seq2[pf.OrganizationMetrics, error] {
	return table.CallPages(ctx, a.e.t, "PF-9", "podcastflow.Analytics.AllOrganizationMetricsRange", func(ctx context.Context, opts ...table.ListOption) (table.Page[pf.OrganizationMetrics], error) {
		return a.OrganizationMetricsRange(ctx, org, from, to, opts...)
	}, opts...)
}
