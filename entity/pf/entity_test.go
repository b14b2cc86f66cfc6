package pf_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

func TestEnumsRejectUnknownValues(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in    string
		parse func(string) error
		ok    bool
	}{
		{"producer", func(s string) error { _, err := pf.Roles.Parse(s); return err }, true},
		{"Producer", func(s string) error { _, err := pf.Roles.Parse(s); return err }, false},
		{"owner", func(s string) error { _, err := pf.Roles.Parse(s); return err }, false},
		{"inactive", func(s string) error { _, err := pf.UserStatuses.Parse(s); return err }, true},
		{"trial", func(s string) error { _, err := pf.UserStatuses.Parse(s); return err }, false},
		{"trial", func(s string) error { _, err := pf.OrgStatuses.Parse(s); return err }, true},
		{"overdue", func(s string) error { _, err := pf.BillingStatuses.Parse(s); return err }, true},
		{"refunded", func(s string) error { _, err := pf.BillingStatuses.Parse(s); return err }, false},
		{"enterprise", func(s string) error { _, err := pf.Plans.Parse(s); return err }, true},
		{"free", func(s string) error { _, err := pf.Plans.Parse(s); return err }, false},
		{"BILLING", func(s string) error { _, err := pf.EntityTypes.Parse(s); return err }, true},
		{"", func(s string) error { _, err := pf.EntityTypes.Parse(s); return err }, false},
		{"paid", func(s string) error { _, err := pf.ParseEntityStatus(s); return err }, true},
		{"deleted", func(s string) error { _, err := pf.ParseEntityStatus(s); return err }, false},
	} {
		err := c.parse(c.in)
		if c.ok != (err == nil) {
			t.Errorf("parse %q: err = %v, want ok=%v", c.in, err, c.ok)
		}
		if err != nil && !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("parse %q: err = %v does not match ErrInvalidInput", c.in, err)
		}
	}
	if !pf.EntityStatus("active").ValidFor(pf.EntityOrganization) || pf.EntityStatus("paid").ValidFor(pf.EntityUser) {
		t.Error("EntityStatus.ValidFor is wrong")
	}
	if len(pf.Roles.Values()) != 6 || len(pf.Plans.Values()) != 3 || len(pf.BillingStatuses.Values()) != 4 {
		t.Error("the document lists 6 roles, 3 plans and 4 billing statuses")
	}
}

// Each template recognizes its own keys only. (The keys are built from
// typed fields through the entities' declarations, and read back into
// them: query/podcastflow's TestPrimaryKeysByteForByte and
// TestScriptWrittenItems_PF1_PF5_PF10_PF11.)
func TestKeysParseBack(t *testing.T) {
	t.Parallel()
	want := []table.Key{
		{PK: "USER#u-1", SK: "PROFILE"},
		{PK: "USER#u-1", SK: "PREFERENCES"},
		{PK: "ORG#org_7", SK: "PROFILE"},
		{PK: "ORG#org_7", SK: "SETTINGS"},
		{PK: "BILLING#org_7", SK: "RECORD#2024-03-01"},
		{PK: "BILLING", SK: "METRICS#2024-03-01"},
	}
	if !pf.UserProfileKeys.Matches(want[0]) || pf.UserProfileKeys.Matches(want[1]) || !pf.UserPreferencesKeys.Matches(want[1]) ||
		!pf.OrganizationProfileKeys.Matches(want[2]) || !pf.OrganizationSettingsKeys.Matches(want[3]) ||
		pf.OrganizationProfileKeys.Matches(want[0]) || !pf.BillingRecordKeys.Matches(want[4]) || pf.BillingRecordKeys.Matches(want[5]) {
		t.Error("the templates match the wrong keys")
	}
}

func TestDates(t *testing.T) {
	t.Parallel()
	for in, ok := range map[string]bool{
		"2024-02-29": true, "2023-02-29": false, "2024-1-05": false, "2024-01-05T00:00:00Z": false,
		"": false, "20240105": false, "2024-13-01": false,
	} {
		if _, err := pf.ParseDate(in); (err == nil) != ok {
			t.Errorf("ParseDate(%q): err = %v, want ok=%v", in, err, ok)
		}
	}
	if got := pf.Date("2024-02-28").AddDays(2); got != "2024-03-01" {
		t.Errorf("AddDays = %s, want 2024-03-01", got)
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	good := pf.UserProfile{UserID: "u", Email: "a@b.co", Name: "A", Role: pf.RoleAdmin, Status: pf.UserActive, OrganizationID: "o"}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	master := good
	master.Role, master.OrganizationID = pf.RoleMaster, ""
	if err := master.Validate(); err != nil {
		t.Errorf("master without organization: %v", err)
	}
	// The ID, role and status check themselves on every write (the
	// engine's field checks): the entity's check is Validate after them.
	users := table.NewEntity(table.New(nil, table.NewSchema("pf")), table.Def[pf.UserProfile]{Type: "UserProfile", Keys: pf.UserProfileKeys})
	for field, change := range map[string]func(*pf.UserProfile){
		"userId":         func(u *pf.UserProfile) { u.UserID = "" },
		"email":          func(u *pf.UserProfile) { u.Email = "Bob <b@c.co>" },
		"name":           func(u *pf.UserProfile) { u.Name = " " },
		"role":           func(u *pf.UserProfile) { u.Role = "root" },
		"status":         func(u *pf.UserProfile) { u.Status = "trial" },
		"organizationId": func(u *pf.UserProfile) { u.OrganizationID = "" },
		"avatar":         func(u *pf.UserProfile) { u.Avatar = "ftp://x" },
	} {
		u := good
		change(&u)
		var ve *table.ValidationError
		if err := users.Validate(&u); !errors.As(err, &ve) || ve.Field != field {
			t.Errorf("%s: err = %v, want a ValidationError for it", field, err)
		}
	}
	gm := pf.GlobalMetrics{Date: "2024-01-01", Uptime: 101}
	if err := gm.Validate(); err == nil {
		t.Error("uptime 101% accepted")
	}
	bm := pf.BillingMetrics{Date: "2024-01-01", OverdueAmount: -1}
	if err := bm.Validate(); err == nil {
		t.Error("negative overdue amount accepted")
	}
}
