package pf

import (
	"slices"

	"github.com/singletable/singletable/table"
)

// Role is a user's role.
type Role string

// The roles the document lists.
const (
	RoleMaster   Role = "master"
	RoleAdmin    Role = "admin"
	RoleSeller   Role = "seller"
	RoleClient   Role = "client"
	RoleProducer Role = "producer"
	RoleTalent   Role = "talent"
)

// Roles returns every role.
func Roles() []Role {
	return []Role{RoleMaster, RoleAdmin, RoleSeller, RoleClient, RoleProducer, RoleTalent}
}

// Valid reports whether r is a role the document lists.
func (r Role) Valid() bool { return slices.Contains(Roles(), r) }

// ParseRole returns s as a Role, or a *table.ValidationError for field "role".
func ParseRole(s string) (Role, error) { return table.ParseEnum("role", s, Roles()...) }

// UserStatus is a user account's status.
type UserStatus string

// The user statuses the document lists.
const (
	UserActive    UserStatus = "active"
	UserSuspended UserStatus = "suspended"
	UserInactive  UserStatus = "inactive"
)

// UserStatuses returns every user status.
func UserStatuses() []UserStatus { return []UserStatus{UserActive, UserSuspended, UserInactive} }

// Valid reports whether s is a user status the document lists.
func (s UserStatus) Valid() bool { return slices.Contains(UserStatuses(), s) }

// ParseUserStatus returns s as a UserStatus, or a *table.ValidationError.
func ParseUserStatus(s string) (UserStatus, error) {
	return table.ParseEnum("status", s, UserStatuses()...)
}

// OrgStatus is an organization's status.
type OrgStatus string

// The organization statuses the document lists.
const (
	OrgActive    OrgStatus = "active"
	OrgSuspended OrgStatus = "suspended"
	OrgTrial     OrgStatus = "trial"
)

// OrgStatuses returns every organization status.
func OrgStatuses() []OrgStatus { return []OrgStatus{OrgActive, OrgSuspended, OrgTrial} }

// Valid reports whether s is an organization status the document lists.
func (s OrgStatus) Valid() bool { return slices.Contains(OrgStatuses(), s) }

// ParseOrgStatus returns s as an OrgStatus, or a *table.ValidationError.
func ParseOrgStatus(s string) (OrgStatus, error) {
	return table.ParseEnum("status", s, OrgStatuses()...)
}

// BillingStatus is a billing record's status.
type BillingStatus string

// The billing statuses the document lists.
const (
	BillingPaid    BillingStatus = "paid"
	BillingPending BillingStatus = "pending"
	BillingOverdue BillingStatus = "overdue"
	BillingFailed  BillingStatus = "failed"
)

// BillingStatuses returns every billing status.
func BillingStatuses() []BillingStatus {
	return []BillingStatus{BillingPaid, BillingPending, BillingOverdue, BillingFailed}
}

// Valid reports whether s is a billing status the document lists.
func (s BillingStatus) Valid() bool { return slices.Contains(BillingStatuses(), s) }

// ParseBillingStatus returns s as a BillingStatus, or a *table.ValidationError.
func ParseBillingStatus(s string) (BillingStatus, error) {
	return table.ParseEnum("status", s, BillingStatuses()...)
}

// Plan is a subscription plan.
type Plan string

// The plans the document lists.
const (
	PlanStarter      Plan = "starter"
	PlanProfessional Plan = "professional"
	PlanEnterprise   Plan = "enterprise"
)

// Plans returns every plan.
func Plans() []Plan { return []Plan{PlanStarter, PlanProfessional, PlanEnterprise} }

// Valid reports whether p is a plan the document lists.
func (p Plan) Valid() bool { return slices.Contains(Plans(), p) }

// ParsePlan returns s as a Plan, or a *table.ValidationError.
func ParsePlan(s string) (Plan, error) { return table.ParseEnum("plan", s, Plans()...) }

// EntityType is the entityType segment of the status index (the document's
// GSI3 sort key entityType#{entityId}).
type EntityType string

// The entity types that have a status.
const (
	EntityUser         EntityType = "USER"
	EntityOrganization EntityType = "ORG"
	EntityBilling      EntityType = "BILLING"
)

// EntityTypes returns every entity type that has a status.
func EntityTypes() []EntityType { return []EntityType{EntityUser, EntityOrganization, EntityBilling} }

// Valid reports whether t is an entity type that has a status.
func (t EntityType) Valid() bool { return slices.Contains(EntityTypes(), t) }

// ParseEntityType returns s as an EntityType, or a *table.ValidationError.
func ParseEntityType(s string) (EntityType, error) {
	return table.ParseEnum("entityType", s, EntityTypes()...)
}

// EntityStatus is a status as the status index holds it: a [UserStatus],
// [OrgStatus] or [BillingStatus] value. "active" and "suspended" are both
// user and organization statuses, which is what PF-14 asks for.
type EntityStatus string

// Valid reports whether s is the status of at least one entity type.
func (s EntityStatus) Valid() bool {
	return UserStatus(s).Valid() || OrgStatus(s).Valid() || BillingStatus(s).Valid()
}

// ValidFor reports whether s is a status of entity type t.
func (s EntityStatus) ValidFor(t EntityType) bool {
	switch t {
	case EntityUser:
		return UserStatus(s).Valid()
	case EntityOrganization:
		return OrgStatus(s).Valid()
	case EntityBilling:
		return BillingStatus(s).Valid()
	}
	return false
}

// ParseEntityStatus returns s as an EntityStatus, or a *table.ValidationError.
func ParseEntityStatus(s string) (EntityStatus, error) {
	st := EntityStatus(s)
	if !st.Valid() {
		return "", table.Invalid("status", "unknown status %q", s)
	}
	return st, nil
}

// checkEnum returns a *table.ValidationError for field unless valid.
func checkEnum[E ~string](field string, v E, valid bool) error {
	if valid {
		return nil
	}
	return table.Invalid(field, "unknown value %q", string(v))
}
