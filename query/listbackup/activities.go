package listbackup

import (
	"context"
	"iter"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Activities serves LB-18..LB-22: the audit log, by account, user,
// resource type and event type, newest first, kept 90 days.
type Activities struct{ e *entities }

// Record stores activity a. A zero CreatedAt is now; EventID defaults to a
// new UUID. Its table TTL is CreatedAt + 90 days (LB-22): reads never
// return it afterwards. Errors: *table.ValidationError,
// table.ErrAlreadyExists.
func (s *Activities) Record(ctx context.Context, a *lb.Activity) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-22", "listbackup.Activities.Record")
	defer func() { call.End(err) }()
	if a.EventID == "" {
		a.EventID = lb.EventID(lb.NewUUID())
	}
	return s.e.activities.Create(ctx, a)
}

// list returns a page of the activities of index ix in the partition
// template t gives v, in r, newest first.
func (s *Activities) list(ctx context.Context, ix table.Index, t table.Template, v vals, r TimeRange, opts []table.ListOption) (table.Page[lb.Activity], error) {
	q, err := inPartition(ix, t, v)
	if err != nil {
		return table.Page[lb.Activity]{}, err
	}
	if q.SK, err = r.cond(t, nil, "createdAt"); err != nil {
		return table.Page[lb.Activity]{}, err
	}
	q.Desc = true
	return s.e.activities.List(ctx, q, opts...)
}

// ListByAccount returns one page of an account's activities in r, newest
// first (LB-18): Query PK = ACTIVITY#{accountId}, SK BETWEEN
// EVT#{from} AND EVT#{to}#…, descending. Errors: *table.ValidationError
// (bad ID, reversed range), table.ErrInvalidCursor.
func (s *Activities) ListByAccount(ctx context.Context, account lb.AccountID, r TimeRange, opts ...table.ListOption) (_ table.Page[lb.Activity], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-18", "listbackup.Activities.ListByAccount")
	defer func() { call.End(err) }()
	if err := account.Validate("accountId"); err != nil {
		return table.Page[lb.Activity]{}, err
	}
	return s.list(ctx, table.Primary, lb.ActivityKeys, vals{"accountId": string(account)}, r, opts)
}

// AllByAccount iterates over LB-18.
func (s *Activities) AllByAccount(ctx context.Context, account lb.AccountID, r TimeRange, opts ...table.ListOption) iter.Seq2[lb.Activity, error] {
	return table.CallPages(ctx, s.e.t, "LB-18", "listbackup.Activities.AllByAccount", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Activity], error) {
		return s.ListByAccount(ctx, account, r, o...)
	}, opts...)
}

// ListByUser returns one page of a user's activities in r, newest first
// (LB-19): Query GSI1 PK = ACTUSER#{userId}, SK BETWEEN {from} AND {to}#….
// Errors: *table.ValidationError, table.ErrInvalidCursor.
func (s *Activities) ListByUser(ctx context.Context, user lb.UserID, r TimeRange, opts ...table.ListOption) (_ table.Page[lb.Activity], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-19", "listbackup.Activities.ListByUser")
	defer func() { call.End(err) }()
	if err := user.Validate("userId"); err != nil {
		return table.Page[lb.Activity]{}, err
	}
	return s.list(ctx, table.GSI1, lb.ActivityUserIndex, vals{"userId": string(user)}, r, opts)
}

// AllByUser iterates over LB-19.
func (s *Activities) AllByUser(ctx context.Context, user lb.UserID, r TimeRange, opts ...table.ListOption) iter.Seq2[lb.Activity, error] {
	return table.CallPages(ctx, s.e.t, "LB-19", "listbackup.Activities.AllByUser", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Activity], error) {
		return s.ListByUser(ctx, user, r, o...)
	}, opts...)
}

