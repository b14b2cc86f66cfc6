package podcastflow

import (
	"time"

	pf "github.com/singletable/singletable/entity/podcastflow"
	"github.com/singletable/singletable/table"
)

// Entity-type names written in the table's entity-type attribute.
const (
	TypeUserProfile          = "UserProfile"
	TypeUserPreferences      = "UserPreferences"
	TypeOrganizationProfile  = "OrganizationProfile"
	TypeOrganizationSettings = "OrganizationSettings"
	TypePlatformSettings     = "PlatformSettings"
	TypeGlobalMetrics        = "GlobalMetrics"
	TypeOrganizationMetrics  = "OrganizationMetrics"
	TypeBillingRecord        = "BillingRecord"
	TypeBillingMetrics       = "BillingMetrics"
)

// uniqueEmail is the unique-value name of user emails.
const uniqueEmail = "email"

// entities are the table bindings of every PodcastFlow entity.
type entities struct {
	t           *table.Table
	users       *table.Entity[pf.UserProfile]
	prefs       *table.Entity[pf.UserPreferences]
	orgs        *table.Entity[pf.OrganizationProfile]
	orgSettings *table.Entity[pf.OrganizationSettings]
	platform    *table.Entity[pf.PlatformSettings]
	globalM     *table.Entity[pf.GlobalMetrics]
	orgM        *table.Entity[pf.OrganizationMetrics]
	billing     *table.Entity[pf.BillingRecord]
	billingM    *table.Entity[pf.BillingMetrics]
}

// stamps keeps createdAt and updatedAt.
func stamps(created, updated *time.Time, now time.Time, isNew bool) {
	now = pf.Stamp(now)
	if created != nil && (isNew || created.IsZero()) {
		*created = now
	}
	if updated != nil {
		*updated = now
	}
}

func newEntities(t *table.Table) *entities {
	return &entities{
		t: t,
		users: table.NewEntity(t, table.Def[pf.UserProfile]{
			Type:     TypeUserProfile,
			Key:      func(u *pf.UserProfile) (table.Key, error) { return pf.UserProfileKey(u.UserID) },
			Indexes:  userIndexes,
			Validate: (*pf.UserProfile).Validate,
			Unique: func(u *pf.UserProfile) []table.Unique {
				return []table.Unique{{Name: uniqueEmail, Value: pf.NormalizeEmail(u.Email)}}
			},
			Touch: func(u *pf.UserProfile, now time.Time, isNew bool) {
				stamps(&u.CreatedAt, &u.UpdatedAt, now, isNew)
			},
			IndexedFields: []string{"userId", "email", "role", "status", "organizationId"},
			Match:         pf.IsUserProfileKey,
		}),
		prefs: table.NewEntity(t, table.Def[pf.UserPreferences]{
			Type:     TypeUserPreferences,
			Key:      func(p *pf.UserPreferences) (table.Key, error) { return pf.UserPreferencesKey(p.UserID) },
			Validate: (*pf.UserPreferences).Validate,
			Touch: func(p *pf.UserPreferences, now time.Time, isNew bool) {
				stamps(nil, &p.UpdatedAt, now, isNew)
			},
			Match: pf.IsUserPreferencesKey,
		}),
		orgs: table.NewEntity(t, table.Def[pf.OrganizationProfile]{
			Type: TypeOrganizationProfile,
			Key: func(o *pf.OrganizationProfile) (table.Key, error) {
				return pf.OrganizationProfileKey(o.OrganizationID)
			},
			Indexes:  orgIndexes,
			Validate: (*pf.OrganizationProfile).Validate,
			Touch: func(o *pf.OrganizationProfile, now time.Time, isNew bool) {
				stamps(&o.CreatedAt, &o.UpdatedAt, now, isNew)
			},
			IndexedFields: []string{"organizationId", "status"},
			Match:         pf.IsOrganizationProfileKey,
		}),
		orgSettings: table.NewEntity(t, table.Def[pf.OrganizationSettings]{
			Type: TypeOrganizationSettings,
			Key: func(s *pf.OrganizationSettings) (table.Key, error) {
				return pf.OrganizationSettingsKey(s.OrganizationID)
			},
			Validate: (*pf.OrganizationSettings).Validate,
			Touch: func(s *pf.OrganizationSettings, now time.Time, isNew bool) {
				stamps(nil, &s.UpdatedAt, now, isNew)
			},
			Match: pf.IsOrganizationSettingsKey,
		}),
		platform: table.NewEntity(t, table.Def[pf.PlatformSettings]{
			Type:     TypePlatformSettings,
			Key:      func(*pf.PlatformSettings) (table.Key, error) { return pf.PlatformSettingsKey(), nil },
			Validate: (*pf.PlatformSettings).Validate,
			Touch: func(s *pf.PlatformSettings, now time.Time, isNew bool) {
				stamps(nil, &s.UpdatedAt, now, isNew)
			},
			Version: func(s *pf.PlatformSettings) *int64 { return &s.Version },
			Match:   func(k table.Key) bool { return k == pf.PlatformSettingsKey() },
		}),
		globalM: table.NewEntity(t, table.Def[pf.GlobalMetrics]{
			Type:     TypeGlobalMetrics,
			Key:      func(m *pf.GlobalMetrics) (table.Key, error) { return pf.GlobalMetricsKey(m.Date) },
			Validate: (*pf.GlobalMetrics).Validate,
			Touch: func(m *pf.GlobalMetrics, now time.Time, isNew bool) {
				stamps(&m.CreatedAt, nil, now, isNew)
			},
		}),
		orgM: table.NewEntity(t, table.Def[pf.OrganizationMetrics]{
			Type: TypeOrganizationMetrics,
			Key: func(m *pf.OrganizationMetrics) (table.Key, error) {
				return pf.OrganizationMetricsKey(m.OrganizationID, m.Date)
			},
			Validate: (*pf.OrganizationMetrics).Validate,
			Touch: func(m *pf.OrganizationMetrics, now time.Time, isNew bool) {
				stamps(&m.CreatedAt, nil, now, isNew)
			},
		}),
		billing: table.NewEntity(t, table.Def[pf.BillingRecord]{
			Type: TypeBillingRecord,
			Key: func(r *pf.BillingRecord) (table.Key, error) {
				return pf.BillingRecordKey(r.OrganizationID, r.Date)
			},
			Indexes:  billingIndexes,
			Validate: (*pf.BillingRecord).Validate,
			Touch: func(r *pf.BillingRecord, now time.Time, isNew bool) {
				stamps(&r.CreatedAt, &r.UpdatedAt, now, isNew)
			},
			IndexedFields: []string{"organizationId", "status"},
			Match:         pf.IsBillingRecordKey,
		}),
		billingM: table.NewEntity(t, table.Def[pf.BillingMetrics]{
			Type:     TypeBillingMetrics,
			Key:      func(m *pf.BillingMetrics) (table.Key, error) { return pf.BillingMetricsKey(m.Date) },
			Validate: (*pf.BillingMetrics).Validate,
			Touch: func(m *pf.BillingMetrics, now time.Time, isNew bool) {
				stamps(&m.CreatedAt, nil, now, isNew)
			},
		}),
	}
}
