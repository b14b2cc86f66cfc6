package listbackup

import (
	"context"
	"errors"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Usage serves LB-58..LB-61: daily usage metrics per account.
type Usage struct {
	// Metrics reads an account's metrics for a day (LB-58).
	//
	//	m, err := s.Usage.Metrics.Get(ctx, lb.UsageMetrics{AccountID: a, MetricDate: day})
	Metrics *table.Pattern[lb.UsageMetrics]
	// Range lists an account's metrics from one day to another, both
	// inclusive, oldest first (LB-59, monthly usage).
	//
	//	page, err := s.Usage.Range.Between(ctx, lb.UsageMetrics{AccountID: a, MetricDate: from}, lb.UsageMetrics{AccountID: a, MetricDate: to})
	Range *table.Pattern[lb.UsageMetrics]
	// Day lists every account's metrics for a day, by account (LB-60,
	// the daily rollup).
	Day *table.Pattern[lb.UsageMetrics]
	// Put stores (or replaces) a day's metrics (LB-58, its write side), e.g.
	// from a rollup job.
	Put func(context.Context, *lb.UsageMetrics) error

	increment table.Op
	e         *entities
}

func newUsage(e *entities) *Usage {
	return &Usage{e: e,
		Put: table.Put(e.usage, table.WriteDef[lb.UsageMetrics]{ID: "LB-58", Name: "listbackup.Usage.Put",
			Doc: "Stores (or replaces) a day's metrics (from a rollup job)."}),
		increment: table.NewOp(e.t, "LB-61", "listbackup.Usage.Increment"),
		Metrics: table.NewPattern(e.usage, table.PatternDef[lb.UsageMetrics]{ID: "LB-58", Name: "listbackup.Usage.Metrics",
			Doc: "An account's usage metrics of one day.", Reads: table.ReadOne}),
		Range: table.NewPattern(e.usage, table.PatternDef[lb.UsageMetrics]{ID: "LB-59", Name: "listbackup.Usage.Range",
			Doc: "An account's usage metrics from one day to another, oldest first.", Reads: table.ReadRange}),
		Day: table.NewPattern(e.usage, table.PatternDef[lb.UsageMetrics]{ID: "LB-60", Name: "listbackup.Usage.Day",
			Doc: "Every account's usage metrics of one day, by account.", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true}),
	}
}

// Increment adds deltas to an account's counters for a day atomically
// (LB-61) and returns the metrics as stored: one UpdateItem ADD on
// ACCOUNT#{accountId} / USAGE#{metricDate}, so concurrent increments are
// never lost. The first count of a day creates the day's item (a
// conditional PutItem; a racing creator's item is used as is): 3 requests,
// the UpdateItem that finds no item, the PutItem and the UpdateItem again,
// because the counting UpdateItem (table.Entity.Patch) never creates an
// item. Errors:
// *table.ValidationError (unknown counter, no delta).
func (s *Usage) Increment(ctx context.Context, account lb.AccountID, day lb.Date, deltas map[lb.Counter]int64) (lb.UsageMetrics, error) {
	return table.Run(ctx, s.increment, func(ctx context.Context) (lb.UsageMetrics, error) {
		if err := first(lb.AccountIDs.Check(account), day.Validate("metricDate")); err != nil {
			return lb.UsageMetrics{}, err
		}
		k := s.e.usage.Key(lb.UsageMetrics{AccountID: account, MetricDate: day})
		if err := k.Err(); err != nil {
			return lb.UsageMetrics{}, err
		}
		if len(deltas) == 0 {
			return lb.UsageMetrics{}, table.Invalid("deltas", "none given")
		}
		add := make(map[string]int64, len(deltas))
		for c, d := range deltas {
			if _, err := lb.ParseCounter(string(c)); err != nil {
				return lb.UsageMetrics{}, err
			}
			add[string(c)] = d
		}
		p := table.Patch{Add: add, Set: map[string]any{"updatedAt": lb.Seconds(s.e.now()).Unix()}}
		m, err := s.e.usage.Patch(ctx, k, p)
		if !errors.Is(err, table.ErrNotFound) {
			return m, err
		}
		fresh := lb.UsageMetrics{AccountID: account, MetricDate: day}
		if err := s.e.usage.Create(ctx, &fresh); err != nil && !errors.Is(err, table.ErrAlreadyExists) {
			return lb.UsageMetrics{}, err
		}
		return s.e.usage.Patch(ctx, k, p)
	})
}

// Plans serves LB-62: billing plans by ID, and the active ones without a
// Scan.
type Plans struct {
	// ByID reads a plan by ID (LB-62).
	//
	//	p, err := s.Plans.ByID.Get(ctx, lb.BillingPlan{PlanID: "pro"})
	ByID *table.Pattern[lb.BillingPlan]
	// Active lists the active plans, cheapest first (LB-62); inactive plans
	// are not in its sparse index.
	//
	//	page, err := s.Plans.Active.List(ctx, lb.BillingPlan{})
	Active *table.Pattern[lb.BillingPlan]
	// Put stores (or replaces) a plan (LB-62, its write side); active plans
	// enter PLANS#active.
	Put func(context.Context, *lb.BillingPlan) error

	e *entities
}

func newPlans(e *entities) *Plans {
	return &Plans{e: e,
		Put: table.Put(e.plans, table.WriteDef[lb.BillingPlan]{ID: "LB-62", Name: "listbackup.Plans.Put",
			Doc: "Stores (or replaces) a plan; active plans enter PLANS#active."}),
		ByID: table.NewPattern(e.plans, table.PatternDef[lb.BillingPlan]{ID: "LB-62", Name: "listbackup.Plans.ByID",
			Doc: "A billing plan by ID.", Reads: table.ReadOne}),
		Active: table.NewPattern(e.plans, table.PatternDef[lb.BillingPlan]{ID: "LB-62", Name: "listbackup.Plans.Active",
			Doc: "The active billing plans, cheapest first (no Scan).", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true}),
	}
}
