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
// and every key the store reads by (an item's key, a Query's partition, a
// sort-key prefix or bound) is built and parsed with them
// ([table.Template.Key], [table.Template.Partition],
// [table.Template.SortPrefix], [table.Template.Parse]). A ":shard"
// segment takes its count from the deployment's profile
// (Options.IndexShards; [table.Template.WithShards]).
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

// TimeKey returns t as a sortable key segment (keys.Timestamp), or a
// *table.ValidationError naming field.
func TimeKey(field string, t time.Time) (string, error) {
	if t.IsZero() {
		return "", &table.ValidationError{Field: field, Reason: "required", Key: true}
	}
	s, err := keys.Timestamp(t)
	if err != nil {
		return "", &table.ValidationError{Field: field, Reason: err.Error(), Key: true}
	}
	return s, nil
}

// TimeValue returns t as a template value (RFC 3339 with nanoseconds,
// UTC), after the checks of [TimeKey]: what a ":ts" segment is built
// from.
func TimeValue(field string, t time.Time) (string, error) {
	if _, err := TimeKey(field, t); err != nil {
		return "", err
	}
	return t.UTC().Format(time.RFC3339Nano), nil
}

// UserKey is USER#{userId} / PROFILE.
func UserKey(id UserID) (table.Key, error) {
	if err := id.Validate("userId"); err != nil {
		return table.Key{}, err
	}
	return UserKeys.Key(map[string]string{"userId": string(id)})
}

// MembershipKey is USER#{userId} / MEMBER#{accountId}.
func MembershipKey(u UserID, a AccountID) (table.Key, error) {
	if err := first(u.Validate("userId"), a.Validate("accountId")); err != nil {
		return table.Key{}, err
	}
	return MembershipKeys.Key(map[string]string{"userId": string(u), "accountId": string(a)})
}

// AccountKey is ACCOUNT#{accountId} / PROFILE.
func AccountKey(id AccountID) (table.Key, error) {
	if err := id.Validate("accountId"); err != nil {
		return table.Key{}, err
	}
	return AccountKeys.Key(map[string]string{"accountId": string(id)})
}

// TeamKey is TEAM#{teamId} / TEAM.
func TeamKey(id TeamID) (table.Key, error) {
	if err := id.Validate("teamId"); err != nil {
		return table.Key{}, err
	}
	return TeamKeys.Key(map[string]string{"teamId": string(id)})
}

// SourceKey is SOURCE#{sourceId} / SOURCE.
func SourceKey(id SourceID) (table.Key, error) {
	if err := id.Validate("sourceId"); err != nil {
		return table.Key{}, err
	}
	return SourceKeys.Key(map[string]string{"sourceId": string(id)})
}

// OAuthTokenKey is SOURCE#{sourceId} / OAUTH.
func OAuthTokenKey(id SourceID) (table.Key, error) {
	if err := id.Validate("sourceId"); err != nil {
		return table.Key{}, err
	}
	return OAuthTokenKeys.Key(map[string]string{"sourceId": string(id)})
}

// ScheduleKey is SOURCE#{sourceId} / SCHED#{scheduleId}.
func ScheduleKey(src SourceID, id ScheduleID) (table.Key, error) {
	if err := first(src.Validate("sourceId"), id.Validate("scheduleId")); err != nil {
		return table.Key{}, err
	}
	return ScheduleKeys.Key(map[string]string{"sourceId": string(src), "scheduleId": string(id)})
}

// RunKey is SOURCE#{sourceId} / RUN#{startedAt}#{syncId}.
func RunKey(src SourceID, startedAt time.Time, id SyncID) (table.Key, error) {
	ts, err := TimeValue("startedAt", startedAt)
	if err := first(src.Validate("sourceId"), id.Validate("syncId"), err); err != nil {
		return table.Key{}, err
	}
	return RunKeys.Key(map[string]string{"sourceId": string(src), "startedAt": ts, "syncId": string(id)})
}

// ActivityKey is ACTIVITY#{accountId} / EVT#{createdAt}#{eventId}.
func ActivityKey(a AccountID, createdAt time.Time, id EventID) (table.Key, error) {
	ts, err := TimeValue("createdAt", createdAt)
	if err := first(a.Validate("accountId"), id.Validate("eventId"), err); err != nil {
		return table.Key{}, err
	}
	return ActivityKeys.Key(map[string]string{"accountId": string(a), "createdAt": ts, "eventId": string(id)})
}

// JobKey is JOB#{jobId} / JOB.
func JobKey(id JobID) (table.Key, error) {
	if err := id.Validate("jobId"); err != nil {
		return table.Key{}, err
	}
	return JobKeys.Key(map[string]string{"jobId": string(id)})
}

// ConnectionKey is CONN#{connectionId} / CONN.
func ConnectionKey(id ConnectionID) (table.Key, error) {
	if err := id.Validate("connectionId"); err != nil {
		return table.Key{}, err
	}
	return ConnectionKeys.Key(map[string]string{"connectionId": string(id)})
}

