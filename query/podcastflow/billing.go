package podcastflow

import (
	"context"
	"iter"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

// Billing serves the billing patterns, PF-10 and PF-11.
type Billing struct{ e *entities }

// PutRecord writes a billing record (an upsert); its status entry (PF-14)
// is written with it. Errors: *table.ValidationError.
func (b *Billing) PutRecord(ctx context.Context, r *pf.BillingRecord) (err error) {
	ctx, call := b.e.t.Call(ctx, "PF-14", "podcastflow.Billing.PutRecord")
	defer func() { call.End(err) }()
	return b.e.billing.Put(ctx, r)
}

// Record returns an organization's billing record of one date: GetItem
// PK = BILLING#{organizationId}, SK = RECORD#{date}. Errors:
// *table.ValidationError, table.ErrNotFound.
//
// Pattern: PF-10 (its write side).
func (b *Billing) Record(ctx context.Context, org pf.OrgID, d pf.Date) (_ pf.BillingRecord, err error) {
	ctx, call := b.e.t.Call(ctx, "PF-10", "podcastflow.Billing.Record")
	defer func() { call.End(err) }()
	k, err := pf.BillingRecordKey(org, d)
	if err != nil {
		return pf.BillingRecord{}, err
	}
	return b.e.billing.Get(ctx, k)
}

// Records returns one page of an organization's billing records, by date
// (PF-10): Query PK = BILLING#{organizationId}, SK begins_with RECORD#.
// Errors: *table.ValidationError, table.ErrInvalidCursor.
func (b *Billing) Records(ctx context.Context, org pf.OrgID, opts ...table.ListOption) (_ table.Page[pf.BillingRecord], err error) {
	ctx, call := b.e.t.Call(ctx, "PF-10", "podcastflow.Billing.Records")
	defer func() { call.End(err) }()
	pk, err := pf.BillingPK(org)
	if err != nil {
		return table.Page[pf.BillingRecord]{}, err
	}
	return b.e.billing.List(ctx, table.Query{PK: pk, SK: table.SKBeginsWith(pf.BillingRecordSKPrefix())}, opts...)
}

// AllRecords iterates over an organization's billing records (PF-10).
func (b *Billing) AllRecords(ctx context.Context, org pf.OrgID, opts ...table.ListOption) iter.Seq2[pf.BillingRecord, error] {
	return table.CallPages(ctx, b.e.t, "PF-10", "podcastflow.Billing.AllRecords", func(ctx context.Context, opts ...table.ListOption) (table.Page[pf.BillingRecord], error) {
		return b.Records(ctx, org, opts...)
	}, opts...)
}

// RecordsBetween returns one page of an organization's billing records
// from one date to another, both inclusive (PF-10): Query
// PK = BILLING#{organizationId}, SK BETWEEN RECORD#{from} AND RECORD#{to}.
// Errors: *table.ValidationError (malformed date, reversed range),
// table.ErrInvalidCursor.
func (b *Billing) RecordsBetween(ctx context.Context, org pf.OrgID, from, to pf.Date, opts ...table.ListOption) (_ table.Page[pf.BillingRecord], err error) {
	ctx, call := b.e.t.Call(ctx, "PF-10", "podcastflow.Billing.RecordsBetween")
	defer func() { call.End(err) }()
	pk, err := pf.BillingPK(org)
	if err != nil {
		return table.Page[pf.BillingRecord]{}, err
	}
	if err := dateRange(from, to); err != nil {
		return table.Page[pf.BillingRecord]{}, err
	}
	lo, _ := pf.BillingRecordSK(from)
	hi, _ := pf.BillingRecordSK(to)
	return b.e.billing.List(ctx, table.Query{PK: pk, SK: table.SKBetween(lo, hi)}, opts...)
}

// AllRecordsBetween iterates over an organization's billing records of a
// date range (PF-10).
func (b *Billing) AllRecordsBetween(ctx context.Context, org pf.OrgID, from, to pf.Date, opts ...table.ListOption) iter.Seq2[pf.BillingRecord, error] {
	return table.CallPages(ctx, b.e.t, "PF-10", "podcastflow.Billing.AllRecordsBetween", func(ctx context.Context, opts ...table.ListOption) (table.Page[pf.BillingRecord], error) {
		return b.RecordsBetween(ctx, org, from, to, opts...)
	}, opts...)
}

// SetRecordStatus sets a billing record's status (paid, overdue, ...); its
// status entry (PF-14) moves in the same write. Errors:
// *table.ValidationError, table.ErrNotFound.
//
// Requests: a consistent GetItem of the record, then one UpdateItem
// conditioned on the version read, writing only the attributes that changed
// so that attributes written by other services are kept.
func (b *Billing) SetRecordStatus(ctx context.Context, org pf.OrgID, d pf.Date, status pf.BillingStatus) (_ pf.BillingRecord, err error) {
	ctx, call := b.e.t.Call(ctx, "PF-14", "podcastflow.Billing.SetRecordStatus")
	defer func() { call.End(err) }()
	if _, err := pf.ParseBillingStatus(string(status)); err != nil {
		return pf.BillingRecord{}, err
	}
	return b.UpdateRecord(ctx, org, d, func(r *pf.BillingRecord) error { r.Status = status; return nil })
}

// UpdateRecord applies change to a billing record and writes it back with
// optimistic concurrency; index entries move in the same write. Errors:
// *table.ValidationError, table.ErrNotFound.
//
// Pattern: PF-10 (its write side).
func (b *Billing) UpdateRecord(ctx context.Context, org pf.OrgID, d pf.Date, change func(*pf.BillingRecord) error) (_ pf.BillingRecord, err error) {
	ctx, call := b.e.t.Call(ctx, "PF-10", "podcastflow.Billing.UpdateRecord")
	defer func() { call.End(err) }()
	k, err := pf.BillingRecordKey(org, d)
	if err != nil {
		return pf.BillingRecord{}, err
	}
	return b.e.billing.Update(ctx, k, change)
}

// ReindexRecord rewrites a billing record through the library so that one
// written by another service joins the status index (PF-14).
//
// Requests: a consistent GetItem of the record, then one UpdateItem
// conditioned on the version read, writing only the attributes that changed
// so that attributes written by other services are kept. The read is what
// finds the record's fields to index.
func (b *Billing) ReindexRecord(ctx context.Context, org pf.OrgID, d pf.Date) (_ pf.BillingRecord, err error) {
	ctx, call := b.e.t.Call(ctx, "PF-14", "podcastflow.Billing.ReindexRecord")
	defer func() { call.End(err) }()
	return b.UpdateRecord(ctx, org, d, func(*pf.BillingRecord) error { return nil })
}

// PutMetrics writes days of billing metrics with BatchWriteItem (upserts).
// Errors: *table.ValidationError, *table.BatchError.
//
// Pattern: PF-11 (its write side).
func (b *Billing) PutMetrics(ctx context.Context, ms ...*pf.BillingMetrics) (err error) {
	ctx, call := b.e.t.Call(ctx, "PF-11", "podcastflow.Billing.PutMetrics")
	defer func() { call.End(err) }()
	return b.e.billingM.BatchPut(ctx, ms)
}

// Metrics returns the billing metrics of one day (PF-11): GetItem
// PK = BILLING, SK = METRICS#{date}. Errors: *table.ValidationError,
// table.ErrNotFound.
func (b *Billing) Metrics(ctx context.Context, d pf.Date) (_ pf.BillingMetrics, err error) {
	ctx, call := b.e.t.Call(ctx, "PF-11", "podcastflow.Billing.Metrics")
	defer func() { call.End(err) }()
	k, err := pf.BillingMetricsKey(d)
	if err != nil {
		return pf.BillingMetrics{}, err
	}
	return b.e.billingM.Get(ctx, k)
}

// MetricsRange returns one page of the billing metrics from one day to
// another, both inclusive, by date (PF-11): Query PK = BILLING,
// SK BETWEEN METRICS#{from} AND METRICS#{to}. Errors:
// *table.ValidationError (malformed date, reversed range),
// table.ErrInvalidCursor.
func (b *Billing) MetricsRange(ctx context.Context, from, to pf.Date, opts ...table.ListOption) (_ table.Page[pf.BillingMetrics], err error) {
	ctx, call := b.e.t.Call(ctx, "PF-11", "podcastflow.Billing.MetricsRange")
	defer func() { call.End(err) }()
	if err := dateRange(from, to); err != nil {
		return table.Page[pf.BillingMetrics]{}, err
	}
	lo, _ := pf.BillingMetricsSK(from)
	hi, _ := pf.BillingMetricsSK(to)
	return b.e.billingM.List(ctx, table.Query{PK: pf.PKBilling, SK: table.SKBetween(lo, hi)}, opts...)
}

// AllMetricsRange iterates over the billing metrics of a date range (PF-11).
func (b *Billing) AllMetricsRange(ctx context.Context, from, to pf.Date, opts ...table.ListOption) iter.Seq2[pf.BillingMetrics, error] {
	return table.CallPages(ctx, b.e.t, "PF-11", "podcastflow.Billing.AllMetricsRange", func(ctx context.Context, opts ...table.ListOption) (table.Page[pf.BillingMetrics], error) {
		return b.MetricsRange(ctx, from, to, opts...)
	}, opts...)
}
