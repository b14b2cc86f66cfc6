package podcastflow

import (
	"fmt"
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
	shards      int // of the all-items index partitions (Options.IndexShards)
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

func newEntities(t *table.Table, shards int) *entities {
	// The all-items partitions end in a shard segment: USERS#{n} by a hash
	// of the user's ID ({userId:shard1} is USERS itself).
	sh := func(pk, id string) string { return fmt.Sprintf("%s#{%s:shard%d}", pk, id, shards) }
	return &entities{
		t: t, shards: shards,
		users: table.NewEntity(t, table.Def[pf.UserProfile]{
			Type: TypeUserProfile,
			Keys: table.Template{PK: "USER#{userId}", SK: pf.SKProfile},
			IndexKeys: map[table.Index]table.Template{
				IndexOrgUsers: {PK: "ORG#{organizationId}", SK: "USER#{userId}"}, // sparse: users of no organization
				IndexRole:     {PK: sh("ROLE#{role}", "userId"), SK: "USER#{userId}"},
				IndexStatus:   {PK: sh("STATUS#{status}", "userId"), SK: "USER#{userId}"},
				IndexAll:      {PK: sh(AllUsersPK, "userId"), SK: "USER#{userId}"},
			},
			Validate: (*pf.UserProfile).Validate,
			// One person, one email, whatever its case or Unicode form.
			UniqueOn:   []string{uniqueEmail},
			UniqueFold: map[string]func(string) string{uniqueEmail: pf.NormalizeEmail},
			Touch: func(u *pf.UserProfile, now time.Time, isNew bool) {
				stamps(&u.CreatedAt, &u.UpdatedAt, now, isNew)
			},
		}),
		prefs: table.NewEntity(t, table.Def[pf.UserPreferences]{
			Type: TypeUserPreferences,
			// The user's ID is stored only in the key (the document's item
			// has no userId), so the key stays a closure.
			Key:      func(p *pf.UserPreferences) (table.Key, error) { return pf.UserPreferencesKey(p.UserID) },
			Match:    pf.IsUserPreferencesKey,
			Validate: (*pf.UserPreferences).Validate,
			Touch: func(p *pf.UserPreferences, now time.Time, isNew bool) {
				stamps(nil, &p.UpdatedAt, now, isNew)
			},
		}),
		orgs: table.NewEntity(t, table.Def[pf.OrganizationProfile]{
			Type: TypeOrganizationProfile,
			Keys: table.Template{PK: "ORG#{organizationId}", SK: pf.SKProfile},
			IndexKeys: map[table.Index]table.Template{
				IndexStatus: {PK: sh("STATUS#{status}", "organizationId"), SK: "ORG#{organizationId}"},
				IndexAll:    {PK: sh(AllOrgsPK, "organizationId"), SK: "ORG#{organizationId}"},
			},
			Validate: (*pf.OrganizationProfile).Validate,
			Touch: func(o *pf.OrganizationProfile, now time.Time, isNew bool) {
				stamps(&o.CreatedAt, &o.UpdatedAt, now, isNew)
			},
		}),
		orgSettings: table.NewEntity(t, table.Def[pf.OrganizationSettings]{
			Type: TypeOrganizationSettings,
			// The organization's ID is stored only in the key.
			Key: func(s *pf.OrganizationSettings) (table.Key, error) {
				return pf.OrganizationSettingsKey(s.OrganizationID)
			},
			Match:    pf.IsOrganizationSettingsKey,
			Validate: (*pf.OrganizationSettings).Validate,
			Touch: func(s *pf.OrganizationSettings, now time.Time, isNew bool) {
				stamps(nil, &s.UpdatedAt, now, isNew)
			},
		}),
		platform: table.NewEntity(t, table.Def[pf.PlatformSettings]{
			Type:     TypePlatformSettings,
			Keys:     table.Template{PK: pf.PKPlatform, SK: pf.SKSettings},
			Validate: (*pf.PlatformSettings).Validate,
			Touch: func(s *pf.PlatformSettings, now time.Time, isNew bool) {
				stamps(nil, &s.UpdatedAt, now, isNew)
			},
			Version: func(s *pf.PlatformSettings) *int64 { return &s.Version },
		}),
		globalM: table.NewEntity(t, table.Def[pf.GlobalMetrics]{
			Type:     TypeGlobalMetrics,
			Keys:     table.Template{PK: pf.PKAnalytics, SK: "GLOBAL#{date}"},
			Validate: (*pf.GlobalMetrics).Validate,
			Touch: func(m *pf.GlobalMetrics, now time.Time, isNew bool) {
				stamps(&m.CreatedAt, nil, now, isNew)
			},
		}),
		orgM: table.NewEntity(t, table.Def[pf.OrganizationMetrics]{
			Type:     TypeOrganizationMetrics,
			Keys:     table.Template{PK: pf.PKAnalytics, SK: "ORG#{organizationId}#{date}"},
			Validate: (*pf.OrganizationMetrics).Validate,
			Touch: func(m *pf.OrganizationMetrics, now time.Time, isNew bool) {
				stamps(&m.CreatedAt, nil, now, isNew)
			},
		}),
		billing: table.NewEntity(t, table.Def[pf.BillingRecord]{
			Type: TypeBillingRecord,
			// The record's date is stored only in its key, as the document
			// defines it, so its keys cannot be templates over attributes:
			// the closures stay, with the fields they read listed by hand.
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
			Keys:     table.Template{PK: pf.PKBilling, SK: "METRICS#{date}"},
			Validate: (*pf.BillingMetrics).Validate,
			Touch: func(m *pf.BillingMetrics, now time.Time, isNew bool) {
				stamps(&m.CreatedAt, nil, now, isNew)
			},
		}),
	}
}
