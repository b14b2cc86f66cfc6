// Package podcastflow holds the entities of PodcastFlow Pro
// (from its schema document): plain structs whose dynamo tags are the
// document's attribute names, typed IDs and enums that reject unknown
// values, their validation, and the document's key formats.
//
// # Mapping
//
//	entity               PK                        SK                           template
//	UserProfile          USER#{userId}             PROFILE                      UserProfileKeys
//	UserPreferences      USER#{userId}             PREFERENCES                  UserPreferencesKeys
//	OrganizationProfile  ORG#{organizationId}      PROFILE                      OrganizationProfileKeys
//	OrganizationSettings ORG#{organizationId}      SETTINGS                     OrganizationSettingsKeys
//	PlatformSettings     PLATFORM                  SETTINGS                     PlatformSettingsKeys
//	GlobalMetrics        ANALYTICS                 GLOBAL#{date}                GlobalMetricsKeys
//	OrganizationMetrics  ANALYTICS                 ORG#{organizationId}#{date}  OrganizationMetricsKeys
//	BillingRecord        BILLING#{organizationId}  RECORD#{date}                BillingRecordKeys
//	BillingMetrics       BILLING                   METRICS#{date}               BillingMetricsKeys
//
// Keys are built from typed fields through these templates, by the
// entities package query/podcastflow declares on them (table.Entity.Key,
// and its declared access patterns, table.Pattern): no key is built here
// by hand. The GSI keys, and the access patterns each key serves
// (PF-1 ... PF-14), are in package query/podcastflow.
//
// # Fields that live only in the key
//
// The document stores no userId in preferences, no organizationId in
// organization settings and no date in billing records: those values are
// in the key only. [UserPreferences], [OrganizationSettings] and
// [BillingRecord] fill them from PK and SK when decoded, so items written
// by another service in the document's format read back complete.
// Preferences are written with userId, as PodcastFlow's user Lambda writes
// them, so that its GET /preferences (the stored item, as is) answers with
// it for preferences the library wrote.
//
// # Values
//
// Roles, statuses and plans are typed strings; Valid reports whether a
// value is one the document lists, and the Parse functions turn input into
// them or return a *table.ValidationError naming the field. Writes are
// validated; reads are not, so an unexpected value in existing data does
// not make a whole page unreadable. Timestamps are time.Time, stored as
// ISO 8601 (RFC 3339) strings as the document says, to the millisecond
// (createdAt and updatedAt declared as [Stamps]); dates are [Date],
// strictly YYYY-MM-DD.
package pf
