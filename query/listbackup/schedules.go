package listbackup

import (
	"context"
	"strings"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// Schedules serves LB-47..LB-49.
type Schedules struct {
	// BySource lists a source's schedules (LB-47).
	//
	//	page, err := s.Schedules.BySource.List(ctx, lb.SyncSchedule{SourceID: src})
	BySource *table.Pattern[lb.SyncSchedule]
	// Create creates a schedule (LB-47, its write side); ScheduleID defaults
	// to a new UUID. Active schedules enter the due index.
	Create func(context.Context, *lb.SyncSchedule) error
	// SetActive turns a schedule on or off (LB-49, its write side); off
	// leaves the due index.
	SetActive func(context.Context, ScheduleRef, bool) (lb.SyncSchedule, error)

	due, dueInShards, recordRun table.Op
	e                           *entities
}

// ScheduleRef names a source's sync schedule (its primary key).
type ScheduleRef struct {
	SourceID   lb.SourceID
	ScheduleID lb.ScheduleID
}

// schedule is the key fields of the schedule r names.
func (r ScheduleRef) schedule() lb.SyncSchedule {
	return lb.SyncSchedule{SourceID: r.SourceID, ScheduleID: r.ScheduleID}
}

func newSchedules(e *entities) *Schedules {
	return &Schedules{e: e,
		Create: table.Create(e.schedules, table.WriteDef[lb.SyncSchedule]{ID: "LB-47", Name: "listbackup.Schedules.Create",
			Doc:    "Creates a schedule (ScheduleID defaults to a new UUID).",
			Before: func(sc *lb.SyncSchedule) { newID(&sc.ScheduleID) }}),
		due:         table.NewOp(e.t, "LB-48", "listbackup.Schedules.Due"),
		dueInShards: table.NewOp(e.t, "LB-48", "listbackup.Schedules.DueInShards"),
		recordRun:   table.NewOp(e.t, "LB-49", "listbackup.Schedules.RecordRun"),
		SetActive: table.UpdateWith(e.schedules, table.WriteDef[lb.SyncSchedule]{ID: "LB-49", Name: "listbackup.Schedules.SetActive",
			Doc: "Turns a schedule on or off (off leaves the due index)."}, ScheduleRef.schedule,
			"isActive", func(sc *lb.SyncSchedule, active bool) error { sc.IsActive = active; return nil }),
		BySource: table.NewPattern(e.schedules, table.PatternDef[lb.SyncSchedule]{ID: "LB-47", Name: "listbackup.Schedules.BySource",
			Doc: "A source's sync schedules.", Reads: table.ReadPage}),
	}
}

// Due returns one page of the active schedules with nextRunAt <= now,
// oldest first (LB-48): Query GSI1 PK = SCHED#DUE#{n}, SK <
// keys.MustTimestamp(now + 1ns), for each shard n (Options.IndexShards;
// SCHED#DUE itself with one shard), sent at once and merged by nextRunAt:
// one request per shard per page (more when one shard holds much more of
// the page than the others). Errors: *table.ValidationError (zero now),
// table.ErrInvalidCursor. Every page: table.Every(ctx, s.Schedules.Due, now).
func (s *Schedules) Due(ctx context.Context, now time.Time, opts ...table.ListOption) (table.Page[lb.SyncSchedule], error) {
	return table.Run(ctx, s.due, func(ctx context.Context) (table.Page[lb.SyncSchedule], error) {
		return s.dueIn(ctx, now, nil, opts)
	})
}

// DueInShards is [Schedules.Due] over some shards only (LB-48), for a
// scheduler worker that owns them: shards are numbers in
// 0..Shards()-1, and a schedule is in shard table.Shard(scheduleId,
// Shards()). Workers owning disjoint shards that cover them all see every
// due schedule once. Errors: *table.ValidationError (zero now, a shard out
// of range), table.ErrInvalidCursor.
func (s *Schedules) DueInShards(ctx context.Context, now time.Time, shards []int, opts ...table.ListOption) (table.Page[lb.SyncSchedule], error) {
	return table.Run(ctx, s.dueInShards, func(ctx context.Context) (table.Page[lb.SyncSchedule], error) {
		if len(shards) == 0 {
			return table.Page[lb.SyncSchedule]{}, table.Invalid("shards", "none")
		}
		return s.dueIn(ctx, now, shards, opts)
	})
}

// Shards returns the shard count of the due index (Options.IndexShards).
func (s *Schedules) Shards() int { return s.e.shards }

func (s *Schedules) dueIn(ctx context.Context, now time.Time, shards []int, opts []table.ListOption) (table.Page[lb.SyncSchedule], error) {
	if now.IsZero() {
		return table.Page[lb.SyncSchedule]{}, table.Invalid("now", "required")
	}
	// Below the first key after now: the sort key begins with nextRunAt,
	// to the nanosecond (a stored one is whole seconds).
	if err := lb.CheckTime("now", now.Add(time.Nanosecond)); err != nil {
		return table.Page[lb.SyncSchedule]{}, err
	}
	bound, err := s.e.schedules.SortPrefixAt(table.GSI1, lb.SyncSchedule{}, "nextRunAt", now.Add(time.Nanosecond))
	if err != nil {
		return table.Page[lb.SyncSchedule]{}, err
	}
	// The partition without its shard segment (SCHED#DUE), which List
	// reads shard by shard.
	q := partition(s.e.schedules, table.GSI1, lb.SyncSchedule{})
	q.SK = table.SKLess(strings.TrimSuffix(bound, keys.Delimiter))
	if shards != nil {
		if s.e.shards < 2 {
			if len(shards) != 1 || shards[0] != 0 {
				return table.Page[lb.SyncSchedule]{}, table.Invalid("shards", "the due index has one shard, 0")
			}
		} else {
			q.Shards, q.OnlyShards = s.e.shards, shards
		}
	}
	return s.e.schedules.List(ctx, q, opts...)
}

// RecordRun updates a schedule after a run (LB-49): lastRunAt = ranAt,
// nextRunAt = next, which moves it in the due index. A consistent read and
// one conditional write (table.Entity.Update), because nextRunAt is an
// attribute the due index key derives from, which table.Entity.Patch may
// not touch: the index entry is recomputed from the stored schedule read,
// and the write is conditioned on its version. Errors:
// *table.ValidationError (next not after ranAt), table.ErrNotFound.
func (s *Schedules) RecordRun(ctx context.Context, src lb.SourceID, id lb.ScheduleID, ranAt, next time.Time) (lb.SyncSchedule, error) {
	return table.Run(ctx, s.recordRun, func(ctx context.Context) (lb.SyncSchedule, error) {
		k, err := s.e.schedules.CheckedKey(lb.SyncSchedule{SourceID: src, ScheduleID: id})
		if err != nil {
			return lb.SyncSchedule{}, err
		}
		if ranAt.IsZero() || !next.After(ranAt) {
			return lb.SyncSchedule{}, table.Invalid("nextRunAt", "must be after the run time")
		}
		return s.e.schedules.Update(ctx, k, func(sc *lb.SyncSchedule) error {
			sc.LastRunAt, sc.NextRunAt = lb.Seconds(ranAt), lb.Seconds(next)
			return nil
		})
	})
}

// Runs serves LB-50 and LB-51 (core's sync_history).
type Runs struct {
	// BySource lists a source's runs, newest first (LB-50).
	//
	//	page, err := s.Runs.BySource.List(ctx, lb.SyncRun{SourceID: src})
	BySource *table.Pattern[lb.SyncRun]
	// Record stores sync run r (LB-50, its write side); SyncID defaults to
	// a new UUID, StartedAt to now, Status to running.
	Record func(context.Context, *lb.SyncRun) error

	finish, listByStatus table.Op
	e                    *entities
}

func newRuns(e *entities) *Runs {
	return &Runs{e: e,
		Record: table.Create(e.runs, table.WriteDef[lb.SyncRun]{ID: "LB-50", Name: "listbackup.Runs.Record",
			Doc: "Stores a sync run (SyncID defaults to a new UUID, StartedAt to now, Status to running).",
			Before: func(r *lb.SyncRun) {
				newID(&r.SyncID)
				if r.StartedAt.IsZero() {
					r.StartedAt = e.now()
				}
				r.StartedAt = lb.Seconds(r.StartedAt)
				orDefault(&r.Status, lb.RunRunning)
			}}),
		finish:       table.NewOp(e.t, "LB-50", "listbackup.Runs.Finish"),
		listByStatus: table.NewOp(e.t, "LB-51", "listbackup.Runs.ListByStatus"),
		BySource: table.NewPattern(e.runs, table.PatternDef[lb.SyncRun]{ID: "LB-50", Name: "listbackup.Runs.BySource",
			Doc: "A source's sync runs, newest first.", Reads: table.ReadPage, Desc: true}),
	}
}

// Finish records a run's outcome (status, completedAt, duration, counts,
// errors), moving it in the status index. Errors: *table.ValidationError,
// table.ErrNotFound.
//
// Pattern: LB-50 (its write side).
func (s *Runs) Finish(ctx context.Context, src lb.SourceID, startedAt time.Time, id lb.SyncID, status lb.RunStatus, records map[string]int64, errs []string) (lb.SyncRun, error) {
	return table.Run(ctx, s.finish, func(ctx context.Context) (lb.SyncRun, error) {
		k, err := s.e.runs.CheckedKey(lb.SyncRun{SourceID: src, StartedAt: lb.Seconds(startedAt), SyncID: id},
			lb.CheckTime("startedAt", startedAt))
		if err != nil {
			return lb.SyncRun{}, err
		}
		if err := table.CheckEnum("status", status); err != nil {
			return lb.SyncRun{}, err
		}
		now := lb.Seconds(s.e.now())
		return s.e.runs.Update(ctx, k, func(r *lb.SyncRun) error {
			r.Status, r.CompletedAt, r.Errors = status, now, errs
			r.Duration = int64(now.Sub(r.StartedAt) / time.Second)
			if records != nil {
				r.RecordsProcessed = records
			}
			return nil
		})
	})
}

// ListByStatus returns one page of the runs in one status started in r,
// newest first (LB-51, e.g. recent failures): Query GSI1
// PK = RUNS#{status}#{n}, SK in r, for each shard n (Options.IndexShards;
// RUNS#{status} itself with one shard), sent at once and merged by
// startedAt: one request per shard per page. Errors: *table.ValidationError,
// table.ErrInvalidCursor. Every page: table.Pages over a closure of it.
func (s *Runs) ListByStatus(ctx context.Context, st lb.RunStatus, r TimeRange, opts ...table.ListOption) (table.Page[lb.SyncRun], error) {
	return table.Run(ctx, s.listByStatus, func(ctx context.Context) (table.Page[lb.SyncRun], error) {
		if err := table.CheckEnum("status", st); err != nil {
			return table.Page[lb.SyncRun]{}, err
		}
		q := partition(s.e.runs, table.GSI1, lb.SyncRun{Status: st})
		var err error
		if q.SK, err = r.cond(func(t time.Time) (string, error) {
			return s.e.runs.SortPrefixAt(table.GSI1, lb.SyncRun{}, "startedAt", t)
		}); err != nil {
			return table.Page[lb.SyncRun]{}, err
		}
		q.Desc = true
		return s.e.runs.List(ctx, q, opts...)
	})
}
