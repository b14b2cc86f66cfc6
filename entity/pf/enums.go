package pf

import (
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

// Roles are the roles the document lists.
var Roles = table.NewEnum("role", RoleMaster, RoleAdmin, RoleSeller, RoleClient, RoleProducer, RoleTalent)

// UserStatus is a user account's status.
type UserStatus string

// The user statuses the document lists.
const (
	UserActive    UserStatus = "active"
	UserSuspended UserStatus = "suspended"
	UserInactive  UserStatus = "inactive"
)

// UserStatuses are the user statuses the document lists.
var UserStatuses = table.NewEnum("status", UserActive, UserSuspended, UserInactive)

// OrgStatus is an organization's status.
type OrgStatus string

// The organization statuses the document lists.
const (
	OrgActive    OrgStatus = "active"
	OrgSuspended OrgStatus = "suspended"
	OrgTrial     OrgStatus = "trial"
)

// OrgStatuses are the organization statuses the document lists.
var OrgStatuses = table.NewEnum("status", OrgActive, OrgSuspended, OrgTrial)

// BillingStatus is a billing record's status.
type BillingStatus string

// The billing statuses the document lists.
const (
	BillingPaid    BillingStatus = "paid"
	BillingPending BillingStatus = "pending"
	BillingOverdue BillingStatus = "overdue"
	BillingFailed  BillingStatus = "failed"
)

// BillingStatuses are the billing statuses the document lists.
var BillingStatuses = table.NewEnum("status", BillingPaid, BillingPending, BillingOverdue, BillingFailed)

// Plan is a subscription plan.
type Plan string

// The plans the document lists.
const (
	PlanStarter      Plan = "starter"
	PlanProfessional Plan = "professional"
	PlanEnterprise   Plan = "enterprise"
)

// Plans are the plans the document lists.
var Plans = table.NewEnum("plan", PlanStarter, PlanProfessional, PlanEnterprise)

// EntityType is the entityType segment of the status index (the document's
// GSI3 sort key entityType#{entityId}).
type EntityType string

// The entity types that have a status.
const (
	EntityUser         EntityType = "USER"
	EntityOrganization EntityType = "ORG"
	EntityBilling      EntityType = "BILLING"
)

// EntityTypes are the entity types that have a status the document lists.
var EntityTypes = table.NewEnum("entityType", EntityUser, EntityOrganization, EntityBilling)

// EntityStatus is a status as the status index holds it: a [UserStatus],
// [OrgStatus] or [BillingStatus] value. "active" and "suspended" are both
// user and organization statuses, which is what PF-14 asks for.
type EntityStatus string

// Valid reports whether s is the status of at least one entity type.
func (s EntityStatus) Valid() bool {
	return UserStatuses.Valid(UserStatus(s)) || OrgStatuses.Valid(OrgStatus(s)) || BillingStatuses.Valid(BillingStatus(s))
}

// ValidFor reports whether s is a status of entity type t.
func (s EntityStatus) ValidFor(t EntityType) bool {
	switch t {
	case EntityUser:
		return UserStatuses.Valid(UserStatus(s))
	case EntityOrganization:
		return OrgStatuses.Valid(OrgStatus(s))
	case EntityBilling:
		return BillingStatuses.Valid(BillingStatus(s))
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
