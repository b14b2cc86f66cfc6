package listbackup

import (
	"context"
	"errors"
	"iter"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Usage serves LB-58..LB-61: daily usage metrics per account.
type Usage struct{ e *entities }

// Get returns an account's metrics for a day (LB-58): GetItem
// PK = ACCOUNT#{accountId}, SK = USAGE#{metricDate}. Errors:
// *table.ValidationError, table.ErrNotFound.
func (s *Usage) Get(ctx context.Context, account lb.AccountID, day lb.Date) (_ lb.UsageMetrics, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-58", "listbackup.Usage.Get")
	defer func() { call.End(err) }()
	k, err := lb.UsageKey(account, day)
	if err != nil {
		return lb.UsageMetrics{}, err
	}
	return s.e.usage.Get(ctx, k)
}

// Put stores (or replaces) a day's metrics, e.g. from a rollup job.
// Errors: *table.ValidationError.
//
// Pattern: LB-58 (its write side).
func (s *Usage) Put(ctx context.Context, m *lb.UsageMetrics) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-58", "listbackup.Usage.Put")
	defer func() { call.End(err) }()
	return s.e.usage.Put(ctx, m)
}

// ListRange returns one page of an account's metrics from one day to
// another, both inclusive, oldest first (LB-59, monthly usage): Query
// PK = ACCOUNT#{accountId}, SK BETWEEN USAGE#{from} AND USAGE#{to}.
// Errors: *table.ValidationError (reversed range), table.ErrInvalidCursor.
func (s *Usage) ListRange(ctx context.Context, account lb.AccountID, from, to lb.Date, opts ...table.ListOption) (_ table.Page[lb.UsageMetrics], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-59", "listbackup.Usage.ListRange")
	defer func() { call.End(err) }()
	lo, err := lb.UsageKey(account, from)
	if err != nil {
		return table.Page[lb.UsageMetrics]{}, err
	}
	hi, err := lb.UsageKey(account, to)
	if err != nil {
		return table.Page[lb.UsageMetrics]{}, err
	}
	if from > to {
		return table.Page[lb.UsageMetrics]{}, table.Invalid("to", "%s is before from %s (reversed range)", to, from)
	}
	return s.e.usage.List(ctx, table.Query{PK: lo.PK, SK: table.SKBetween(lo.SK, hi.SK)}, opts...)
}

// AllRange iterates over LB-59.
func (s *Usage) AllRange(ctx context.Context, account lb.AccountID, from, to lb.Date, opts ...table.ListOption) iter.Seq2[lb.UsageMetrics, error] {
	return table.CallPages(ctx, s.e.t, "LB-59", "listbackup.Usage.AllRange", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.UsageMetrics], error) {
		return s.ListRange(ctx, account, from, to, o...)
	}, opts...)
}

// ListDay returns one page of every account's metrics for a day, by
// account (LB-60, the daily rollup): Query GSI1 PK = USAGE#{metricDate}.
// Errors: *table.ValidationError, table.ErrInvalidCursor.
func (s *Usage) ListDay(ctx context.Context, day lb.Date, opts ...table.ListOption) (_ table.Page[lb.UsageMetrics], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-60", "listbackup.Usage.ListDay")
	defer func() { call.End(err) }()
	if err := day.Validate("metricDate"); err != nil {
		return table.Page[lb.UsageMetrics]{}, err
	}
	return listIn(ctx, s.e.usage, table.GSI1, lb.UsageDateIndex, vals{"metricDate": string(day)}, opts)
}

// AllDay iterates over LB-60.
func (s *Usage) AllDay(ctx context.Context, day lb.Date, opts ...table.ListOption) iter.Seq2[lb.UsageMetrics, error] {
	return table.CallPages(ctx, s.e.t, "LB-60", "listbackup.Usage.AllDay", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.UsageMetrics], error) {
		return s.ListDay(ctx, day, o...)
	}, opts...)
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
func (s *Usage) Increment(ctx context.Context, account lb.AccountID, day lb.Date, deltas map[lb.Counter]int64) (_ lb.UsageMetrics, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-61", "listbackup.Usage.Increment")
	defer func() { call.End(err) }()
	k, err := lb.UsageKey(account, day)
	if err != nil {
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
}

// Plans serves LB-62: billing plans by ID, and the active ones without a
// Scan.
type Plans struct{ e *entities }

// Put stores (or replaces) plan p; active plans enter PLANS#active.
// Errors: *table.ValidationError.
//
// Pattern: LB-62 (its write side).
func (s *Plans) Put(ctx context.Context, p *lb.BillingPlan) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-62", "listbackup.Plans.Put")
	defer func() { call.End(err) }()
	return s.e.plans.Put(ctx, p)
}

// Get returns a plan by ID (LB-62): GetItem PK = PLAN#{planId}, SK = PLAN.
// Errors: *table.ValidationError, table.ErrNotFound.
func (s *Plans) Get(ctx context.Context, id lb.PlanID) (_ lb.BillingPlan, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-62", "listbackup.Plans.Get")
	defer func() { call.End(err) }()
	k, err := lb.PlanKey(id)
	if err != nil {
		return lb.BillingPlan{}, err
	}
	return s.e.plans.Get(ctx, k)
}

// ListActive returns one page of the active plans, cheapest first (LB-62):
// Query GSI1 PK = PLANS#active; inactive plans are not in that sparse
// index. Errors: *table.ValidationError, table.ErrInvalidCursor.
func (s *Plans) ListActive(ctx context.Context, opts ...table.ListOption) (_ table.Page[lb.BillingPlan], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-62", "listbackup.Plans.ListActive")
	defer func() { call.End(err) }()
	return listIn(ctx, s.e.plans, table.GSI1, lb.PlanActiveIndex, nil, opts)
}

// AllActive iterates over LB-62 (active plans).
func (s *Plans) AllActive(ctx context.Context, opts ...table.ListOption) iter.Seq2[lb.BillingPlan, error] {
	return table.CallPages(ctx, s.e.t, "LB-62", "listbackup.Plans.AllActive", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.BillingPlan], error) {
		return s.ListActive(ctx, o...)
	}, opts...)
}
