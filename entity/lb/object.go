package lb

import (
	"time"

	"github.com/singletable/singletable/table"
)

// Object is a free-form value the documents leave untyped ("object",
// "Map"): stored as a DynamoDB map of native values.
type Object = map[string]any

// Permissions maps a resource ("sources", "users", "billing") to the
// operations allowed on it ("create", "read", ...), as in the documents.
type Permissions = map[string][]string

// RetryPolicy is a retry configuration (core's retryPolicy maps).
type RetryPolicy struct {
	// MaxRetries is how many times a failed call is retried (0: none).
	MaxRetries int `dynamo:"maxRetries,omitempty"`
	// BackoffSeconds is the wait before the first retry, in seconds.
	BackoffSeconds int `dynamo:"backoffSeconds,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Validate checks that the numbers are not negative.
func (p RetryPolicy) Validate(field string) error {
	if p.MaxRetries < 0 || p.BackoffSeconds < 0 {
		return table.Invalid(field, "negative retry setting")
	}
	return nil
}

// first returns the first non-nil error.
func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Seconds truncates t to whole seconds in UTC (core's epoch-second times).
func Seconds(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

// The createdAt and updatedAt the store keeps (Def.Timestamps): a create
// sets createdAt (a migrated item keeps its own) and an updatedAt equal
// to it, every later write updatedAt. The v2 document's ISO 8601 strings
// keep the clock's precision (Stamps, CreatedStamp, JoinedStamp,
// JoinedStamps); the core document's epoch numbers ("All timestamps use
// Unix epoch (seconds)") are whole seconds (SecondStamps,
// UpdatedSecondStamp).
var (
	Stamps             = table.Timestamps{Created: "createdAt", Updated: "updatedAt", Precision: time.Nanosecond}
	CreatedStamp       = table.Timestamps{Created: "createdAt", Precision: time.Nanosecond}
	JoinedStamp        = table.Timestamps{Created: "joinedAt", Precision: time.Nanosecond}
	JoinedStamps       = table.Timestamps{Created: "joinedAt", Updated: "updatedAt", Precision: time.Nanosecond}
	SecondStamps       = table.Timestamps{Created: "createdAt", Updated: "updatedAt", Precision: time.Second}
	UpdatedSecondStamp = table.Timestamps{Updated: "updatedAt", Precision: time.Second}
)
