package pf

import (
	"fmt"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// UserProfile is a user (USER#{userId} / PROFILE).
type UserProfile struct {
	// UserID is the unique user identifier.
	UserID UserID `dynamo:"userId"`
	// Email is the user's email address, unique across the platform
	// (compared lower-cased, see [NormalizeEmail]).
	Email string `dynamo:"email"`
	// Name is the full name.
	Name string `dynamo:"name"`
	// Role is the user's role.
	Role Role `dynamo:"role"`
	// Status is the account status.
	Status UserStatus `dynamo:"status"`
	// OrganizationID is the user's organization; only master users may
	// have none.
	OrganizationID OrgID `dynamo:"organizationId"`
	// Phone is a phone number.
	Phone string `dynamo:"phone"`
	// Avatar is an avatar URL.
	Avatar string `dynamo:"avatar"`
	// CreatedAt, UpdatedAt and LastLogin are ISO timestamps.
	CreatedAt time.Time `dynamo:"createdAt,omitempty"`
	UpdatedAt time.Time `dynamo:"updatedAt,omitempty"`
	LastLogin time.Time `dynamo:"lastLogin,omitempty"`
	// Extra keeps the attributes the platform's writers store that this
	// type does not model (table.Extra): the user Lambda's profile update
	// stores whatever fields the client sends (timezone, language, ...),
	// the auth Lambda sets timezone and organization.
	Extra table.Extra `dynamo:"-"`
}

// Validate checks u before a write; the error is a *table.ValidationError
// naming the field.
func (u *UserProfile) Validate() error {
	if err := CheckEmail("email", u.Email); err != nil {
		return err
	}
	if strings.TrimSpace(u.Name) == "" {
		return table.Invalid("name", "empty")
	}
	if u.OrganizationID == "" && u.Role != RoleMaster {
		return table.Invalid("organizationId", "empty: only master users may have no organization")
	}
	return checkURL("avatar", u.Avatar)
}

// CheckEmail checks that s is a plain email address (name@domain).
func CheckEmail(field, s string) error {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return table.Invalid(field, "not an email address: %s", quote(s))
	}
	return nil
}

// NormalizeEmail returns the form in which emails are compared for
// uniqueness: [keys.FoldEmail] (trimmed, Unicode NFKC, lower case), shared
// by the three applications that have emails.
func NormalizeEmail(s string) string { return keys.FoldEmail(s) }

func checkURL(field, s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return table.Invalid(field, "not an http(s) URL: %s", quote(s))
	}
	return nil
}

// UserPreferences are a user's preferences (USER#{userId} / PREFERENCES).
type UserPreferences struct {
	// UserID is the user: in the key, and stored as userId too, as the
	// user Lambda's PUT /preferences stores it (its GET /preferences
	// returns the item as stored). An item without it (the document's
	// format) reads it from the key; the key wins over a stored value.
	UserID UserID `dynamo:"userId" key:"userId"`
	// Notifications are the notification preferences: the document's
	// boolean, or the per-channel map the user Lambda writes.
	Notifications NotificationPrefs `dynamo:"notifications"`
	// Theme is the UI theme preference.
	Theme string `dynamo:"theme"`
	// Language is the language preference.
	Language string `dynamo:"language"`
	// Timezone is the user's time zone.
	Timezone string `dynamo:"timezone"`
	// Display is the user Lambda's display document (theme, density,
	// showTutorials, ...), as stored.
	Display map[string]any `dynamo:"display"`
	// UpdatedAt is an ISO timestamp.
	UpdatedAt time.Time `dynamo:"updatedAt,omitempty"`
	// Extra keeps what else is stored (table.Extra): the user Lambda writes
	// every field the client sends.
	Extra table.Extra `dynamo:"-"`
}

// NotificationPrefs reads both shapes real writers store under
// notifications: the document's boolean (email notifications on or off)
// and the user Lambda's map of channels ({"email": true, "push": false}).
// It writes back the shape it read: a boolean unless Channels is set.
type NotificationPrefs struct {
	// Enabled is the boolean, or whether any channel is on.
	Enabled bool
	// Channels is the per-channel map, when the item holds one.
	Channels map[string]bool
}

// On returns the preference for channel: its entry in Channels, else
// Enabled.
func (n NotificationPrefs) On(channel string) bool {
	if v, ok := n.Channels[channel]; ok {
		return v
	}
	return n.Enabled
}

// MarshalDynamo writes the boolean, or the map when Channels is set.
func (n NotificationPrefs) MarshalDynamo() (types.AttributeValue, error) {
	if n.Channels == nil {
		return &types.AttributeValueMemberBOOL{Value: n.Enabled}, nil
	}
	m := make(map[string]types.AttributeValue, len(n.Channels))
	for k, v := range n.Channels {
		m[k] = &types.AttributeValueMemberBOOL{Value: v}
	}
	return &types.AttributeValueMemberM{Value: m}, nil
}

// UnmarshalDynamo reads a boolean or a map of booleans (entries of other
// types are ignored: a read never fails on them).
func (n *NotificationPrefs) UnmarshalDynamo(av types.AttributeValue) error {
	switch v := av.(type) {
	case *types.AttributeValueMemberBOOL:
		*n = NotificationPrefs{Enabled: v.Value}
	case *types.AttributeValueMemberM:
		*n = NotificationPrefs{Channels: make(map[string]bool, len(v.Value))}
		for k, e := range v.Value {
			if b, ok := e.(*types.AttributeValueMemberBOOL); ok {
				n.Channels[k] = b.Value
				n.Enabled = n.Enabled || b.Value
			}
		}
	case *types.AttributeValueMemberNULL:
		*n = NotificationPrefs{}
	default:
		return fmt.Errorf("notifications: want a boolean or a map, got %T", av)
	}
	return nil
}
