package lb

import (
	"fmt"
	"slices"
	"time"

	"github.com/singletable/singletable/table"
)

// InboxStatus is where a notification stands in a user's inbox, as
// ListBackup's own code keeps it (its notifications table). Reads keep any
// stored value; writes take these.
type InboxStatus string

// The InboxStatus values ListBackup's code writes.
const (
	InboxUnread   InboxStatus = "unread"   // a new notification (notifications/create)
	InboxRead     InboxStatus = "read"     // marked read (readAt set)
	InboxArchived InboxStatus = "archived" // archived (archivedAt set)
	InboxDeleted  InboxStatus = "deleted"  // deleted softly (notifications/update)
)

// InboxStatuses are the InboxStatus values.
var InboxStatuses = table.NewEnum("status", InboxUnread, InboxRead, InboxArchived, InboxDeleted)

// InboxPriority is an inbox notification's priority (the code's values,
// not the documents' [Priority]).
type InboxPriority string

// The InboxPriority values ListBackup's code accepts (normal by default).
const (
	InboxLow    InboxPriority = "low"
	InboxNormal InboxPriority = "normal"
	InboxHigh   InboxPriority = "high"
	InboxUrgent InboxPriority = "urgent"
)

// InboxPriorities are the InboxPriority values.
var InboxPriorities = table.NewEnum("priority", InboxLow, InboxNormal, InboxHigh, InboxUrgent)

// InboxKind is an inbox notification's severity (its type attribute).
type InboxKind string

// The InboxKind values ListBackup's code accepts.
const (
	InboxInfo    InboxKind = "info"
	InboxSuccess InboxKind = "success"
	InboxWarning InboxKind = "warning"
	InboxError   InboxKind = "error"
	InboxSystem  InboxKind = "system"
)

// InboxKinds are the InboxKind values.
var InboxKinds = table.NewEnum("type", InboxInfo, InboxSuccess, InboxWarning, InboxError, InboxSystem)

// InboxChannels are the channels an inbox notification may go out on.
func InboxChannels() []string { return []string{"app", "email", "sms", "slack", "webhook"} }

// InboxNotification is a notification in a user's in-app inbox, as
// ListBackup's own code keeps it (its notifications table, keyed by
// notificationId alone): unread until read, archived or deleted, with a
// priority, a free category and the channels it goes out on. The
// documents' [Notification] (delivery statuses, 30 days' retention) is
// another thing.
type InboxNotification struct {
	NotificationID NotificationID `dynamo:"notificationId"`
	// AccountID is the account the notification belongs to; UserID its
	// recipient.
	AccountID AccountID `dynamo:"accountId"`
	UserID    UserID    `dynamo:"userId"`
	// Type is its severity (see InboxKind).
	Type InboxKind `dynamo:"type"`
	// Category is free text ("backup", "billing", ...).
	Category string `dynamo:"category,omitempty"`
	Title    string `dynamo:"title"`
	Message  string `dynamo:"message"`
	// Priority is optional on read (see InboxPriority).
	Priority InboxPriority `dynamo:"priority,omitempty"`
	// Status is where it stands (see InboxStatus); a user's notifications
	// are listed by status.
	Status InboxStatus `dynamo:"status"`
	// Channels are where it goes out ("app", "email", ...), as a list.
	Channels []string `dynamo:"channels,omitempty"`
	// EntityType and EntityID name what it is about; ActionURL,
	// ActionLabel and ImageURL are what the app shows with it.
	EntityID      string    `dynamo:"entityId,omitempty"`
	EntityType    string    `dynamo:"entityType,omitempty"`
	ActionURL     string    `dynamo:"actionUrl,omitempty"`
	ActionLabel   string    `dynamo:"actionLabel,omitempty"`
	ImageURL      string    `dynamo:"imageUrl,omitempty"`
	Data          Object    `dynamo:"data,omitempty"`
	Metadata      Object    `dynamo:"metadata,omitempty"`
	ScheduledFor  time.Time `dynamo:"scheduledFor,omitempty"`
	ReadAt        time.Time `dynamo:"readAt,omitempty"`
	ArchivedAt    time.Time `dynamo:"archivedAt,omitempty"`
	DeliveredAt   time.Time `dynamo:"deliveredAt,omitempty"`
	FailureReason string    `dynamo:"failureReason,omitempty"`
	// ExpiresAt, when set, is when the notification expires (its creator
	// chose it; the table's TTL follows it). Without it, it never does.
	ExpiresAt time.Time `dynamo:"expiresAt,omitempty"`
	CreatedAt time.Time `dynamo:"createdAt"`
	UpdatedAt time.Time `dynamo:"updatedAt"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Validate checks the channels the code accepts (the IDs, type, status
// and priority check themselves on every write; Required: accountId,
// userId, type, title, message, status).
func (n *InboxNotification) Validate() error {
	for i, c := range n.Channels {
		if !slices.Contains(InboxChannels(), c) {
			return &table.ValidationError{Field: fmt.Sprintf("channels[%d]", i), Reason: fmt.Sprintf("%q is not one of %v", c, InboxChannels())}
		}
	}
	return nil
}
