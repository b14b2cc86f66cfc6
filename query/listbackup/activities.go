package listbackup

import (
	"context"
	"iter"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Activities serves LB-18..LB-22: the audit log, by account, user,
// resource type and event type, newest first, kept 90 days. The reads are
// declared ([table.Pattern]): its fields. Each reads the activities whose
// createdAt lies between the bounds' (RangeOn createdAt: a bound with a
// zero CreatedAt is open; both open read the whole partition), newest
// first; table.Asc, table.Limit and table.After combine with the range.
// Errors: *table.ValidationError (a bad ID or enumeration, a reversed
// range; before any request), table.ErrInvalidCursor.
type Activities struct {
	// ByAccount reads an account's activities (LB-18): Query
	// PK = ACTIVITY#{accountId}, SK BETWEEN EVT#{from} AND EVT#{to}#….
	//
	//	page, err := s.Activities.ByAccount.Between(ctx, lb.Activity{AccountID: a, CreatedAt: from}, lb.Activity{AccountID: a, CreatedAt: to})
	ByAccount *table.Pattern[lb.Activity]
	// ByUser reads a user's activities (LB-19): Query GSI1
	// PK = ACTUSER#{userId}, SK BETWEEN {from} AND {to}#….
	ByUser *table.Pattern[lb.Activity]
	// ByResourceType reads an account's activities on a resource type
	// (LB-20): Query GSI2 PK = ACTRES#{accountId}#{resourceType}, SK in
	// the range.
	ByResourceType *table.Pattern[lb.Activity]
	// ByEventType reads an account's activities of an event type (LB-21):
	// Query GSI3 PK = ACTEVT#{accountId}#{eventType}, SK in the range.
	ByEventType *table.Pattern[lb.Activity]

	record table.Op
	e      *entities
}

func newActivities(e *entities) *Activities {
	def := func(id, name, doc string, ix table.Index, check func(a *lb.Activity) error) table.PatternDef[lb.Activity] {
		return table.PatternDef[lb.Activity]{ID: id, Name: "listbackup.Activities." + name, Doc: doc, Index: ix,
			Reads: table.ReadRange, RangeOn: "createdAt", Desc: true, Check: check}
	}
	return &Activities{e: e,
		ByAccount: table.NewPattern(e.activities, def("LB-18", "ByAccount", "An account's activities in a time range, newest first.", table.Primary,
			func(a *lb.Activity) error { return a.AccountID.Validate("accountId") })),
		ByUser: table.NewPattern(e.activities, def("LB-19", "ByUser", "A user's activities in a time range, newest first.", table.GSI1,
			func(a *lb.Activity) error { return a.UserID.Validate("userId") })),
		ByResourceType: table.NewPattern(e.activities, def("LB-20", "ByResourceType", "An account's activities on a resource type in a time range, newest first.", table.GSI2,
			func(a *lb.Activity) error {
				return first(a.AccountID.Validate("accountId"), a.ResourceType.Check("resourceType"))
			})),
		ByEventType: table.NewPattern(e.activities, def("LB-21", "ByEventType", "An account's activities of an event type in a time range, newest first.", table.GSI3,
			func(a *lb.Activity) error {
				return first(a.AccountID.Validate("accountId"), a.EventType.Check("eventType"))
			})),
		record: table.NewOp(e.t, "LB-22", "listbackup.Activities.Record"),
	}
}

// Record stores activity a. A zero CreatedAt is now; EventID defaults to a
// new UUID. Its table TTL is CreatedAt + 90 days (LB-22): reads never
// return it afterwards. Errors: *table.ValidationError,
// table.ErrAlreadyExists.
func (s *Activities) Record(ctx context.Context, a *lb.Activity) error {
	return s.record.Do(ctx, func(ctx context.Context) error {
		if a.EventID == "" {
			a.EventID = lb.EventID(lb.NewUUID())
		}
		return s.e.activities.Create(ctx, a)
	})
}

// Jobs serves LB-23..LB-26.
type Jobs struct {
	create, get, update, listByAccount, listByStatus, listBySource, delete, allByAccount, allByStatus, allBySource table.Op
	e                                                                                                              *entities
	acct                                                                                                           lb.AccountID // set: the view of one account (Store.ForAccount)
}

func newJobs(e *entities, acct lb.AccountID) *Jobs {
	return &Jobs{e: e, acct: acct,
		allByAccount:  table.NewOp(e.t, "LB-23", "listbackup.Jobs.AllByAccount"),
		allByStatus:   table.NewOp(e.t, "LB-25", "listbackup.Jobs.AllByStatus"),
		allBySource:   table.NewOp(e.t, "LB-26", "listbackup.Jobs.AllBySource"),
		create:        table.NewOp(e.t, "LB-24", "listbackup.Jobs.Create"),
		get:           table.NewOp(e.t, "LB-24", "listbackup.Jobs.Get"),
		update:        table.NewOp(e.t, "LB-24", "listbackup.Jobs.Update"),
		listByAccount: table.NewOp(e.t, "LB-23", "listbackup.Jobs.ListByAccount"),
		listByStatus:  table.NewOp(e.t, "LB-25", "listbackup.Jobs.ListByStatus"),
		listBySource:  table.NewOp(e.t, "LB-26", "listbackup.Jobs.ListBySource"),
		delete:        table.NewOp(e.t, "LB-24", "listbackup.Jobs.Delete"),
	}
}

// Create creates job jb (CreatedAt defaults to now, Status to pending,
// Priority to medium). Errors: *table.ValidationError,
// table.ErrAlreadyExists.
//
// Pattern: LB-24 (its write side).
func (s *Jobs) Create(ctx context.Context, jb *lb.Job) error {
	return s.create.Do(ctx, func(ctx context.Context) error {
		if jb.Status == "" {
			jb.Status = lb.JobPending
		}
		if jb.Priority == "" {
			jb.Priority = lb.PriorityMedium
		}
		return s.v().Create(ctx, jb)
	})
}

// Get returns a job by ID (LB-24): GetItem PK = JOB#{jobId}, SK = JOB.
// Errors: *table.ValidationError, table.ErrNotFound.
func (s *Jobs) Get(ctx context.Context, id lb.JobID) (lb.Job, error) {
	return table.Run(ctx, s.get, func(ctx context.Context) (lb.Job, error) {
		k, err := key(s.e.jobs, lb.Job{JobID: id}, id.Validate("jobId"))
		if err != nil {
			return lb.Job{}, err
		}
		return s.v().Get(ctx, k)
	})
}

// Update applies change to a job (status, progress, result), moving its
// index entries. Errors: *table.ValidationError, table.ErrNotFound.
//
// Pattern: LB-24 (its write side).
func (s *Jobs) Update(ctx context.Context, id lb.JobID, change func(*lb.Job) error) (lb.Job, error) {
	return table.Run(ctx, s.update, func(ctx context.Context) (lb.Job, error) {
		k, err := key(s.e.jobs, lb.Job{JobID: id}, id.Validate("jobId"))
		if err != nil {
			return lb.Job{}, err
		}
		return s.v().Update(ctx, k, change)
	})
}

// ListByAccount returns one page of an account's jobs, newest first
// (LB-23): Query GSI1 PK = JOBS#{accountId}, SK begins_with CREATED#,
// descending. Errors: *table.ValidationError, table.ErrInvalidCursor.
func (s *Jobs) ListByAccount(ctx context.Context, account lb.AccountID, opts ...table.ListOption) (table.Page[lb.Job], error) {
	return table.Run(ctx, s.listByAccount, func(ctx context.Context) (table.Page[lb.Job], error) {
		if err := account.Validate("accountId"); err != nil {
			return table.Page[lb.Job]{}, err
		}
		q := s.e.jobs.Partition(table.GSI1, lb.Job{AccountID: account})
		q.Desc = true
		return s.v().List(ctx, q, opts...)
	})
}

// AllByAccount iterates over LB-23.
func (s *Jobs) AllByAccount(ctx context.Context, account lb.AccountID, opts ...table.ListOption) iter.Seq2[lb.Job, error] {
	return table.RunPages(ctx, s.allByAccount, func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Job], error) {
		return s.ListByAccount(ctx, account, o...)
	}, opts...)
}

