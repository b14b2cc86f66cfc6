package lb_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

func TestParseEnumsRejectUnknown(t *testing.T) {
	t.Parallel()
	if v, err := lb.MemberRoles.Parse("viewer"); err != nil || v != lb.MemberViewer {
		t.Errorf("MemberRoles.Parse(viewer) = %q, %v", v, err)
	}
	for name, err := range map[string]error{
		"status":     func() error { _, err := lb.SourceStatuses.Parse("sleeping"); return err }(),
		"platform":   func() error { _, err := lb.Platforms.Parse("myspace"); return err }(),
		"eventType":  func() error { _, err := lb.ParseEventType("Bad Event"); return err }(),
		"metricDate": func() error { _, err := lb.ParseDate("2025-02-30"); return err }(),
	} {
		var ve *table.ValidationError
		if !errors.As(err, &ve) || ve.Field != name || !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: got %v", name, err)
		}
	}
}

func TestHashAndSecrets(t *testing.T) {
	t.Parallel()
	if h := lb.Hash("abc"); h != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" || lb.CheckHash("h", h) != nil {
		t.Errorf("Hash(abc) = %s", h)
	}
	if a, b := lb.NewSecret(32), lb.NewSecret(32); a == b || len(a) != 43 {
		t.Errorf("NewSecret: %q %q", a, b)
	}
	if u := lb.NewUUID(); len(u) != 36 || u[14] != '4' {
		t.Errorf("NewUUID = %s", u)
	}
	if lb.PathRoot("/acme/eu/") != "acme" || lb.CheckPath("p", "/acme/eu") == nil {
		t.Error("path helpers")
	}
}

// LB-63: a move's mark is validated with the account; PathLeaf names the
// segment an account keeps when it moves.
func TestAccountMoveMark_LB63(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{"/acme/": "acme", "/acme/eu/": "eu", "/acme/eu/retail/": "retail"} {
		if got := lb.PathLeaf(p); got != want {
			t.Errorf("PathLeaf(%q) = %q, want %q", p, got, want)
		}
	}
	a := lb.Account{AccountID: "sub", AccountName: "EU", ParentAccountID: "root", AccountPath: "/acme/eu/",
		AccountType: lb.AccountSubsidiary, Level: 1, Status: lb.AccountActive}
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	a.Move = lb.AccountMove{FromPath: "/acme/eu/", ToPath: "/other/eu", ToParent: "other", ToLevel: 1}
	var ve *table.ValidationError
	if err := a.Validate(); !errors.As(err, &ve) || ve.Field != "move.toPath" {
		t.Errorf("bad move mark: err = %v, want a ValidationError for move.toPath", err)
	}
	if !a.Move.Pending() || (lb.AccountMove{}).Pending() {
		t.Error("Pending")
	}
}
