package podcastflow

import (
	"context"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

// Billing serves the billing patterns, PF-10 and PF-11.
type Billing struct {
	// Records reads an organization's billing records (PF-10): one date with
	// Get, every record by date with List and All, a range of dates, both
	// inclusive, with Between.
	//
	//	page, err := s.Billing.Records.List(ctx, pf.BillingRecord{OrganizationID: org})
	Records *table.Pattern[pf.BillingRecord]
	// Metrics reads the billing metrics (PF-11): one day with Get, a range
	// of days with Between.
	Metrics *table.Pattern[pf.BillingMetrics]
	// PutRecord writes a billing record (an upsert); its status entry (PF-14)
	// is written with it.
	PutRecord func(context.Context, *pf.BillingRecord) error
	// UpdateRecord applies change to a billing record (PF-10, its write
	// side) with optimistic concurrency; index entries move in the same
	// write.
	UpdateRecord func(context.Context, RecordRef, func(*pf.BillingRecord) error) (pf.BillingRecord, error)
	// SetRecordStatus sets a billing record's status (paid, overdue, ...);
	// its status entry (PF-14) moves in the same write.
	SetRecordStatus func(context.Context, RecordRef, pf.BillingStatus) (pf.BillingRecord, error)
	// ReindexRecord rewrites a billing record through the library so that
	// one written by another service joins the status index (PF-14).
	ReindexRecord func(context.Context, RecordRef) (pf.BillingRecord, error)
	// PutMetrics writes days of billing metrics (PF-11, its write side),
	// each an upsert.
	PutMetrics func(context.Context, ...*pf.BillingMetrics) error
}

// RecordRef names an organization's billing record of one date.
type RecordRef struct {
	Org  pf.OrgID
	Date pf.Date
}

// record is the key fields of the billing record r names.
func (r RecordRef) record() pf.BillingRecord {
	return pf.BillingRecord{OrganizationID: r.Org, Date: r.Date}
}

func newBilling(e *entities) *Billing {
	return &Billing{
		PutRecord: table.Put(e.billing, table.WriteDef[pf.BillingRecord]{ID: "PF-14", Name: "podcastflow.Billing.PutRecord",
			Doc: "Writes a billing record (an upsert); its status entry (PF-14) is written with it."}),
		Records: table.NewPattern(e.billing, table.PatternDef[pf.BillingRecord]{ID: "PF-10", Name: "podcastflow.Billing.Records",
			Doc: "An organization's billing records: of a date, all by date, or of a range of dates.", Reads: table.ReadOne | table.ReadPage | table.ReadRange}),
		Metrics: table.NewPattern(e.billingM, table.PatternDef[pf.BillingMetrics]{ID: "PF-11", Name: "podcastflow.Billing.Metrics",
			Doc: "The billing metrics of a day, or of a range of days by date.", Reads: table.ReadOne | table.ReadRange}),
		UpdateRecord: table.Update(e.billing, table.WriteDef[pf.BillingRecord]{ID: "PF-10", Name: "podcastflow.Billing.UpdateRecord",
			Doc: "Applies change to a billing record and writes it back with optimistic concurrency; index entries move in the same write."}, RecordRef.record),
		SetRecordStatus: table.UpdateWith(e.billing, table.WriteDef[pf.BillingRecord]{ID: "PF-14", Name: "podcastflow.Billing.SetRecordStatus",
			Doc: "Sets a billing record's status (paid, overdue, ...); its status entry (PF-14) moves in the same write."}, RecordRef.record,
			"status", func(r *pf.BillingRecord, status pf.BillingStatus) error { r.Status = status; return nil }),
		ReindexRecord: table.Rewrite(e.billing, table.WriteDef[pf.BillingRecord]{ID: "PF-14", Name: "podcastflow.Billing.ReindexRecord",
			Doc: "Rewrites a billing record through the library so that one written by another service joins the status index (PF-14)."}, RecordRef.record),
		PutMetrics: table.BatchPut(e.billingM, table.WriteDef[pf.BillingMetrics]{ID: "PF-11", Name: "podcastflow.Billing.PutMetrics",
			Doc: "Writes days of billing metrics with BatchWriteItem (upserts)."}),
	}
}
