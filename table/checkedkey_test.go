package table_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// ckOrgID is a typed ID that checks itself with the attribute's name:
// "org_" and a name.
type ckOrgID string

func (id ckOrgID) Validate(field string) error {
	if !strings.HasPrefix(string(id), "org_") || len(id) == len("org_") {
		return table.Invalid(field, "%q is not an org ID", id)
	}
	return nil
}

// ckTeamID checks itself under its own name (Validate() error).
type ckTeamID string

func (id ckTeamID) Validate() error {
	if !strings.HasPrefix(string(id), "team_") {
		return table.Invalid("teamId", "%q is not a team ID", id)
	}
	return nil
}

// ckRole is an enumeration that checks itself (Check(field)).
type ckRole string

func (r ckRole) Check(field string) error {
	if r != "admin" && r != "member" {
		return table.Invalid(field, "unknown role %q", r)
	}
	return nil
}

// ckMember: an org's members by team, role and name; name is a plain
// string (no own check: the template's segment check only).
type ckMember struct {
	Org   ckOrgID  `dynamo:"orgId"`
	Team  ckTeamID `dynamo:"teamId"`
	Role  ckRole   `dynamo:"role"`
	Name  string   `dynamo:"name"`
	Email string   `dynamo:"email"`
}

// TestCheckedKeyRunsTheKeyFieldsOwnChecks: Entity.CheckedKey runs every
// primary-key field's own check (Validate(field), Validate(), Check(field)),
// empty ones too, in template order, then the segment checks: the first
// failure is a *table.ValidationError naming the attribute, wrapped in the
// "key" *table.OpError, with no request, and the key returned with it is
// refused by Get. Good fields give Key's key, and a Get by it reads the
// item from DynamoDB Local.
func TestCheckedKeyRunsTheKeyFieldsOwnChecks(t *testing.T) {
	t.Parallel()
	rc := &tabletest.RequestCounter{}
	tb := table.New(tabletest.NewClient(t, rc.Option()), tabletest.NewTable(t, table.NewSchema("checkedkey")).Schema())
	members := table.NewEntity(tb, table.Def[ckMember]{Type: "CKMember",
		Keys: table.Template{PK: "ORG#{orgId}", SK: "TEAM#{teamId}#{role}#{name}"}})
	c := ctx(t)
	good := ckMember{Org: "org_a", Team: "team_x", Role: "admin", Name: "ann"}

	for _, tc := range []struct {
		name, field, reason string
		fields              ckMember
	}{
		{"a bad partition ID (Validate(field))", "orgId", `"a" is not an org ID`, ckMember{Org: "a", Team: "team_x", Role: "admin", Name: "ann"}},
		{"an empty partition ID: its own check", "orgId", `"" is not an org ID`, ckMember{Team: "team_x", Role: "admin", Name: "ann"}},
		{"a bad sort ID (Validate())", "teamId", `"x" is not a team ID`, ckMember{Org: "org_a", Team: "x", Role: "admin", Name: "ann"}},
		{"an empty sort ID: checked even when zero", "teamId", `"" is not a team ID`, ckMember{Org: "org_a", Role: "admin", Name: "ann"}},
		{"an empty enumeration (Check(field))", "role", `unknown role ""`, ckMember{Org: "org_a", Team: "team_x", Name: "ann"}},
		{"the partition key's field first", "orgId", `"b" is not an org ID`, ckMember{Org: "b", Team: "y", Role: "boss"}},
		{"the sort key's fields in template order", "teamId", `"y" is not a team ID`, ckMember{Org: "org_a", Team: "y", Role: "boss"}},
	} {
		k, err := members.CheckedKey(tc.fields)
		var ve *table.ValidationError
		var oe *table.OpError
		if !errors.As(err, &ve) || ve.Field != tc.field || ve.Reason != tc.reason || ve.Entity != "CKMember" {
			t.Errorf("%s: CheckedKey = %v, want a *table.ValidationError %s: %s", tc.name, err, tc.field, tc.reason)
		}
		if !errors.As(err, &oe) || oe.Op != "key" || !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("%s: CheckedKey = %#v, want the \"key\" *table.OpError matching ErrInvalidInput", tc.name, err)
		}
		if _, gerr := members.Get(c, k); !errors.As(gerr, &ve) || ve.Field != tc.field {
			t.Errorf("%s: Get by the refused key = %v, want the same *table.ValidationError", tc.name, gerr)
		}
	}

	// A plain-string key field left empty: no own check, the template's
	// segment check refuses it, as Key does (naming the sort key's
	// fields).
	k, err := members.CheckedKey(ckMember{Org: "org_a", Team: "team_x", Role: "admin"})
	var ve *table.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(ve.Field, "name") || !ve.Key {
		t.Errorf("CheckedKey with no name = %v, want a *table.ValidationError for name", err)
	}
	if kerr := members.Key(ckMember{Org: "org_a", Team: "team_x", Role: "admin"}).Err(); kerr == nil || k.Err() == nil || kerr.Error() != err.Error() {
		t.Errorf("CheckedKey with no name = %v (key %v), want Key's error %v", err, k.Err(), kerr)
	}
	// Key runs no field's own check: a read-back key stays tolerant.
	if k := members.Key(ckMember{Org: "legacy", Team: "old", Role: "owner", Name: "ann"}); k.Err() != nil {
		t.Errorf("Key of legacy fields = %v, want a key", k.Err())
	}
	if n := rc.Total(); n != 0 {
		t.Errorf("%d requests sent for bad input (%v), want 0", n, rc.Ops())
	}

	item := good
	item.Email = "ann@example.com"
	if err := members.Create(c, &item); err != nil {
		t.Fatal(err)
	}
	k, err = members.CheckedKey(good)
	if err != nil {
		t.Fatalf("CheckedKey of good fields: %v", err)
	}
	if diff := cmp.Diff(members.Key(good), k); diff != "" {
		t.Errorf("CheckedKey differs from Key (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(table.Key{PK: "ORG#org_a", SK: "TEAM#team_x#admin#ann"}, k); diff != "" {
		t.Errorf("CheckedKey (-want +got):\n%s", diff)
	}
	rc.Reset()
	got, err := members.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(item, got); diff != "" {
		t.Errorf("Get by the checked key (-want +got):\n%s", diff)
	}
	if rc.Of("GetItem") != 1 || rc.Total() != 1 {
		t.Errorf("Get sent %v, want one GetItem", rc.Ops())
	}
}
