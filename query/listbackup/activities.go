package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Activities serves LB-18..LB-22: the audit log, by account, user,
// resource type and event type, newest first, kept 90 days. Each reads
// the activities whose createdAt lies between the bounds' (RangeOn
// createdAt: a bound with a zero CreatedAt is open; both open read the
// whole partition), newest first; table.Asc, table.Limit and table.After
// combine with the range. Errors: *table.ValidationError (a bad ID or
// enumeration, a reversed range; before any request),
// table.ErrInvalidCursor.
type Activities struct {
	// ByAccount reads an account's activities (LB-18).
	//
	//	page, err := s.Activities.ByAccount.Between(ctx, lb.Activity{AccountID: a, CreatedAt: from}, lb.Activity{AccountID: a, CreatedAt: to})
	ByAccount *table.Pattern[lb.Activity]
	// ByUser reads a user's activities (LB-19).
	ByUser *table.Pattern[lb.Activity]
	// ByResourceType reads an account's activities on a resource type
	// (LB-20).
	ByResourceType *table.Pattern[lb.Activity]
	// ByEventType reads an account's activities of an event type (LB-21).
	ByEventType *table.Pattern[lb.Activity]
	// Record stores an activity. A zero CreatedAt is now; EventID defaults to a
	// new UUID. Its table TTL is CreatedAt + 90 days (LB-22): reads never
	// return it afterwards.
	Record func(context.Context, *lb.Activity) error

	e *entities
}

func newActivities(e *entities) *Activities {
	def := func(id, name, doc string, ix table.Index) table.PatternDef[lb.Activity] {
		return table.PatternDef[lb.Activity]{ID: id, Name: "listbackup.Activities." + name, Doc: doc, Index: ix,
			Reads: table.ReadRange, RangeOn: "createdAt", Desc: true}
	}
	return &Activities{e: e,
		Record: table.Create(e.activities, table.WriteDef[lb.Activity]{ID: "LB-22", Name: "listbackup.Activities.Record",
			Doc:    "Stores an activity.",
			Before: func(a *lb.Activity) { newID(&a.EventID) }}),
		ByAccount:      table.NewPattern(e.activities, def("LB-18", "ByAccount", "An account's activities in a time range, newest first.", table.Primary)),
		ByUser:         table.NewPattern(e.activities, def("LB-19", "ByUser", "A user's activities in a time range, newest first.", table.GSI1)),
		ByResourceType: table.NewPattern(e.activities, def("LB-20", "ByResourceType", "An account's activities on a resource type in a time range, newest first.", table.GSI2)),
		ByEventType:    table.NewPattern(e.activities, def("LB-21", "ByEventType", "An account's activities of an event type in a time range, newest first.", table.GSI3)),
	}
}

// Jobs serves LB-23..LB-26. The reads of one pattern are declared
// ([table.Pattern]): its fields, whole on the Store and the account's own
// on [AccountScope].
type Jobs struct {
	// ByAccount lists an account's jobs, newest first (LB-23).
	//
	//	page, err := s.Jobs.ByAccount.List(ctx, lb.Job{AccountID: a})
	ByAccount *table.Pattern[lb.Job]
	// ByStatus lists an account's jobs in one status, newest first
	// (LB-25).
	ByStatus *table.Pattern[lb.Job]
	// BySource lists a source's jobs by creation time, oldest first unless
	// table.Desc (LB-26).
	BySource *table.Pattern[lb.Job]
	// ByID reads a job (LB-24).
	//
	//	j, err := s.Jobs.ByID.Get(ctx, lb.Job{JobID: id})
	ByID *table.Pattern[lb.Job]
	// Create creates a job (LB-24, its write side); CreatedAt defaults to
	// now, Status to pending, Priority to medium.
	Create func(context.Context, *lb.Job) error
	// Update applies change to a job (LB-24, its write side: status,
	// progress, result), moving its index entries.
	Update func(context.Context, lb.JobID, func(*lb.Job) error) (lb.Job, error)

	delete table.Op
	e      *entities
	acct   lb.AccountID // set: the view of one account (Store.ForAccount)
}

func newJobs(e *entities) *Jobs {
	return (&Jobs{e: e,
		ByAccount: table.NewPattern(e.jobs, table.PatternDef[lb.Job]{ID: "LB-23", Name: "listbackup.Jobs.ByAccount",
			Doc: "An account's jobs, newest first.", Reads: table.ReadPage, Index: table.GSI1, Desc: true}),
		ByStatus: table.NewPattern(e.jobs, table.PatternDef[lb.Job]{ID: "LB-25", Name: "listbackup.Jobs.ByStatus",
			Doc: "An account's jobs in one status, newest first.", Reads: table.ReadPage, Index: table.GSI2, Desc: true, SortPrefix: true,
			Require: []string{"status"}}),
		BySource: table.NewPattern(e.jobs, table.PatternDef[lb.Job]{ID: "LB-26", Name: "listbackup.Jobs.BySource",
			Doc: "A source's jobs by creation time.", Reads: table.ReadPage, Index: table.GSI3, WholePartition: true}),
		ByID: table.NewPattern(e.jobs, table.PatternDef[lb.Job]{ID: "LB-24", Name: "listbackup.Jobs.ByID",
			Doc: "A job.", Reads: table.ReadOne}),
		delete: table.NewOp(e.t, "LB-24", "listbackup.Jobs.Delete"),
	}).declare()
}

// in returns the jobs of account acct alone.
func (s *Jobs) in(acct lb.AccountID) *Jobs {
	c := *s
	c.acct, c.ByAccount, c.ByStatus, c.BySource, c.ByID = acct, s.ByAccount.In(string(acct)), s.ByStatus.In(string(acct)), s.BySource.In(string(acct)), s.ByID.In(string(acct))
	return c.declare()
}

// declare declares the writes of the view (its account's, or whole).
func (s *Jobs) declare() *Jobs {
	view := items(s.e.jobs, s.acct) // one view for every write
	s.Update = table.Update(view, table.WriteDef[lb.Job]{ID: "LB-24", Name: "listbackup.Jobs.Update",
		Doc: "Applies change to a job (status, progress, result), moving its index entries."}, func(id lb.JobID) lb.Job { return lb.Job{JobID: id} })
	s.Create = table.Create(view, table.WriteDef[lb.Job]{ID: "LB-24", Name: "listbackup.Jobs.Create",
		Doc:    "Creates a job (CreatedAt defaults to now, Status to pending, Priority to medium).",
		Before: func(jb *lb.Job) { orDefault(&jb.Status, lb.JobPending); orDefault(&jb.Priority, lb.PriorityMedium) }})
	return s
}
