package pf

import (
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

// Key templates of the document: the one statement of each key's shape.
// The store's Defs declare them (query/podcastflow), the engine writes
// items by them, and every key helper here builds and parses with them.
// A ":shard" segment takes its count from the deployment's profile
// (Options.IndexShards; [table.Template.WithShards]).
var (
	UserProfileKeys          = table.Template{PK: "USER#{userId}", SK: SKProfile}
	UserPreferencesKeys      = table.Template{PK: "USER#{userId}", SK: SKPreferences}
	OrganizationProfileKeys  = table.Template{PK: "ORG#{organizationId}", SK: SKProfile}
	OrganizationSettingsKeys = table.Template{PK: "ORG#{organizationId}", SK: SKSettings}
	PlatformSettingsKeys     = table.Template{PK: PKPlatform, SK: SKSettings}
	GlobalMetricsKeys        = table.Template{PK: PKAnalytics, SK: "GLOBAL#{date}"}
	OrganizationMetricsKeys  = table.Template{PK: PKAnalytics, SK: "ORG#{organizationId}#{date}"}
	BillingRecordKeys        = table.Template{PK: "BILLING#{organizationId}", SK: "RECORD#{date}"}
	BillingMetricsKeys       = table.Template{PK: PKBilling, SK: "METRICS#{date}"}

	// UserOrgIndex: a user under its organization (GSI1; sparse: users of
	// no organization).
	UserOrgIndex = table.Template{PK: "ORG#{organizationId}", SK: "USER#{userId}"}
	// UserRoleIndex: a user under its role (GSI2), sharded.
	UserRoleIndex = table.Template{PK: "ROLE#{role}#{userId:shard}", SK: "USER#{userId}"}
	// UserStatusIndex, OrgStatusIndex and BillingStatusIndex: entities
	// under their status (GSI3), the sort key beginning with the entity
	// type; users' and organizations' partitions sharded, billing's not.
	UserStatusIndex    = table.Template{PK: "STATUS#{status}#{userId:shard}", SK: "USER#{userId}"}
	OrgStatusIndex     = table.Template{PK: "STATUS#{status}#{organizationId:shard}", SK: "ORG#{organizationId}"}
	BillingStatusIndex = table.Template{PK: "STATUS#{status}", SK: "BILLING#{organizationId}#{date}"}
	// AllUsersIndex and AllOrgsIndex: every user and every organization
	// (GSI4), sharded (USERS#{n}, ORGS#{n}; one shard is USERS itself).
	AllUsersIndex = table.Template{PK: "USERS#{userId:shard}", SK: "USER#{userId}"}
	AllOrgsIndex  = table.Template{PK: "ORGS#{organizationId:shard}", SK: "ORG#{organizationId}"}
)

func one(name, v string) map[string]string { return map[string]string{name: v} }

// UserPK returns USER#{userId}.
func UserPK(id UserID) (string, error) {
	if err := id.Validate("userId"); err != nil {
		return "", err
	}
	return UserProfileKeys.Partition(one("userId", string(id)))
}

// UserProfileKey returns USER#{userId} / PROFILE.
func UserProfileKey(id UserID) (table.Key, error) {
	if err := id.Validate("userId"); err != nil {
		return table.Key{}, err
	}
	return UserProfileKeys.Key(one("userId", string(id)))
}

// UserPreferencesKey returns USER#{userId} / PREFERENCES.
func UserPreferencesKey(id UserID) (table.Key, error) {
	if err := id.Validate("userId"); err != nil {
		return table.Key{}, err
	}
	return UserPreferencesKeys.Key(one("userId", string(id)))
}

// ParseUserPK returns the userId of USER#{userId}.
func ParseUserPK(pk string) (UserID, error) {
	v, err := UserProfileKeys.Parse(table.Key{PK: pk, SK: SKProfile})
	if err != nil {
		return "", err
	}
	return UserID(v["userId"]), nil
}

// OrgPK returns ORG#{organizationId}.
func OrgPK(id OrgID) (string, error) {
	if err := id.Validate("organizationId"); err != nil {
		return "", err
	}
	return OrganizationProfileKeys.Partition(one("organizationId", string(id)))
}

// OrganizationProfileKey returns ORG#{organizationId} / PROFILE.
func OrganizationProfileKey(id OrgID) (table.Key, error) {
	if err := id.Validate("organizationId"); err != nil {
		return table.Key{}, err
	}
	return OrganizationProfileKeys.Key(one("organizationId", string(id)))
}

// OrganizationSettingsKey returns ORG#{organizationId} / SETTINGS.
func OrganizationSettingsKey(id OrgID) (table.Key, error) {
	if err := id.Validate("organizationId"); err != nil {
		return table.Key{}, err
	}
	return OrganizationSettingsKeys.Key(one("organizationId", string(id)))
}

// ParseOrgPK returns the organizationId of ORG#{organizationId}.
func ParseOrgPK(pk string) (OrgID, error) {
	v, err := OrganizationProfileKeys.Parse(table.Key{PK: pk, SK: SKProfile})
	if err != nil {
		return "", err
	}
	return OrgID(v["organizationId"]), nil
}

// PlatformSettingsKey returns PLATFORM / SETTINGS.
func PlatformSettingsKey() table.Key {
	k, err := PlatformSettingsKeys.Key(nil)
	if err != nil {
		panic(err) // a constant template
	}
	return k
}

// GlobalMetricsSK returns GLOBAL#{date}.
func GlobalMetricsSK(d Date) (string, error) {
	if err := d.Validate("date"); err != nil {
		return "", err
	}
	return GlobalMetricsKeys.SortKey(one("date", string(d)))
}

// GlobalMetricsKey returns ANALYTICS / GLOBAL#{date}.
func GlobalMetricsKey(d Date) (table.Key, error) {
	if err := d.Validate("date"); err != nil {
		return table.Key{}, err
	}
	return GlobalMetricsKeys.Key(one("date", string(d)))
}

// OrganizationMetricsSK returns ORG#{organizationId}#{date}.
func OrganizationMetricsSK(id OrgID, d Date) (string, error) {
	if err := id.Validate("organizationId"); err != nil {
		return "", err
	}
	if err := d.Validate("date"); err != nil {
		return "", err
	}
	return OrganizationMetricsKeys.SortKey(map[string]string{"organizationId": string(id), "date": string(d)})
}

// OrganizationMetricsKey returns ANALYTICS / ORG#{organizationId}#{date}.
func OrganizationMetricsKey(id OrgID, d Date) (table.Key, error) {
	if _, err := OrganizationMetricsSK(id, d); err != nil {
		return table.Key{}, err
	}
	return OrganizationMetricsKeys.Key(map[string]string{"organizationId": string(id), "date": string(d)})
}

// BillingPK returns BILLING#{organizationId}.
func BillingPK(id OrgID) (string, error) {
	if err := id.Validate("organizationId"); err != nil {
		return "", err
	}
	return BillingRecordKeys.Partition(one("organizationId", string(id)))
}

// BillingRecordSK returns RECORD#{date}.
func BillingRecordSK(d Date) (string, error) {
	if err := d.Validate("date"); err != nil {
		return "", err
	}
	return BillingRecordKeys.SortKey(one("date", string(d)))
}

// BillingRecordSKPrefix returns the prefix of every billing record sort
// key: RECORD#.
func BillingRecordSKPrefix() string {
	p, err := BillingRecordKeys.SortPrefix(nil)
	if err != nil {
		panic(err) // a template with a reference
	}
	return p
}

// BillingRecordKey returns BILLING#{organizationId} / RECORD#{date}.
func BillingRecordKey(id OrgID, d Date) (table.Key, error) {
	if err := id.Validate("organizationId"); err != nil {
		return table.Key{}, err
	}
	if err := d.Validate("date"); err != nil {
		return table.Key{}, err
	}
	return BillingRecordKeys.Key(map[string]string{"organizationId": string(id), "date": string(d)})
}

// ParseBillingRecordKey returns the organizationId and date of
// BILLING#{organizationId} / RECORD#{date}.
func ParseBillingRecordKey(k table.Key) (OrgID, Date, error) {
	v, err := BillingRecordKeys.Parse(k)
	if err != nil {
		return "", "", err
	}
	return OrgID(v["organizationId"]), Date(v["date"]), nil
}

// BillingMetricsSK returns METRICS#{date}.
func BillingMetricsSK(d Date) (string, error) {
	if err := d.Validate("date"); err != nil {
		return "", err
	}
	return BillingMetricsKeys.SortKey(one("date", string(d)))
}

// BillingMetricsKey returns BILLING / METRICS#{date}.
func BillingMetricsKey(d Date) (table.Key, error) {
	if err := d.Validate("date"); err != nil {
		return table.Key{}, err
	}
	return BillingMetricsKeys.Key(one("date", string(d)))
}

// IsUserProfileKey reports whether k is USER#{userId} / PROFILE.
func IsUserProfileKey(k table.Key) bool { return UserProfileKeys.Matches(k) }

// IsUserPreferencesKey reports whether k is USER#{userId} / PREFERENCES.
func IsUserPreferencesKey(k table.Key) bool {
	return UserPreferencesKeys.Matches(k)
}

// IsOrganizationProfileKey reports whether k is ORG#{organizationId} / PROFILE.
func IsOrganizationProfileKey(k table.Key) bool {
	return OrganizationProfileKeys.Matches(k)
}

// IsOrganizationSettingsKey reports whether k is ORG#{organizationId} / SETTINGS.
func IsOrganizationSettingsKey(k table.Key) bool {
	return OrganizationSettingsKeys.Matches(k)
}

// IsBillingRecordKey reports whether k is BILLING#{organizationId} / RECORD#{date}.
func IsBillingRecordKey(k table.Key) bool {
	return BillingRecordKeys.Matches(k)
}
