package lb

import (
	"time"

	"github.com/singletable/singletable/table"
)

// SyncSchedule is when a source syncs (core's sync_schedules). Times are
// epoch seconds, as core writes them.
type SyncSchedule struct {
	// SourceID is the source the schedule syncs; its schedules are the items
	// SCHED#{scheduleId} in SOURCE#{sourceId}.
	SourceID SourceID `dynamo:"sourceId"`
	// ScheduleID identifies the schedule within its source.
	ScheduleID ScheduleID `dynamo:"scheduleId"`
	// ScheduleType is how the schedule recurs (see ScheduleType).
	ScheduleType ScheduleType `dynamo:"scheduleType"`
	// CronExpression is the cron expression of a cron schedule; optional.
	CronExpression string `dynamo:"cronExpression,omitempty"`
	// DataTypes names the kinds of data each run syncs.
	DataTypes []string `dynamo:"dataTypes"`
	// IsActive is set while the schedule runs; only active schedules are in
	// the due index (GSI1).
	IsActive bool `dynamo:"isActive"`
	// NextRunAt is when the schedule runs next, stored in epoch seconds; the
	// due index (GSI1) sorts by it.
	NextRunAt time.Time `dynamo:"nextRunAt,unixtime"`
	// LastRunAt is when the schedule last ran, in epoch seconds.
	LastRunAt time.Time `dynamo:"lastRunAt,unixtime,omitempty"`
	// RetryPolicy says how failed runs are retried; optional.
	RetryPolicy RetryPolicy `dynamo:"retryPolicy,omitempty"`
	// CreatedAt is when the schedule was created, in epoch seconds.
	CreatedAt time.Time `dynamo:"createdAt,unixtime"`
	// UpdatedAt is when the schedule was last written, in epoch seconds.
	UpdatedAt time.Time `dynamo:"updatedAt,unixtime"`
}

// Validate checks the rules of the schedule its fields' types do not hold
// (its IDs, type and retry policy check themselves on every write).
func (s *SyncSchedule) Validate() error {
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
	// SourceID is the source that ran; its runs are in SOURCE#{sourceId},
	// newest first.
	SourceID SourceID `dynamo:"sourceId"`
	// SyncID identifies the run.
	SyncID SyncID `dynamo:"syncId"`
	// ScheduleID is the schedule that started the run, if one did.
	ScheduleID ScheduleID `dynamo:"scheduleId,omitempty"`
	// Status is the run's state (see RunStatus); runs are listed by status
	// across sources (GSI1 RUNS#{status}).
	Status RunStatus `dynamo:"status"`
	// StartedAt is when the run started, in epoch seconds; the keys sort by
	// it.
	StartedAt time.Time `dynamo:"startedAt,unixtime"`
	// CompletedAt is when the run finished, in epoch seconds.
	CompletedAt time.Time `dynamo:"completedAt,unixtime,omitempty"`
	Duration    int64     `dynamo:"duration,omitempty"` // seconds
	// DataTypes names the kinds of data the run synced.
	DataTypes []string `dynamo:"dataTypes"`
	// RecordsProcessed counts the records synced per data type.
	RecordsProcessed map[string]int64 `dynamo:"recordsProcessed"`
	// Errors are the run's error messages, if any.
	Errors []string `dynamo:"errors,omitempty"`
	// S3Location is where the run's backup was written.
	S3Location string `dynamo:"s3Location,omitempty"`
	// Metadata is any other run data; optional.
	Metadata Object `dynamo:"metadata,omitempty"`
}

