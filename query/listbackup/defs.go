package listbackup

import (
	"time"

	"github.com/singletable/singletable/entity/lb"
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

// entities are the table bindings of every entity.
type entities struct {
	t          *table.Table
	now        func() time.Time
	refreshTTL time.Duration
	shards     int // of SCHED#DUE and RUNS#{status} (Options.IndexShards)
	// scheduleStore is the store's Schedules, whose patterns are declared
	// once (Sources.Delete deactivates a source's schedules through it).
	scheduleStore *Schedules
	// teamStore is the store's Teams, whose pattern erasure reads.
	teamStore     *Teams
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
	// The all-items partitions end in a shard segment, given the profile's
	// count: SCHED#DUE#{n} by a hash of the schedule's ID (one shard is
	// SCHED#DUE itself), RUNS#{status}#{n} by the run's.
	return &entities{
		t: t, shards: shards,
		users: table.NewEntity(t, table.Def[lb.User]{
			Type: TypeUser,
			Keys: lb.UserKeys,
			// One email and one username per person, whatever their case.
			UniqueOn: []string{UniqueEmail, UniqueUsername},
			UniqueFold: map[string]func(string) string{
				UniqueEmail:    lb.NormalizeEmail,
				UniqueUsername: lb.NormalizeUsername,
			},
			Timestamps: lb.Stamps,
			Secrets:    []string{"mfaSecret"},
			Required:   []string{"status"},
		}),
		accounts: table.NewEntity(t, table.Def[lb.Account]{
			Type: TypeAccount,
			Keys: lb.AccountKeys,
			// Soft-deleted accounts (LB-63) are in no list.
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.AccountChildrenIndex,
				table.GSI2: lb.AccountTypeIndex,
				// A subtree (LB-9) is the partition of the path's root
				// (lb.PathRoot): the :root transform.
				table.GSI3: lb.AccountTreeIndex,
			},
			Timestamps: lb.Stamps,
			Required:   []string{"accountName", "status"},
		}),
		memberships: table.NewEntity(t, table.Def[lb.Membership]{
			Type: TypeMembership,
			Keys: lb.MembershipKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.MembershipRoleIndex,
			},
			Timestamps: lb.JoinedStamp,
			Required:   []string{"role", "status"},
		}),
		teams: table.NewEntity(t, table.Def[lb.Team]{
			Type:  TypeTeam,
			Scope: "accountId",
			Keys:  lb.TeamKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.TeamAccountIndex,
			},
			Timestamps: lb.Stamps,
			Required:   []string{"accountId", "teamName", "members.userId", "members.role"},
		}),
		sources: table.NewEntity(t, table.Def[lb.Source]{
			Type:  TypeSource,
			Scope: "accountId",
			Keys:  lb.SourceKeys,
			// Soft-deleted sources (LB-65) are in no list.
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.SourcePlatformIndex,
				table.GSI2: lb.SourceStatusIndex,
				// A source group's sources (LB-70): sources of ListBackup's
				// own code name their group.
				table.GSI3: lb.SourceGroupIndex,
			},
			Timestamps: lb.Stamps,
			Touch:      func(s *lb.Source, _ time.Time, _ bool) { s.PlatformID = s.Platform },
			Secrets:    []string{"credentials.encryptedData", "credentials.*"},
			Required:   []string{"accountId", "sourceName", "status"},
		}),
		activities: table.NewEntity(t, table.Def[lb.Activity]{
			Type: TypeActivity,
			Keys: lb.ActivityKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.ActivityUserIndex, // sparse: system events have no user
				table.GSI2: lb.ActivityResourceIndex,
				table.GSI3: lb.ActivityEventIndex,
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
			Required: []string{"eventType", "resourceType", "action", "createdAt"},
		}),
		jobs: table.NewEntity(t, table.Def[lb.Job]{
			Type:  TypeJob,
			Scope: "accountId",
			Keys:  lb.JobKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.JobCreatedIndex,
				table.GSI2: lb.JobStatusIndex,
				table.GSI3: lb.JobSourceIndex, // sparse: account-wide jobs have no source
			},
			Timestamps: lb.CreatedStamp,
			Required:   []string{"accountId", "jobType", "status", "createdAt"},
		}),
		connections: table.NewEntity(t, table.Def[lb.Connection]{
			Type:  TypeConnection,
			Scope: "accountId",
			Fixed: []string{"userId"}, // a connection never moves to another user
			Keys:  lb.ConnectionKeys,
			// Soft-deleted connections (LB-65) are in no list.
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.ConnectionAccountIndex,
				table.GSI2: lb.ConnectionUserIndex,
			},
			Timestamps: lb.Stamps,
			Secrets:    []string{"credentials.accessToken", "credentials.refreshToken", "credentials.apiKey", "credentials.*"},
			Required:   []string{"accountId", "userId", "platform", "connectionType", "status"},
		}),
		states: table.NewEntity(t, table.Def[lb.OAuthState]{
			Type:     TypeOAuthState,
			Keys:     lb.OAuthStateKeys,
			TTL:      table.TTL{From: "expiresAt"},
			Required: []string{"accountId", "userId", "platform", "redirectUri", "expiresAt"},
		}),
		oauthTokens: table.NewEntity(t, table.Def[lb.OAuthToken]{
			Type: TypeOAuthToken,
			Keys: lb.OAuthTokenKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.OAuthTokenAccountIndex,
			},
			Timestamps: lb.Stamps,
			Secrets:    []string{"tokens.accessToken", "tokens.refreshToken", "tokens.*"},
			Required:   []string{"accountId", "platform", "tokens.accessToken"},
		}),
		refreshTokens: table.NewEntity(t, table.Def[lb.RefreshToken]{
			Type: TypeRefreshToken,
			// refreshToken is the token's SHA-256 hex, never the plaintext.
			Keys: lb.RefreshTokenKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.RefreshTokenUserIndex,
				table.GSI2: lb.RefreshTokenFamilyIndex,
			},
			TTL:      table.TTL{From: "expiresAt"},
			Version:  func(r *lb.RefreshToken) *int64 { return &r.Version },
			Required: []string{"userId", "tokenFamily", "issuedAt", "expiresAt"},
		}),
		families: table.NewEntity(t, table.Def[lb.TokenFamily]{
			Type:     TypeTokenFamily,
			Keys:     lb.TokenFamilyKeys,
			Required: []string{"userId", "createdAt"},
		}),
		tags: table.NewEntity(t, table.Def[lb.Tag]{
			Type:  TypeTag,
			Scope: "accountId",
			// Tag keys and values are free text: escaped in the key.
			Keys: lb.TagKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.TagIDIndex,
			},
			Timestamps: lb.Stamps,
			Required:   []string{"tagId", "resourceType"},
			Fixed:      []string{"tagId"}, // the ID Get finds it by (LB-40)
		}),
		notifications: table.NewEntity(t, table.Def[lb.Notification]{
			Type: TypeNotification,
			Keys: lb.NotificationKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.NotificationAccountIndex,
				table.GSI2: lb.NotificationStatusIndex,
				table.GSI3: lb.NotificationUnreadIndex,
			},
			TTL:        table.TTL{From: "createdAt", After: lb.NotificationRetention},
			Timestamps: lb.CreatedStamp,
			Touch: func(n *lb.Notification, _ time.Time, _ bool) {
				n.ExpiresAt = lb.Seconds(n.CreatedAt.Add(lb.NotificationRetention))
			},
			Required: []string{"accountId", "type", "category", "message", "status", "createdAt"},
		}),
		schedules: table.NewEntity(t, table.Def[lb.SyncSchedule]{
			Type: TypeSyncSchedule,
			Keys: lb.ScheduleKeys,
			// Active schedules by next run (LB-48).
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.ScheduleDueIndex.WithShards(shards),
			},
			Timestamps: lb.SecondStamps,
			Touch: func(s *lb.SyncSchedule, _ time.Time, _ bool) {
				s.NextRunAt, s.LastRunAt = lb.Seconds(s.NextRunAt), secondsOrZero(s.LastRunAt)
			},
			Required: []string{"scheduleType", "nextRunAt"},
		}),
		runs: table.NewEntity(t, table.Def[lb.SyncRun]{
			Type: TypeSyncRun,
			Keys: lb.RunKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.RunStatusIndex.WithShards(shards),
			},
			Required: []string{"status", "startedAt"},
		}),
		apiKeys: table.NewEntity(t, table.Def[lb.APIKey]{
			Type:  TypeAPIKey,
			Scope: "accountId",
			Keys:  lb.APIKeyKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.APIKeyHashIndex,
				table.GSI2: lb.APIKeyAccountIndex,
				table.GSI3: lb.APIKeyUserIndex,
			},
			Required: []string{"accountId", "userId", "name", "status", "createdAt", "permissions"},
		}),
		webhooks: table.NewEntity(t, table.Def[lb.Webhook]{
			Type:  TypeWebhook,
			Scope: "accountId",
			Keys:  lb.WebhookKeys,
			// Active, not deleted webhooks of an account (LB-57).
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.WebhookActiveIndex,
			},
			Timestamps: lb.SecondStamps,
			Secrets:    []string{"secret"},
			Required:   []string{"accountId", "secret", "events"},
		}),
		usage: table.NewEntity(t, table.Def[lb.UsageMetrics]{
			Type: TypeUsageMetrics,
			Keys: lb.UsageKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.UsageDateIndex,
			},
			Timestamps: lb.UpdatedSecondStamp,
		}),
		plans: table.NewEntity(t, table.Def[lb.BillingPlan]{
			Type: TypeBillingPlan,
			Keys: lb.PlanKeys,
			// Active plans by price (LB-62), the price 12 digits wide.
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.PlanActiveIndex,
			},
			Timestamps: lb.SecondStamps,
			Required:   []string{"planName", "planType"},
		}),
		groups: table.NewEntity(t, table.Def[lb.SourceGroup]{
			Type: TypeSourceGroup,
			Keys: lb.SourceGroupKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.SourceGroupAccountIndex, // LB-69
			},
			Timestamps: lb.Stamps,
			Required:   []string{"accountId", "name"},
		}),
		teamMembers: table.NewEntity(t, table.Def[lb.TeamMembership]{
			Type: TypeTeamMember,
			// In the team's own partition, next to its TEAM item (LB-71).
			Keys: lb.TeamMemberKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.TeamMemberUserIndex, // LB-72
			},
			Timestamps: lb.JoinedStamps,
			Required:   []string{"role"},
		}),
		labels: table.NewEntity(t, table.Def[lb.Label]{
			Type: TypeLabel,
			Keys: lb.LabelKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.LabelAccountIndex, // LB-73
			},
			Timestamps: lb.Stamps,
			Required:   []string{"accountId", "name"},
		}),
		entityTags: table.NewEntity(t, table.Def[lb.EntityTag]{
			Type: TypeEntityTag,
			// The labels of an entity in its own partition (LB-74).
			Keys: lb.EntityTagKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.EntityTagLabelIndex, // LB-75
			},
			Timestamps: lb.CreatedStamp,
			Required:   []string{"entityTagId", "accountId"},
		}),
		mfaCodes: table.NewEntity(t, table.Def[lb.MFACode]{
			Type:     TypeMFACode,
			Keys:     lb.MFACodeKeys, // LB-76
			TTL:      table.TTL{From: "expiresAt"},
			Secrets:  []string{"code"},
			Required: []string{"code", "createdAt", "expiresAt"},
		}),
		inbox: table.NewEntity(t, table.Def[lb.InboxNotification]{
			Type: TypeInbox,
			// By ID alone, as the code reads and marks it (LB-79, LB-83).
			Keys: lb.InboxKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.InboxUserIndex,    // LB-80
				table.GSI2: lb.InboxStatusIndex,  // LB-81
				table.GSI3: lb.InboxAccountIndex, // LB-82
			},
			TTL:        table.TTL{From: "expiresAt"},
			Timestamps: lb.Stamps,
			Required:   []string{"accountId", "userId", "type", "title", "message", "status"},
		}),
		platforms: table.NewEntity(t, table.Def[lb.CatalogPlatform]{
			Type: TypeCatalogPlatform,
			Keys: lb.CatalogPlatformKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.CatalogPlatformIndex, // LB-77: tens of items
			},
			Timestamps: lb.Stamps,
			Required:   []string{"name"},
		}),
		platformSrcs: table.NewEntity(t, table.Def[lb.CatalogSource]{
			Type: TypeCatalogSource,
			Keys: lb.CatalogSourceKeys,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: lb.CatalogSourcePlatformIndex, // LB-78
			},
			Timestamps: lb.Stamps,
			Required:   []string{"platformId", "name"},
		}),
	}
}

func secondsOrZero(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return lb.Seconds(t)
}
