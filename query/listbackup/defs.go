package listbackup

import (
	"fmt"
	"strings"
	"time"

	lb "github.com/singletable/singletable/entity/listbackup"
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

type ixs = map[table.Index]table.IndexKey

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
}

// stamps keeps createdAt and updatedAt (UTC; secs truncates to seconds
// for core's epoch-second attributes).
func stamps(created, updated *time.Time, now time.Time, isNew, secs bool) {
	now = now.UTC()
	if secs {
		now = lb.Seconds(now)
	}
	if created != nil && (isNew || created.IsZero()) && created.IsZero() {
		*created = now
	}
	if updated != nil {
		*updated = now
	}
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
			Touch:   func(u *lb.User, now time.Time, isNew bool) { stamps(&u.CreatedAt, &u.UpdatedAt, now, isNew, false) },
			Secrets: map[string]func(*lb.User) *string{"mfaSecret": func(u *lb.User) *string { return &u.MFASecret }},
		}),
		accounts: table.NewEntity(t, table.Def[lb.Account]{
			Type:     TypeAccount,
			Keys:     table.Template{PK: "ACCOUNT#{accountId}", SK: lb.SKProfile},
			Validate: (*lb.Account).Validate,
			// Soft-deleted accounts (LB-63) are in no list.
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "CHILDREN#{parentAccountId}", SK: "TYPE#{accountType}#{accountId}", When: []string{"!deletedAt"}},
				table.GSI2: {PK: "ACCTYPE#{accountType}", SK: "ACCOUNT#{accountId}", When: []string{"!deletedAt"}},
			},
			// The subtree index's partition is the path's root, computed
			// from accountPath: no template states it.
			Indexes: func(a *lb.Account) (ixs, error) {
				if a.Deleted() {
					return nil, nil
				}
				return ixs{table.GSI3: {PK: j("TREE", keys.Escape(lb.PathRoot(a.AccountPath))), SK: j("PATH", keys.Escape(a.AccountPath))}}, nil
			},
			Touch:         func(a *lb.Account, now time.Time, isNew bool) { stamps(&a.CreatedAt, &a.UpdatedAt, now, isNew, false) },
			IndexedFields: []string{"accountPath", "deletedAt"}, // the closure's
		}),
		memberships: table.NewEntity(t, table.Def[lb.Membership]{
			Type:     TypeMembership,
			Keys:     table.Template{PK: "USER#{userId}", SK: "MEMBER#{accountId}"},
			Validate: (*lb.Membership).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "MEMBERS#{accountId}", SK: "ROLE#{role}#{userId}"},
			},
			Touch: func(m *lb.Membership, now time.Time, isNew bool) { stamps(&m.JoinedAt, nil, now, isNew, false) },
		}),
		teams: table.NewEntity(t, table.Def[lb.Team]{
			Type:     TypeTeam,
			Scope:    "accountId",
			Keys:     table.Template{PK: "TEAM#{teamId}", SK: lb.SKTeam},
			Validate: (*lb.Team).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "TEAMS#{accountId}", SK: "TEAM#{teamId}"},
			},
			Touch: func(tm *lb.Team, now time.Time, isNew bool) { stamps(&tm.CreatedAt, &tm.UpdatedAt, now, isNew, false) },
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
			},
			Touch: func(s *lb.Source, now time.Time, isNew bool) {
				stamps(&s.CreatedAt, &s.UpdatedAt, now, isNew, false)
				s.PlatformID = s.Platform
			},
			IndexedFields: []string{"platformId"}, // Touch keeps it equal to platform
			Secrets: map[string]func(*lb.Source) *string{
				"credentials.encryptedData": func(s *lb.Source) *string { return &s.Credentials.Data },
			},
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
			Expires: (*lb.Activity).Expires,
			Touch: func(a *lb.Activity, now time.Time, _ bool) {
				if a.CreatedAt.IsZero() {
					a.CreatedAt = now.UTC()
				}
				a.Timestamp = lb.Seconds(a.CreatedAt)
				a.Resource = a.ResourceType
			},
			IndexedFields: []string{"resource", "timestamp"}, // Touch derives them from resourceType and createdAt
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
			Touch: func(jb *lb.Job, now time.Time, isNew bool) { stamps(&jb.CreatedAt, nil, now, isNew, false) },
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
			Touch: func(c *lb.Connection, now time.Time, isNew bool) {
				stamps(&c.CreatedAt, &c.UpdatedAt, now, isNew, false)
			},
			Secrets: map[string]func(*lb.Connection) *string{
				"credentials.accessToken":  func(c *lb.Connection) *string { return &c.Credentials.AccessToken },
				"credentials.refreshToken": func(c *lb.Connection) *string { return &c.Credentials.RefreshToken },
			},
		}),
		states: table.NewEntity(t, table.Def[lb.OAuthState]{
			Type:     TypeOAuthState,
			Keys:     table.Template{PK: "OAUTHSTATE#{state}", SK: lb.SKState},
			Validate: (*lb.OAuthState).Validate,
			Expires:  func(s *lb.OAuthState) time.Time { return s.ExpiresAt },
		}),
		oauthTokens: table.NewEntity(t, table.Def[lb.OAuthToken]{
			Type:     TypeOAuthToken,
			Keys:     table.Template{PK: "SOURCE#{sourceId}", SK: lb.SKOAuth},
			Validate: (*lb.OAuthToken).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "OAUTH#{accountId}", SK: "PLATFORM#{platform}#{sourceId}"},
			},
			Touch: func(o *lb.OAuthToken, now time.Time, isNew bool) {
				stamps(&o.CreatedAt, &o.UpdatedAt, now, isNew, false)
			},
			Secrets: map[string]func(*lb.OAuthToken) *string{
				"tokens.accessToken":  func(o *lb.OAuthToken) *string { return &o.Tokens.AccessToken },
				"tokens.refreshToken": func(o *lb.OAuthToken) *string { return &o.Tokens.RefreshToken },
			},
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
			Expires: func(r *lb.RefreshToken) time.Time { return r.ExpiresAt },
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
			Touch: func(tg *lb.Tag, now time.Time, isNew bool) { stamps(&tg.CreatedAt, &tg.UpdatedAt, now, isNew, false) },
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
			Expires: func(n *lb.Notification) time.Time { return n.CreatedAt.Add(lb.NotificationRetention) },
			Touch: func(n *lb.Notification, now time.Time, _ bool) {
				if n.CreatedAt.IsZero() {
					n.CreatedAt = now.UTC()
				}
				n.ExpiresAt = lb.Seconds(n.CreatedAt.Add(lb.NotificationRetention))
			},
			IndexedFields: []string{"expiresAt"}, // Touch derives it from createdAt
		}),
		schedules: table.NewEntity(t, table.Def[lb.SyncSchedule]{
			Type:     TypeSyncSchedule,
			Keys:     table.Template{PK: "SOURCE#{sourceId}", SK: "SCHED#{scheduleId}"},
			Validate: (*lb.SyncSchedule).Validate,
			// Active schedules by next run (LB-48).
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: sh(DuePK, "scheduleId"), SK: "{nextRunAt:ts}#{sourceId}#{scheduleId}", When: []string{"isActive"}},
			},
			Touch: func(s *lb.SyncSchedule, now time.Time, isNew bool) {
				stamps(&s.CreatedAt, &s.UpdatedAt, now, isNew, true)
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
			Touch:   func(w *lb.Webhook, now time.Time, isNew bool) { stamps(&w.CreatedAt, &w.UpdatedAt, now, isNew, true) },
			Secrets: map[string]func(*lb.Webhook) *string{"secret": func(w *lb.Webhook) *string { return &w.Secret }},
		}),
		usage: table.NewEntity(t, table.Def[lb.UsageMetrics]{
			Type:     TypeUsageMetrics,
			Keys:     table.Template{PK: "ACCOUNT#{accountId}", SK: "USAGE#{metricDate}"},
			Validate: (*lb.UsageMetrics).Validate,
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: "USAGE#{metricDate}", SK: "ACCOUNT#{accountId}"},
			},
			Touch: func(m *lb.UsageMetrics, now time.Time, isNew bool) { stamps(nil, &m.UpdatedAt, now, isNew, true) },
		}),
		plans: table.NewEntity(t, table.Def[lb.BillingPlan]{
			Type:     TypeBillingPlan,
			Keys:     table.Template{PK: "PLAN#{planId}", SK: lb.SKPlan},
			Validate: (*lb.BillingPlan).Validate,
			// Active plans by price (LB-62), the price 12 digits wide.
			IndexKeys: map[table.Index]table.Template{
				table.GSI1: {PK: ActivePlansPK, SK: "PRICE#{price:12}#{planId}", When: []string{"isActive"}},
			},
			Touch: func(p *lb.BillingPlan, now time.Time, isNew bool) {
				stamps(&p.CreatedAt, &p.UpdatedAt, now, isNew, true)
			},
		}),
	}
}

func secondsOrZero(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return lb.Seconds(t)
}
