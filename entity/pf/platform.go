package pf

import (
	"time"

	"github.com/singletable/singletable/table"
)

// PlatformSettings are the global platform settings (PLATFORM / SETTINGS),
// one item, updated with optimistic concurrency.
type PlatformSettings struct {
	PlatformName        string    `dynamo:"platformName"`        // platform display name
	SupportEmail        string    `dynamo:"supportEmail"`        // support contact email
	MaintenanceMode     bool      `dynamo:"maintenanceMode"`     // platform maintenance mode
	RegistrationEnabled bool      `dynamo:"registrationEnabled"` // new user registration enabled
	DefaultUserRole     Role      `dynamo:"defaultUserRole"`     // default role for new users
	EnforceSSL          bool      `dynamo:"enforceSSL"`          // enforce HTTPS
	SessionTimeout      int       `dynamo:"sessionTimeout"`      // session timeout in hours
	PasswordMinLength   int       `dynamo:"passwordMinLength"`   // minimum password length
	RequireMFA          bool      `dynamo:"requireMFA"`          // require multi-factor authentication
	AllowedDomains      string    `dynamo:"allowedDomains"`      // comma-separated allowed domains
	EmailNotifications  bool      `dynamo:"emailNotifications"`  // email notifications enabled
	SystemAlerts        bool      `dynamo:"systemAlerts"`        // system alerts enabled
	MaintenanceNotices  bool      `dynamo:"maintenanceNotices"`  // maintenance notices enabled
	WeeklyReports       bool      `dynamo:"weeklyReports"`       // weekly reports enabled
	MaxUploadSize       int       `dynamo:"maxUploadSize"`       // max upload size in MB
	StorageQuota        int       `dynamo:"storageQuota"`        // storage quota per organization in GB
	BackupRetention     int       `dynamo:"backupRetention"`     // backup retention in days
	RateLimitEnabled    bool      `dynamo:"rateLimitEnabled"`    // API rate limiting enabled
	RequestsPerMinute   int       `dynamo:"requestsPerMinute"`   // API requests per minute limit
	APIVersioning       bool      `dynamo:"apiVersioning"`       // API versioning enabled
	UpdatedAt           time.Time `dynamo:"updatedAt,omitempty"` // ISO timestamp

	// Version is the item's version (the table's version attribute, not a
	// document attribute): filled on read, advanced on write, and checked
	// by a replace, so a stale write fails with table.ErrConflict.
	Version int64 `dynamo:"-"`
	// Read is the stored item as it was read (every attribute, those other
	// writers keep included): a replace requires it to be still what is
	// stored, so a change by PodcastFlow's own scripts, which never advance
	// the version, fails it with table.ErrConflict instead of being lost.
	Read table.ReadState `dynamo:"-" json:"-"`
}

// Validate checks s before a write. The default role of self-registered
// users may not be master.
func (s *PlatformSettings) Validate() error {
	if s.DefaultUserRole == RoleMaster {
		return table.Invalid("defaultUserRole", "new users cannot default to master")
	}
	if s.SupportEmail != "" {
		if err := CheckEmail("supportEmail", s.SupportEmail); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		name string
		v    int
	}{
		{"sessionTimeout", s.SessionTimeout}, {"passwordMinLength", s.PasswordMinLength},
		{"maxUploadSize", s.MaxUploadSize}, {"storageQuota", s.StorageQuota},
		{"backupRetention", s.BackupRetention}, {"requestsPerMinute", s.RequestsPerMinute},
	} {
		if f.v < 0 {
			return table.Invalid(f.name, "negative")
		}
	}
	return nil
}
