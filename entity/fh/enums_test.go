package fh_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/fh"
)

func TestEnumsRejectUnknown(t *testing.T) {
	t.Parallel()
	parsers := map[string]func(string) error{
		"plan":             func(s string) error { _, err := fh.Plans.Parse(s); return err },
		"provider":         func(s string) error { _, err := fh.Providers.Parse(s); return err },
		"signingAlgorithm": func(s string) error { _, err := fh.SigningAlgorithms.Parse(s); return err },
		"status":           func(s string) error { _, err := fh.Statuses.Parse(s); return err },
		"eventStatus":      func(s string) error { _, err := fh.EventStatuses.Parse(s); return err },
		"permissions":      func(s string) error { _, err := fh.Permissions.Parse(s); return err },
	}
	known := map[string][]string{
		"plan":             {"free", "starter", "pro", "team"},
		"provider":         {"stripe", "github", "shopify", "custom"},
		"signingAlgorithm": {"hmac-sha256", "hmac-sha1", "hmac-sha512"},
		"status":           {"active", "paused", "deleted"},
		"eventStatus":      {"received", "processing", "filtered", "delivered", "retrying", "failed"},
		"permissions":      {"read", "write", "admin"},
	}
	for name, parse := range parsers {
		for _, v := range known[name] {
			if err := parse(v); err != nil {
				t.Errorf("%s %q: %v", name, v, err)
			}
		}
		for _, v := range []string{"", "FREE", "Active", "unknown", " read"} {
			if err := parse(v); err == nil {
				t.Errorf("%s %q accepted", name, v)
			}
		}
	}
}

// FH-12: retention by plan, expiresAt in seconds from receivedAt.
func TestPlanRetention_FH12(t *testing.T) {
	t.Parallel()
	got := map[fh.Plan]fh.UnixSeconds{}
	at := fh.UnixMillis(1_700_000_000_999)
	for _, p := range []fh.Plan{fh.PlanFree, fh.PlanStarter, fh.PlanPro, fh.PlanTeam} {
		got[p] = p.ExpiresAt(at)
	}
	want := map[fh.Plan]fh.UnixSeconds{
		fh.PlanFree: 1_700_000_000 + 86_400, fh.PlanStarter: 1_700_000_000 + 604_800,
		fh.PlanPro: 1_700_000_000 + 2_592_000, fh.PlanTeam: 1_700_000_000 + 7_776_000,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ExpiresAt (-want +got):\n%s", diff)
	}
	if fh.PlanTeam.Retention() != 90*24*time.Hour {
		t.Errorf("team retention = %v", fh.PlanTeam.Retention())
	}
}

func TestPermissionAllows(t *testing.T) {
	t.Parallel()
	got := [][3]bool{}
	for _, p := range []fh.Permission{fh.PermissionRead, fh.PermissionWrite, fh.PermissionAdmin} {
		got = append(got, [3]bool{p.Allows(fh.PermissionRead), p.Allows(fh.PermissionWrite), p.Allows(fh.PermissionAdmin)})
	}
	want := [][3]bool{{true, false, false}, {true, true, false}, {true, true, true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Allows (-want +got):\n%s", diff)
	}
}
