package fh

import (
	"strings"

	"github.com/singletable/singletable/table"
)

// User is a Ferryhook account (main table, USER#{userId} / PROFILE).
type User struct {
	// UserID is usr_ + nanoid(16).
	UserID UserID `dynamo:"userId"`
	// Email is unique across users, stored normalized ([NormalizeEmail]).
	Email string `dynamo:"email"`
	// Name is the display name.
	Name string `dynamo:"name"`
	// PasswordHash is a bcrypt hash; empty for OAuth-only users.
	PasswordHash string `dynamo:"passwordHash"`
	// Plan is the billing plan; it sets event retention (FH-12).
	Plan Plan `dynamo:"plan"`
	// StripeCustomerID is the Stripe customer ID.
	StripeCustomerID string `dynamo:"stripeCustomerId"`
	// StripeSubID is the Stripe subscription ID.
	StripeSubID string `dynamo:"stripeSubId"`
	// GitHubID is the GitHub user ID, for GitHub sign-in.
	GitHubID string `dynamo:"githubId"`
	// GoogleID is the Google user ID, for Google sign-in.
	GoogleID string `dynamo:"googleId"`
	// UsageThisMonth counts the events received in the billing period.
	UsageThisMonth int64 `dynamo:"usageThisMonth"`
	// UsagePeriodStart is when the billing period began.
	UsagePeriodStart ISOTime `dynamo:"usagePeriodStart"`
	// CreatedAt and UpdatedAt are kept by the store.
	CreatedAt ISOTime `dynamo:"createdAt"`
	UpdatedAt ISOTime `dynamo:"updatedAt"`
}

// Validate checks the rules of u its fields\' types do not hold (its IDs and
// enumerations check themselves on every write: see the Def\'s Required).
func (u *User) Validate() error {
	return first(
		checkEmail("email", u.Email),
		checkName("name", u.Name),
		checkPasswordHash(u.PasswordHash),
		checkLogin(u),
		checkText("stripeCustomerId", u.StripeCustomerID, 255),
		checkText("stripeSubId", u.StripeSubID, 255),
		checkText("githubId", u.GitHubID, 255),
		checkText("googleId", u.GoogleID, 255),
		checkCount("usageThisMonth", u.UsageThisMonth),
	)
}

// ValidateFields checks only the named attributes of u (those a partial
// update sets), so that an update is refused before any request; the
// whole-item rules (a login method) are checked on the item as stored.
func (u *User) ValidateFields(attrs ...string) error {
	checks := map[string]func() error{
		"email":            func() error { return checkEmail("email", u.Email) },
		"name":             func() error { return checkName("name", u.Name) },
		"passwordHash":     func() error { return checkPasswordHash(u.PasswordHash) },
		"plan":             func() error { return Plans.Check(u.Plan) },
		"stripeCustomerId": func() error { return checkText("stripeCustomerId", u.StripeCustomerID, 255) },
		"stripeSubId":      func() error { return checkText("stripeSubId", u.StripeSubID, 255) },
		"githubId":         func() error { return checkText("githubId", u.GitHubID, 255) },
		"googleId":         func() error { return checkText("googleId", u.GoogleID, 255) },
	}
	for _, a := range attrs {
		if c, ok := checks[a]; ok {
			if err := c(); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkPasswordHash(h string) error {
	if h == "" {
		return nil
	}
	if len(h) != 60 || !(strings.HasPrefix(h, "$2a$") || strings.HasPrefix(h, "$2b$") || strings.HasPrefix(h, "$2y$")) {
		return table.Invalid("passwordHash", "not a bcrypt hash")
	}
	return nil
}

func checkLogin(u *User) error {
	if u.PasswordHash == "" && u.GitHubID == "" && u.GoogleID == "" {
		return table.Invalid("passwordHash", "a user needs a password hash, a GitHub ID or a Google ID")
	}
	return nil
}
