package lb

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
	// Timezone is the user's IANA time zone, such as "Europe/Paris"; optional.
	Timezone string `dynamo:"timezone,omitempty"`
	// Notifications are the user's notification settings; optional.
	Notifications Object `dynamo:"notifications,omitempty"`
	// Theme is the user's UI theme ("light", "dark", ...), as ListBackup's
	// own code stores it; optional.
	Theme string `dynamo:"theme,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// User is a person who signs in (v2 users table, plus core's attributes).
// Email and username are unique (case-insensitively); MFASecret is
// encrypted before it is stored.
type User struct {
	// UserID identifies the user ("user:<sub>" in the documents); the item's
	// key is USER#{userId} / PROFILE.
	UserID UserID `dynamo:"userId"`
	// Email is the user's address; unique across users, compared
	// case-insensitively (its guard holds the folded form).
	Email string `dynamo:"email"`
	// Username is the user's handle; unique across users when set.
	Username string `dynamo:"username,omitempty"`
	// Name is the display name; optional.
	Name      string    `dynamo:"name,omitempty"`
	AccountID AccountID `dynamo:"accountId,omitempty"` // primary account
	// Status is the user's state (see UserStatus).
	Status UserStatus `dynamo:"status"`
	// Role is the user's global role (see UserRole); optional.
	Role UserRole `dynamo:"role,omitempty"`
	// Preferences are the user's settings; optional.
	Preferences UserPreferences `dynamo:"preferences,omitempty"`
	// CreatedAt, UpdatedAt and LastLoginAt are ISO 8601 strings (v2; core
	// writes epoch numbers).
	CreatedAt time.Time `dynamo:"createdAt"`
	// UpdatedAt is when the user was last written.
	UpdatedAt time.Time `dynamo:"updatedAt"`
	// LastLoginAt is when the user last signed in.
	LastLoginAt time.Time `dynamo:"lastLoginAt,omitempty"`
	// MFAEnabled is set when the user has multi-factor authentication on.
	MFAEnabled bool `dynamo:"mfaEnabled"`
	// MFASecret is the plaintext TOTP secret in memory; at rest it is
	// encrypted (a binary envelope, see table.Options.Cipher).
	MFASecret string `dynamo:"mfaSecret,omitempty"`

	// Core's additions.
	FirstName string `dynamo:"firstName,omitempty"`
	// LastName is the user's family name (the core document's field);
	// optional.
	LastName     string `dynamo:"lastName,omitempty"`
	PasswordHash string `dynamo:"passwordHash,omitempty"` // already a hash (bcrypt/argon2)
	// EmailVerified is set once the user confirmed the address.
	EmailVerified bool `dynamo:"emailVerified"`
	// TwoFactorEnabled is the core document's two-factor flag, stored
	// as given.
	TwoFactorEnabled bool `dynamo:"twoFactorEnabled"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
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

// Validate checks the rules of the user its fields' types do not hold
// (its IDs and enumerations check themselves on every write; Required:
// status).
func (u *User) Validate() error {
	if err := CheckEmail("email", u.Email); err != nil {
		return err
	}
	if u.Username != "" {
		if err := CheckUsername("username", u.Username); err != nil {
			return err
		}
	}
	if u.MFAEnabled && u.MFASecret == "" {
		return table.Invalid("mfaSecret", "required when mfaEnabled")
	}
	return nil
}
