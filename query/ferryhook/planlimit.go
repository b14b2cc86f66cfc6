package ferryhook

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// The plan limit (issue 44). The running service's ingest handler reads
// the user and answers 429 PLAN_LIMIT_REACHED when usageThisMonth is at
// or past the plan's eventsPerMonth on the free plan (paid plans take the
// events, flagged for overage billing). Every profile of the store holds
// the same rule ([Options.PlanLimit], [DefaultPlanLimit]) without a
// write unit more: the ingest transaction (or PutItem) is sent only when
// the user's usage, as last read, plus the events this store has taken
// for the user since, leaves room for it; otherwise the ingest gives
// [ErrPlanLimit] and sends nothing.
//
// The usage is read (the exact figure: the user item's usageThisMonth in
// the document profile, the rollup and the 32 usage shards in one
// strongly consistent BatchGetItem in the scaled and stream-counted
// profiles, Users.Usage's read) once per store and limited user per
// [Options.StateCheck] (1 second), at the first ingest after it; the
// document profile takes its first figure from the FH-1 read it makes
// anyway. Only users whose plan has a limit are read. The bound:
//
//   - one store never passes the limit: it counts what it takes,
//     including an ingest that failed in a way that may follow a stored
//     write (a lost answer: kept), until its next usage read;
//   - stores together pass it by at most the events the other stores took
//     for the user since this store's last read, their rate times
//     StateCheck (a free plan's 100 events a minute, the service's rate
//     limit: 2 events at the 1-second default);
//   - in the stream-counted profile the usage read lags the events by the
//     stream's lag too: add the rate times the consumer's lag;
//   - events in flight when the usage is read are counted as taken until
//     the next read, so a store may refuse up to that many events early
//     (at most a group: 48 events, in the scaled profile);
//   - with a negative StateCheck the usage is read once per store.
//
// A billing period reset by the store itself ([Users.ResetUsage]) is seen
// at once; one reset elsewhere, within StateCheck.

// ErrPlanLimit: the user's events this month have reached the plan's
// limit ([Options.PlanLimit]); the ingest stored and counted nothing. The
// error is a [*PlanLimitError] with the figures.
var ErrPlanLimit = errors.New("ferryhook: monthly event limit of the plan reached")

// PlanLimitError is an ingest refused by the plan limit. It matches
// [ErrPlanLimit].
type PlanLimitError struct {
	// User and Plan are the owner of the source and its plan.
	User fh.UserID
	Plan fh.Plan
	// Limit is the plan's events per month; Usage the events counted
	// against it when the ingest was refused (as last read, plus what the
	// store took since).
	Limit, Usage int64
}

// Error implements error.
func (e *PlanLimitError) Error() string {
	return fmt.Sprintf("%v: user %s on plan %q: %d events this month, limit %d", ErrPlanLimit, e.User, e.Plan, e.Usage, e.Limit)
}

// Is reports whether target is [ErrPlanLimit].
func (e *PlanLimitError) Is(target error) bool { return target == ErrPlanLimit }

// DefaultPlanLimit is the running service's rule: plan's
// fh.Plan.EventsPerMonth when the plan refuses events past it
// (fh.Plan.RefusesOverLimit: free, 5,000 a month), 0 (no limit) for paid
// plans.
func DefaultPlanLimit(plan fh.Plan) int64 {
	if plan.RefusesOverLimit() {
		return plan.EventsPerMonth()
	}
	return 0
}

// planLimit is Options.PlanLimit with its default.
func (s *Store) planLimit(plan fh.Plan) int64 {
	if s.opts.PlanLimit != nil {
		return s.opts.PlanLimit(plan)
	}
	return DefaultPlanLimit(plan)
}

// usageGate is what a store knows of one limited user's usage.
type usageGate struct {
	mu sync.Mutex
	// read is when base was read (zero: never); gen counts the reads.
	read time.Time
	gen  int
	base int64
	// taken counts the events admitted since the read (sent or in
	// flight); inflight those not answered yet.
	taken, inflight int64
}

// gate returns user's usage gate: looked up first, so that an ingest
// allocates no new gate (nor boxes the key twice) once it exists.
func (s *Store) gate(user fh.UserID) *usageGate {
	v, ok := s.gates.Load(user)
	if !ok {
		v, _ = s.gates.LoadOrStore(user, &usageGate{})
	}
	return v.(*usageGate)
}

// setLocked records usage u read at now (g.mu held): the events in
// flight may be in u or not, and are counted as taken.
func (g *usageGate) setLocked(u int64, now time.Time) {
	g.base, g.taken, g.read = u, g.inflight, now
	g.gen++
}

// seedUsage records the usage of user read with its item (the document
// profile's FH-1), if its plan is limited.
func (s *Store) seedUsage(user fh.UserID, plan fh.Plan, usage int64) {
	if s.scaled() || s.planLimit(plan) <= 0 {
		return // in the scaled profiles the item holds a rollup only
	}
	g := s.gate(user)
	g.mu.Lock()
	g.setLocked(usage, s.now())
	g.mu.Unlock()
}

// admit reserves room for n events of user on plan under the plan's
// limit, reading the usage when the store's figure is older than
// StateCheck; it gives a *PlanLimitError when they do not fit. release
// ends the reservation: ok says the events stay counted (stored, or
// possibly stored: see kept); false gives the room back.
func (s *Store) admit(ctx context.Context, user fh.UserID, plan fh.Plan, n int) (release func(ok bool), err error) {
	limit := s.planLimit(plan)
	if limit <= 0 {
		return func(bool) {}, nil
	}
	g := s.gate(user)
	g.mu.Lock()
	if g.read.IsZero() || s.opts.StateCheck >= 0 && s.now().Sub(g.read) >= s.stateCheck() {
		g.mu.Unlock()
		at := s.now()
		u, err := s.usage(ctx, user)
		if err != nil {
			return nil, fmt.Errorf("usage of %s: %w", user, err)
		}
		g.mu.Lock()
		if !g.read.After(at) { // no newer figure meanwhile
			g.setLocked(u, at)
		}
	}
	if used := g.base + g.taken; used+int64(n) > limit {
		g.mu.Unlock()
		return nil, &PlanLimitError{User: user, Plan: plan, Limit: limit, Usage: used}
	}
	g.taken += int64(n)
	g.inflight += int64(n)
	gen := g.gen
	g.mu.Unlock()
	return func(ok bool) {
		g.mu.Lock()
		g.inflight -= int64(n)
		if !ok && gen == g.gen {
			g.taken -= int64(n)
		}
		g.mu.Unlock()
	}, nil
}

// kept says whether events whose write ended in err stay counted against
// the limit until the next usage read: yes unless err says DynamoDB
// refused the write (a condition, a missing or paused source, bad
// input). A timeout, a lost connection or throttling after the retries
// may follow a write that landed, whose answer was lost: giving its room
// back could let one store pass the limit.
func kept(err error) bool {
	for _, refused := range []error{table.ErrNotFound, table.ErrAlreadyExists, table.ErrConditionFailed,
		table.ErrTransactionCanceled, table.ErrConflict, table.ErrInvalidInput, table.ErrInvalidKey, table.ErrItemTooLarge} {
		if errors.Is(err, refused) {
			return false
		}
	}
	return true
}

// forgetUsage drops what the store knows of user's usage (its billing
// period was reset): the next ingest reads it.
func (s *Store) forgetUsage(user fh.UserID) { s.gates.Delete(user) }
