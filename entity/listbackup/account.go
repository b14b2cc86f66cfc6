package listbackup

import (
	"strings"
	"time"

	"github.com/singletable/singletable/table"
)

// BillingInfo is an account's billing information.
type BillingInfo struct {
	StripeCustomerID string `dynamo:"stripeCustomerId,omitempty"`
	SubscriptionID   string `dynamo:"subscriptionId,omitempty"`
	PaymentMethod    string `dynamo:"paymentMethod,omitempty"`
}

// AccountLimits are an account's limits.
type AccountLimits struct {
	Sources int64 `dynamo:"sources,omitempty"`
	Users   int64 `dynamo:"users,omitempty"`
	Storage int64 `dynamo:"storage,omitempty"`
}

// AccountMetadata is an account's custom metadata.
type AccountMetadata struct {
	Industry     string `dynamo:"industry,omitempty"`
	Size         string `dynamo:"size,omitempty"`
	CustomFields Object `dynamo:"customFields,omitempty"`
}

// Account is a node of the account hierarchy (conglomerate > subsidiary >
// division > location).
type Account struct {
	AccountID       AccountID       `dynamo:"accountId"`
	AccountName     string          `dynamo:"accountName"`
	ParentAccountID AccountID       `dynamo:"parentAccountId,omitempty"` // empty for a root
	AccountPath     string          `dynamo:"accountPath"`               // "/root/subsidiary/division/"
	AccountType     AccountType     `dynamo:"accountType"`
	Level           int             `dynamo:"level"`
	Status          AccountStatus   `dynamo:"status"`
	Plan            PlanType        `dynamo:"plan,omitempty"`
	BillingInfo     BillingInfo     `dynamo:"billingInfo,omitempty"`
	Limits          AccountLimits   `dynamo:"limits,omitempty"`
	Metadata        AccountMetadata `dynamo:"metadata,omitempty"`
	// CreatedAt and UpdatedAt are ISO 8601 strings (v2; core: numbers).
	CreatedAt time.Time `dynamo:"createdAt"`
	UpdatedAt time.Time `dynamo:"updatedAt"`
	CreatedBy UserID    `dynamo:"createdBy,omitempty"`
	Settings  Object    `dynamo:"settings,omitempty"` // core
	// Move is set while the account and its subtree are being moved under
	// another parent (see Accounts.Move in query/listbackup); empty
	// otherwise.
	Move AccountMove `dynamo:"move,omitempty"`
	// DeletedAt is set by a soft delete (status becomes terminated). A
	// deleted account is kept in the table but is not found by reads and
	// leaves every index.
	DeletedAt time.Time `dynamo:"deletedAt,omitempty"`
}

// AccountMove marks an account whose subtree is being moved: its
// descendants' paths are rewritten from FromPath to ToPath, then the
// account itself takes ToPath, ToParent and ToLevel and the mark is
// cleared.
type AccountMove struct {
	FromPath  string    `dynamo:"fromPath,omitempty"`
	ToPath    string    `dynamo:"toPath,omitempty"`
	ToParent  AccountID `dynamo:"toParentAccountId,omitempty"`
	ToLevel   int       `dynamo:"toLevel,omitempty"`
	StartedAt time.Time `dynamo:"startedAt,omitempty"`
}

// Pending reports whether a move is under way.
func (m AccountMove) Pending() bool { return m.ToPath != "" }

// Deleted reports whether the account was soft-deleted.
func (a *Account) Deleted() bool { return !a.DeletedAt.IsZero() }

// PathLeaf returns the last segment of an account path ("div" for
// "/root/sub/div/").
func PathLeaf(p string) string {
	p = strings.TrimSuffix(p, "/")
	return p[strings.LastIndexByte(p, '/')+1:]
}

// CheckPath returns a *table.ValidationError naming field unless p is an
// account path: starts and ends with '/', with non-empty segments and no
// control characters, e.g. "/root/subsidiary/".
func CheckPath(field, p string) error {
	if len(p) < 3 || p[0] != '/' || p[len(p)-1] != '/' {
		return table.Invalid(field, "%q: want /segment/.../ (leading and trailing '/')", p)
	}
	for _, seg := range strings.Split(p[1:len(p)-1], "/") {
		if seg == "" {
			return table.Invalid(field, "%q has an empty segment", p)
		}
	}
	if len(p) > 900 {
		return table.Invalid(field, "longer than 900 bytes")
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return table.Invalid(field, "contains a control character")
		}
	}
	return nil
}

// PathRoot returns the first segment of an account path (the tree).
func PathRoot(p string) string {
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return p
}

// Validate checks the account before a write. A root (level 0) has no
// parent; any other account has one.
func (a *Account) Validate() error {
	err := first(a.AccountID.Validate("accountId"), required("accountName", a.AccountName),
		CheckPath("accountPath", a.AccountPath), a.AccountType.Check("accountType"), a.Status.Check("status"))
	if err != nil {
		return err
	}
	if a.Level < 0 {
		return table.Invalid("level", "negative")
	}
	if (a.Level == 0) != (a.ParentAccountID == "") {
		return table.Invalid("parentAccountId", "required exactly when level > 0")
	}
	if a.ParentAccountID != "" {
		if err := a.ParentAccountID.Validate("parentAccountId"); err != nil {
			return err
		}
	}
	if a.Move.Pending() {
		if err := first(CheckPath("move.fromPath", a.Move.FromPath), CheckPath("move.toPath", a.Move.ToPath),
			a.Move.ToParent.Validate("move.toParentAccountId")); err != nil {
			return err
		}
	}
	if a.Plan != "" {
		return a.Plan.Check("plan")
	}
	return nil
}