// Validate checks the rules of the run its fields' types do not hold (its
// IDs and status check themselves on every write).
func (r *SyncRun) Validate() error {
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
	// APIKeyID identifies the key; the item's key is APIKEY#{apiKeyId}.
	APIKeyID APIKeyID `dynamo:"apiKeyId"`
	// APIKeyHash is the SHA-256 hex of the plaintext key, which is never
	// stored; keys are validated by it (GSI1 APIKEYHASH#{hash}).
	APIKeyHash string `dynamo:"apiKeyHash"`
	// AccountID is the account the key acts for; fixed at creation
	// (Def.Scope). Listed under APIKEYS#{accountId} (GSI2).
	AccountID AccountID `dynamo:"accountId"`
	// UserID is the user who created the key; listed under APIKEYUSER#{userId}
	// (GSI3) so an erasure finds it.
	UserID UserID `dynamo:"userId"`
	// Name is the display name.
	Name string `dynamo:"name"`
	// Permissions are the scopes the key grants, such as "sources:read" or
	// "*".
	Permissions []string `dynamo:"permissions"`
	// Status is the key's state (see APIKeyStatus); a revoked key does not
	// validate.
	Status APIKeyStatus `dynamo:"status"`
	// LastUsedAt is when the key was last used, in epoch seconds.
	LastUsedAt time.Time `dynamo:"lastUsedAt,unixtime,omitempty"`
	// ExpiresAt is when the key stops validating, in epoch seconds; zero
	// never.
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime,omitempty"`
	// CreatedAt is when the key was created, in epoch seconds; the lists sort
	// by it.
	CreatedAt time.Time `dynamo:"createdAt,unixtime"`
	// Metadata is any other data the application keeps; optional.
	Metadata Object `dynamo:"metadata,omitempty"`
}

// Validate checks the key's hash (its IDs and status check themselves on
// every write; Required: accountId, userId, name, status, createdAt,
// permissions).
func (k *APIKey) Validate() error { return CheckHash("apiKeyHash", k.APIKeyHash) }

// Webhook is an endpoint that receives an account's events.
type Webhook struct {
	// WebhookID identifies the webhook; the item's key is WEBHOOK#{webhookId}.
	WebhookID WebhookID `dynamo:"webhookId"`
	// AccountID is the account the webhook belongs to; fixed at creation
	// (Def.Scope).
	AccountID AccountID `dynamo:"accountId"`
	// URL is where events are posted.
	URL string `dynamo:"url"`
	// Events are the event types the webhook receives.
	Events []string `dynamo:"events"`
	// IsActive is set while the webhook receives events; only active webhooks
	// are listed (GSI1 HOOKS#{accountId} / ACTIVE#{webhookId}), since a key
	// cannot be a boolean.
	IsActive bool `dynamo:"isActive"`
	// Secret signs deliveries; it is encrypted before it is stored.
	Secret string `dynamo:"secret"`
	// Headers are extra HTTP headers sent with each call; optional.
	Headers map[string]string `dynamo:"headers,omitempty"`
	// RetryPolicy says how failed calls are retried.
	RetryPolicy RetryPolicy `dynamo:"retryPolicy"`
	// LastResponseCode is the HTTP status of the last call.
	LastResponseCode int `dynamo:"lastResponseCode,omitempty"`
	// LastCalledAt is when the webhook was last called, in epoch seconds.
	LastCalledAt time.Time `dynamo:"lastCalledAt,unixtime,omitempty"`
	// FailureCount counts failed calls.
	FailureCount int64 `dynamo:"failureCount"`
	// CreatedAt is when the webhook was created, in epoch seconds.
	CreatedAt time.Time `dynamo:"createdAt,unixtime"`
	// UpdatedAt is when the webhook was last written, in epoch seconds.
	UpdatedAt time.Time `dynamo:"updatedAt,unixtime"`
	// DeletedAt (epoch seconds, like core's other timestamps) is set by a
	// soft delete, which also clears isActive. A deleted webhook is kept in
	// the table but is not found by reads and leaves the active index.
	DeletedAt time.Time `dynamo:"deletedAt,unixtime,omitempty"`
}

// Deleted reports whether the webhook was soft-deleted.
func (w *Webhook) Deleted() bool { return !w.DeletedAt.IsZero() }

// Validate checks the webhook's URL and events (its IDs and retry policy
// check themselves on every write; Required: accountId, secret, events).
func (w *Webhook) Validate() error {
	if err := CheckURL("url", w.URL); err != nil {
		return err
	}
	for _, e := range w.Events {
		if err := EventType(e).Check("events"); err != nil {
			return err
		}
	}
	return nil
}