// ListByResourceType returns one page of an account's activities on a
// resource type in r, newest first (LB-20): Query GSI2
// PK = ACTRES#{accountId}#{resourceType}, SK in r. Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *Activities) ListByResourceType(ctx context.Context, account lb.AccountID, rt lb.ResourceType, r TimeRange, opts ...table.ListOption) (_ table.Page[lb.Activity], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-20", "listbackup.Activities.ListByResourceType")
	defer func() { call.End(err) }()
	if err := first(account.Validate("accountId"), rt.Check("resourceType")); err != nil {
		return table.Page[lb.Activity]{}, err
	}
	return s.list(ctx, table.GSI2, lb.ActivityResourceIndex, vals{"accountId": string(account), "resourceType": string(rt)}, r, opts)
}

// AllByResourceType iterates over LB-20.
func (s *Activities) AllByResourceType(ctx context.Context, account lb.AccountID, rt lb.ResourceType, r TimeRange, opts ...table.ListOption) iter.Seq2[lb.Activity, error] {
	return table.CallPages(ctx, s.e.t, "LB-20", "listbackup.Activities.AllByResourceType", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Activity], error) {
		return s.ListByResourceType(ctx, account, rt, r, o...)
	}, opts...)
}

// ListByEventType returns one page of an account's activities of an event
// type in r, newest first (LB-21): Query GSI3
// PK = ACTEVT#{accountId}#{eventType}, SK in r. Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *Activities) ListByEventType(ctx context.Context, account lb.AccountID, et lb.EventType, r TimeRange, opts ...table.ListOption) (_ table.Page[lb.Activity], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-21", "listbackup.Activities.ListByEventType")
	defer func() { call.End(err) }()
	if err := first(account.Validate("accountId"), et.Check("eventType")); err != nil {
		return table.Page[lb.Activity]{}, err
	}
	return s.list(ctx, table.GSI3, lb.ActivityEventIndex, vals{"accountId": string(account), "eventType": string(et)}, r, opts)
}

// AllByEventType iterates over LB-21.
func (s *Activities) AllByEventType(ctx context.Context, account lb.AccountID, et lb.EventType, r TimeRange, opts ...table.ListOption) iter.Seq2[lb.Activity, error] {
	return table.CallPages(ctx, s.e.t, "LB-21", "listbackup.Activities.AllByEventType", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Activity], error) {
		return s.ListByEventType(ctx, account, et, r, o...)
	}, opts...)
}

// Jobs serves LB-23..LB-26.
type Jobs struct {
	e    *entities
	acct lb.AccountID // set: the view of one account (Store.ForAccount)
}

// Create creates job jb (CreatedAt defaults to now, Status to pending,
// Priority to medium). Errors: *table.ValidationError,
// table.ErrAlreadyExists.
//
// Pattern: LB-24 (its write side).
func (s *Jobs) Create(ctx context.Context, jb *lb.Job) (err error) {
	ctx, call := s.e.t.Call(ctx, "LB-24", "listbackup.Jobs.Create")
	defer func() { call.End(err) }()
	if jb.Status == "" {
		jb.Status = lb.JobPending
	}
	if jb.Priority == "" {
		jb.Priority = lb.PriorityMedium
	}
	return s.v().Create(ctx, jb)
}

// Get returns a job by ID (LB-24): GetItem PK = JOB#{jobId}, SK = JOB.
// Errors: *table.ValidationError, table.ErrNotFound.
func (s *Jobs) Get(ctx context.Context, id lb.JobID) (_ lb.Job, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-24", "listbackup.Jobs.Get")
	defer func() { call.End(err) }()
	k, err := lb.JobKey(id)
	if err != nil {
		return lb.Job{}, err
	}
	return s.v().Get(ctx, k)
}

// Update applies change to a job (status, progress, result), moving its
// index entries. Errors: *table.ValidationError, table.ErrNotFound.
//
// Pattern: LB-24 (its write side).
func (s *Jobs) Update(ctx context.Context, id lb.JobID, change func(*lb.Job) error) (_ lb.Job, err error) {
	ctx, call := s.e.t.Call(ctx, "LB-24", "listbackup.Jobs.Update")
	defer func() { call.End(err) }()
	k, err := lb.JobKey(id)
	if err != nil {
		return lb.Job{}, err
	}
	return s.v().Update(ctx, k, change)
}

