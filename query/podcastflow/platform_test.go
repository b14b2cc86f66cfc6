package podcastflow_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

func platformSettings() *pf.PlatformSettings {
	return &pf.PlatformSettings{
		PlatformName: "PodcastFlow Pro", SupportEmail: "support@podcastflow.example",
		RegistrationEnabled: true, DefaultUserRole: pf.RoleClient, EnforceSSL: true,
		SessionTimeout: 8, PasswordMinLength: 12, AllowedDomains: "example.com,podcastflow.example",
		EmailNotifications: true, SystemAlerts: true, MaxUploadSize: 500, StorageQuota: 100,
		BackupRetention: 30, RateLimitEnabled: true, RequestsPerMinute: 600, APIVersioning: true,
	}
}

// PF-7: platform settings read and replaced with optimistic concurrency;
// a stale write gives ErrConflict.
func TestPlatformSettingsConflict_PF7(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	if _, err := s.Platform.Settings.Get(ctx, pf.PlatformSettings{}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("PF-7 before init: err = %v, want ErrNotFound", err)
	}
	init := platformSettings()
	if err := s.Platform.InitSettings(ctx, init); err != nil {
		t.Fatal(err)
	}
	if err := s.Platform.InitSettings(ctx, platformSettings()); !errors.Is(err, table.ErrAlreadyExists) {
		t.Errorf("second init: err = %v, want ErrAlreadyExists", err)
	}

	a, err := s.Platform.Settings.Get(ctx, pf.PlatformSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(*init, a); diff != "" {
		t.Errorf("PF-7 Settings (-want +got):\n%s", diff)
	}
	b := a // a second admin read the same version
	a.MaintenanceMode = true
	if err := s.Platform.ReplaceSettings(ctx, &a); err != nil {
		t.Fatal(err)
	}
	b.RequireMFA = true
	if err := s.Platform.ReplaceSettings(ctx, &b); !errors.Is(err, table.ErrConflict) {
		t.Fatalf("PF-7 stale replace: err = %v, want ErrConflict", err)
	}
	got, err := s.Platform.Settings.Get(ctx, pf.PlatformSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, got); diff != "" {
		t.Errorf("PF-7 after conflict, the first write stands (-want +got):\n%s", diff)
	}

	// UpdateSettings re-reads on a lost race: 8 concurrent increments all land.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := s.Platform.UpdateSettings(ctx, func(p *pf.PlatformSettings) error {
				p.RequestsPerMinute++
				return nil
			}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, err = s.Platform.Settings.Get(ctx, pf.PlatformSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if got.RequestsPerMinute != 608 || got.Version != a.Version+8 {
		t.Errorf("PF-7 after 8 updates: requestsPerMinute=%d version=%d; want 608 and %d", got.RequestsPerMinute, got.Version, a.Version+8)
	}

	bad := got
	bad.DefaultUserRole = pf.RoleMaster
	wantValidation(t, s.Platform.ReplaceSettings(ctx, &bad), "defaultUserRole")
}
