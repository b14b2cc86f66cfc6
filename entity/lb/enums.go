// Enumerations: one typed string per value list of the documents, its
// values a table.Enum; Valid and Check are bound to it.

package lb

import "github.com/singletable/singletable/table"

// UserStatus is a user's status (v2 and core).
type UserStatus string

// The UserStatus values the documents list.
const (
	UserActive    UserStatus = "active"
	UserInactive  UserStatus = "inactive"
	UserSuspended UserStatus = "suspended"
)

// UserStatuses are the UserStatus values the documents list.
var UserStatuses = table.NewEnum("status", UserActive, UserInactive, UserSuspended)

// Valid reports whether v is one of UserStatuses (a patch is checked with it).
func (v UserStatus) Valid() bool { return UserStatuses.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v UserStatus) Check(field string) error { return UserStatuses.CheckField(field, v) }

// UserRole is a user's global role (v2).
type UserRole string

// The UserRole values the documents list.
const (
	UserRoleAdmin    UserRole = "admin"
	UserRoleUser     UserRole = "user"
	UserRoleReadonly UserRole = "readonly"
)

// UserRoles are the UserRole values the documents list.
var UserRoles = table.NewEnum("role", UserRoleAdmin, UserRoleUser, UserRoleReadonly)

// Valid reports whether v is one of UserRoles (a patch is checked with it).
func (v UserRole) Valid() bool { return UserRoles.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v UserRole) Check(field string) error { return UserRoles.CheckField(field, v) }

// AccountType is an account's place in the hierarchy.
type AccountType string

// The AccountType values the documents list.
const (
	AccountConglomerate AccountType = "conglomerate"
	AccountSubsidiary   AccountType = "subsidiary"
	AccountDivision     AccountType = "division"
	AccountLocation     AccountType = "location"
)

// AccountTypes are the AccountType values the documents list.
var AccountTypes = table.NewEnum("accountType", AccountConglomerate, AccountSubsidiary, AccountDivision, AccountLocation)

// Valid reports whether v is one of AccountTypes (a patch is checked with it).
func (v AccountType) Valid() bool { return AccountTypes.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v AccountType) Check(field string) error { return AccountTypes.CheckField(field, v) }

// AccountStatus is an account's status (v2's and core's values).
type AccountStatus string

// The AccountStatus values the documents list.
const (
	AccountActive     AccountStatus = "active"
	AccountInactive   AccountStatus = "inactive"
	AccountSuspended  AccountStatus = "suspended"
	AccountTerminated AccountStatus = "terminated"
)

// AccountStatuses are the AccountStatus values the documents list.
var AccountStatuses = table.NewEnum("status", AccountActive, AccountInactive, AccountSuspended, AccountTerminated)

// Valid reports whether v is one of AccountStatuses (a patch is checked with it).
func (v AccountStatus) Valid() bool { return AccountStatuses.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v AccountStatus) Check(field string) error { return AccountStatuses.CheckField(field, v) }

// PlanType is a subscription plan tier (account plan, billing planType).
type PlanType string

// The PlanType values the documents list.
const (
	PlanFree         PlanType = "free"
	PlanStarter      PlanType = "starter"
	PlanProfessional PlanType = "professional"
	PlanEnterprise   PlanType = "enterprise"
)

// PlanTypes are the PlanType values the documents list.
var PlanTypes = table.NewEnum("plan", PlanFree, PlanStarter, PlanProfessional, PlanEnterprise)

// Valid reports whether v is one of PlanTypes (a patch is checked with it).
func (v PlanType) Valid() bool { return PlanTypes.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v PlanType) Check(field string) error { return PlanTypes.CheckField(field, v) }

// MemberRole is a user's role in an account (v2's and core's values).
type MemberRole string

// The MemberRole values the documents list.
const (
	MemberOwner    MemberRole = "owner"
	MemberAdmin    MemberRole = "admin"
	MemberManager  MemberRole = "manager"
	MemberMember   MemberRole = "member"
	MemberReadonly MemberRole = "readonly"
	MemberViewer   MemberRole = "viewer"
)

