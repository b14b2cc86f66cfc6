package lb

import (
	"regexp"
	"time"

	"github.com/singletable/singletable/table"
)

// TaggedResource is one resource a tag is attached to.
type TaggedResource struct {
	// ResourceID identifies the tagged resource.
	ResourceID string `dynamo:"resourceId"`
	// AttachedAt is when the tag was attached to it.
	AttachedAt time.Time `dynamo:"attachedAt"`
	// AttachedBy is the user who attached it; optional.
	AttachedBy UserID `dynamo:"attachedBy,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Tag is a key/value label of an account for one resource type, with the
// resources it is attached to. (accountId, resourceType, tagKey, tagValue)
// is unique: it is the tag's primary key.
type Tag struct {
	// AccountID is the account that owns the tag; fixed at creation
	// (Def.Scope). Its tags are the items TAG#{key}#{value} in
	// TAGS#{accountId}#{resourceType}.
	AccountID AccountID `dynamo:"accountId"`
	// TagID identifies the tag (GSI1 TAGID#{tagId}).
	TagID TagID `dynamo:"tagId"`
	// TagKey is the tag's key, such as "env"; part of the item's key, so it
	// cannot change.
	TagKey string `dynamo:"tagKey"`
	// TagValue is the tag's value, such as "production"; part of the item's
	// key.
	TagValue string `dynamo:"tagValue"`
	// ResourceType is the kind of resource the tag applies to (see
	// ResourceType); part of the item's key.
	ResourceType ResourceType `dynamo:"resourceType"`
	// Resources are the resources the tag is attached to, kept in the tag
	// item.
	Resources []TaggedResource `dynamo:"resources,omitempty"`
	// Color is the display color, such as "#ff0000"; optional.
	Color string `dynamo:"color,omitempty"`
	// Description is free text; optional.
	Description string `dynamo:"description,omitempty"`
	// CreatedAt is when the tag was created.
	CreatedAt time.Time `dynamo:"createdAt"`
	// UpdatedAt is when the tag was last written.
	UpdatedAt time.Time `dynamo:"updatedAt"`
	// CreatedBy is the user who created the tag; optional.
	CreatedBy UserID `dynamo:"createdBy,omitempty"`
}

var colorRE = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// CheckTagPart returns a *table.ValidationError naming field unless v is a
// tag key or value: 1 to 128 bytes. Any character is allowed ('#' is
// escaped in keys).
func CheckTagPart(field, v string) error {
	if v == "" || len(v) > 128 {
		return &table.ValidationError{Field: field, Reason: "want 1 to 128 bytes", Key: true}
	}
	return nil
}

// Validate checks the tag's key, value, color and resources (its IDs and
// resource type check themselves on every write).
func (t *Tag) Validate() error {
	if err := first(CheckTagPart("tagKey", t.TagKey), CheckTagPart("tagValue", t.TagValue)); err != nil {
		return err
	}
	if t.Color != "" && !colorRE.MatchString(t.Color) {
		return table.Invalid("color", "%q is not a hex color such as #1a2b3c", t.Color)
	}
	for _, r := range t.Resources {
		if err := CheckID("resources.resourceId", r.ResourceID); err != nil {
			return err
		}
	}
	return nil
}

// NotificationRetention is how long notifications are kept (30 days, LB-46).
const NotificationRetention = 30 * 24 * time.Hour

// NotificationData links a notification to a resource.
type NotificationData struct {
	// ResourceType is the kind of resource the notification is about;
	// optional.
	ResourceType ResourceType `dynamo:"resourceType,omitempty"`
	// ResourceID identifies that resource; optional.
	ResourceID string `dynamo:"resourceId,omitempty"`
	// ActionURL is a link to act on the notification; optional.
	ActionURL string `dynamo:"actionUrl,omitempty"`
	// Metadata is any other data; optional.
	Metadata Object `dynamo:"metadata,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Notification is a message to a user.
type Notification struct {
	// UserID is the recipient; a user's notifications are the items
	// N#{createdAt}#{id} in NOTIF#{userId}, newest first.
	UserID UserID `dynamo:"userId"`
	// NotificationID identifies the notification.
	NotificationID NotificationID `dynamo:"notificationId"`
	// AccountID is the account the notification concerns; listed under
	// ACCTNOTIF#{accountId} (GSI1).
	AccountID AccountID `dynamo:"accountId"`
	// Type is the channel or kind of notification (see NotificationType).
	Type NotificationType `dynamo:"type"`
	// Category is what the notification is about (see NotificationCategory).
	Category NotificationCategory `dynamo:"category"`
	// Priority is the notification's priority (see Priority); optional.
	Priority Priority `dynamo:"priority,omitempty"`
	// Subject is the title; optional.
	Subject string `dynamo:"subject,omitempty"`
	// Message is the text.
	Message string `dynamo:"message"`
	// Data links the notification to a resource; optional.
	Data NotificationData `dynamo:"data,omitempty"`
	// Status is the delivery state (see NotificationStatus); a user's
	// notifications are listed by status (GSI2 NOTIFSTATUS#{userId}).
	Status NotificationStatus `dynamo:"status"`
	ReadAt time.Time          `dynamo:"readAt,omitempty"` // ISO 8601 (v2; core: number)
	// SentAt is when the notification was sent.
	SentAt time.Time `dynamo:"sentAt,omitempty"`
	// DeliveredAt is when it was delivered.
	DeliveredAt time.Time `dynamo:"deliveredAt,omitempty"`
	// FailureReason says why delivery failed; optional.
	FailureReason string `dynamo:"failureReason,omitempty"`
	// CreatedAt is when the notification was created; the keys sort by it and
	// it expires 30 days later (TTL).
	CreatedAt time.Time `dynamo:"createdAt"`
	// ExpiresAt is epoch seconds, createdAt + 30 days; the table's TTL
	// attribute holds the same instant (LB-46).
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime,omitempty"`

	// Core's additions.
	Title string `dynamo:"title,omitempty"`
	// IsRead is set when the user read it; unread notifications are also
	// listed under UNREAD#{userId} (GSI3, sparse).
	IsRead bool `dynamo:"isRead"`
	// Metadata is any other data; optional.
	Metadata Object `dynamo:"metadata,omitempty"`
	// ActionURL is a link to act on the notification; optional.
	ActionURL string `dynamo:"actionUrl,omitempty"`
}

// Validate checks that isRead follows the status (the IDs and enumerations
// check themselves on every write; Required: accountId, type, category,
// message, status, createdAt).
func (n *Notification) Validate() error {
	if n.IsRead != (n.Status == NotificationRead) {
		return table.Invalid("isRead", "must be true exactly when status is read")
	}
	return nil
}
