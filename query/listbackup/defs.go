package listbackup

import (
	"fmt"
	"strings"
	"time"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// Entity-type names written in the table's entity-type attribute.
const (
	TypeUser         = "User"
	TypeAccount      = "Account"
	TypeMembership   = "Membership"
	TypeTeam         = "Team"
	TypeSource       = "Source"
	TypeActivity     = "Activity"
	TypeJob          = "Job"
	TypeConnection   = "Connection"
	TypeOAuthState   = "OAuthState"
	TypeOAuthToken   = "OAuthToken"
	TypeRefreshToken = "RefreshToken"
	TypeTokenFamily  = "RefreshTokenFamily"
	TypeTag          = "Tag"
	TypeNotification = "Notification"
	TypeSyncSchedule = "SyncSchedule"
	TypeSyncRun      = "SyncRun"
	TypeAPIKey       = "APIKey"
	TypeWebhook      = "Webhook"
	TypeUsageMetrics = "UsageMetrics"
	TypeBillingPlan  = "BillingPlan"
	// The entities of ListBackup's own code (its deployed layout).
	TypeSourceGroup     = "SourceGroup"
	TypeTeamMember      = "TeamMember"
	TypeLabel           = "Label"
	TypeEntityTag       = "EntityTag"
	TypeMFACode         = "MFACode"
	TypeCatalogPlatform = "CatalogPlatform"
	TypeCatalogSource   = "CatalogSource"
	TypeInbox           = "InboxNotification"
)

// Unique-value names of the guard items.
const (
	UniqueEmail    = "email"
	UniqueUsername = "username"
)

// DuePK is the GSI1 partition of active schedules (LB-48), without its
// shard segment: shard n is SCHED#DUE#{n} (table.ShardPK).
const DuePK = "SCHED#DUE"

// ActivePlansPK is the GSI1 partition of active billing plans (LB-62).
const ActivePlansPK = "PLANS#active"

// j joins key parts with the delimiter.
func j(parts ...string) string { return strings.Join(parts, keys.Delimiter) }

func timeKey(field string, t time.Time) (string, error) { return lb.TimeKey(field, t) }

// entities are the table bindings of every entity.
type entities struct {
	t             *table.Table
	now           func() time.Time
	refreshTTL    time.Duration
	shards        int // of SCHED#DUE and RUNS#{status} (Options.IndexShards)
	users         *table.Entity[lb.User]
	accounts      *table.Entity[lb.Account]
	memberships   *table.Entity[lb.Membership]
	teams         *table.Entity[lb.Team]
	sources       *table.Entity[lb.Source]
	activities    *table.Entity[lb.Activity]
	jobs          *table.Entity[lb.Job]
	connections   *table.Entity[lb.Connection]
	states        *table.Entity[lb.OAuthState]
	oauthTokens   *table.Entity[lb.OAuthToken]
	refreshTokens *table.Entity[lb.RefreshToken]
	families      *table.Entity[lb.TokenFamily]
	tags          *table.Entity[lb.Tag]
	notifications *table.Entity[lb.Notification]
	schedules     *table.Entity[lb.SyncSchedule]
	runs          *table.Entity[lb.SyncRun]
	apiKeys       *table.Entity[lb.APIKey]
	webhooks      *table.Entity[lb.Webhook]
	usage         *table.Entity[lb.UsageMetrics]
	plans         *table.Entity[lb.BillingPlan]
	groups        *table.Entity[lb.SourceGroup]
	teamMembers   *table.Entity[lb.TeamMembership]
	labels        *table.Entity[lb.Label]
	entityTags    *table.Entity[lb.EntityTag]
	mfaCodes      *table.Entity[lb.MFACode]
	platforms     *table.Entity[lb.CatalogPlatform]
	platformSrcs  *table.Entity[lb.CatalogSource]
	inbox         *table.Entity[lb.InboxNotification]
}

func newEntities(t *table.Table, shards int) *entities {
	// The all-items partitions end in a shard segment: SCHED#DUE#{n} by a
	// hash of the schedule's ID ({scheduleId:shard1} is SCHED#DUE itself).
	sh := func(pk, id string) string { return fmt.Sprintf("%s#{%s:shard%d}", pk, id, shards) }
	return &entities{
		t: t, shards: shards,
		users: table.NewEntity(t, table.Def[lb.User]{
			Type:     TypeUser,
			Keys:     table.Template{PK: "USER#{userId}", SK: lb.SKProfile},
			Validate: (*lb.User).Validate,
			// One email and one username per person, whatever their case.
			UniqueOn: []string{UniqueEmail, UniqueUsername},
			UniqueFold: map[string]func(string) string{
				UniqueEmail:    lb.NormalizeEmail,
				UniqueUsername: lb.NormalizeUsername,
			},
			Timestamps: lb.Stamps,
			Secrets:    []string{"mfaSecret"},
		}),
		accounts: table.NewEntity(t, table.Def[lb.Account]{
			Type:     TypeAccount,
			Keys:     table.Template{PK: "ACCOUNT#{accountId}", SK: lb.SKProfile},
			Validate: (*lb.Account).Validate,
			// Soft-deleted accounts (LB-63) are in no list.
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "CHILDREN#{parentAccountId}", SK: "TYPE#{accountType:opt}#{accountId}", When: []string{"!deletedAt"}},
				table.GSI2: {PK: "ACCTYPE#{accountType}", SK: "ACCOUNT#{accountId}", When: []string{"!deletedAt"}},
				// A subtree (LB-9) is the partition of the path's root
				// (lb.PathRoot): the :root transform.
				table.GSI3: {PK: "TREE#{accountPath:root}", SK: "PATH#{accountPath:esc}", When: []string{"!deletedAt"}},
			},
			Timestamps: lb.Stamps,
		}),
		memberships: table.NewEntity(t, table.Def[lb.Membership]{
			Type:     TypeMembership,
			Keys:     table.Template{PK: "USER#{userId}", SK: "MEMBER#{accountId}"},
			Validate: (*lb.Membership).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "MEMBERS#{accountId}", SK: "ROLE#{role}#{userId}"},
			},
			Timestamps: lb.JoinedStamp,
		}),
		teams: table.NewEntity(t, table.Def[lb.Team]{
			Type:     TypeTeam,
			Scope:    "accountId",
			Keys:     table.Template{PK: "TEAM#{teamId}", SK: lb.SKTeam},
			Validate: (*lb.Team).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "TEAMS#{accountId}", SK: "TEAM#{teamId}"},
			},
			Timestamps: lb.Stamps,
		}),
		sources: table.NewEntity(t, table.Def[lb.Source]{
			Type:     TypeSource,
			Scope:    "accountId",
			Keys:     table.Template{PK: "SOURCE#{sourceId}", SK: lb.SKSource},
			Validate: (*lb.Source).Validate,
			// Soft-deleted sources (LB-65) are in no list.
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "SOURCES#{accountId}", SK: "PLATFORM#{platform}#{sourceId}", When: []string{"!deletedAt"}},
				table.GSI2: {PK: "SOURCES#{accountId}", SK: "STATUS#{status}#{sourceId}", When: []string{"!deletedAt"}},
				// A source group's sources (LB-70): sources of ListBackup's
				// own code name their group.
				table.GSI3: {PK: "GROUPSRC#{groupId}", SK: "SOURCE#{sourceId}", When: []string{"!deletedAt"}},
			},
			Timestamps: lb.Stamps,
			Touch:      func(s *lb.Source, _ time.Time, _ bool) { s.PlatformID = s.Platform },
			Secrets:    []string{"credentials.encryptedData", "credentials.*"},
		}),
		activities: table.NewEntity(t, table.Def[lb.Activity]{
			Type:     TypeActivity,
			Keys:     table.Template{PK: "ACTIVITY#{accountId}", SK: "EVT#{createdAt:ts}#{eventId}"},
			Validate: (*lb.Activity).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "ACTUSER#{userId}", SK: "{createdAt:ts}#{eventId}"}, // sparse: system events have no user
				table.GSI2: {PK: "ACTRES#{accountId}#{resourceType}", SK: "{createdAt:ts}#{eventId}"},
				table.GSI3: {PK: "ACTEVT#{accountId}#{eventType}", SK: "{createdAt:ts}#{eventId}"},
			},
			// The expiry is what the item holds (ListBackup's own code writes
			// one, a migrated item keeps it); an activity written without one
			// gets createdAt + the documents' 90-day retention (LB-22).
			TTL:        table.TTL{From: "expiresAt"},
			Timestamps: lb.CreatedStamp,
			Touch: func(a *lb.Activity, _ time.Time, _ bool) {
				a.ExpiresAt = a.Expires()
				a.Timestamp = lb.Seconds(a.CreatedAt)
				a.Resource = a.ResourceType
			},
		}),
		jobs: table.NewEntity(t, table.Def[lb.Job]{
			Type:     TypeJob,
			Scope:    "accountId",
			Keys:     table.Template{PK: "JOB#{jobId}", SK: lb.SKJob},
			Validate: (*lb.Job).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "JOBS#{accountId}", SK: "CREATED#{createdAt:ts}#{jobId}"},
				table.GSI2: {PK: "JOBS#{accountId}", SK: "STATUS#{status}#{createdAt:ts}#{jobId}"},
				table.GSI3: {PK: "SRCJOBS#{sourceId}", SK: "{createdAt:ts}#{jobId}"}, // sparse: account-wide jobs have no source
			},
			Timestamps: lb.CreatedStamp,
		}),
		connections: table.NewEntity(t, table.Def[lb.Connection]{
			Type:     TypeConnection,
			Scope:    "accountId",
			Fixed:    []string{"userId"}, // a connection never moves to another user
			Keys:     table.Template{PK: "CONN#{connectionId}", SK: lb.SKConn},
			Validate: (*lb.Connection).Validate,
			// Soft-deleted connections (LB-65) are in no list.
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "CONNS#{accountId}", SK: "PLATFORM#{platform}#{connectionId}", When: []string{"!deletedAt"}},
				table.GSI2: {PK: "USERCONNS#{userId}", SK: "PLATFORM#{platform}#{connectionId}", When: []string{"!deletedAt"}},
			},
			Timestamps: lb.Stamps,
			Secrets:    []string{"credentials.accessToken", "credentials.refreshToken", "credentials.apiKey", "credentials.*"},
		}),
		states: table.NewEntity(t, table.Def[lb.OAuthState]{
			Type:     TypeOAuthState,
			Keys:     table.Template{PK: "OAUTHSTATE#{state}", SK: lb.SKState},
			Validate: (*lb.OAuthState).Validate,
			TTL:      table.TTL{From: "expiresAt"},
		}),
		oauthTokens: table.NewEntity(t, table.Def[lb.OAuthToken]{
			Type:     TypeOAuthToken,
			Keys:     table.Template{PK: "SOURCE#{sourceId}", SK: lb.SKOAuth},
			Validate: (*lb.OAuthToken).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "OAUTH#{accountId}", SK: "PLATFORM#{platform}#{sourceId}"},
			},
			Timestamps: lb.Stamps,
			Secrets:    []string{"tokens.accessToken", "tokens.refreshToken", "tokens.*"},
		}),
		refreshTokens: table.NewEntity(t, table.Def[lb.RefreshToken]{
			Type: TypeRefreshToken,
			// refreshToken is the token's SHA-256 hex, never the plaintext.
			Keys:     table.Template{PK: "RTOKEN#{refreshToken}", SK: lb.SKRToken},
			Validate: (*lb.RefreshToken).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "RTUSER#{userId}", SK: "{issuedAt:ts}#{refreshToken}"},
				table.GSI2: {PK: "RTFAMILY#{tokenFamily}", SK: "{issuedAt:ts}#{refreshToken}"},
			},
			TTL:     table.TTL{From: "expiresAt"},
			Version: func(r *lb.RefreshToken) *int64 { return &r.Version },
		}),
		families: table.NewEntity(t, table.Def[lb.TokenFamily]{
			Type:     TypeTokenFamily,
			Keys:     table.Template{PK: "RTFAM#{tokenFamily}", SK: lb.SKFamily},
			Validate: (*lb.TokenFamily).Validate,
		}),
		tags: table.NewEntity(t, table.Def[lb.Tag]{
			Type:  TypeTag,
			Scope: "accountId",
			// Tag keys and values are free text: escaped in the key.
			Keys:     table.Template{PK: "TAGS#{accountId}#{resourceType}", SK: "TAG#{tagKey:esc}#{tagValue:esc}"},
			Validate: (*lb.Tag).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "TAGID#{tagId}", SK: "TAG"},
			},
			Timestamps: lb.Stamps,
		}),
		notifications: table.NewEntity(t, table.Def[lb.Notification]{
			Type:     TypeNotification,
			Keys:     table.Template{PK: "NOTIF#{userId}", SK: "N#{createdAt:ts}#{notificationId}"},
			Validate: (*lb.Notification).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "ACCTNOTIF#{accountId}", SK: "{createdAt:ts}#{notificationId}"},
				table.GSI2: {PK: "NOTIFSTATUS#{userId}", SK: "{status}#{createdAt:ts}#{notificationId}"},
				table.GSI3: {PK: "UNREAD#{userId}", SK: "{createdAt:ts}#{notificationId}", When: []string{"!isRead"}},
			},
			TTL:        table.TTL{From: "createdAt", After: lb.NotificationRetention},
			Timestamps: lb.CreatedStamp,
			Touch: func(n *lb.Notification, _ time.Time, _ bool) {
				n.ExpiresAt = lb.Seconds(n.CreatedAt.Add(lb.NotificationRetention))
			},
		}),
		schedules: table.NewEntity(t, table.Def[lb.SyncSchedule]{
			Type:     TypeSyncSchedule,
			Keys:     table.Template{PK: "SOURCE#{sourceId}", SK: "SCHED#{scheduleId}"},
			Validate: (*lb.SyncSchedule).Validate,
			// Active schedules by next run (LB-48).
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: sh(DuePK, "scheduleId"), SK: "{nextRunAt:ts}#{sourceId}#{scheduleId}", When: []string{"isActive"}},
			},
			Timestamps: lb.SecondStamps,
			Touch: func(s *lb.SyncSchedule, _ time.Time, _ bool) {
				s.NextRunAt, s.LastRunAt = lb.Seconds(s.NextRunAt), secondsOrZero(s.LastRunAt)
			},
		}),
		runs: table.NewEntity(t, table.Def[lb.SyncRun]{
			Type:     TypeSyncRun,
			Keys:     table.Template{PK: "SOURCE#{sourceId}", SK: "RUN#{startedAt:ts}#{syncId}"},
			Validate: (*lb.SyncRun).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: sh("RUNS#{status}", "syncId"), SK: "{startedAt:ts}#{sourceId}#{syncId}"},
			},
		}),
		apiKeys: table.NewEntity(t, table.Def[lb.APIKey]{
			Type:     TypeAPIKey,
			Scope:    "accountId",
			Keys:     table.Template{PK: "APIKEY#{apiKeyId}", SK: lb.SKAPIKey},
			Validate: (*lb.APIKey).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "APIKEYHASH#{apiKeyHash}", SK: "APIKEY"},
				table.GSI2: {PK: "APIKEYS#{accountId}", SK: "{createdAt:ts}#{apiKeyId}"},
				table.GSI3: {PK: "APIKEYUSER#{userId}", SK: "{createdAt:ts}#{apiKeyId}"},
			},
		}),
		webhooks: table.NewEntity(t, table.Def[lb.Webhook]{
			Type:     TypeWebhook,
			Scope:    "accountId",
			Keys:     table.Template{PK: "WEBHOOK#{webhookId}", SK: lb.SKWebhook},
			Validate: (*lb.Webhook).Validate,
			// Active, not deleted webhooks of an account (LB-57).
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "HOOKS#{accountId}", SK: "ACTIVE#{webhookId}", When: []string{"isActive", "!deletedAt"}},
			},
			Timestamps: lb.SecondStamps,
			Secrets:    []string{"secret"},
		}),
		usage: table.NewEntity(t, table.Def[lb.UsageMetrics]{
			Type:     TypeUsageMetrics,
			Keys:     table.Template{PK: "ACCOUNT#{accountId}", SK: "USAGE#{metricDate}"},
			Validate: (*lb.UsageMetrics).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "USAGE#{metricDate}", SK: "ACCOUNT#{accountId}"},
			},
			Timestamps: lb.UpdatedSecondStamp,
		}),
		plans: table.NewEntity(t, table.Def[lb.BillingPlan]{
			Type:     TypeBillingPlan,
			Keys:     table.Template{PK: "PLAN#{planId}", SK: lb.SKPlan},
			Validate: (*lb.BillingPlan).Validate,
			// Active plans by price (LB-62), the price 12 digits wide.
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: ActivePlansPK, SK: "PRICE#{price:12}#{planId}", When: []string{"isActive"}},
			},
			Timestamps: lb.SecondStamps,
		}),
		groups: table.NewEntity(t, table.Def[lb.SourceGroup]{
			Type:     TypeSourceGroup,
			Keys:     table.Template{PK: "SRCGROUP#{groupId}", SK: "GROUP"},
			Validate: (*lb.SourceGroup).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "SRCGROUPS#{accountId}", SK: "GROUP#{groupId}"}, // LB-69
			},
			Timestamps: lb.Stamps,
		}),
		teamMembers: table.NewEntity(t, table.Def[lb.TeamMembership]{
			Type: TypeTeamMember,
			// In the team's own partition, next to its TEAM item (LB-71).
			Keys:     table.Template{PK: "TEAM#{teamId}", SK: "MEMBER#{userId}"},
			Validate: (*lb.TeamMembership).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "USERTEAMS#{userId}", SK: "TEAM#{teamId}"}, // LB-72
			},
			Timestamps: lb.JoinedStamps,
		}),
		labels: table.NewEntity(t, table.Def[lb.Label]{
			Type:     TypeLabel,
			Keys:     table.Template{PK: "LABEL#{tagId}", SK: "LABEL"},
			Validate: (*lb.Label).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "LABELS#{accountId}", SK: "NAME#{name}#{tagId}"}, // LB-73
			},
			Timestamps: lb.Stamps,
		}),
		entityTags: table.NewEntity(t, table.Def[lb.EntityTag]{
			Type: TypeEntityTag,
			// The labels of an entity in its own partition (LB-74).
			Keys:     table.Template{PK: "TAGGED#{entityType}#{entityId}", SK: "TAG#{tagId}"},
			Validate: (*lb.EntityTag).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "TAGGING#{tagId}", SK: "{entityType}#{entityId}"}, // LB-75
			},
			Timestamps: lb.CreatedStamp,
		}),
		mfaCodes: table.NewEntity(t, table.Def[lb.MFACode]{
			Type:     TypeMFACode,
			Keys:     table.Template{PK: "MFA#{userId}", SK: "CODE#{createdAt:ts}#{codeId}"}, // LB-76
			Validate: (*lb.MFACode).Validate,
			TTL:      table.TTL{From: "expiresAt"},
			Secrets:  []string{"code"},
		}),
		inbox: table.NewEntity(t, table.Def[lb.InboxNotification]{
			Type: TypeInbox,
			// By ID alone, as the code reads and marks it (LB-79, LB-83).
			Keys:     table.Template{PK: "INBOXN#{notificationId}", SK: "NOTIFICATION"},
			Validate: (*lb.InboxNotification).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "INBOX#{userId}", SK: "{createdAt:ts}#{notificationId}"},          // LB-80
				table.GSI2: {PK: "INBOX#{userId}#{status}", SK: "{createdAt:ts}#{notificationId}"}, // LB-81
				table.GSI3: {PK: "ACCTINBOX#{accountId}", SK: "{createdAt:ts}#{notificationId}"},   // LB-82
			},
			TTL:        table.TTL{From: "expiresAt"},
			Timestamps: lb.Stamps,
		}),
		platforms: table.NewEntity(t, table.Def[lb.CatalogPlatform]{
			Type:     TypeCatalogPlatform,
			Keys:     table.Template{PK: "CATPLATFORM#{platformId}", SK: "PLATFORM"},
			Validate: (*lb.CatalogPlatform).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "CATALOG", SK: "PLATFORM#{platformId}"}, // LB-77: tens of items
			},
			Timestamps: lb.Stamps,
		}),
		platformSrcs: table.NewEntity(t, table.Def[lb.CatalogSource]{
			Type:     TypeCatalogSource,
			Keys:     table.Template{PK: "CATSOURCE#{platformSourceId}", SK: "TEMPLATE"},
			Validate: (*lb.CatalogSource).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "CATSOURCES#{platformId}", SK: "SOURCE#{platformSourceId}"}, // LB-78
			},
			Timestamps: lb.Stamps,
		}),
	}
}

func secondsOrZero(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return lb.Seconds(t)
}