// OAuthStateKey is OAUTHSTATE#{state} / STATE.
func OAuthStateKey(state string) (table.Key, error) {
	if err := CheckID("state", state); err != nil {
		return table.Key{}, err
	}
	return OAuthStateKeys.Key(map[string]string{"state": state})
}

// RefreshTokenKey is RTOKEN#{sha256 hex} / RTOKEN.
func RefreshTokenKey(hash string) (table.Key, error) {
	if err := CheckHash("refreshToken", hash); err != nil {
		return table.Key{}, err
	}
	return RefreshTokenKeys.Key(map[string]string{"refreshToken": hash})
}

// TagKeyOf is TAGS#{accountId}#{resourceType} / TAG#{escaped tagKey}#{escaped tagValue}.
func TagKeyOf(a AccountID, rt ResourceType, tagKey, tagValue string) (table.Key, error) {
	if err := first(CheckTagPart("tagKey", tagKey), CheckTagPart("tagValue", tagValue)); err != nil {
		return table.Key{}, err
	}
	if err := first(a.Validate("accountId"), rt.Check("resourceType")); err != nil {
		return table.Key{}, err
	}
	return TagKeys.Key(map[string]string{"accountId": string(a), "resourceType": string(rt), "tagKey": tagKey, "tagValue": tagValue})
}

// NotificationKey is NOTIF#{userId} / N#{createdAt}#{notificationId}.
func NotificationKey(u UserID, createdAt time.Time, id NotificationID) (table.Key, error) {
	ts, err := TimeValue("createdAt", createdAt)
	if err := first(u.Validate("userId"), id.Validate("notificationId"), err); err != nil {
		return table.Key{}, err
	}
	return NotificationKeys.Key(map[string]string{"userId": string(u), "createdAt": ts, "notificationId": string(id)})
}

// APIKeyKey is APIKEY#{apiKeyId} / APIKEY.
func APIKeyKey(id APIKeyID) (table.Key, error) {
	if err := id.Validate("apiKeyId"); err != nil {
		return table.Key{}, err
	}
	return APIKeyKeys.Key(map[string]string{"apiKeyId": string(id)})
}

// WebhookKey is WEBHOOK#{webhookId} / WEBHOOK.
func WebhookKey(id WebhookID) (table.Key, error) {
	if err := id.Validate("webhookId"); err != nil {
		return table.Key{}, err
	}
	return WebhookKeys.Key(map[string]string{"webhookId": string(id)})
}

// TokenFamilyKey returns a family item's key: RTFAM#{tokenFamily} / FAMILY.
func TokenFamilyKey(family TokenFamilyID) (table.Key, error) {
	if err := family.Validate("tokenFamily"); err != nil {
		return table.Key{}, err
	}
	return TokenFamilyKeys.Key(map[string]string{"tokenFamily": string(family)})
}

// ParseUserKey returns the userId of a user or membership key (its
// partition, USER#{userId}).
func ParseUserKey(k table.Key) (UserID, error) {
	v, err := UserKeys.Parse(table.Key{PK: k.PK, SK: UserKeys.SK})
	if err != nil {
		return "", err
	}
	return UserID(v["userId"]), nil
}

// ParseAccountKey returns the accountId of an account or usage key (its
// partition, ACCOUNT#{accountId}).
func ParseAccountKey(k table.Key) (AccountID, error) {
	v, err := AccountKeys.Parse(table.Key{PK: k.PK, SK: AccountKeys.SK})
	if err != nil {
		return "", err
	}
	return AccountID(v["accountId"]), nil
}

// ParseSourceKey returns the sourceId of a source-partition key (source,
// OAuth tokens, schedules, runs: SOURCE#{sourceId}).
func ParseSourceKey(k table.Key) (SourceID, error) {
	v, err := SourceKeys.Parse(table.Key{PK: k.PK, SK: SourceKeys.SK})
	if err != nil {
		return "", err
	}
	return SourceID(v["sourceId"]), nil
}

// ParseTagKey returns the parts of a tag's key, tag key and value
// unescaped.
func ParseTagKey(k table.Key) (AccountID, ResourceType, string, string, error) {
	v, err := TagKeys.Parse(k)
	if err != nil {
		return "", "", "", "", err
	}
	return AccountID(v["accountId"]), ResourceType(v["resourceType"]), v["tagKey"], v["tagValue"], nil
}

// ParseActivityKey returns the parts of an activity's key.
func ParseActivityKey(k table.Key) (AccountID, time.Time, EventID, error) {
	v, err := ActivityKeys.Parse(k)
	if err != nil {
		return "", time.Time{}, "", err
	}
	t, err := time.Parse(time.RFC3339Nano, v["createdAt"])
	if err != nil {
		return "", time.Time{}, "", err
	}
	return AccountID(v["accountId"]), t, EventID(v["eventId"]), nil
}