// MemberRoles are the MemberRole values the documents list.
var MemberRoles = table.NewEnum("role", MemberOwner, MemberAdmin, MemberManager, MemberMember, MemberReadonly, MemberViewer)

// Valid reports whether v is one of MemberRoles (a patch is checked with it).
func (v MemberRole) Valid() bool { return MemberRoles.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v MemberRole) Check(field string) error { return MemberRoles.CheckField(field, v) }

// MemberStatus is a membership's status.
type MemberStatus string

// The MemberStatus values the documents list.
const (
	MemberActive    MemberStatus = "active"
	MemberPending   MemberStatus = "pending"
	MemberSuspended MemberStatus = "suspended"
	// MemberInactive is a status of ListBackup's own code (Inactive).
	MemberInactive MemberStatus = "inactive"
)

// MemberStatuses are the MemberStatus values the documents list.
var MemberStatuses = table.NewEnum("status", MemberActive, MemberPending, MemberSuspended, MemberInactive)

// Valid reports whether v is one of MemberStatuses (a patch is checked with it).
func (v MemberStatus) Valid() bool { return MemberStatuses.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v MemberStatus) Check(field string) error { return MemberStatuses.CheckField(field, v) }

// TeamRole is a team member's role.
type TeamRole string

// The TeamRole values the documents list.
const (
	TeamRoleLead   TeamRole = "lead"
	TeamRoleMember TeamRole = "member"
)

// TeamRoles are the TeamRole values the documents list.
var TeamRoles = table.NewEnum("role", TeamRoleLead, TeamRoleMember)

// Valid reports whether v is one of TeamRoles (a patch is checked with it).
func (v TeamRole) Valid() bool { return TeamRoles.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v TeamRole) Check(field string) error { return TeamRoles.CheckField(field, v) }

// Platform is an integrated platform.
type Platform string

// The Platform values the documents list.
const (
	PlatformKeap           Platform = "keap"
	PlatformStripe         Platform = "stripe"
	PlatformGoHighLevel    Platform = "gohighlevel"
	PlatformHubSpot        Platform = "hubspot"
	PlatformShopify        Platform = "shopify"
	PlatformQuickBooks     Platform = "quickbooks"
	PlatformSalesforce     Platform = "salesforce"
	PlatformMailchimp      Platform = "mailchimp"
	PlatformActiveCampaign Platform = "activecampaign"
	PlatformZendesk        Platform = "zendesk"
	PlatformPipedrive      Platform = "pipedrive"
	PlatformGoogle         Platform = "google"
)

// Platforms are the Platform values the documents list.
var Platforms = table.NewEnum("platform", PlatformKeap, PlatformStripe, PlatformGoHighLevel, PlatformHubSpot, PlatformShopify, PlatformQuickBooks, PlatformSalesforce, PlatformMailchimp, PlatformActiveCampaign, PlatformZendesk, PlatformPipedrive, PlatformGoogle)

// Valid reports whether v is one of Platforms (a patch is checked with it).
func (v Platform) Valid() bool { return Platforms.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v Platform) Check(field string) error { return Platforms.CheckField(field, v) }

// ConnectionType is how a source or connection authenticates (v2 apikey, core api_key).
type ConnectionType string

// The ConnectionType values the documents list.
const (
	ConnOAuth      ConnectionType = "oauth"
	ConnAPIKey     ConnectionType = "apikey"
	ConnAPIKeyCore ConnectionType = "api_key"
	ConnWebhook    ConnectionType = "webhook"
)

// ConnectionTypes are the ConnectionType values the documents list.
var ConnectionTypes = table.NewEnum("connectionType", ConnOAuth, ConnAPIKey, ConnAPIKeyCore, ConnWebhook)

// Valid reports whether v is one of ConnectionTypes (a patch is checked with it).
func (v ConnectionType) Valid() bool { return ConnectionTypes.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v ConnectionType) Check(field string) error { return ConnectionTypes.CheckField(field, v) }

// SourceStatus is a source's status.
type SourceStatus string

// The SourceStatus values the documents list.
const (
	SourceActive       SourceStatus = "active"
	SourcePaused       SourceStatus = "paused"
	SourceError        SourceStatus = "error"
	SourceDisconnected SourceStatus = "disconnected"
)

