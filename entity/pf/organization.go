package pf

import (
	"strings"
	"time"

	"github.com/singletable/singletable/table"
)

// OrganizationProfile is an organization (ORG#{organizationId} / PROFILE).
type OrganizationProfile struct {
	// OrganizationID is the unique organization identifier.
	OrganizationID OrgID `dynamo:"organizationId"`
	// Name is the organization's name.
	Name string `dynamo:"name"`
	// Domain is its email domain.
	Domain string `dynamo:"domain"`
	// Plan is its subscription plan.
	Plan Plan `dynamo:"plan"`
	// Status is its status.
	Status OrgStatus `dynamo:"status"`
	// Features are the enabled features.
	Features []string `dynamo:"features"`
	// Limits are usage limits by name (maxUsers, storageGB, ...).
	Limits map[string]int64 `dynamo:"limits"`
	// CreatedAt and UpdatedAt are ISO timestamps.
	CreatedAt time.Time `dynamo:"createdAt,omitempty"`
	UpdatedAt time.Time `dynamo:"updatedAt,omitempty"`
	// CreatedBy is the user who created the organization.
	CreatedBy UserID `dynamo:"createdBy"`
}

// Validate checks o before a write.
func (o *OrganizationProfile) Validate() error {
	if strings.TrimSpace(o.Name) == "" {
		return table.Invalid("name", "empty")
	}
	if o.Domain != "" && (strings.ContainsAny(o.Domain, "@/ ") || !strings.Contains(o.Domain, ".")) {
		return table.Invalid("domain", "not a domain name: %s", quote(o.Domain))
	}
	for name, n := range o.Limits {
		if n < 0 {
			return table.Invalid("limits", "%s is negative", name)
		}
	}
	return nil
}

// OrganizationSettings are an organization's settings
// (ORG#{organizationId} / SETTINGS).
type OrganizationSettings struct {
	// OrganizationID is the organization; it is stored only in the key.
	OrganizationID OrgID `dynamo:"-" key:"organizationId"`
	// AllowedDomains are the email domains allowed to sign up.
	AllowedDomains []string `dynamo:"allowedDomains"`
	// RequireApproval requires admin approval for new users.
	RequireApproval bool `dynamo:"requireApproval"`
	// SSOEnabled tells whether single sign-on is enabled.
	SSOEnabled bool `dynamo:"ssoEnabled"`
	// CustomBranding holds custom branding settings as the application
	// writes them: a free-form document (logoUrl, primaryColor, a nested
	// colors map, ...), kept as read.
	CustomBranding map[string]any `dynamo:"customBranding"`
	// UpdatedAt is an ISO timestamp.
	UpdatedAt time.Time `dynamo:"updatedAt,omitempty"`
	// Extra keeps what else is stored (table.Extra): the organization
	// Lambda writes orgId and every field the client sends.
	Extra table.Extra `dynamo:"-"`
}
