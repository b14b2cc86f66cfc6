package lb

import (
	"time"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// Constant sort keys.
const (
	SKProfile = "PROFILE"
	SKTeam    = "TEAM"
	SKSource  = "SOURCE"
	SKOAuth   = "OAUTH"
	SKJob     = "JOB"
	SKConn    = "CONN"
	SKState   = "STATE"
	SKRToken  = "RTOKEN"
	SKAPIKey  = "APIKEY"
	SKWebhook = "WEBHOOK"
	SKPlan    = "PLAN"
)

// Key templates of the single table (see the mapping table in
// query/listbackup): the one statement of each key's shape. The store's
// Defs declare them (query/listbackup), the engine writes items by them,
// and every key the store reads by is built from typed fields through
// the entity declared with them ([table.Entity.Key],
// [table.Entity.Partition], [table.Entity.Prefix]) and parsed back with
// [table.Entity.FromKey]. A ":shard" segment takes its count from the
// deployment's profile (Options.IndexShards; [table.Template.WithShards]).
var (
	// UserKeys: a user's profile, in the user's partition (with the
	// user's memberships).
	UserKeys = table.Template{PK: "USER#{userId}", SK: SKProfile}

	// AccountKeys: an account's profile, in the account's partition (with
	// its usage metrics).
	AccountKeys = table.Template{PK: "ACCOUNT#{accountId}", SK: SKProfile}
	// AccountChildrenIndex: an account under its parent (GSI1, LB-6), by
	// type then ID; an account without a type (ListBackup's own code
	// stores none) sorts under TYPE#-#. Soft-deleted accounts are in no
	// list.
	AccountChildrenIndex = table.Template{PK: "CHILDREN#{parentAccountId}", SK: "TYPE#{accountType:opt}#{accountId}", When: []string{"!deletedAt"}}
	// AccountTypeIndex: an account under its type (GSI2, LB-7).
	AccountTypeIndex = table.Template{PK: "ACCTYPE#{accountType}", SK: "ACCOUNT#{accountId}", When: []string{"!deletedAt"}}
	// AccountTreeIndex: an account in its tree (GSI3, LB-8): the
	// partition of the path's root (PathRoot: the ":root" transform), by
	// path.
	AccountTreeIndex = table.Template{PK: "TREE#{accountPath:root}", SK: "PATH#{accountPath:esc}", When: []string{"!deletedAt"}}

	// MembershipKeys: a user's membership of an account, in the user's
	// partition (LB-9).
	MembershipKeys = table.Template{PK: "USER#{userId}", SK: "MEMBER#{accountId}"}
	// MembershipRoleIndex: an account's members by role, then user (GSI1,
	// LB-10).
	MembershipRoleIndex = table.Template{PK: "MEMBERS#{accountId}", SK: "ROLE#{role}#{userId}"}

	// TeamKeys: a team (LB-13), in its own partition (with its members).
	TeamKeys = table.Template{PK: "TEAM#{teamId}", SK: SKTeam}
	// TeamAccountIndex: an account's teams (GSI1, LB-12).
	TeamAccountIndex = table.Template{PK: "TEAMS#{accountId}", SK: "TEAM#{teamId}"}
	// TeamMemberKeys: a team member in the team's partition, next to its
	// TEAM item (LB-71).
	TeamMemberKeys = table.Template{PK: "TEAM#{teamId}", SK: "MEMBER#{userId}"}
	// TeamMemberUserIndex: a user's teams (GSI1, LB-72).
	TeamMemberUserIndex = table.Template{PK: "USERTEAMS#{userId}", SK: "TEAM#{teamId}"}

	// SourceKeys: a source, in its own partition (with its OAuth tokens,
	// schedules and runs).
	SourceKeys = table.Template{PK: "SOURCE#{sourceId}", SK: SKSource}
	// SourcePlatformIndex and SourceStatusIndex: an account's sources by
	// platform (GSI1) and by status (GSI2). Soft-deleted sources (LB-65)
	// are in no list.
	SourcePlatformIndex = table.Template{PK: "SOURCES#{accountId}", SK: "PLATFORM#{platform}#{sourceId}", When: []string{"!deletedAt"}}
	SourceStatusIndex   = table.Template{PK: "SOURCES#{accountId}", SK: "STATUS#{status}#{sourceId}", When: []string{"!deletedAt"}}
	// SourceGroupIndex: a source group's sources (GSI3, LB-70); sources
	// of ListBackup's own code name their group.
	SourceGroupIndex = table.Template{PK: "GROUPSRC#{groupId}", SK: "SOURCE#{sourceId}", When: []string{"!deletedAt"}}

	// ActivityKeys: an activity in its account's partition, newest last
	// (LB-18).
	ActivityKeys = table.Template{PK: "ACTIVITY#{accountId}", SK: "EVT#{createdAt:ts}#{eventId}"}
	// ActivityUserIndex: a user's activities (GSI1, LB-19), sparse: system
	// events have no user.
	ActivityUserIndex = table.Template{PK: "ACTUSER#{userId}", SK: "{createdAt:ts}#{eventId}"}
	// ActivityResourceIndex: an account's activities on a resource type
	// (GSI2, LB-20).
	ActivityResourceIndex = table.Template{PK: "ACTRES#{accountId}#{resourceType}", SK: "{createdAt:ts}#{eventId}"}
	// ActivityEventIndex: an account's activities of an event type (GSI3,
	// LB-21).
	ActivityEventIndex = table.Template{PK: "ACTEVT#{accountId}#{eventType}", SK: "{createdAt:ts}#{eventId}"}

	// JobKeys: a job, in its own partition.
	JobKeys = table.Template{PK: "JOB#{jobId}", SK: SKJob}
	// JobCreatedIndex: an account's jobs by creation (GSI1, LB-23).
	JobCreatedIndex = table.Template{PK: "JOBS#{accountId}", SK: "CREATED#{createdAt:ts}#{jobId}"}
	// JobStatusIndex: an account's jobs by status, then creation (GSI2,
	// LB-24).
	JobStatusIndex = table.Template{PK: "JOBS#{accountId}", SK: "STATUS#{status}#{createdAt:ts}#{jobId}"}
	// JobSourceIndex: a source's jobs (GSI3, LB-25), sparse: account-wide
	// jobs have no source.
	JobSourceIndex = table.Template{PK: "SRCJOBS#{sourceId}", SK: "{createdAt:ts}#{jobId}"}

	// ConnectionKeys: a connection, in its own partition.
	ConnectionKeys = table.Template{PK: "CONN#{connectionId}", SK: SKConn}
	// ConnectionAccountIndex and ConnectionUserIndex: an account's and a
	// user's connections by platform (GSI1, GSI2). Soft-deleted
	// connections (LB-65) are in no list.
	ConnectionAccountIndex = table.Template{PK: "CONNS#{accountId}", SK: "PLATFORM#{platform}#{connectionId}", When: []string{"!deletedAt"}}
	ConnectionUserIndex    = table.Template{PK: "USERCONNS#{userId}", SK: "PLATFORM#{platform}#{connectionId}", When: []string{"!deletedAt"}}

	// OAuthStateKeys: an OAuth state, in its own partition.
	OAuthStateKeys = table.Template{PK: "OAUTHSTATE#{state}", SK: SKState}
	// OAuthTokenKeys: a source's OAuth tokens, in the source's partition.
	OAuthTokenKeys = table.Template{PK: "SOURCE#{sourceId}", SK: SKOAuth}
	// OAuthTokenAccountIndex: an account's OAuth tokens by platform
	// (GSI1).
	OAuthTokenAccountIndex = table.Template{PK: "OAUTH#{accountId}", SK: "PLATFORM#{platform}#{sourceId}"}

	// RefreshTokenKeys: a refresh token by its SHA-256 hex (never the
	// plaintext).
	RefreshTokenKeys = table.Template{PK: "RTOKEN#{refreshToken}", SK: SKRToken}
	// RefreshTokenUserIndex: a user's refresh tokens by issue (GSI1).
	RefreshTokenUserIndex = table.Template{PK: "RTUSER#{userId}", SK: "{issuedAt:ts}#{refreshToken}"}
	// RefreshTokenFamilyIndex: a family's refresh tokens by issue (GSI2).
	RefreshTokenFamilyIndex = table.Template{PK: "RTFAMILY#{tokenFamily}", SK: "{issuedAt:ts}#{refreshToken}"}
	// TokenFamilyKeys: a refresh-token family's item.
	TokenFamilyKeys = table.Template{PK: "RTFAM#{tokenFamily}", SK: SKFamily}

	// TagKeys: a tag under its account and resource type; tag keys and
	// values are free text, escaped in the key.
	TagKeys = table.Template{PK: "TAGS#{accountId}#{resourceType}", SK: "TAG#{tagKey:esc}#{tagValue:esc}"}
	// TagIDIndex: a tag by its ID (GSI1).
	TagIDIndex = table.Template{PK: "TAGID#{tagId}", SK: "TAG"}

	// NotificationKeys: a notification in its user's partition.
	NotificationKeys = table.Template{PK: "NOTIF#{userId}", SK: "N#{createdAt:ts}#{notificationId}"}
	// NotificationAccountIndex: an account's notifications (GSI1).
	NotificationAccountIndex = table.Template{PK: "ACCTNOTIF#{accountId}", SK: "{createdAt:ts}#{notificationId}"}
	// NotificationStatusIndex: a user's notifications by status (GSI2).
	NotificationStatusIndex = table.Template{PK: "NOTIFSTATUS#{userId}", SK: "{status}#{createdAt:ts}#{notificationId}"}
	// NotificationUnreadIndex: a user's unread notifications (GSI3),
	// sparse: in it while isRead is unset.
	NotificationUnreadIndex = table.Template{PK: "UNREAD#{userId}", SK: "{createdAt:ts}#{notificationId}", When: []string{"!isRead"}}

	// ScheduleKeys: a sync schedule in its source's partition (LB-47).
	ScheduleKeys = table.Template{PK: "SOURCE#{sourceId}", SK: "SCHED#{scheduleId}"}
	// ScheduleDueIndex: active schedules by next run (GSI1, LB-48),
	// sharded by a hash of the schedule's ID: SCHED#DUE#{n} (one shard is
	// SCHED#DUE itself).
	ScheduleDueIndex = table.Template{PK: "SCHED#DUE#{scheduleId:shard}", SK: "{nextRunAt:ts}#{sourceId}#{scheduleId}", When: []string{"isActive"}}
	// RunKeys: a sync run in its source's partition, newest last (LB-50).
	RunKeys = table.Template{PK: "SOURCE#{sourceId}", SK: "RUN#{startedAt:ts}#{syncId}"}
	// RunStatusIndex: runs by status, then start (GSI1, LB-51), sharded
	// by a hash of the run's ID: RUNS#{status}#{n}.
	RunStatusIndex = table.Template{PK: "RUNS#{status}#{syncId:shard}", SK: "{startedAt:ts}#{sourceId}#{syncId}"}

	// APIKeyKeys: an API key, in its own partition.
	APIKeyKeys = table.Template{PK: "APIKEY#{apiKeyId}", SK: SKAPIKey}
	// APIKeyHashIndex: an API key by its hash (GSI1).
	APIKeyHashIndex = table.Template{PK: "APIKEYHASH#{apiKeyHash}", SK: "APIKEY"}
	// APIKeyAccountIndex and APIKeyUserIndex: an account's and a user's
	// API keys by creation (GSI2, GSI3).
	APIKeyAccountIndex = table.Template{PK: "APIKEYS#{accountId}", SK: "{createdAt:ts}#{apiKeyId}"}
	APIKeyUserIndex    = table.Template{PK: "APIKEYUSER#{userId}", SK: "{createdAt:ts}#{apiKeyId}"}

	// WebhookKeys: a webhook, in its own partition.
	WebhookKeys = table.Template{PK: "WEBHOOK#{webhookId}", SK: SKWebhook}
	// WebhookActiveIndex: an account's active, not deleted webhooks (GSI1,
	// LB-57).
	WebhookActiveIndex = table.Template{PK: "HOOKS#{accountId}", SK: "ACTIVE#{webhookId}", When: []string{"isActive", "!deletedAt"}}

	// UsageKeys: an account's usage of one day, in the account's
	// partition.
	UsageKeys = table.Template{PK: "ACCOUNT#{accountId}", SK: "USAGE#{metricDate}"}
	// UsageDateIndex: every account's usage of one day (GSI1).
	UsageDateIndex = table.Template{PK: "USAGE#{metricDate}", SK: "ACCOUNT#{accountId}"}

	// PlanKeys: a billing plan, in its own partition.
	PlanKeys = table.Template{PK: "PLAN#{planId}", SK: SKPlan}
	// PlanActiveIndex: active plans by price (GSI1, LB-62), the price 12
	// digits wide.
	PlanActiveIndex = table.Template{PK: "PLANS#active", SK: "PRICE#{price:12}#{planId}", When: []string{"isActive"}}

	// SourceGroupKeys: a source group, in its own partition.
	SourceGroupKeys = table.Template{PK: "SRCGROUP#{groupId}", SK: "GROUP"}
	// SourceGroupAccountIndex: an account's source groups (GSI1, LB-69).
	SourceGroupAccountIndex = table.Template{PK: "SRCGROUPS#{accountId}", SK: "GROUP#{groupId}"}

	// LabelKeys: a label, in its own partition.
	LabelKeys = table.Template{PK: "LABEL#{tagId}", SK: "LABEL"}
	// LabelAccountIndex: an account's labels by name (GSI1, LB-73).
	LabelAccountIndex = table.Template{PK: "LABELS#{accountId}", SK: "NAME#{name}#{tagId}"}
	// EntityTagKeys: the labels of an entity, in the entity's partition
	// (LB-74).
	EntityTagKeys = table.Template{PK: "TAGGED#{entityType}#{entityId}", SK: "TAG#{tagId}"}
	// EntityTagLabelIndex: the entities a label is on (GSI1, LB-75).
	EntityTagLabelIndex = table.Template{PK: "TAGGING#{tagId}", SK: "{entityType}#{entityId}"}

	// MFACodeKeys: a user's MFA codes, newest last (LB-76).
	MFACodeKeys = table.Template{PK: "MFA#{userId}", SK: "CODE#{createdAt:ts}#{codeId}"}

	// InboxKeys: an inbox notification by ID alone, as the code reads and
	// marks it (LB-79, LB-83).
	InboxKeys = table.Template{PK: "INBOXN#{notificationId}", SK: "NOTIFICATION"}
	// InboxUserIndex: a user's inbox (GSI1, LB-80).
	InboxUserIndex = table.Template{PK: "INBOX#{userId}", SK: "{createdAt:ts}#{notificationId}"}
	// InboxStatusIndex: a user's inbox in one status (GSI2, LB-81).
	InboxStatusIndex = table.Template{PK: "INBOX#{userId}#{status}", SK: "{createdAt:ts}#{notificationId}"}
	// InboxAccountIndex: an account's inbox notifications (GSI3, LB-82).
	InboxAccountIndex = table.Template{PK: "ACCTINBOX#{accountId}", SK: "{createdAt:ts}#{notificationId}"}

	// CatalogPlatformKeys: a platform of the catalog.
	CatalogPlatformKeys = table.Template{PK: "CATPLATFORM#{platformId}", SK: "PLATFORM"}
	// CatalogPlatformIndex: every platform of the catalog, one partition
	// of tens of items (GSI1, LB-77).
	CatalogPlatformIndex = table.Template{PK: "CATALOG", SK: "PLATFORM#{platformId}"}
	// CatalogSourceKeys: a source template of the catalog.
	CatalogSourceKeys = table.Template{PK: "CATSOURCE#{platformSourceId}", SK: "TEMPLATE"}
	// CatalogSourcePlatformIndex: a platform's source templates (GSI1,
	// LB-78).
	CatalogSourcePlatformIndex = table.Template{PK: "CATSOURCES#{platformId}", SK: "SOURCE#{platformSourceId}"}
)

// CheckTime returns a *table.ValidationError naming field unless t can
// be a sortable key segment ([keys.Timestamp], what a ":ts" segment
// holds): set, and in the years it encodes.
func CheckTime(field string, t time.Time) error {
	if t.IsZero() {
		return &table.ValidationError{Field: field, Reason: "required", Key: true}
	}
	if _, err := keys.Timestamp(t); err != nil {
		return &table.ValidationError{Field: field, Reason: err.Error(), Key: true}
	}
	return nil
}
