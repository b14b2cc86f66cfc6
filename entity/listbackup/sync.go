package listbackup

import (
	"time"

	"github.com/singletable/singletable/table"
)

// SyncSchedule is when a source syncs (core's sync_schedules). Times are
// epoch seconds, as core writes them.
type SyncSchedule struct {
	SourceID       SourceID     `dynamo:"sourceId"`
	ScheduleID     ScheduleID   `dynamo:"scheduleId"`
	ScheduleType   ScheduleType `dynamo:"scheduleType"`
	CronExpression string       `dynamo:"cronExpression,omitempty"`
	DataTypes      []string     `dynamo:"dataTypes"`
	IsActive       bool         `dynamo:"isActive"`
	NextRunAt      time.Time    `dynamo:"nextRunAt,unixtime"`
	LastRunAt      time.Time    `dynamo:"lastRunAt,unixtime,omitempty"`
	RetryPolicy    RetryPolicy  `dynamo:"retryPolicy,omitempty"`
	CreatedAt      time.Time    `dynamo:"createdAt,unixtime"`
	UpdatedAt      time.Time    `dynamo:"updatedAt,unixtime"`
}

// Validate checks the schedule before a write.
func (s *SyncSchedule) Validate() error {
	err := first(s.SourceID.Validate("sourceId"), s.ScheduleID.Validate("scheduleId"), s.ScheduleType.Check("scheduleType"),
		requiredTime("nextRunAt", s.NextRunAt), s.RetryPolicy.Validate("retryPolicy"))
	if err != nil {
		return err
	}
	if len(s.DataTypes) == 0 {
		return table.Invalid("dataTypes", "required")
	}
	if (s.ScheduleType == ScheduleCustom) != (s.CronExpression != "") {
		return table.Invalid("cronExpression", "required exactly for custom schedules")
	}
	return nil
}

// SyncRun is one execution of a source's sync (core's sync_history).
type SyncRun struct {
	SourceID         SourceID         `dynamo:"sourceId"`
	SyncID           SyncID           `dynamo:"syncId"`
	ScheduleID       ScheduleID       `dynamo:"scheduleId,omitempty"`
	Status           RunStatus        `dynamo:"status"`
	StartedAt        time.Time        `dynamo:"startedAt,unixtime"`
	CompletedAt      time.Time        `dynamo:"completedAt,unixtime,omitempty"`
	Duration         int64            `dynamo:"duration,omitempty"` // seconds
	DataTypes        []string         `dynamo:"dataTypes"`
	RecordsProcessed map[string]int64 `dynamo:"recordsProcessed"`
	Errors           []string         `dynamo:"errors,omitempty"`
	S3Location       string           `dynamo:"s3Location,omitempty"`
	Metadata         Object           `dynamo:"metadata,omitempty"`
}

// Validate checks the run before a write.
func (r *SyncRun) Validate() error {
	err := first(r.SourceID.Validate("sourceId"), r.SyncID.Validate("syncId"), r.Status.Check("status"),
		requiredTime("startedAt", r.StartedAt))
	if err != nil {
		return err
	}
	if r.ScheduleID != "" {
		if err := r.ScheduleID.Validate("scheduleId"); err != nil {
			return err
		}
	}
	if len(r.DataTypes) == 0 {
		return table.Invalid("dataTypes", "required")
	}
	if r.Duration < 0 {
		return table.Invalid("duration", "negative")
	}
	return nil
}

// APIKey is an API key for programmatic access; only its SHA-256 hash is
// stored (apiKeyHash).
type APIKey struct {
	APIKeyID    APIKeyID     `dynamo:"apiKeyId"`
	APIKeyHash  string       `dynamo:"apiKeyHash"`
	AccountID   AccountID    `dynamo:"accountId"`
	UserID      UserID       `dynamo:"userId"`
	Name        string       `dynamo:"name"`
	Permissions []string     `dynamo:"permissions"`
	Status      APIKeyStatus `dynamo:"status"`
	LastUsedAt  time.Time    `dynamo:"lastUsedAt,unixtime,omitempty"`
	ExpiresAt   time.Time    `dynamo:"expiresAt,unixtime,omitempty"`
	CreatedAt   time.Time    `dynamo:"createdAt,unixtime"`
	Metadata    Object       `dynamo:"metadata,omitempty"`
}

// Validate checks the key before a write.
func (k *APIKey) Validate() error {
	err := first(k.APIKeyID.Validate("apiKeyId"), CheckHash("apiKeyHash", k.APIKeyHash), k.AccountID.Validate("accountId"),
		k.UserID.Validate("userId"), required("name", k.Name), k.Status.Check("status"), requiredTime("createdAt", k.CreatedAt))
	if err != nil {
		return err
	}
	if len(k.Permissions) == 0 {
		return table.Invalid("permissions", "required")
	}
	return nil
}

// Webhook is an endpoint that receives an account's events.
type Webhook struct {
	WebhookID WebhookID `dynamo:"webhookId"`
	AccountID AccountID `dynamo:"accountId"`
	URL       string    `dynamo:"url"`
	Events    []string  `dynamo:"events"`
	IsActive  bool      `dynamo:"isActive"`
	// Secret signs deliveries; it is encrypted before it is stored.
	Secret           string            `dynamo:"secret"`
	Headers          map[string]string `dynamo:"headers,omitempty"`
	RetryPolicy      RetryPolicy       `dynamo:"retryPolicy"`
	LastResponseCode int               `dynamo:"lastResponseCode,omitempty"`
	LastCalledAt     time.Time         `dynamo:"lastCalledAt,unixtime,omitempty"`
	FailureCount     int64             `dynamo:"failureCount"`
	CreatedAt        time.Time         `dynamo:"createdAt,unixtime"`
	UpdatedAt        time.Time         `dynamo:"updatedAt,unixtime"`
	// DeletedAt (epoch seconds, like core's other timestamps) is set by a
	// soft delete, which also clears isActive. A deleted webhook is kept in
	// the table but is not found by reads and leaves the active index.
	DeletedAt time.Time `dynamo:"deletedAt,unixtime,omitempty"`
}

// Deleted reports whether the webhook was soft-deleted.
func (w *Webhook) Deleted() bool { return !w.DeletedAt.IsZero() }

// Validate checks the webhook before a write.
func (w *Webhook) Validate() error {
	err := first(w.WebhookID.Validate("webhookId"), w.AccountID.Validate("accountId"), CheckURL("url", w.URL),
		required("secret", w.Secret), w.RetryPolicy.Validate("retryPolicy"))
	if err != nil {
		return err
	}
	if len(w.Events) == 0 {
		return table.Invalid("events", "required")
	}
	for _, e := range w.Events {
		if err := EventType(e).Check("events"); err != nil {
			return err
		}
	}
	return nil
}
