// Enumerations: one typed string per value list of the documents.

package lb

import (
	"slices"

	"github.com/singletable/singletable/table"
)

// UserStatus is a user's status (v2 and core).
type UserStatus string

// The UserStatus values the documents list.
const (
	UserActive    UserStatus = "active"
	UserInactive  UserStatus = "inactive"
	UserSuspended UserStatus = "suspended"
)

// UserStatuses returns every UserStatus.
func UserStatuses() []UserStatus { return []UserStatus{UserActive, UserInactive, UserSuspended} }

// Valid reports whether v is a UserStatus the documents list.
func (v UserStatus) Valid() bool { return slices.Contains(UserStatuses(), v) }

// ParseUserStatus returns s as a UserStatus, or a *table.ValidationError for field status.
func ParseUserStatus(s string) (UserStatus, error) {
	return table.ParseEnum("status", s, UserStatuses()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v UserStatus) Check(field string) error { return checkEnum(field, v, UserStatuses()) }

// UserRole is a user's global role (v2).
type UserRole string

// The UserRole values the documents list.
const (
	UserRoleAdmin    UserRole = "admin"
	UserRoleUser     UserRole = "user"
	UserRoleReadonly UserRole = "readonly"
)

// UserRoles returns every UserRole.
func UserRoles() []UserRole { return []UserRole{UserRoleAdmin, UserRoleUser, UserRoleReadonly} }

// Valid reports whether v is a UserRole the documents list.
func (v UserRole) Valid() bool { return slices.Contains(UserRoles(), v) }

// ParseUserRole returns s as a UserRole, or a *table.ValidationError for field role.
func ParseUserRole(s string) (UserRole, error) { return table.ParseEnum("role", s, UserRoles()...) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v UserRole) Check(field string) error { return checkEnum(field, v, UserRoles()) }

// AccountType is an account's place in the hierarchy.
type AccountType string

// The AccountType values the documents list.
const (
	AccountConglomerate AccountType = "conglomerate"
	AccountSubsidiary   AccountType = "subsidiary"
	AccountDivision     AccountType = "division"
	AccountLocation     AccountType = "location"
)

// AccountTypes returns every AccountType.
func AccountTypes() []AccountType {
	return []AccountType{AccountConglomerate, AccountSubsidiary, AccountDivision, AccountLocation}
}

// Valid reports whether v is a AccountType the documents list.
func (v AccountType) Valid() bool { return slices.Contains(AccountTypes(), v) }

// ParseAccountType returns s as a AccountType, or a *table.ValidationError for field accountType.
func ParseAccountType(s string) (AccountType, error) {
	return table.ParseEnum("accountType", s, AccountTypes()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v AccountType) Check(field string) error { return checkEnum(field, v, AccountTypes()) }

// AccountStatus is an account's status (v2's and core's values).
type AccountStatus string

// The AccountStatus values the documents list.
const (
	AccountActive     AccountStatus = "active"
	AccountInactive   AccountStatus = "inactive"
	AccountSuspended  AccountStatus = "suspended"
	AccountTerminated AccountStatus = "terminated"
)

// AccountStatuses returns every AccountStatus.
func AccountStatuses() []AccountStatus {
	return []AccountStatus{AccountActive, AccountInactive, AccountSuspended, AccountTerminated}
}

// Valid reports whether v is a AccountStatus the documents list.
func (v AccountStatus) Valid() bool { return slices.Contains(AccountStatuses(), v) }

// ParseAccountStatus returns s as a AccountStatus, or a *table.ValidationError for field status.
func ParseAccountStatus(s string) (AccountStatus, error) {
	return table.ParseEnum("status", s, AccountStatuses()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v AccountStatus) Check(field string) error { return checkEnum(field, v, AccountStatuses()) }

// PlanType is a subscription plan tier (account plan, billing planType).
type PlanType string

// The PlanType values the documents list.
const (
	PlanFree         PlanType = "free"
	PlanStarter      PlanType = "starter"
	PlanProfessional PlanType = "professional"
	PlanEnterprise   PlanType = "enterprise"
)

// PlanTypes returns every PlanType.
func PlanTypes() []PlanType {
	return []PlanType{PlanFree, PlanStarter, PlanProfessional, PlanEnterprise}
}

// Valid reports whether v is a PlanType the documents list.
func (v PlanType) Valid() bool { return slices.Contains(PlanTypes(), v) }

// ParsePlanType returns s as a PlanType, or a *table.ValidationError for field plan.
func ParsePlanType(s string) (PlanType, error) { return table.ParseEnum("plan", s, PlanTypes()...) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v PlanType) Check(field string) error { return checkEnum(field, v, PlanTypes()) }

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

// MemberRoles returns every MemberRole.
func MemberRoles() []MemberRole {
	return []MemberRole{MemberOwner, MemberAdmin, MemberManager, MemberMember, MemberReadonly, MemberViewer}
}

// Valid reports whether v is a MemberRole the documents list.
func (v MemberRole) Valid() bool { return slices.Contains(MemberRoles(), v) }

// ParseMemberRole returns s as a MemberRole, or a *table.ValidationError for field role.
func ParseMemberRole(s string) (MemberRole, error) {
	return table.ParseEnum("role", s, MemberRoles()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v MemberRole) Check(field string) error { return checkEnum(field, v, MemberRoles()) }

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

// MemberStatuses returns every MemberStatus.
func MemberStatuses() []MemberStatus {
	return []MemberStatus{MemberActive, MemberPending, MemberSuspended, MemberInactive}
}

// Valid reports whether v is a MemberStatus the documents list.
func (v MemberStatus) Valid() bool { return slices.Contains(MemberStatuses(), v) }

// ParseMemberStatus returns s as a MemberStatus, or a *table.ValidationError for field status.
func ParseMemberStatus(s string) (MemberStatus, error) {
	return table.ParseEnum("status", s, MemberStatuses()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v MemberStatus) Check(field string) error { return checkEnum(field, v, MemberStatuses()) }

// TeamRole is a team member's role.
type TeamRole string

// The TeamRole values the documents list.
const (
	TeamRoleLead   TeamRole = "lead"
	TeamRoleMember TeamRole = "member"
)

// TeamRoles returns every TeamRole.
func TeamRoles() []TeamRole { return []TeamRole{TeamRoleLead, TeamRoleMember} }

// Valid reports whether v is a TeamRole the documents list.
func (v TeamRole) Valid() bool { return slices.Contains(TeamRoles(), v) }

// ParseTeamRole returns s as a TeamRole, or a *table.ValidationError for field role.
func ParseTeamRole(s string) (TeamRole, error) { return table.ParseEnum("role", s, TeamRoles()...) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v TeamRole) Check(field string) error { return checkEnum(field, v, TeamRoles()) }

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

// Platforms returns every Platform.
func Platforms() []Platform {
	return []Platform{PlatformKeap, PlatformStripe, PlatformGoHighLevel, PlatformHubSpot, PlatformShopify, PlatformQuickBooks, PlatformSalesforce, PlatformMailchimp, PlatformActiveCampaign, PlatformZendesk, PlatformPipedrive, PlatformGoogle}
}

// Valid reports whether v is a Platform the documents list.
func (v Platform) Valid() bool { return slices.Contains(Platforms(), v) }

// ParsePlatform returns s as a Platform, or a *table.ValidationError for field platform.
func ParsePlatform(s string) (Platform, error) { return table.ParseEnum("platform", s, Platforms()...) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v Platform) Check(field string) error { return checkEnum(field, v, Platforms()) }

// ConnectionType is how a source or connection authenticates (v2 apikey, core api_key).
type ConnectionType string

// The ConnectionType values the documents list.
const (
	ConnOAuth      ConnectionType = "oauth"
	ConnAPIKey     ConnectionType = "apikey"
	ConnAPIKeyCore ConnectionType = "api_key"
	ConnWebhook    ConnectionType = "webhook"
)

// ConnectionTypes returns every ConnectionType.
func ConnectionTypes() []ConnectionType {
	return []ConnectionType{ConnOAuth, ConnAPIKey, ConnAPIKeyCore, ConnWebhook}
}

// Valid reports whether v is a ConnectionType the documents list.
func (v ConnectionType) Valid() bool { return slices.Contains(ConnectionTypes(), v) }

// ParseConnectionType returns s as a ConnectionType, or a *table.ValidationError for field connectionType.
func ParseConnectionType(s string) (ConnectionType, error) {
	return table.ParseEnum("connectionType", s, ConnectionTypes()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v ConnectionType) Check(field string) error { return checkEnum(field, v, ConnectionTypes()) }

// SourceStatus is a source's status.
type SourceStatus string

// The SourceStatus values the documents list.
const (
	SourceActive       SourceStatus = "active"
	SourcePaused       SourceStatus = "paused"
	SourceError        SourceStatus = "error"
	SourceDisconnected SourceStatus = "disconnected"
)

// SourceStatuses returns every SourceStatus.
func SourceStatuses() []SourceStatus {
	return []SourceStatus{SourceActive, SourcePaused, SourceError, SourceDisconnected}
}

// Valid reports whether v is a SourceStatus the documents list.
func (v SourceStatus) Valid() bool { return slices.Contains(SourceStatuses(), v) }

// ParseSourceStatus returns s as a SourceStatus, or a *table.ValidationError for field status.
func ParseSourceStatus(s string) (SourceStatus, error) {
	return table.ParseEnum("status", s, SourceStatuses()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v SourceStatus) Check(field string) error { return checkEnum(field, v, SourceStatuses()) }

// SyncInterval is how often a source syncs.
type SyncInterval string

// The SyncInterval values the documents list.
const (
	IntervalDaily    SyncInterval = "daily"
	IntervalHourly   SyncInterval = "hourly"
	IntervalRealtime SyncInterval = "realtime"
)

// SyncIntervals returns every SyncInterval.
func SyncIntervals() []SyncInterval {
	return []SyncInterval{IntervalDaily, IntervalHourly, IntervalRealtime}
}

// Valid reports whether v is a SyncInterval the documents list.
func (v SyncInterval) Valid() bool { return slices.Contains(SyncIntervals(), v) }

// ParseSyncInterval returns s as a SyncInterval, or a *table.ValidationError for field config.syncInterval.
func ParseSyncInterval(s string) (SyncInterval, error) {
	return table.ParseEnum("config.syncInterval", s, SyncIntervals()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v SyncInterval) Check(field string) error { return checkEnum(field, v, SyncIntervals()) }

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

// SyncStates returns every SyncState.
func SyncStates() []SyncState {
	return []SyncState{SyncIdle, SyncSyncing, SyncError, SyncSuccess, SyncFailed, SyncInProgress}
}

// Valid reports whether v is a SyncState the documents list.
func (v SyncState) Valid() bool { return slices.Contains(SyncStates(), v) }

// ParseSyncState returns s as a SyncState, or a *table.ValidationError for field syncStatus.state.
func ParseSyncState(s string) (SyncState, error) {
	return table.ParseEnum("syncStatus.state", s, SyncStates()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v SyncState) Check(field string) error { return checkEnum(field, v, SyncStates()) }

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

// ResourceTypes returns every ResourceType.
func ResourceTypes() []ResourceType {
	return []ResourceType{ResSource, ResUser, ResAccount, ResJob, ResConnection, ResTeam, ResTag, ResNotification, ResWebhook, ResAPIKey, ResSchedule, ResSync, ResBilling}
}

// Valid reports whether v is a ResourceType the documents list.
func (v ResourceType) Valid() bool { return slices.Contains(ResourceTypes(), v) }

// ParseResourceType returns s as a ResourceType, or a *table.ValidationError for field resourceType.
func ParseResourceType(s string) (ResourceType, error) {
	return table.ParseEnum("resourceType", s, ResourceTypes()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v ResourceType) Check(field string) error { return checkEnum(field, v, ResourceTypes()) }

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

// Actions returns every Action.
func Actions() []Action {
	return []Action{ActionCreate, ActionUpdate, ActionDelete, ActionSync, ActionLogin, ActionLogout, ActionRead, ActionExport, ActionImport, ActionConnect, ActionDisconnect, ActionRevoke}
}

// Valid reports whether v is a Action the documents list.
func (v Action) Valid() bool { return slices.Contains(Actions(), v) }

// ParseAction returns s as a Action, or a *table.ValidationError for field action.
func ParseAction(s string) (Action, error) { return table.ParseEnum("action", s, Actions()...) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v Action) Check(field string) error { return checkEnum(field, v, Actions()) }

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

// JobTypes returns every JobType.
func JobTypes() []JobType {
	return []JobType{JobSync, JobExport, JobImport, JobMigration, JobBackup, JobAnalytics, JobMaintenance, JobAlert}
}

// Valid reports whether v is a JobType the documents list.
func (v JobType) Valid() bool { return slices.Contains(JobTypes(), v) }

// ParseJobType returns s as a JobType, or a *table.ValidationError for field jobType.
func ParseJobType(s string) (JobType, error) { return table.ParseEnum("jobType", s, JobTypes()...) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v JobType) Check(field string) error { return checkEnum(field, v, JobTypes()) }

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

// JobStatuses returns every JobStatus.
func JobStatuses() []JobStatus {
	return []JobStatus{JobPending, JobRunning, JobCompleted, JobFailed, JobCancelled, JobCreated}
}

// Valid reports whether v is a JobStatus the documents list.
func (v JobStatus) Valid() bool { return slices.Contains(JobStatuses(), v) }

// ParseJobStatus returns s as a JobStatus, or a *table.ValidationError for field status.
func ParseJobStatus(s string) (JobStatus, error) {
	return table.ParseEnum("status", s, JobStatuses()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v JobStatus) Check(field string) error { return checkEnum(field, v, JobStatuses()) }

// Priority is a job's or notification's priority.
type Priority string

// The Priority values the documents list.
const (
	PriorityLow      Priority = "low"
	PriorityMedium   Priority = "medium"
	PriorityHigh     Priority = "high"
	PriorityCritical Priority = "critical"
)

// Prioritys returns every Priority.
func Prioritys() []Priority {
	return []Priority{PriorityLow, PriorityMedium, PriorityHigh, PriorityCritical}
}

// Valid reports whether v is a Priority the documents list.
func (v Priority) Valid() bool { return slices.Contains(Prioritys(), v) }

// ParsePriority returns s as a Priority, or a *table.ValidationError for field priority.
func ParsePriority(s string) (Priority, error) { return table.ParseEnum("priority", s, Prioritys()...) }

// Check returns a *table.ValidationError naming field unless v is valid.
func (v Priority) Check(field string) error { return checkEnum(field, v, Prioritys()) }

// ConnectionStatus is a connection's status.
type ConnectionStatus string

// The ConnectionStatus values the documents list.
const (
	ConnectionActive  ConnectionStatus = "active"
	ConnectionExpired ConnectionStatus = "expired"
	ConnectionRevoked ConnectionStatus = "revoked"
	ConnectionError   ConnectionStatus = "error"
)

// ConnectionStatuses returns every ConnectionStatus.
func ConnectionStatuses() []ConnectionStatus {
	return []ConnectionStatus{ConnectionActive, ConnectionExpired, ConnectionRevoked, ConnectionError}
}

// Valid reports whether v is a ConnectionStatus the documents list.
func (v ConnectionStatus) Valid() bool { return slices.Contains(ConnectionStatuses(), v) }

// ParseConnectionStatus returns s as a ConnectionStatus, or a *table.ValidationError for field status.
func ParseConnectionStatus(s string) (ConnectionStatus, error) {
	return table.ParseEnum("status", s, ConnectionStatuses()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v ConnectionStatus) Check(field string) error { return checkEnum(field, v, ConnectionStatuses()) }

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

// NotificationTypes returns every NotificationType.
func NotificationTypes() []NotificationType {
	return []NotificationType{NotifyEmail, NotifySMS, NotifyPush, NotifyInApp, NotifyInfo, NotifyWarning, NotifyError, NotifySuccess}
}

// Valid reports whether v is a NotificationType the documents list.
func (v NotificationType) Valid() bool { return slices.Contains(NotificationTypes(), v) }

// ParseNotificationType returns s as a NotificationType, or a *table.ValidationError for field type.
func ParseNotificationType(s string) (NotificationType, error) {
	return table.ParseEnum("type", s, NotificationTypes()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v NotificationType) Check(field string) error { return checkEnum(field, v, NotificationTypes()) }

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

// NotificationCategorys returns every NotificationCategory.
func NotificationCategorys() []NotificationCategory {
	return []NotificationCategory{CategorySystem, CategorySource, CategoryJob, CategoryBilling, CategorySecurity}
}

// Valid reports whether v is a NotificationCategory the documents list.
func (v NotificationCategory) Valid() bool { return slices.Contains(NotificationCategorys(), v) }

// ParseNotificationCategory returns s as a NotificationCategory, or a *table.ValidationError for field category.
func ParseNotificationCategory(s string) (NotificationCategory, error) {
	return table.ParseEnum("category", s, NotificationCategorys()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v NotificationCategory) Check(field string) error {
	return checkEnum(field, v, NotificationCategorys())
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

// NotificationStatuses returns every NotificationStatus.
func NotificationStatuses() []NotificationStatus {
	return []NotificationStatus{NotificationPending, NotificationSent, NotificationDelivered, NotificationFailed, NotificationRead}
}

// Valid reports whether v is a NotificationStatus the documents list.
func (v NotificationStatus) Valid() bool { return slices.Contains(NotificationStatuses(), v) }

// ParseNotificationStatus returns s as a NotificationStatus, or a *table.ValidationError for field status.
func ParseNotificationStatus(s string) (NotificationStatus, error) {
	return table.ParseEnum("status", s, NotificationStatuses()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v NotificationStatus) Check(field string) error {
	return checkEnum(field, v, NotificationStatuses())
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

// ScheduleTypes returns every ScheduleType.
func ScheduleTypes() []ScheduleType {
	return []ScheduleType{ScheduleHourly, ScheduleDaily, ScheduleWeekly, ScheduleMonthly, ScheduleCustom}
}

// Valid reports whether v is a ScheduleType the documents list.
func (v ScheduleType) Valid() bool { return slices.Contains(ScheduleTypes(), v) }

// ParseScheduleType returns s as a ScheduleType, or a *table.ValidationError for field scheduleType.
func ParseScheduleType(s string) (ScheduleType, error) {
	return table.ParseEnum("scheduleType", s, ScheduleTypes()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v ScheduleType) Check(field string) error { return checkEnum(field, v, ScheduleTypes()) }

// RunStatus is a sync run's status.
type RunStatus string

// The RunStatus values the documents list.
const (
	RunPending   RunStatus = "pending"
	RunRunning   RunStatus = "running"
	RunCompleted RunStatus = "completed"
	RunFailed    RunStatus = "failed"
)

// RunStatuses returns every RunStatus.
func RunStatuses() []RunStatus { return []RunStatus{RunPending, RunRunning, RunCompleted, RunFailed} }

// Valid reports whether v is a RunStatus the documents list.
func (v RunStatus) Valid() bool { return slices.Contains(RunStatuses(), v) }

// ParseRunStatus returns s as a RunStatus, or a *table.ValidationError for field status.
func ParseRunStatus(s string) (RunStatus, error) {
	return table.ParseEnum("status", s, RunStatuses()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v RunStatus) Check(field string) error { return checkEnum(field, v, RunStatuses()) }

// APIKeyStatus is an API key's status.
type APIKeyStatus string

// The APIKeyStatus values the documents list.
const (
	KeyActive  APIKeyStatus = "active"
	KeyRevoked APIKeyStatus = "revoked"
	KeyExpired APIKeyStatus = "expired"
)

// APIKeyStatuses returns every APIKeyStatus.
func APIKeyStatuses() []APIKeyStatus { return []APIKeyStatus{KeyActive, KeyRevoked, KeyExpired} }

// Valid reports whether v is a APIKeyStatus the documents list.
func (v APIKeyStatus) Valid() bool { return slices.Contains(APIKeyStatuses(), v) }

// ParseAPIKeyStatus returns s as a APIKeyStatus, or a *table.ValidationError for field status.
func ParseAPIKeyStatus(s string) (APIKeyStatus, error) {
	return table.ParseEnum("status", s, APIKeyStatuses()...)
}

// Check returns a *table.ValidationError naming field unless v is valid.
func (v APIKeyStatus) Check(field string) error { return checkEnum(field, v, APIKeyStatuses()) }

func checkEnum[E ~string](field string, v E, allowed []E) error {
	if _, err := table.ParseEnum(field, string(v), allowed...); err != nil {
		return err
	}
	return nil
}
