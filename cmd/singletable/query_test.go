package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// queryLines runs `singletable query args...` and returns its JSON lines
// decoded, and what it printed on stderr.
func queryLines(t *testing.T, args ...string) ([]map[string]any, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), append([]string{"query"}, args...), &out, &errOut)
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if jerr := json.Unmarshal([]byte(l), &m); jerr != nil {
			t.Fatalf("query printed a line that is not JSON: %q: %v", l, jerr)
		}
		lines = append(lines, m)
	}
	return lines, errOut.String(), err
}

// Issue 42: `singletable query -app APP ID field=value` runs a declared
// pattern against a table and prints the typed items. PF-2 (one item by
// its key), PF-12 (a page of a GSI partition, limited), a pattern named by
// its Name, a missing field refused before any request, an unknown ID.
func TestQueryCommand_PF2_PF5_PF12(t *testing.T) {
	tbl := tabletest.NewTable(t, podcastflow.Schema("podcastflow"))
	s := podcastflow.New(tbl)
	ctx := context.Background()
	if err := s.Users.PutPreferences(ctx, &pf.UserPreferences{UserID: "u-1", Theme: "dark", Language: "en"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Organizations.Create(ctx, &pf.OrganizationProfile{OrganizationID: "acme", Name: "Acme Audio", Plan: pf.PlanStarter}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"u-1", "u-2", "u-3"} {
		if err := s.Users.Create(ctx, &pf.UserProfile{UserID: pf.UserID(id), Email: id + "@acme.com", Name: id, Role: pf.RoleClient,
			Status: pf.UserActive, OrganizationID: "acme"}); err != nil {
			t.Fatal(err)
		}
	}
	base := []string{"-app", "podcastflow", "-table", tbl.Name(), "-endpoint", tabletest.Endpoint(t)}

	lines, _, err := queryLines(t, append(base, "PF-2", "userId=u-1")...)
	if err != nil || len(lines) != 1 {
		t.Fatalf("PF-2: %v, %v", lines, err)
	}
	item := lines[0]["item"].(map[string]any)
	if lines[0]["type"] != podcastflow.TypeUserPreferences || item["Theme"] != "dark" || item["UserID"] != "u-1" {
		t.Errorf("PF-2 printed %v", lines[0])
	}
	if k := lines[0]["key"].(map[string]any); k["PK"] != "USER#u-1" || k["SK"] != "PREFERENCES" {
		t.Errorf("PF-2 key %v", k)
	}

	// PF-5: the organization's ID is stored only in the key (`dynamo:"-"
	// key:"organizationId"`): the field given on the command line builds
	// the key, and the item printed carries it, read from the key.
	if err := s.Organizations.PutSettings(ctx, &pf.OrganizationSettings{OrganizationID: "acme", AllowedDomains: []string{"acme.com"}}); err != nil {
		t.Fatal(err)
	}
	lines, _, err = queryLines(t, append(base, "podcastflow.Organizations.Settings", "organizationId=acme")...)
	if err != nil || len(lines) != 1 || lines[0]["item"].(map[string]any)["OrganizationID"] != "acme" {
		t.Fatalf("PF-5 (a key-only field): %v, %v", lines, err)
	}

	// By name, the organization's users, two of three.
	lines, errOut, err := queryLines(t, append(base, "-limit", "2", "podcastflow.Users.ByOrganization", "organizationId=acme")...)
	if err != nil || len(lines) != 2 || !strings.Contains(errOut, "2 item(s)") {
		t.Fatalf("ByOrganization -limit 2: %v, %q, %v", lines, errOut, err)
	}
	for _, l := range lines {
		if l["type"] != podcastflow.TypeUserProfile || l["item"].(map[string]any)["OrganizationID"] != "acme" {
			t.Errorf("ByOrganization printed %v", l)
		}
	}

	// A missing key field: a validation error naming it, before any request.
	_, _, err = queryLines(t, append(base, "PF-2")...)
	var ve *table.ValidationError
	if !errors.As(err, &ve) || ve.Field != "userId" {
		t.Errorf("PF-2 without userId: %v, want a ValidationError on userId", err)
	}
	if _, _, err = queryLines(t, append(base, "PF-999")...); !errors.Is(err, errUsage) {
		t.Errorf("PF-999: %v, want a usage error", err)
	}
	if _, _, err = queryLines(t, append(base, "PF-2", "userId=nobody")...); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("PF-2 of a user without preferences: %v, want ErrNotFound", err)
	}

	// -list names every declared pattern with its request.
	var out, errOut2 bytes.Buffer
	if err := run(ctx, append([]string{"query"}, append(base, "-list")...), &out, &errOut2); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "PF-2") || !strings.Contains(out.String(), "GetItem PK = USER#{userId}, SK = PREFERENCES") {
		t.Errorf("-list:\n%s", out.String())
	}
}

// The secret a user's item holds never appears: query opens the table with
// Options.RedactSecrets, so it decrypts nothing, even with the key at hand
// (LB-1).
func TestQueryCommandRedactsSecrets_LB1(t *testing.T) {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	ciph, err := table.NewAESGCM(key)
	if err != nil {
		t.Fatal(err)
	}
	tbl := tabletest.NewTable(t, listbackup.Schema("listbackup"), func(o *table.Options) { o.Cipher = ciph })
	s := listbackup.New(tbl)
	const secret = "JBSWY3DPEHPK3PXP"
	if err := s.Users.Create(context.Background(), &lb.User{UserID: "user:ada", Email: "ada@example.com", Username: "ada", Name: "Ada", MFAEnabled: true, MFASecret: secret}); err != nil {
		t.Fatal(err)
	}
	lines, _, err := queryLines(t, "-app", "listbackup", "-table", tbl.Name(), "-endpoint", tabletest.Endpoint(t), "LB-1", "userId=user:ada")
	if err != nil || len(lines) != 1 {
		t.Fatalf("LB-1: %v, %v", lines, err)
	}
	raw, _ := json.Marshal(lines[0])
	if strings.Contains(string(raw), secret) {
		t.Fatalf("query printed the MFA secret: %s", raw)
	}
	item := lines[0]["item"].(map[string]any)
	if item["MFASecret"] != table.Redacted || item["Email"] != "ada@example.com" {
		t.Errorf("LB-1 printed %s; want MFASecret %q and the email", raw, table.Redacted)
	}
}
