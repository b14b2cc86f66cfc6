package table_test

import (
	"errors"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TestCheckedKeyCallerChecks: the checks a caller gives CheckedKey (its
// rules beyond the fields' own: a plain string's form, a field its API
// names otherwise) come first; the first failing one is returned as it
// is (not wrapped), no request is sent, and the key returned with it is
// refused by Get with that error. When they pass, the fields' own checks
// still run; when all pass, the key is Key's and reads the item on
// DynamoDB Local.
func TestCheckedKeyCallerChecks(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("checkedkeycaller")).Schema())
	members := table.NewEntity(tb, table.Def[ckMember]{Type: "CKMember",
		Keys: table.Template{PK: "ORG#{orgId}", SK: "TEAM#{teamId}#{role}#{name}"}})
	c := ctx(t)
	good := ckMember{Org: "org_a", Team: "team_x", Role: "admin", Name: "ann"}
	nameRule := func(m ckMember) error {
		if len(m.Name) > 3 {
			return table.Invalid("memberName", "over 3 bytes")
		}
		return nil
	}

	long := good
	long.Name = "annabel"
	k, err := members.CheckedKey(long, nil, nameRule(long), table.Invalid("second", "never reached"))
	var ve *table.ValidationError
	if !errors.As(err, &ve) || ve.Field != "memberName" || ve.Reason != "over 3 bytes" {
		t.Fatalf("CheckedKey with a failing caller check = %v, want memberName: over 3 bytes", err)
	}
	var oe *table.OpError
	if errors.As(err, &oe) {
		t.Errorf("the caller's error came back wrapped (%v), want it as it is", err)
	}
	if _, gerr := members.Get(c, k); !errors.Is(gerr, err) {
		t.Errorf("Get by the refused key = %v, want the caller's error", gerr)
	}

	// The caller's checks pass: the fields' own checks still run.
	bad := good
	bad.Org = "x"
	if _, err := members.CheckedKey(bad, nameRule(bad)); !errors.As(err, &ve) || ve.Field != "orgId" || !errors.As(err, &oe) {
		t.Errorf("CheckedKey with a bad own field = %v, want the orgId check's wrapped error", err)
	}
	if n := rc.Total(); n != 0 {
		t.Fatalf("%d requests sent for bad input (%v), want 0", n, rc.Ops())
	}

	item := good
	if err := members.Create(c, &item); err != nil {
		t.Fatal(err)
	}
	k, err = members.CheckedKey(good, nameRule(good))
	if err != nil || k != members.Key(good) {
		t.Fatalf("CheckedKey of good fields = %v, %v; want Key's %v", k, err, members.Key(good))
	}
	if got, err := members.Get(c, k); err != nil || got.Name != "ann" {
		t.Fatalf("Get by the checked key = %+v, %v", got, err)
	}
}
