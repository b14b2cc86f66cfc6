package listbackup

import (
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

// DuePK is the GSI1 partition of active schedules (LB-48).
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

func newEntities(t *table.Table) *entities {
	return &entities{
		t: t,
		users: table.NewEntity(t, table.Def[lb.User]{
			Type:     TypeUser,
			Key:      func(u *lb.User) (table.Key, error) { return lb.UserKey(u.UserID) },
			Validate: (*lb.User).Validate,
			Unique: func(u *lb.User) []table.Unique {
				us := []table.Unique{{Name: UniqueEmail, Value: lb.NormalizeEmail(u.Email)}}
				if u.Username != "" {
					us = append(us, table.Unique{Name: UniqueUsername, Value: lb.NormalizeUsername(u.Username)})
				}
				return us
			},
			Touch:         func(u *lb.User, now time.Time, isNew bool) { stamps(&u.CreatedAt, &u.UpdatedAt, now, isNew, false) },
			IndexedFields: []string{"email", "username"},
			Secrets:       map[string]func(*lb.User) *string{"mfaSecret": func(u *lb.User) *string { return &u.MFASecret }},
		}),
		accounts: table.NewEntity(t, table.Def[lb.Account]{
			Type:     TypeAccount,
			Key:      func(a *lb.Account) (table.Key, error) { return lb.AccountKey(a.AccountID) },
			Validate: (*lb.Account).Validate,
			Indexes: func(a *lb.Account) (ixs, error) {
				if a.Deleted() {
					return nil, nil // soft-deleted (LB-63): in no list
				}
				m := ixs{
					table.GSI2: {PK: j("ACCTYPE", string(a.AccountType)), SK: j("ACCOUNT", string(a.AccountID))},
					table.GSI3: {PK: j("TREE", keys.Escape(lb.PathRoot(a.AccountPath))), SK: j("PATH", keys.Escape(a.AccountPath))},
				}
				if a.ParentAccountID != "" {
					m[table.GSI1] = table.IndexKey{PK: j("CHILDREN", string(a.ParentAccountID)), SK: j("TYPE", string(a.AccountType), string(a.AccountID))}
				}
				return m, nil
			},
			Touch:         func(a *lb.Account, now time.Time, isNew bool) { stamps(&a.CreatedAt, &a.UpdatedAt, now, isNew, false) },
			IndexedFields: []string{"parentAccountId", "accountType", "accountPath", "deletedAt"},
		}),
		memberships: table.NewEntity(t, table.Def[lb.Membership]{
			Type:     TypeMembership,
			Key:      func(m *lb.Membership) (table.Key, error) { return lb.MembershipKey(m.UserID, m.AccountID) },
			Validate: (*lb.Membership).Validate,
			Indexes: func(m *lb.Membership) (ixs, error) {
				return ixs{table.GSI1: {PK: j("MEMBERS", string(m.AccountID)), SK: j("ROLE", string(m.Role), string(m.UserID))}}, nil
			},
			Touch:         func(m *lb.Membership, now time.Time, isNew bool) { stamps(&m.JoinedAt, nil, now, isNew, false) },
			IndexedFields: []string{"role"},
		}),
		teams: table.NewEntity(t, table.Def[lb.Team]{
			Type:     TypeTeam,
			Scope:    "accountId",
			Key:      func(tm *lb.Team) (table.Key, error) { return lb.TeamKey(tm.TeamID) },
			Validate: (*lb.Team).Validate,
			Indexes: func(tm *lb.Team) (ixs, error) {
				return ixs{table.GSI1: {PK: j("TEAMS", string(tm.AccountID)), SK: j("TEAM", string(tm.TeamID))}}, nil
			},
			Touch:         func(tm *lb.Team, now time.Time, isNew bool) { stamps(&tm.CreatedAt, &tm.UpdatedAt, now, isNew, false) },
			IndexedFields: []string{"accountId"},
		}),
		sources: table.NewEntity(t, table.Def[lb.Source]{
			Type:     TypeSource,
			Scope:    "accountId",
			Key:      func(s *lb.Source) (table.Key, error) { return lb.SourceKey(s.SourceID) },
			Validate: (*lb.Source).Validate,
			Indexes: func(s *lb.Source) (ixs, error) {
				if s.Deleted() {
					return nil, nil // soft-deleted (LB-65): in no list
				}
				pk := j("SOURCES", string(s.AccountID))
				return ixs{
					table.GSI1: {PK: pk, SK: j("PLATFORM", string(s.Platform), string(s.SourceID))},
					table.GSI2: {PK: pk, SK: j("STATUS", string(s.Status), string(s.SourceID))},
				}, nil
			},
			Touch: func(s *lb.Source, now time.Time, isNew bool) {
				stamps(&s.CreatedAt, &s.UpdatedAt, now, isNew, false)
				s.PlatformID = s.Platform
			},
			IndexedFields: []string{"accountId", "platform", "platformId", "status", "deletedAt"},
			Secrets: map[string]func(*lb.Source) *string{
				"credentials.encryptedData": func(s *lb.Source) *string { return &s.Credentials.Data },
			},
		}),
		activities: table.NewEntity(t, table.Def[lb.Activity]{
			Type:     TypeActivity,
			Key:      func(a *lb.Activity) (table.Key, error) { return lb.ActivityKey(a.AccountID, a.CreatedAt, a.EventID) },
			Validate: (*lb.Activity).Validate,
			Indexes: func(a *lb.Activity) (ixs, error) {
				ts, err := timeKey("createdAt", a.CreatedAt)
				if err != nil {
					return nil, err
				}
				sk := j(ts, string(a.EventID))
				m := ixs{
					table.GSI2: {PK: j("ACTRES", string(a.AccountID), string(a.ResourceType)), SK: sk},
					table.GSI3: {PK: j("ACTEVT", string(a.AccountID), string(a.EventType)), SK: sk},
				}
				if a.UserID != "" {
					m[table.GSI1] = table.IndexKey{PK: j("ACTUSER", string(a.UserID)), SK: sk}
				}
				return m, nil
			},
			Expires: (*lb.Activity).Expires,
			Touch: func(a *lb.Activity, now time.Time, _ bool) {
				if a.CreatedAt.IsZero() {
					a.CreatedAt = now.UTC()
				}
				a.Timestamp = lb.Seconds(a.CreatedAt)
				a.Resource = a.ResourceType
			},
			IndexedFields: []string{"userId", "resourceType", "resource", "eventType", "createdAt", "timestamp"},
		}),
		jobs: table.NewEntity(t, table.Def[lb.Job]{
			Type:     TypeJob,
			Scope:    "accountId",
			Key:      func(jb *lb.Job) (table.Key, error) { return lb.JobKey(jb.JobID) },
			Validate: (*lb.Job).Validate,
			Indexes: func(jb *lb.Job) (ixs, error) {
				ts, err := timeKey("createdAt", jb.CreatedAt)
				if err != nil {
					return nil, err
				}
				pk := j("JOBS", string(jb.AccountID))
				m := ixs{
					table.GSI1: {PK: pk, SK: j("CREATED", ts, string(jb.JobID))},
					table.GSI2: {PK: pk, SK: j("STATUS", string(jb.Status), ts, string(jb.JobID))},
				}
				if jb.SourceID != "" {
					m[table.GSI3] = table.IndexKey{PK: j("SRCJOBS", string(jb.SourceID)), SK: j(ts, string(jb.JobID))}
				}
				return m, nil
			},
			Touch:         func(jb *lb.Job, now time.Time, isNew bool) { stamps(&jb.CreatedAt, nil, now, isNew, false) },
			IndexedFields: []string{"accountId", "status", "sourceId", "createdAt"},
		}),
		connections: table.NewEntity(t, table.Def[lb.Connection]{
			Type:     TypeConnection,
			Scope:    "accountId",
			Fixed:    []string{"userId"}, // a connection never moves to another user
			Key:      func(c *lb.Connection) (table.Key, error) { return lb.ConnectionKey(c.ConnectionID) },
			Validate: (*lb.Connection).Validate,
			Indexes: func(c *lb.Connection) (ixs, error) {
				if c.Deleted() {
					return nil, nil // soft-deleted (LB-65): in no list
				}
				sk := j("PLATFORM", string(c.Platform), string(c.ConnectionID))
				return ixs{
					table.GSI1: {PK: j("CONNS", string(c.AccountID)), SK: sk},
					table.GSI2: {PK: j("USERCONNS", string(c.UserID)), SK: sk},
				}, nil
			},
			Touch: func(c *lb.Connection, now time.Time, isNew bool) {
				stamps(&c.CreatedAt, &c.UpdatedAt, now, isNew, false)
			},
			IndexedFields: []string{"accountId", "userId", "platform", "deletedAt"},
			Secrets: map[string]func(*lb.Connection) *string{
				"credentials.accessToken":  func(c *lb.Connection) *string { return &c.Credentials.AccessToken },
				"credentials.refreshToken": func(c *lb.Connection) *string { return &c.Credentials.RefreshToken },
			},
		}),
		states: table.NewEntity(t, table.Def[lb.OAuthState]{
			Type:     TypeOAuthState,
			Key:      func(s *lb.OAuthState) (table.Key, error) { return lb.OAuthStateKey(s.State) },
			Validate: (*lb.OAuthState).Validate,
			Expires:  func(s *lb.OAuthState) time.Time { return s.ExpiresAt },
		}),
		oauthTokens: table.NewEntity(t, table.Def[lb.OAuthToken]{
			Type:     TypeOAuthToken,
			Key:      func(o *lb.OAuthToken) (table.Key, error) { return lb.OAuthTokenKey(o.SourceID) },
			Validate: (*lb.OAuthToken).Validate,
			Indexes: func(o *lb.OAuthToken) (ixs, error) {
				return ixs{table.GSI1: {PK: j("OAUTH", string(o.AccountID)), SK: j("PLATFORM", string(o.Platform), string(o.SourceID))}}, nil
			},
			Touch: func(o *lb.OAuthToken, now time.Time, isNew bool) {
				stamps(&o.CreatedAt, &o.UpdatedAt, now, isNew, false)
			},
			IndexedFields: []string{"accountId", "platform"},
			Secrets: map[string]func(*lb.OAuthToken) *string{
				"tokens.accessToken":  func(o *lb.OAuthToken) *string { return &o.Tokens.AccessToken },
				"tokens.refreshToken": func(o *lb.OAuthToken) *string { return &o.Tokens.RefreshToken },
			},
		}),
		refreshTokens: table.NewEntity(t, table.Def[lb.RefreshToken]{
			Type:     TypeRefreshToken,
			Key:      func(r *lb.RefreshToken) (table.Key, error) { return lb.RefreshTokenKey(r.TokenHash) },
			Validate: (*lb.RefreshToken).Validate,
			Indexes: func(r *lb.RefreshToken) (ixs, error) {
				ts, err := timeKey("issuedAt", r.IssuedAt)
				if err != nil {
					return nil, err
				}
				sk := j(ts, r.TokenHash)
				return ixs{
					table.GSI1: {PK: j("RTUSER", string(r.UserID)), SK: sk},
					table.GSI2: {PK: j("RTFAMILY", string(r.TokenFamily)), SK: sk},
				}, nil
			},
			Expires:       func(r *lb.RefreshToken) time.Time { return r.ExpiresAt },
			Version:       func(r *lb.RefreshToken) *int64 { return &r.Version },
			IndexedFields: []string{"userId", "tokenFamily", "issuedAt"},
		}),
		families: table.NewEntity(t, table.Def[lb.TokenFamily]{
			Type:          TypeTokenFamily,
			Key:           func(f *lb.TokenFamily) (table.Key, error) { return lb.TokenFamilyKey(f.Family) },
			Validate:      (*lb.TokenFamily).Validate,
			IndexedFields: []string{"tokenFamily"},
		}),
		tags: table.NewEntity(t, table.Def[lb.Tag]{
			Type:  TypeTag,
			Scope: "accountId",
			Key: func(tg *lb.Tag) (table.Key, error) {
				return lb.TagKeyOf(tg.AccountID, tg.ResourceType, tg.TagKey, tg.TagValue)
			},
			Validate: (*lb.Tag).Validate,
			Indexes: func(tg *lb.Tag) (ixs, error) {
				return ixs{table.GSI1: {PK: j("TAGID", string(tg.TagID)), SK: "TAG"}}, nil
			},
			Touch:         func(tg *lb.Tag, now time.Time, isNew bool) { stamps(&tg.CreatedAt, &tg.UpdatedAt, now, isNew, false) },
			IndexedFields: []string{"tagId"},
		}),
		notifications: table.NewEntity(t, table.Def[lb.Notification]{
			Type: TypeNotification,
			Key: func(n *lb.Notification) (table.Key, error) {
				return lb.NotificationKey(n.UserID, n.CreatedAt, n.NotificationID)
			},
			Validate: (*lb.Notification).Validate,
			Indexes: func(n *lb.Notification) (ixs, error) {
				ts, err := timeKey("createdAt", n.CreatedAt)
				if err != nil {
					return nil, err
				}
				sk := j(ts, string(n.NotificationID))
				m := ixs{
					table.GSI1: {PK: j("ACCTNOTIF", string(n.AccountID)), SK: sk},
					table.GSI2: {PK: j("NOTIFSTATUS", string(n.UserID)), SK: j(string(n.Status), sk)},
				}
				if !n.IsRead {
					m[table.GSI3] = table.IndexKey{PK: j("UNREAD", string(n.UserID)), SK: sk}
				}
				return m, nil
			},
			Expires: func(n *lb.Notification) time.Time { return n.CreatedAt.Add(lb.NotificationRetention) },
			Touch: func(n *lb.Notification, now time.Time, _ bool) {
				if n.CreatedAt.IsZero() {
					n.CreatedAt = now.UTC()
				}
				n.ExpiresAt = lb.Seconds(n.CreatedAt.Add(lb.NotificationRetention))
			},
			IndexedFields: []string{"accountId", "status", "isRead"},
		}),
		schedules: table.NewEntity(t, table.Def[lb.SyncSchedule]{
			Type:     TypeSyncSchedule,
			Key:      func(s *lb.SyncSchedule) (table.Key, error) { return lb.ScheduleKey(s.SourceID, s.ScheduleID) },
			Validate: (*lb.SyncSchedule).Validate,
			Indexes: func(s *lb.SyncSchedule) (ixs, error) {
				if !s.IsActive {
					return nil, nil
				}
				ts, err := timeKey("nextRunAt", s.NextRunAt)
				if err != nil {
					return nil, err
				}
				return ixs{table.GSI1: {PK: DuePK, SK: j(ts, string(s.SourceID), string(s.ScheduleID))}}, nil
			},
			Touch: func(s *lb.SyncSchedule, now time.Time, isNew bool) {
				stamps(&s.CreatedAt, &s.UpdatedAt, now, isNew, true)
				s.NextRunAt, s.LastRunAt = lb.Seconds(s.NextRunAt), secondsOrZero(s.LastRunAt)
			},
			IndexedFields: []string{"isActive", "nextRunAt"},
		}),
		runs: table.NewEntity(t, table.Def[lb.SyncRun]{
			Type:     TypeSyncRun,
			Key:      func(r *lb.SyncRun) (table.Key, error) { return lb.RunKey(r.SourceID, r.StartedAt, r.SyncID) },
			Validate: (*lb.SyncRun).Validate,
			Indexes: func(r *lb.SyncRun) (ixs, error) {
				ts, err := timeKey("startedAt", r.StartedAt)
				if err != nil {
					return nil, err
				}
				return ixs{table.GSI1: {PK: j("RUNS", string(r.Status)), SK: j(ts, string(r.SourceID), string(r.SyncID))}}, nil
			},
			IndexedFields: []string{"status", "startedAt"},
		}),
		apiKeys: table.NewEntity(t, table.Def[lb.APIKey]{
			Type:     TypeAPIKey,
			Scope:    "accountId",
			Key:      func(k *lb.APIKey) (table.Key, error) { return lb.APIKeyKey(k.APIKeyID) },
			Validate: (*lb.APIKey).Validate,
			Indexes: func(k *lb.APIKey) (ixs, error) {
				ts, err := timeKey("createdAt", k.CreatedAt)
				if err != nil {
					return nil, err
				}
				return ixs{
					table.GSI1: {PK: j("APIKEYHASH", k.APIKeyHash), SK: "APIKEY"},
					table.GSI2: {PK: j("APIKEYS", string(k.AccountID)), SK: j(ts, string(k.APIKeyID))},
					table.GSI3: {PK: j("APIKEYUSER", string(k.UserID)), SK: j(ts, string(k.APIKeyID))},
				}, nil
			},
			IndexedFields: []string{"apiKeyHash", "accountId", "userId", "createdAt"},
		}),
		webhooks: table.NewEntity(t, table.Def[lb.Webhook]{
			Type:     TypeWebhook,
			Scope:    "accountId",
			Key:      func(w *lb.Webhook) (table.Key, error) { return lb.WebhookKey(w.WebhookID) },
			Validate: (*lb.Webhook).Validate,
			Indexes: func(w *lb.Webhook) (ixs, error) {
				if !w.IsActive || w.Deleted() {
					return nil, nil
				}
				return ixs{table.GSI1: {PK: j("HOOKS", string(w.AccountID)), SK: j("ACTIVE", string(w.WebhookID))}}, nil
			},
			Touch:         func(w *lb.Webhook, now time.Time, isNew bool) { stamps(&w.CreatedAt, &w.UpdatedAt, now, isNew, true) },
			IndexedFields: []string{"isActive", "accountId", "deletedAt"},
			Secrets:       map[string]func(*lb.Webhook) *string{"secret": func(w *lb.Webhook) *string { return &w.Secret }},
		}),
		usage: table.NewEntity(t, table.Def[lb.UsageMetrics]{
			Type:     TypeUsageMetrics,
			Key:      func(m *lb.UsageMetrics) (table.Key, error) { return lb.UsageKey(m.AccountID, m.MetricDate) },
			Validate: (*lb.UsageMetrics).Validate,
			Indexes: func(m *lb.UsageMetrics) (ixs, error) {
				return ixs{table.GSI1: {PK: j("USAGE", string(m.MetricDate)), SK: j("ACCOUNT", string(m.AccountID))}}, nil
			},
			Touch:         func(m *lb.UsageMetrics, now time.Time, isNew bool) { stamps(nil, &m.UpdatedAt, now, isNew, true) },
			IndexedFields: []string{"accountId", "metricDate"},
		}),
		plans: table.NewEntity(t, table.Def[lb.BillingPlan]{
			Type:     TypeBillingPlan,
			Key:      func(p *lb.BillingPlan) (table.Key, error) { return lb.PlanKey(p.PlanID) },
			Validate: (*lb.BillingPlan).Validate,
			Indexes: func(p *lb.BillingPlan) (ixs, error) {
				if !p.IsActive {
					return nil, nil
				}
				return ixs{table.GSI1: {PK: ActivePlansPK, SK: j("PRICE", keys.MustUint(uint64(p.Price), 12), string(p.PlanID))}}, nil
			},
			Touch: func(p *lb.BillingPlan, now time.Time, isNew bool) {
				stamps(&p.CreatedAt, &p.UpdatedAt, now, isNew, true)
			},
			IndexedFields: []string{"isActive", "price"},
		}),
	}
}

func secondsOrZero(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return lb.Seconds(t)
}