// ListByStatus returns one page of an account's jobs in one status,
// newest first (LB-25): Query GSI2 PK = JOBS#{accountId}, SK begins_with
// STATUS#{status}#. Errors: *table.ValidationError, table.ErrInvalidCursor.
func (s *Jobs) ListByStatus(ctx context.Context, account lb.AccountID, st lb.JobStatus, opts ...table.ListOption) (table.Page[lb.Job], error) {
	return table.Run(ctx, s.listByStatus, func(ctx context.Context) (table.Page[lb.Job], error) {
		if err := first(account.Validate("accountId"), st.Check("status")); err != nil {
			return table.Page[lb.Job]{}, err
		}
		q := s.e.jobs.Prefix(table.GSI2, lb.Job{AccountID: account, Status: st}) // STATUS#{status}#
		q.Desc = true
		return s.v().List(ctx, q, opts...)
	})
}

// AllByStatus iterates over LB-25.
func (s *Jobs) AllByStatus(ctx context.Context, account lb.AccountID, st lb.JobStatus, opts ...table.ListOption) iter.Seq2[lb.Job, error] {
	return table.RunPages(ctx, s.allByStatus, func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Job], error) {
		return s.ListByStatus(ctx, account, st, o...)
	}, opts...)
}

// ListBySource returns one page of a source's jobs ordered by creation
// time, oldest first unless table.Desc (LB-26): Query GSI3
// PK = SRCJOBS#{sourceId}. Errors: *table.ValidationError,
// table.ErrInvalidCursor.
func (s *Jobs) ListBySource(ctx context.Context, src lb.SourceID, opts ...table.ListOption) (table.Page[lb.Job], error) {
	return table.Run(ctx, s.listBySource, func(ctx context.Context) (table.Page[lb.Job], error) {
		if err := src.Validate("sourceId"); err != nil {
			return table.Page[lb.Job]{}, err
		}
		return s.v().List(ctx, partition(s.e.jobs, table.GSI3, lb.Job{SourceID: src}), opts...)
	})
}

// AllBySource iterates over LB-26.
func (s *Jobs) AllBySource(ctx context.Context, src lb.SourceID, opts ...table.ListOption) iter.Seq2[lb.Job, error] {
	return table.RunPages(ctx, s.allBySource, func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Job], error) {
		return s.ListBySource(ctx, src, o...)
	}, opts...)
}
