package podcastflow

import (
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/guregu/dynamo/v2"

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
}

// Validate checks u before a write; the error is a *table.ValidationError
// naming the field.
func (u *UserProfile) Validate() error {
	if err := u.UserID.Validate("userId"); err != nil {
		return err
	}
	if err := CheckEmail("email", u.Email); err != nil {
		return err
	}
	if strings.TrimSpace(u.Name) == "" {
		return table.Invalid("name", "empty")
	}
	if err := checkEnum("role", u.Role, u.Role.Valid()); err != nil {
		return err
	}
	if err := checkEnum("status", u.Status, u.Status.Valid()); err != nil {
		return err
	}
	if u.OrganizationID != "" || u.Role != RoleMaster {
		if err := u.OrganizationID.Validate("organizationId"); err != nil {
			if u.OrganizationID == "" {
				return table.Invalid("organizationId", "empty: only master users may have no organization")
			}
			return err
		}
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
	// UserID is the user; it is stored only in the key.
	UserID UserID `dynamo:"-"`
	// Notifications tells whether email notifications are enabled.
	Notifications bool `dynamo:"notifications"`
	// Theme is the UI theme preference.
	Theme string `dynamo:"theme"`
	// Language is the language preference.
	Language string `dynamo:"language"`
	// Timezone is the user's time zone.
	Timezone string `dynamo:"timezone"`
	// UpdatedAt is an ISO timestamp.
	UpdatedAt time.Time `dynamo:"updatedAt,omitempty"`
}

// Validate checks p before a write.
func (p *UserPreferences) Validate() error { return p.UserID.Validate("userId") }

// UnmarshalDynamoItem decodes p and takes UserID from the key.
func (p *UserPreferences) UnmarshalDynamoItem(item dynamo.Item) error {
	type plain UserPreferences
	if err := dynamo.UnmarshalItem(item, (*plain)(p)); err != nil {
		return err
	}
	if id, err := ParseUserPK(str(item, "PK")); err == nil {
		p.UserID = id
	}
	return nil
}

// str returns the string attribute name of item, or "".
func str(item dynamo.Item, name string) string {
	var s string
	if av, ok := item[name]; ok {
		_ = dynamo.Unmarshal(av, &s)
	}
	return s
}
