package podcastflow

import (
	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// Constant key values of the document.
const (
	SKProfile     = "PROFILE"
	SKPreferences = "PREFERENCES"
	SKSettings    = "SETTINGS"
	PKPlatform    = "PLATFORM"
	PKAnalytics   = "ANALYTICS"
	PKBilling     = "BILLING"
)

// Key patterns of the document.
var (
	userPK           = keys.NewPattern[keys.PK]("USER", "userId")
	orgPK            = keys.NewPattern[keys.PK]("ORG", "organizationId")
	billingPK        = keys.NewPattern[keys.PK]("BILLING", "organizationId")
	globalMetricsSK  = keys.NewPattern[keys.SK]("GLOBAL", "date")
	orgMetricsSK     = keys.NewPattern[keys.SK]("ORG", "organizationId", "date")
	billingRecordSK  = keys.NewPattern[keys.SK]("RECORD", "date")
	billingMetricsSK = keys.NewPattern[keys.SK]("METRICS", "date")
)

// UserPK returns USER#{userId}.
func UserPK(id UserID) (string, error) {
	if err := id.Validate("userId"); err != nil {
		return "", err
	}
	pk, err := userPK.Build(string(id))
	return string(pk), err
}

// UserProfileKey returns USER#{userId} / PROFILE.
func UserProfileKey(id UserID) (table.Key, error) {
	pk, err := UserPK(id)
	return table.Key{PK: pk, SK: SKProfile}, err
}

// UserPreferencesKey returns USER#{userId} / PREFERENCES.
func UserPreferencesKey(id UserID) (table.Key, error) {
	pk, err := UserPK(id)
	return table.Key{PK: pk, SK: SKPreferences}, err
}

// ParseUserPK returns the userId of USER#{userId}.
func ParseUserPK(pk string) (UserID, error) {
	v, err := userPK.Parse(keys.PK(pk))
	if err != nil {
		return "", err
	}
	return UserID(v[0]), nil
}

// OrgPK returns ORG#{organizationId}.
func OrgPK(id OrgID) (string, error) {
	if err := id.Validate("organizationId"); err != nil {
		return "", err
	}
	pk, err := orgPK.Build(string(id))
	return string(pk), err
}

// OrganizationProfileKey returns ORG#{organizationId} / PROFILE.
func OrganizationProfileKey(id OrgID) (table.Key, error) {
	pk, err := OrgPK(id)
	return table.Key{PK: pk, SK: SKProfile}, err
}

// OrganizationSettingsKey returns ORG#{organizationId} / SETTINGS.
func OrganizationSettingsKey(id OrgID) (table.Key, error) {
	pk, err := OrgPK(id)
	return table.Key{PK: pk, SK: SKSettings}, err
}

// ParseOrgPK returns the organizationId of ORG#{organizationId}.
func ParseOrgPK(pk string) (OrgID, error) {
	v, err := orgPK.Parse(keys.PK(pk))
	if err != nil {
		return "", err
	}
	return OrgID(v[0]), nil
}

// PlatformSettingsKey returns PLATFORM / SETTINGS.
func PlatformSettingsKey() table.Key { return table.Key{PK: PKPlatform, SK: SKSettings} }

// GlobalMetricsSK returns GLOBAL#{date}.
func GlobalMetricsSK(d Date) (string, error) {
	if err := d.Validate("date"); err != nil {
		return "", err
	}
	sk, err := globalMetricsSK.Build(string(d))
	return string(sk), err
}

// GlobalMetricsKey returns ANALYTICS / GLOBAL#{date}.
func GlobalMetricsKey(d Date) (table.Key, error) {
	sk, err := GlobalMetricsSK(d)
	return table.Key{PK: PKAnalytics, SK: sk}, err
}

// OrganizationMetricsSK returns ORG#{organizationId}#{date}.
func OrganizationMetricsSK(id OrgID, d Date) (string, error) {
	if err := id.Validate("organizationId"); err != nil {
		return "", err
	}
	if err := d.Validate("date"); err != nil {
		return "", err
	}
	sk, err := orgMetricsSK.Build(string(id), string(d))
	return string(sk), err
}

// OrganizationMetricsKey returns ANALYTICS / ORG#{organizationId}#{date}.
func OrganizationMetricsKey(id OrgID, d Date) (table.Key, error) {
	sk, err := OrganizationMetricsSK(id, d)
	return table.Key{PK: PKAnalytics, SK: sk}, err
}

// BillingPK returns BILLING#{organizationId}.
func BillingPK(id OrgID) (string, error) {
	if err := id.Validate("organizationId"); err != nil {
		return "", err
	}
	pk, err := billingPK.Build(string(id))
	return string(pk), err
}

// BillingRecordSK returns RECORD#{date}.
func BillingRecordSK(d Date) (string, error) {
	if err := d.Validate("date"); err != nil {
		return "", err
	}
	sk, err := billingRecordSK.Build(string(d))
	return string(sk), err
}

// BillingRecordSKPrefix is the prefix of every billing record sort key.
const BillingRecordSKPrefix = "RECORD#"

// BillingRecordKey returns BILLING#{organizationId} / RECORD#{date}.
func BillingRecordKey(id OrgID, d Date) (table.Key, error) {
	pk, err := BillingPK(id)
	if err != nil {
		return table.Key{}, err
	}
	sk, err := BillingRecordSK(d)
	return table.Key{PK: pk, SK: sk}, err
}

// ParseBillingRecordKey returns the organizationId and date of
// BILLING#{organizationId} / RECORD#{date}.
func ParseBillingRecordKey(k table.Key) (OrgID, Date, error) {
	p, err := billingPK.Parse(keys.PK(k.PK))
	if err != nil {
		return "", "", err
	}
	s, err := billingRecordSK.Parse(keys.SK(k.SK))
	if err != nil {
		return "", "", err
	}
	return OrgID(p[0]), Date(s[0]), nil
}

// BillingMetricsSK returns METRICS#{date}.
func BillingMetricsSK(d Date) (string, error) {
	if err := d.Validate("date"); err != nil {
		return "", err
	}
	sk, err := billingMetricsSK.Build(string(d))
	return string(sk), err
}

// BillingMetricsKey returns BILLING / METRICS#{date}.
func BillingMetricsKey(d Date) (table.Key, error) {
	sk, err := BillingMetricsSK(d)
	return table.Key{PK: PKBilling, SK: sk}, err
}

// IsUserProfileKey reports whether k is USER#{userId} / PROFILE.
func IsUserProfileKey(k table.Key) bool { return k.SK == SKProfile && userPK.Matches(keys.PK(k.PK)) }

// IsUserPreferencesKey reports whether k is USER#{userId} / PREFERENCES.
func IsUserPreferencesKey(k table.Key) bool {
	return k.SK == SKPreferences && userPK.Matches(keys.PK(k.PK))
}

// IsOrganizationProfileKey reports whether k is ORG#{organizationId} / PROFILE.
func IsOrganizationProfileKey(k table.Key) bool {
	return k.SK == SKProfile && orgPK.Matches(keys.PK(k.PK))
}

// IsOrganizationSettingsKey reports whether k is ORG#{organizationId} / SETTINGS.
func IsOrganizationSettingsKey(k table.Key) bool {
	return k.SK == SKSettings && orgPK.Matches(keys.PK(k.PK))
}

// IsBillingRecordKey reports whether k is BILLING#{organizationId} / RECORD#{date}.
func IsBillingRecordKey(k table.Key) bool {
	_, _, err := ParseBillingRecordKey(k)
	return err == nil
}
