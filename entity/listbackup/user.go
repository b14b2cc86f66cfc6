package listbackup

import (
	"net/mail"
	"strings"
	"time"
	"unicode"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// UserPreferences are a user's preferences (v2: timezone, notifications).
type UserPreferences struct {
	Timezone      string `dynamo:"timezone,omitempty"`
	Notifications Object `dynamo:"notifications,omitempty"`
}

// User is a person who signs in (v2 users table, plus core's attributes).
// Email and username are unique (case-insensitively); MFASecret is
// encrypted before it is stored.
type User struct {
	UserID      UserID          `dynamo:"userId"`
	Email       string          `dynamo:"email"`
	Username    string          `dynamo:"username,omitempty"`
	Name        string          `dynamo:"name,omitempty"`
	AccountID   AccountID       `dynamo:"accountId,omitempty"` // primary account
	Status      UserStatus      `dynamo:"status"`
	Role        UserRole        `dynamo:"role,omitempty"`
	Preferences UserPreferences `dynamo:"preferences,omitempty"`
	// CreatedAt, UpdatedAt and LastLoginAt are ISO 8601 strings (v2; core
	// writes epoch numbers).
	CreatedAt   time.Time `dynamo:"createdAt"`
	UpdatedAt   time.Time `dynamo:"updatedAt"`
	LastLoginAt time.Time `dynamo:"lastLoginAt,omitempty"`
	MFAEnabled  bool      `dynamo:"mfaEnabled"`
	// MFASecret is the plaintext TOTP secret in memory; at rest it is
	// encrypted (a binary envelope, see table.Options.Cipher).
	MFASecret string `dynamo:"mfaSecret,omitempty"`

	// Core's additions.
	FirstName        string `dynamo:"firstName,omitempty"`
	LastName         string `dynamo:"lastName,omitempty"`
	PasswordHash     string `dynamo:"passwordHash,omitempty"` // already a hash (bcrypt/argon2)
	EmailVerified    bool   `dynamo:"emailVerified"`
	TwoFactorEnabled bool   `dynamo:"twoFactorEnabled"`
}

// NormalizeEmail is the form emails are unique in: [keys.FoldEmail]
// (trimmed, Unicode NFKC, lower case), shared by the three applications
// that have emails (the v2 migration notes ask for email normalization).
func NormalizeEmail(email string) string { return keys.FoldEmail(email) }

// NormalizeUsername is the form usernames are unique in: lower-cased.
func NormalizeUsername(u string) string { return strings.ToLower(strings.TrimSpace(u)) }

// CheckEmail returns a *table.ValidationError naming field unless email is
// a plain address (no display name).
func CheckEmail(field, email string) error {
	e := strings.TrimSpace(email)
	a, err := mail.ParseAddress(e)
	if e == "" || err != nil || a.Address != e || len(e) > 254 {
		return table.Invalid(field, "%q is not an email address", email)
	}
	return nil
}

// CheckUsername returns a *table.ValidationError naming field unless u is
// 3 to 64 letters, digits, '.', '_' or '-'.
func CheckUsername(field, u string) error {
	if n := len(u); n < 3 || n > 64 {
		return table.Invalid(field, "%q: want 3 to 64 characters", u)
	}
	for _, r := range u {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-') {
			return table.Invalid(field, "%q holds %q; allowed are letters, digits, '.', '_', '-'", u, r)
		}
	}
	return nil
}

// Validate checks the user before a write.
func (u *User) Validate() error {
	err := first(u.UserID.Validate("userId"), CheckEmail("email", u.Email), u.Status.Check("status"))
	if err != nil {
		return err
	}
	if u.Username != "" {
		if err := CheckUsername("username", u.Username); err != nil {
			return err
		}
	}
	if u.Role != "" {
		if err := u.Role.Check("role"); err != nil {
			return err
		}
	}
	if u.AccountID != "" {
		if err := u.AccountID.Validate("accountId"); err != nil {
			return err
		}
	}
	if u.MFAEnabled && u.MFASecret == "" {
		return table.Invalid("mfaSecret", "required when mfaEnabled")
	}
	return nil
}
