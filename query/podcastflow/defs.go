package podcastflow

import (
	"github.com/singletable/singletable/entity/pf"
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

func newEntities(t *table.Table, shards int) *entities {
	// The all-items, role and status partitions end in a shard segment
	// (":shard" in the templates): USERS#{n} by a hash of the user's ID,
	// n among the profile's shards (one shard is USERS itself).
	return &entities{
		t: t, shards: shards,
		users: table.NewEntity(t, table.Def[pf.UserProfile]{
			Type: TypeUserProfile,
			Keys: pf.UserProfileKeys,
			IndexKeys: map[table.Index]table.Template{
				IndexOrgUsers: pf.UserOrgIndex, // sparse: users of no organization
				IndexRole:     pf.UserRoleIndex.WithShards(shards),
				IndexStatus:   pf.UserStatusIndex.WithShards(shards),
				IndexAll:      pf.AllUsersIndex.WithShards(shards),
			},
			// One person, one email, whatever its case or Unicode form.
			UniqueOn:   []string{uniqueEmail},
			UniqueFold: map[string]func(string) string{uniqueEmail: pf.NormalizeEmail},
			Timestamps: pf.Stamps,
			Required:   []string{"role", "status"},
		}),
		prefs: table.NewEntity(t, table.Def[pf.UserPreferences]{
			Type: TypeUserPreferences,
			// The user's ID is stored only in the key (the document's item
			// has no userId): the field's `key` tag names it.
			Keys:       pf.UserPreferencesKeys,
			Timestamps: pf.UpdatedStamp,
		}),
		orgs: table.NewEntity(t, table.Def[pf.OrganizationProfile]{
			Type: TypeOrganizationProfile,
			Keys: pf.OrganizationProfileKeys,
			IndexKeys: map[table.Index]table.Template{
				IndexStatus: pf.OrgStatusIndex.WithShards(shards),
				IndexAll:    pf.AllOrgsIndex.WithShards(shards),
			},
			Timestamps: pf.Stamps,
			Required:   []string{"plan", "status"},
		}),
		orgSettings: table.NewEntity(t, table.Def[pf.OrganizationSettings]{
			Type: TypeOrganizationSettings,
			// The organization's ID is stored only in the key.
			Keys:       pf.OrganizationSettingsKeys,
			Timestamps: pf.UpdatedStamp,
		}),
		platform: table.NewEntity(t, table.Def[pf.PlatformSettings]{
			Type:       TypePlatformSettings,
			Keys:       pf.PlatformSettingsKeys,
			Timestamps: pf.UpdatedStamp,
			Version:    func(s *pf.PlatformSettings) *int64 { return &s.Version },
			Required:   []string{"defaultUserRole"},
		}),
		globalM: table.NewEntity(t, table.Def[pf.GlobalMetrics]{
			Type:       TypeGlobalMetrics,
			Keys:       pf.GlobalMetricsKeys,
			Timestamps: pf.CreatedStamp,
		}),
		orgM: table.NewEntity(t, table.Def[pf.OrganizationMetrics]{
			Type:       TypeOrganizationMetrics,
			Keys:       pf.OrganizationMetricsKeys,
			Timestamps: pf.CreatedStamp,
			Required:   []string{"plan"},
		}),
		billing: table.NewEntity(t, table.Def[pf.BillingRecord]{
			Type: TypeBillingRecord,
			// The record's date is stored only in its key, as the document
			// defines it: the field's `key` tag names it.
			Keys: pf.BillingRecordKeys,
			IndexKeys: map[table.Index]table.Template{
				IndexStatus: pf.BillingStatusIndex,
			},
			Timestamps: pf.Stamps,
			Required:   []string{"plan", "status"},
		}),
		billingM: table.NewEntity(t, table.Def[pf.BillingMetrics]{
			Type:       TypeBillingMetrics,
			Keys:       pf.BillingMetricsKeys,
			Timestamps: pf.CreatedStamp,
		}),
	}
}
