package podcastflow

import (
	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

// The GSIs and the partitions this package keys them with.
const (
	// IndexOrgUsers is the document's GSI1 (organization users, PF-12).
	IndexOrgUsers = table.GSI1
	// IndexRole is the document's GSI2 (users by role, PF-13).
	IndexRole = table.GSI2
	// IndexStatus is the document's GSI3 (entities by status, PF-14).
	IndexStatus = table.GSI3
	// IndexAll lists every user and every organization (PF-4, PF-6),
	// replacing the document's Scan.
	IndexAll = table.GSI4

	// AllUsersPK and AllOrgsPK are the GSI4 partitions of PF-4 and PF-6.
	AllUsersPK = "USERS"
	AllOrgsPK  = "ORGS"
)

// OrgUsersPK returns the GSI1 partition of an organization's users:
// ORG#{organizationId}.
func OrgUsersPK(id pf.OrgID) (string, error) {
	if err := id.Validate("organizationId"); err != nil {
		return "", err
	}
	return pf.UserOrgIndex.Partition(map[string]string{"organizationId": string(id)})
}

// RolePK returns the GSI2 partition of a role: ROLE#{role}.
func RolePK(r pf.Role) (string, error) {
	if !r.Valid() {
		_, err := pf.ParseRole(string(r))
		return "", err
	}
	return pf.UserRoleIndex.Partition(map[string]string{"role": string(r)})
}

// StatusPK returns the GSI3 partition of a status: STATUS#{status}.
func StatusPK(s pf.EntityStatus) (string, error) {
	if !s.Valid() {
		_, err := pf.ParseEntityStatus(string(s))
		return "", err
	}
	return pf.UserStatusIndex.Partition(map[string]string{"status": string(s)})
}

// UserEntitySK returns USER#{userId}: the sort key of a user in GSI1 to GSI4.
func UserEntitySK(id pf.UserID) (string, error) {
	if err := id.Validate("userId"); err != nil {
		return "", err
	}
	return pf.UserStatusIndex.SortKey(map[string]string{"userId": string(id)})
}

// OrgEntitySK returns ORG#{organizationId}: an organization's sort key in
// GSI3 and GSI4.
func OrgEntitySK(id pf.OrgID) (string, error) {
	if err := id.Validate("organizationId"); err != nil {
		return "", err
	}
	return pf.OrgStatusIndex.SortKey(map[string]string{"organizationId": string(id)})
}

// BillingEntitySK returns BILLING#{organizationId}#{date}: a billing
// record's sort key in GSI3.
func BillingEntitySK(id pf.OrgID, d pf.Date) (string, error) {
	if err := id.Validate("organizationId"); err != nil {
		return "", err
	}
	if err := d.Validate("date"); err != nil {
		return "", err
	}
	return pf.BillingStatusIndex.SortKey(map[string]string{"organizationId": string(id), "date": string(d)})
}

// EntityTypePrefix returns {entityType}#, the GSI3 sort-key prefix of one
// entity type (its status template's).
func EntityTypePrefix(t pf.EntityType) (string, error) {
	if !t.Valid() {
		_, err := pf.ParseEntityType(string(t))
		return "", err
	}
	return map[pf.EntityType]table.Template{
		pf.EntityUser: pf.UserStatusIndex, pf.EntityOrganization: pf.OrgStatusIndex, pf.EntityBilling: pf.BillingStatusIndex,
	}[t].SortPrefix(nil)
}
