// Package listbackup holds ListBackup's domain: the plain Go structs of
// its 19 entities (User, Account, Membership, Team, Source, Activity, Job,
// Connection, OAuthState, OAuthToken, RefreshToken, Tag, Notification,
// SyncSchedule, SyncRun, APIKey, Webhook, UsageMetrics, BillingPlan), their
// typed IDs and enums, their validation (each Validate returns a
// *table.ValidationError naming the field), and the key builders and
// parsers of the single-table mapping (keys.go).
//
// The attributes follow the ListBackup v2 schema document
// (specs/listbackup-v2.md, canonical) plus the additions of the core
// document (specs/listbackup-core.md); where the two give one attribute
// different types, v2 wins and the field's comment says so. The mapping
// of these entities onto one table, and every access pattern (catalog
// LB-1..LB-68), live in package query/listbackup, whose package
// documentation holds the mapping table.
//
// Nothing here talks to DynamoDB: the package only describes and checks
// data, so it can be used by any code that handles ListBackup items.
package lb
