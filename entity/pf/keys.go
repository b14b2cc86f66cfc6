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
// The store's Defs declare them (query/podcastflow): the engine writes
// items by them, the store builds every key it reads or writes from typed
// fields through them (table.Entity.Key, table.Pattern), and the parsers
// here read keys back with them.
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