// SourceStatuses are the SourceStatus values the documents list.
var SourceStatuses = table.NewEnum("status", SourceActive, SourcePaused, SourceError, SourceDisconnected)

// Valid reports whether v is one of SourceStatuses (a patch is checked with it).
func (v SourceStatus) Valid() bool { return SourceStatuses.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v SourceStatus) Check(field string) error { return SourceStatuses.CheckField(field, v) }

// SyncInterval is how often a source syncs.
type SyncInterval string

// The SyncInterval values the documents list.
const (
	IntervalDaily    SyncInterval = "daily"
	IntervalHourly   SyncInterval = "hourly"
	IntervalRealtime SyncInterval = "realtime"
)

// SyncIntervals are the SyncInterval values the documents list.
var SyncIntervals = table.NewEnum("config.syncInterval", IntervalDaily, IntervalHourly, IntervalRealtime)

// Valid reports whether v is one of SyncIntervals (a patch is checked with it).
func (v SyncInterval) Valid() bool { return SyncIntervals.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v SyncInterval) Check(field string) error { return SyncIntervals.CheckField(field, v) }

// SyncState is a source's sync state (v2's values and core's syncStatus values).
type SyncState string

// The SyncState values the documents list.
const (
	SyncIdle       SyncState = "idle"
	SyncSyncing    SyncState = "syncing"
	SyncError      SyncState = "error"
	SyncSuccess    SyncState = "success"
	SyncFailed     SyncState = "failed"
	SyncInProgress SyncState = "in_progress"
)

// SyncStates are the SyncState values the documents list.
var SyncStates = table.NewEnum("syncStatus.state", SyncIdle, SyncSyncing, SyncError, SyncSuccess, SyncFailed, SyncInProgress)

// Valid reports whether v is one of SyncStates (a patch is checked with it).
func (v SyncState) Valid() bool { return SyncStates.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v SyncState) Check(field string) error { return SyncStates.CheckField(field, v) }

// ResourceType is the kind of resource an activity or tag concerns.
type ResourceType string

// The ResourceType values the documents list.
const (
	ResSource       ResourceType = "source"
	ResUser         ResourceType = "user"
	ResAccount      ResourceType = "account"
	ResJob          ResourceType = "job"
	ResConnection   ResourceType = "connection"
	ResTeam         ResourceType = "team"
	ResTag          ResourceType = "tag"
	ResNotification ResourceType = "notification"
	ResWebhook      ResourceType = "webhook"
	ResAPIKey       ResourceType = "apikey"
	ResSchedule     ResourceType = "schedule"
	ResSync         ResourceType = "sync"
	ResBilling      ResourceType = "billing"
)

// ResourceTypes are the ResourceType values the documents list.
var ResourceTypes = table.NewEnum("resourceType", ResSource, ResUser, ResAccount, ResJob, ResConnection, ResTeam, ResTag, ResNotification, ResWebhook, ResAPIKey, ResSchedule, ResSync, ResBilling)

// Valid reports whether v is one of ResourceTypes (a patch is checked with it).
func (v ResourceType) Valid() bool { return ResourceTypes.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v ResourceType) Check(field string) error { return ResourceTypes.CheckField(field, v) }

// Action is what an activity did.
type Action string

// The Action values the documents list.
const (
	ActionCreate     Action = "create"
	ActionUpdate     Action = "update"
	ActionDelete     Action = "delete"
	ActionSync       Action = "sync"
	ActionLogin      Action = "login"
	ActionLogout     Action = "logout"
	ActionRead       Action = "read"
	ActionExport     Action = "export"
	ActionImport     Action = "import"
	ActionConnect    Action = "connect"
	ActionDisconnect Action = "disconnect"
	ActionRevoke     Action = "revoke"
)

// Actions are the Action values the documents list.
var Actions = table.NewEnum("action", ActionCreate, ActionUpdate, ActionDelete, ActionSync, ActionLogin, ActionLogout, ActionRead, ActionExport, ActionImport, ActionConnect, ActionDisconnect, ActionRevoke)

// Valid reports whether v is one of Actions (a patch is checked with it).
func (v Action) Valid() bool { return Actions.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v Action) Check(field string) error { return Actions.CheckField(field, v) }

