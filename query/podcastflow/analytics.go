package podcastflow

import (
	"context"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

// Analytics serves the metrics patterns, PF-8 and PF-9. All metrics live
// in partition ANALYTICS, ordered by date within each series.
type Analytics struct {
	// GlobalMetrics reads the global metrics (PF-8): one day with Get, a
	// range of days, both inclusive and by date, with Between.
	//
	//	page, err := s.Analytics.GlobalMetrics.Between(ctx, pf.GlobalMetrics{Date: from}, pf.GlobalMetrics{Date: to})
	GlobalMetrics *table.Pattern[pf.GlobalMetrics]
	// OrganizationMetrics reads an organization's metrics (PF-9): one day
	// with Get, a range of days with Between.
	OrganizationMetrics *table.Pattern[pf.OrganizationMetrics]
	// PutGlobalMetrics writes days of global metrics (PF-8, its write
	// side), each an upsert.
	PutGlobalMetrics func(context.Context, ...*pf.GlobalMetrics) error
	// PutOrganizationMetrics writes days of organization metrics (PF-9, its
	// write side), each an upsert.
	PutOrganizationMetrics func(context.Context, ...*pf.OrganizationMetrics) error
}

func newAnalytics(e *entities) *Analytics {
	return &Analytics{
		GlobalMetrics: table.NewPattern(e.globalM, table.PatternDef[pf.GlobalMetrics]{ID: "PF-8", Name: "podcastflow.Analytics.GlobalMetrics",
			Doc: "The global metrics of a day, or of a range of days by date.", Reads: table.ReadOne | table.ReadRange}),
		OrganizationMetrics: table.NewPattern(e.orgM, table.PatternDef[pf.OrganizationMetrics]{ID: "PF-9", Name: "podcastflow.Analytics.OrganizationMetrics",
			Doc: "An organization's metrics of a day, or of a range of days by date.", Reads: table.ReadOne | table.ReadRange,
			Require: []string{"organizationId"}}),
		PutGlobalMetrics: table.BatchPut(e.globalM, table.WriteDef[pf.GlobalMetrics]{ID: "PF-8", Name: "podcastflow.Analytics.PutGlobalMetrics",
			Doc: "Writes days of global metrics with BatchWriteItem (upserts, 25 per request, unprocessed items retried)."}),
		PutOrganizationMetrics: table.BatchPut(e.orgM, table.WriteDef[pf.OrganizationMetrics]{ID: "PF-9", Name: "podcastflow.Analytics.PutOrganizationMetrics",
			Doc: "Writes days of organization metrics with BatchWriteItem (upserts, 25 per request, unprocessed items retried)."}),
	}
}
