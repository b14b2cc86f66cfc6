package listbackup

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
	Before   Object `dynamo:"before,omitempty"`
	After    Object `dynamo:"after,omitempty"`
	Metadata Object `dynamo:"metadata,omitempty"`
}

// Activity is one audit-log event of an account.
type Activity struct {
	AccountID    AccountID       `dynamo:"accountId"`
	EventID      EventID         `dynamo:"eventId"`
	UserID       UserID          `dynamo:"userId,omitempty"`
	EventType    EventType       `dynamo:"eventType"`
	ResourceType ResourceType    `dynamo:"resourceType"`
	Resource     ResourceType    `dynamo:"resource,omitempty"` // core's name for resourceType; kept equal
	ResourceID   string          `dynamo:"resourceId,omitempty"`
	Action       Action          `dynamo:"action"`
	Details      ActivityDetails `dynamo:"details,omitempty"`
	IPAddress    string          `dynamo:"ipAddress,omitempty"`
	UserAgent    string          `dynamo:"userAgent,omitempty"`
	// Timestamp is the event time in epoch seconds (the documents'
	// timestamp); CreatedAt is the same instant to the nanosecond, which
	// the keys sort by. The expiry (CreatedAt + 90 days) is in the table's
	// TTL attribute, not here.
	Timestamp time.Time `dynamo:"timestamp,unixtime"`
	CreatedAt time.Time `dynamo:"createdAt"`
}

// Expires is when the activity expires (LB-22).
func (a *Activity) Expires() time.Time { return a.CreatedAt.Add(ActivityRetention) }

// Validate checks the activity before a write.
func (a *Activity) Validate() error {
	err := first(a.AccountID.Validate("accountId"), a.EventID.Validate("eventId"), a.EventType.Check("eventType"),
		a.ResourceType.Check("resourceType"), a.Action.Check("action"), requiredTime("createdAt", a.CreatedAt))
	if err != nil {
		return err
	}
	if a.UserID != "" {
		return a.UserID.Validate("userId")
	}
	return nil
}

// JobDateRange bounds the data a job covers.
type JobDateRange struct {
	Start string `dynamo:"start,omitempty"`
	End   string `dynamo:"end,omitempty"`
}

// JobConfig is a job's configuration.
type JobConfig struct {
	DataTypes []string     `dynamo:"dataTypes,omitempty"`
	DateRange JobDateRange `dynamo:"dateRange,omitempty"`
	Filters   Object       `dynamo:"filters,omitempty"`
	Options   Object       `dynamo:"options,omitempty"`
}

// JobProgress tracks a job's progress.
type JobProgress struct {
	Total      int64   `dynamo:"total"`
	Processed  int64   `dynamo:"processed"`
	Failed     int64   `dynamo:"failed"`
	Percentage float64 `dynamo:"percentage"`
}

// JobResult is a job's result.
type JobResult struct {
	RecordsProcessed int64    `dynamo:"recordsProcessed,omitempty"`
	Errors           []string `dynamo:"errors,omitempty"`
	OutputLocation   string   `dynamo:"outputLocation,omitempty"`
	Summary          Object   `dynamo:"summary,omitempty"`
}

// Job is a unit of background work (sync, export, import, ...).
type Job struct {
	AccountID   AccountID   `dynamo:"accountId"`
	JobID       JobID       `dynamo:"jobId"`
	JobType     JobType     `dynamo:"jobType"`
	SourceID    SourceID    `dynamo:"sourceId,omitempty"`
	Status      JobStatus   `dynamo:"status"`
	Priority    Priority    `dynamo:"priority"`
	Config      JobConfig   `dynamo:"config,omitempty"`
	Progress    JobProgress `dynamo:"progress,omitempty"`
	Result      JobResult   `dynamo:"result,omitempty"`
	ScheduledAt time.Time   `dynamo:"scheduledAt,omitempty"`
	StartedAt   time.Time   `dynamo:"startedAt,omitempty"`
	CompletedAt time.Time   `dynamo:"completedAt,omitempty"`
	CreatedAt   time.Time   `dynamo:"createdAt"`
	CreatedBy   UserID      `dynamo:"createdBy,omitempty"`
	RetryCount  int         `dynamo:"retryCount"`
	MaxRetries  int         `dynamo:"maxRetries"`
}

// Validate checks the job before a write.
func (j *Job) Validate() error {
	err := first(j.AccountID.Validate("accountId"), j.JobID.Validate("jobId"), j.JobType.Check("jobType"),
		j.Status.Check("status"), j.Priority.Check("priority"), requiredTime("createdAt", j.CreatedAt))
	if err != nil {
		return err
	}
	if j.SourceID != "" {
		if err := j.SourceID.Validate("sourceId"); err != nil {
			return err
		}
	}
	if j.RetryCount < 0 || j.MaxRetries < 0 {
		return table.Invalid("retryCount", "negative")
	}
	return nil
}
