package lb

import (
	"strings"
	"time"

	"github.com/singletable/singletable/table"
)

// BillingInfo is an account's billing information.
type BillingInfo struct {
	// StripeCustomerID is the account's Stripe customer id (cus_...), if
	// billed through Stripe.
	StripeCustomerID string `dynamo:"stripeCustomerId,omitempty"`
	// SubscriptionID is the Stripe subscription id (sub_...), if any.
	SubscriptionID string `dynamo:"subscriptionId,omitempty"`
	// PaymentMethod names the payment method on file (free text from the
	// billing provider).
	PaymentMethod string `dynamo:"paymentMethod,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// AccountLimits are an account's limits.
type AccountLimits struct {
	// Sources is the most data sources the account may connect (0: the plan's
	// limit).
	Sources int64 `dynamo:"sources,omitempty"`
	// Users is the most users the account may have.
	Users int64 `dynamo:"users,omitempty"`
	// Storage is the storage quota (the document gives no unit).
	Storage int64 `dynamo:"storage,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// AccountMetadata is an account's custom metadata.
type AccountMetadata struct {
	// Industry is the account's industry, free text.
	Industry string `dynamo:"industry,omitempty"`
	// Size is the company size band, free text.
	Size string `dynamo:"size,omitempty"`
	// CustomFields holds any other key/value data the application keeps.
	CustomFields Object `dynamo:"customFields,omitempty"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// Account is a node of the account hierarchy (conglomerate > subsidiary >
// division > location).
type Account struct {
	// AccountID identifies the account; the item's key is ACCOUNT#{accountId}
	// / PROFILE.
	AccountID AccountID `dynamo:"accountId"`
	// AccountName is the display name.
	AccountName     string    `dynamo:"accountName"`
	ParentAccountID AccountID `dynamo:"parentAccountId,omitempty"` // empty for a root
	AccountPath     string    `dynamo:"accountPath"`               // "/root/subsidiary/division/"
	// AccountType is the level's kind (conglomerate, subsidiary, division,
	// location); GSI2 ACCTYPE#{type} and the children index (GSI1) sort by it.
	// Accounts.Create requires it; an account ListBackup's own code wrote
	// has none (its code stores no type) and keeps none: it is listed among
	// its parent's children (under TYPE#-) and in no type's list.
	AccountType AccountType `dynamo:"accountType,omitempty"`
	// Level is the depth in the hierarchy: 0 for a root, parent's level + 1
	// below it. Changed only by Accounts.Move.
	Level int `dynamo:"level"`
	// Status is the account's lifecycle state (see AccountStatus); terminated
	// after a soft delete.
	Status AccountStatus `dynamo:"status"`
	// Plan is the billing plan type (see PlanType); optional.
	Plan PlanType `dynamo:"plan,omitempty"`
	// BillingInfo holds the billing provider's ids; optional.
	BillingInfo BillingInfo `dynamo:"billingInfo,omitempty"`
	// Limits are the account's own limits; optional.
	Limits AccountLimits `dynamo:"limits,omitempty"`
	// Metadata is descriptive data about the company; optional.
	Metadata AccountMetadata `dynamo:"metadata,omitempty"`
	// CreatedAt and UpdatedAt are ISO 8601 strings (v2; core: numbers).
	CreatedAt time.Time `dynamo:"createdAt"`
	// UpdatedAt is when the account was last written (kept by the store).
	UpdatedAt time.Time `dynamo:"updatedAt"`
	// CreatedBy is the user who created the account; optional.
	CreatedBy UserID `dynamo:"createdBy,omitempty"`
	Settings  Object `dynamo:"settings,omitempty"` // core
	// Move is set while the account and its subtree are being moved under
	// another parent (see Accounts.Move in query/listbackup); empty
	// otherwise.
	Move AccountMove `dynamo:"move,omitempty"`
	// DeletedAt is set by a soft delete (status becomes terminated). A
	// deleted account is kept in the table but is not found by reads and
	// leaves every index.
	DeletedAt time.Time `dynamo:"deletedAt,omitempty"`
	// Extra keeps the attributes no field models, as stored (the
	// catch-all: a migrated item keeps what its legacy writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// AccountMove marks an account whose subtree is being moved: its
// descendants' paths are rewritten from FromPath to ToPath, then the
// account itself takes ToPath, ToParent and ToLevel and the mark is
// cleared.
type AccountMove struct {
	// FromPath is the account's path before the move.
	FromPath string `dynamo:"fromPath,omitempty"`
	// ToPath is the account's path after the move; set while a move is
	// pending.
	ToPath string `dynamo:"toPath,omitempty"`
	// ToParent is the new parent account.
	ToParent AccountID `dynamo:"toParentAccountId,omitempty"`
	// ToLevel is the account's level after the move.
	ToLevel int `dynamo:"toLevel,omitempty"`
	// StartedAt is when the move began.
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

// Validate checks the rules of the account its fields' types do not hold
// (its IDs and enumerations check themselves on every write; Required:
// accountName, status). A root (level 0) has no parent; any other account
// has one; a pending move names its new parent.
func (a *Account) Validate() error {
	if err := CheckPath("accountPath", a.AccountPath); err != nil {
		return err
	}
	if a.Level < 0 {
		return table.Invalid("level", "negative")
	}
	if (a.Level == 0) != (a.ParentAccountID == "") {
		return table.Invalid("parentAccountId", "required exactly when level > 0")
	}
	if a.Move.Pending() {
		if err := first(CheckPath("move.fromPath", a.Move.FromPath), CheckPath("move.toPath", a.Move.ToPath)); err != nil {
			return err
		}
		if a.Move.ToParent == "" {
			return AccountIDs.CheckField("move.toParentAccountId", a.Move.ToParent)
		}
	}
	return nil
}