// ListByAccount returns one page of an account's jobs, newest first
// (LB-23): Query GSI1 PK = JOBS#{accountId}, SK begins_with CREATED#,
// descending. Errors: *table.ValidationError, table.ErrInvalidCursor.
func (s *Jobs) ListByAccount(ctx context.Context, account lb.AccountID, opts ...table.ListOption) (_ table.Page[lb.Job], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-23", "listbackup.Jobs.ListByAccount")
	defer func() { call.End(err) }()
	if err := account.Validate("accountId"); err != nil {
		return table.Page[lb.Job]{}, err
	}
	q, err := inPrefix(table.GSI1, lb.JobCreatedIndex, vals{"accountId": string(account)}, nil)
	if err != nil {
		return table.Page[lb.Job]{}, err
	}
	q.Desc = true
	return s.v().List(ctx, q, opts...)
}

// AllByAccount iterates over LB-23.
func (s *Jobs) AllByAccount(ctx context.Context, account lb.AccountID, opts ...table.ListOption) iter.Seq2[lb.Job, error] {
	return table.CallPages(ctx, s.e.t, "LB-23", "listbackup.Jobs.AllByAccount", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Job], error) {
		return s.ListByAccount(ctx, account, o...)
	}, opts...)
}

// ListByStatus returns one page of an account's jobs in one status,
// newest first (LB-25): Query GSI2 PK = JOBS#{accountId}, SK begins_with
// STATUS#{status}#. Errors: *table.ValidationError, table.ErrInvalidCursor.
func (s *Jobs) ListByStatus(ctx context.Context, account lb.AccountID, st lb.JobStatus, opts ...table.ListOption) (_ table.Page[lb.Job], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-25", "listbackup.Jobs.ListByStatus")
	defer func() { call.End(err) }()
	if err := first(account.Validate("accountId"), st.Check("status")); err != nil {
		return table.Page[lb.Job]{}, err
	}
	q, err := inPrefix(table.GSI2, lb.JobStatusIndex, vals{"accountId": string(account)}, vals{"status": string(st)})
	if err != nil {
		return table.Page[lb.Job]{}, err
	}
	q.Desc = true
	return s.v().List(ctx, q, opts...)
}

// AllByStatus iterates over LB-25.
func (s *Jobs) AllByStatus(ctx context.Context, account lb.AccountID, st lb.JobStatus, opts ...table.ListOption) iter.Seq2[lb.Job, error] {
	return table.CallPages(ctx, s.e.t, "LB-25", "listbackup.Jobs.AllByStatus", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Job], error) {
		return s.ListByStatus(ctx, account, st, o...)
	}, opts...)
}

// ListBySource returns one page of a source's jobs ordered by creation
// time, oldest first unless table.Desc (LB-26): Query GSI3
// PK = SRCJOBS#{sourceId}. Errors: *table.ValidationError,
// table.ErrInvalidCursor.
func (s *Jobs) ListBySource(ctx context.Context, src lb.SourceID, opts ...table.ListOption) (_ table.Page[lb.Job], err error) {
	ctx, call := s.e.t.Call(ctx, "LB-26", "listbackup.Jobs.ListBySource")
	defer func() { call.End(err) }()
	if err := src.Validate("sourceId"); err != nil {
		return table.Page[lb.Job]{}, err
	}
	q, err := inPartition(table.GSI3, lb.JobSourceIndex, vals{"sourceId": string(src)})
	if err != nil {
		return table.Page[lb.Job]{}, err
	}
	return s.v().List(ctx, q, opts...)
}

// AllBySource iterates over LB-26.
func (s *Jobs) AllBySource(ctx context.Context, src lb.SourceID, opts ...table.ListOption) iter.Seq2[lb.Job, error] {
	return table.CallPages(ctx, s.e.t, "LB-26", "listbackup.Jobs.AllBySource", func(ctx context.Context, o ...table.ListOption) (table.Page[lb.Job], error) {
		return s.ListBySource(ctx, src, o...)
	}, opts...)
}
