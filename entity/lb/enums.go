// Enumerations: one typed string per value list of the documents, its
// values a table.Enum (the engine checks a field of the type against it;
// Validate checks with table.CheckEnum).

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

// TeamRole is a team member's role.
type TeamRole string

// The TeamRole values the documents list.
const (
	TeamRoleLead   TeamRole = "lead"
	TeamRoleMember TeamRole = "member"
)

// TeamRoles are the TeamRole values the documents list.
var TeamRoles = table.NewEnum("role", TeamRoleLead, TeamRoleMember)

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
