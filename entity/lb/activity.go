package lb

import (
	"regexp"
	"time"

	"github.com/singletable/singletable/table"
)

// ActivityRetention is how long activities are kept (90 days, LB-22).
const ActivityRetention = 90 * 24 * time.Hour

// EventType names what happened ("source.created", "user.login",
// "sync.completed"; core writes "login", "source_created"). The list is
// open, so it is checked for form, not membership.
type EventType string

var eventTypeRE = regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)

// Check returns a *table.ValidationError naming field unless v is a
// lower-case dotted name of at most 64 characters.
func (v EventType) Check(field string) error {
	if len(v) > 64 || !eventTypeRE.MatchString(string(v)) {
		return table.Invalid(field, "%q: want a lower-case dotted name such as source.created", string(v))
	}
	return nil
}

// ParseEventType returns s as an EventType, or a *table.ValidationError.
func ParseEventType(s string) (EventType, error) {
	v := EventType(s)
	return v, v.Check("eventType")
}

// ActivityDetails describe a change.
type ActivityDetails struct {
	// Before is the resource's state before the change, as the caller recorded
	// it; optional.
	Before Object `dynamo:"before,omitempty"`
	// After is the resource's state after the change; optional.
	After Object `dynamo:"after,omitempty"`
	// Metadata is any other context of the event; optional.
	Metadata Object `dynamo:"metadata,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Activity is one audit-log event of an account.
type Activity struct {
	// AccountID is the account the event belongs to; the feed's partition is
	// ACTIVITY#{accountId}.
	AccountID AccountID `dynamo:"accountId"`
	// EventID identifies the event (a UUID when Activities.Record is given
	// none).
	EventID EventID `dynamo:"eventId"`
	// UserID is the user who acted, if any; set, the event is also listed
	// under ACTUSER#{userId} (GSI1).
	UserID UserID `dynamo:"userId,omitempty"`
	// EventType is what happened, such as "source.created" (see EventType);
	// listed under ACTEVT#{accountId}#{eventType} (GSI3).
	EventType EventType `dynamo:"eventType"`
	// ResourceType is the kind of resource concerned (see ResourceType);
	// listed under ACTRES#{accountId}#{resourceType} (GSI2).
	ResourceType ResourceType `dynamo:"resourceType"`
	Resource     ResourceType `dynamo:"resource,omitempty"` // core's name for resourceType; kept equal
	// ResourceID identifies the resource concerned; optional.
	ResourceID string `dynamo:"resourceId,omitempty"`
	// Action is the verb (see Action): create, update, delete, ...
	Action Action `dynamo:"action"`
	// Details carry the before and after states and other context; optional.
	Details ActivityDetails `dynamo:"details,omitempty"`
	// IPAddress is the client's address, if known.
	IPAddress string `dynamo:"ipAddress,omitempty"`
	// UserAgent is the client's user agent, if known.
	UserAgent string `dynamo:"userAgent,omitempty"`
	// Timestamp is the event time in epoch seconds (the documents'
	// timestamp); CreatedAt is the same instant to the nanosecond, which
	// the keys sort by. The expiry (CreatedAt + 90 days) is in the table's
	// TTL attribute, not here.
	Timestamp time.Time `dynamo:"timestamp,unixtime"`
	// CreatedAt is when the event happened, to the nanosecond; the keys sort
	// by it.
	CreatedAt time.Time `dynamo:"createdAt"`
	// ExpiresAt, if set, is the expiry its writer chose (ListBackup's own
	// code writes one, its ttl, for each event), in epoch seconds; unset,
	// the activity expires ActivityRetention after CreatedAt.
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime,omitempty"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Expires is when the activity expires (LB-22): ExpiresAt if set, else
// CreatedAt + ActivityRetention.
func (a *Activity) Expires() time.Time {
	if !a.ExpiresAt.IsZero() {
		return a.ExpiresAt
	}
	return a.CreatedAt.Add(ActivityRetention)
}

// JobDateRange bounds the data a job covers.
type JobDateRange struct {
	// Start is the first date of the data to process (YYYY-MM-DD); optional.
	Start string `dynamo:"start,omitempty"`
	// End is the last date of the data to process (YYYY-MM-DD); optional.
	End string `dynamo:"end,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// JobConfig is a job's configuration.
type JobConfig struct {
	// DataTypes names the kinds of data the job processes (platform specific,
	// such as "contacts").
	DataTypes []string `dynamo:"dataTypes,omitempty"`
	// DateRange limits the data to a date range; optional.
	DateRange JobDateRange `dynamo:"dateRange,omitempty"`
	// Filters are platform-specific filters; optional.
	Filters Object `dynamo:"filters,omitempty"`
	// Options are other job options; optional.
	Options Object `dynamo:"options,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// JobProgress tracks a job's progress.
type JobProgress struct {
	// Total is how many records the job has to process, if known.
	Total int64 `dynamo:"total"`
	// Processed is how many records the job has processed so far.
	Processed int64 `dynamo:"processed"`
	// Failed is how many records failed.
	Failed int64 `dynamo:"failed"`
	// Percentage is the progress, 0 to 100.
	Percentage float64 `dynamo:"percentage"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// JobResult is a job's result.
type JobResult struct {
	// RecordsProcessed is how many records the finished job processed.
	RecordsProcessed int64 `dynamo:"recordsProcessed,omitempty"`
	// Errors are the finished job's error messages, if any.
	Errors []string `dynamo:"errors,omitempty"`
	// OutputLocation is where the job wrote its output (an S3 URI, for
	// example).
	OutputLocation string `dynamo:"outputLocation,omitempty"`
	// Summary is any other result data.
	Summary Object `dynamo:"summary,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Job is a unit of background work (sync, export, import, ...).
type Job struct {
	// AccountID is the account the job runs for; its jobs are listed under
	// JOBS#{accountId} (GSI1 by creation, GSI2 by status).
	AccountID AccountID `dynamo:"accountId"`
	// JobID identifies the job.
	JobID JobID `dynamo:"jobId"`
	// JobType is the kind of job (see JobType).
	JobType JobType `dynamo:"jobType"`
	// SourceID is the source the job works on, if any; set, the job is listed
	// under SRCJOBS#{sourceId} (GSI3).
	SourceID SourceID `dynamo:"sourceId,omitempty"`
	// Status is the job's state (see JobStatus); GSI2 sorts an account's jobs
	// by it.
	Status JobStatus `dynamo:"status"`
	// Priority is the job's priority (see Priority).
	Priority Priority `dynamo:"priority"`
	// Config is what the job processes; optional.
	Config JobConfig `dynamo:"config,omitempty"`
	// Progress is how far the job got; updated while it runs.
	Progress JobProgress `dynamo:"progress,omitempty"`
	// Result is set when the job finished.
	Result JobResult `dynamo:"result,omitempty"`
	// ScheduledAt is when the job is to start, if scheduled.
	ScheduledAt time.Time `dynamo:"scheduledAt,omitempty"`
	// StartedAt is when the job started running.
	StartedAt time.Time `dynamo:"startedAt,omitempty"`
	// CompletedAt is when the job finished.
	CompletedAt time.Time `dynamo:"completedAt,omitempty"`
	// CreatedAt is when the job was created; the account's job lists sort by
	// it.
	CreatedAt time.Time `dynamo:"createdAt"`
	// CreatedBy is the user who created the job; optional.
	CreatedBy UserID `dynamo:"createdBy,omitempty"`
	// RetryCount is how many times the job was retried.
	RetryCount int `dynamo:"retryCount"`
	// MaxRetries is how many retries the job is allowed.
	MaxRetries int `dynamo:"maxRetries"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Validate checks the rules of the job its fields' types do not hold (its
// IDs and enumerations check themselves on every write; ListBackup's own
// code creates jobs without a priority).
func (j *Job) Validate() error {
	if j.RetryCount < 0 || j.MaxRetries < 0 {
		return table.Invalid("retryCount", "negative")
	}
	return nil
}