// JobType is a job's kind.
type JobType string

// The JobType values the documents list.
const (
	JobSync      JobType = "sync"
	JobExport    JobType = "export"
	JobImport    JobType = "import"
	JobMigration JobType = "migration"
	JobBackup    JobType = "backup"
	// The further kinds ListBackup's own code names (internal/types Job).
	JobAnalytics   JobType = "analytics"
	JobMaintenance JobType = "maintenance"
	JobAlert       JobType = "alert"
)

// JobTypes are the JobType values the documents list.
var JobTypes = table.NewEnum("jobType", JobSync, JobExport, JobImport, JobMigration, JobBackup, JobAnalytics, JobMaintenance, JobAlert)

// Valid reports whether v is one of JobTypes (a patch is checked with it).
func (v JobType) Valid() bool { return JobTypes.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v JobType) Check(field string) error { return JobTypes.CheckField(field, v) }

// JobStatus is a job's status.
type JobStatus string

// The JobStatus values the documents list.
const (
	JobPending   JobStatus = "pending"
	JobRunning   JobStatus = "running"
	JobCompleted JobStatus = "completed"
	JobFailed    JobStatus = "failed"
	JobCancelled JobStatus = "cancelled"
	// JobCreated is the status ListBackup's own code gives a new job
	// (jobs/create), before it is queued.
	JobCreated JobStatus = "created"
)

// JobStatuses are the JobStatus values the documents list.
var JobStatuses = table.NewEnum("status", JobPending, JobRunning, JobCompleted, JobFailed, JobCancelled, JobCreated)

// Valid reports whether v is one of JobStatuses (a patch is checked with it).
func (v JobStatus) Valid() bool { return JobStatuses.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v JobStatus) Check(field string) error { return JobStatuses.CheckField(field, v) }

// Priority is a job's or notification's priority.
type Priority string

// The Priority values the documents list.
const (
	PriorityLow      Priority = "low"
	PriorityMedium   Priority = "medium"
	PriorityHigh     Priority = "high"
	PriorityCritical Priority = "critical"
)

// Priorities are the Priority values the documents list.
var Priorities = table.NewEnum("priority", PriorityLow, PriorityMedium, PriorityHigh, PriorityCritical)

// Valid reports whether v is one of Priorities (a patch is checked with it).
func (v Priority) Valid() bool { return Priorities.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v Priority) Check(field string) error { return Priorities.CheckField(field, v) }

// ConnectionStatus is a connection's status.
type ConnectionStatus string

// The ConnectionStatus values the documents list.
const (
	ConnectionActive  ConnectionStatus = "active"
	ConnectionExpired ConnectionStatus = "expired"
	ConnectionRevoked ConnectionStatus = "revoked"
	ConnectionError   ConnectionStatus = "error"
)

// ConnectionStatuses are the ConnectionStatus values the documents list.
var ConnectionStatuses = table.NewEnum("status", ConnectionActive, ConnectionExpired, ConnectionRevoked, ConnectionError)

// Valid reports whether v is one of ConnectionStatuses (a patch is checked with it).
func (v ConnectionStatus) Valid() bool { return ConnectionStatuses.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v ConnectionStatus) Check(field string) error { return ConnectionStatuses.CheckField(field, v) }

// NotificationType is a notification's channel (v2) or severity (core).
type NotificationType string

// The NotificationType values the documents list.
const (
	NotifyEmail   NotificationType = "email"
	NotifySMS     NotificationType = "sms"
	NotifyPush    NotificationType = "push"
	NotifyInApp   NotificationType = "in-app"
	NotifyInfo    NotificationType = "info"
	NotifyWarning NotificationType = "warning"
	NotifyError   NotificationType = "error"
	NotifySuccess NotificationType = "success"
)

// NotificationTypes are the NotificationType values the documents list.
var NotificationTypes = table.NewEnum("type", NotifyEmail, NotifySMS, NotifyPush, NotifyInApp, NotifyInfo, NotifyWarning, NotifyError, NotifySuccess)

