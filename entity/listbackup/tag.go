package listbackup

import (
	"regexp"
	"time"

	"github.com/singletable/singletable/table"
)

// TaggedResource is one resource a tag is attached to.
type TaggedResource struct {
	ResourceID string    `dynamo:"resourceId"`
	AttachedAt time.Time `dynamo:"attachedAt"`
	AttachedBy UserID    `dynamo:"attachedBy,omitempty"`
}

// Tag is a key/value label of an account for one resource type, with the
// resources it is attached to. (accountId, resourceType, tagKey, tagValue)
// is unique: it is the tag's primary key.
type Tag struct {
	AccountID    AccountID        `dynamo:"accountId"`
	TagID        TagID            `dynamo:"tagId"`
	TagKey       string           `dynamo:"tagKey"`
	TagValue     string           `dynamo:"tagValue"`
	ResourceType ResourceType     `dynamo:"resourceType"`
	Resources    []TaggedResource `dynamo:"resources,omitempty"`
	Color        string           `dynamo:"color,omitempty"`
	Description  string           `dynamo:"description,omitempty"`
	CreatedAt    time.Time        `dynamo:"createdAt"`
	UpdatedAt    time.Time        `dynamo:"updatedAt"`
	CreatedBy    UserID           `dynamo:"createdBy,omitempty"`
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

// Validate checks the tag before a write.
func (t *Tag) Validate() error {
	err := first(t.AccountID.Validate("accountId"), t.TagID.Validate("tagId"), CheckTagPart("tagKey", t.TagKey),
		CheckTagPart("tagValue", t.TagValue), t.ResourceType.Check("resourceType"))
	if err != nil {
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
	ResourceType ResourceType `dynamo:"resourceType,omitempty"`
	ResourceID   string       `dynamo:"resourceId,omitempty"`
	ActionURL    string       `dynamo:"actionUrl,omitempty"`
	Metadata     Object       `dynamo:"metadata,omitempty"`
}

// Notification is a message to a user.
type Notification struct {
	UserID         UserID               `dynamo:"userId"`
	NotificationID NotificationID       `dynamo:"notificationId"`
	AccountID      AccountID            `dynamo:"accountId"`
	Type           NotificationType     `dynamo:"type"`
	Category       NotificationCategory `dynamo:"category"`
	Priority       Priority             `dynamo:"priority,omitempty"`
	Subject        string               `dynamo:"subject,omitempty"`
	Message        string               `dynamo:"message"`
	Data           NotificationData     `dynamo:"data,omitempty"`
	Status         NotificationStatus   `dynamo:"status"`
	ReadAt         time.Time            `dynamo:"readAt,omitempty"` // ISO 8601 (v2; core: number)
	SentAt         time.Time            `dynamo:"sentAt,omitempty"`
	DeliveredAt    time.Time            `dynamo:"deliveredAt,omitempty"`
	FailureReason  string               `dynamo:"failureReason,omitempty"`
	CreatedAt      time.Time            `dynamo:"createdAt"`
	// ExpiresAt is epoch seconds, createdAt + 30 days; the table's TTL
	// attribute holds the same instant (LB-46).
	ExpiresAt time.Time `dynamo:"expiresAt,unixtime,omitempty"`

	// Core's additions.
	Title     string `dynamo:"title,omitempty"`
	IsRead    bool   `dynamo:"isRead"`
	Metadata  Object `dynamo:"metadata,omitempty"`
	ActionURL string `dynamo:"actionUrl,omitempty"`
}

// Validate checks the notification before a write.
func (n *Notification) Validate() error {
	err := first(n.UserID.Validate("userId"), n.NotificationID.Validate("notificationId"), n.AccountID.Validate("accountId"),
		n.Type.Check("type"), n.Category.Check("category"), required("message", n.Message), n.Status.Check("status"),
		requiredTime("createdAt", n.CreatedAt))
	if err != nil {
		return err
	}
	if n.Priority != "" {
		if err := n.Priority.Check("priority"); err != nil {
			return err
		}
	}
	if n.IsRead != (n.Status == NotificationRead) {
		return table.Invalid("isRead", "must be true exactly when status is read")
	}
	return nil
}