// Valid reports whether v is one of NotificationTypes (a patch is checked with it).
func (v NotificationType) Valid() bool { return NotificationTypes.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v NotificationType) Check(field string) error { return NotificationTypes.CheckField(field, v) }

// NotificationCategory is a notification's category.
type NotificationCategory string

// The NotificationCategory values the documents list.
const (
	CategorySystem   NotificationCategory = "system"
	CategorySource   NotificationCategory = "source"
	CategoryJob      NotificationCategory = "job"
	CategoryBilling  NotificationCategory = "billing"
	CategorySecurity NotificationCategory = "security"
)

// NotificationCategories are the NotificationCategory values the documents list.
var NotificationCategories = table.NewEnum("category", CategorySystem, CategorySource, CategoryJob, CategoryBilling, CategorySecurity)

// Valid reports whether v is one of NotificationCategories (a patch is checked with it).
func (v NotificationCategory) Valid() bool { return NotificationCategories.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v NotificationCategory) Check(field string) error {
	return NotificationCategories.CheckField(field, v)
}

// NotificationStatus is a notification's delivery status.
type NotificationStatus string

// The NotificationStatus values the documents list.
const (
	NotificationPending   NotificationStatus = "pending"
	NotificationSent      NotificationStatus = "sent"
	NotificationDelivered NotificationStatus = "delivered"
	NotificationFailed    NotificationStatus = "failed"
	NotificationRead      NotificationStatus = "read"
)

// NotificationStatuses are the NotificationStatus values the documents list.
var NotificationStatuses = table.NewEnum("status", NotificationPending, NotificationSent, NotificationDelivered, NotificationFailed, NotificationRead)

// Valid reports whether v is one of NotificationStatuses (a patch is checked with it).
func (v NotificationStatus) Valid() bool { return NotificationStatuses.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v NotificationStatus) Check(field string) error {
	return NotificationStatuses.CheckField(field, v)
}

// ScheduleType is a sync schedule's recurrence.
type ScheduleType string

// The ScheduleType values the documents list.
const (
	ScheduleHourly  ScheduleType = "hourly"
	ScheduleDaily   ScheduleType = "daily"
	ScheduleWeekly  ScheduleType = "weekly"
	ScheduleMonthly ScheduleType = "monthly"
	ScheduleCustom  ScheduleType = "custom"
)

// ScheduleTypes are the ScheduleType values the documents list.
var ScheduleTypes = table.NewEnum("scheduleType", ScheduleHourly, ScheduleDaily, ScheduleWeekly, ScheduleMonthly, ScheduleCustom)

// Valid reports whether v is one of ScheduleTypes (a patch is checked with it).
func (v ScheduleType) Valid() bool { return ScheduleTypes.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v ScheduleType) Check(field string) error { return ScheduleTypes.CheckField(field, v) }

// RunStatus is a sync run's status.
type RunStatus string

// The RunStatus values the documents list.
const (
	RunPending   RunStatus = "pending"
	RunRunning   RunStatus = "running"
	RunCompleted RunStatus = "completed"
	RunFailed    RunStatus = "failed"
)

// RunStatuses are the RunStatus values the documents list.
var RunStatuses = table.NewEnum("status", RunPending, RunRunning, RunCompleted, RunFailed)

// Valid reports whether v is one of RunStatuses (a patch is checked with it).
func (v RunStatus) Valid() bool { return RunStatuses.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v RunStatus) Check(field string) error { return RunStatuses.CheckField(field, v) }

// APIKeyStatus is an API key's status.
type APIKeyStatus string

// The APIKeyStatus values the documents list.
const (
	KeyActive  APIKeyStatus = "active"
	KeyRevoked APIKeyStatus = "revoked"
	KeyExpired APIKeyStatus = "expired"
)

// APIKeyStatuses are the APIKeyStatus values the documents list.
var APIKeyStatuses = table.NewEnum("status", KeyActive, KeyRevoked, KeyExpired)

// Valid reports whether v is one of APIKeyStatuses (a patch is checked with it).
func (v APIKeyStatus) Valid() bool { return APIKeyStatuses.Valid(v) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v APIKeyStatus) Check(field string) error { return APIKeyStatuses.CheckField(field, v) }
