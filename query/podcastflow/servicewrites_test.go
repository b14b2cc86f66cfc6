package podcastflow_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Issue 35, PodcastFlow: nothing its own writers store is dropped on read,
// before and after adoption and after the library writes the item back.
// The items are reproduced byte for byte with the raw SDK from
// ebfarnell/podcastflow-pro:
//
//   - scripts/populate-sample-data.js (lib-dynamodb PutCommand): an
//     enterprise organization's settings, customBranding {logo: ”,
//     colors: {}}; a user's preferences (notifications true, theme,
//     language, timezone, updatedAt).
//   - infrastructure/lambdas/user/index.js updatePreferences (PUT
//     /preferences, aws-sdk v2 DocumentClient put): {PK, SK, userId,
//     ...body, updatedAt}, over the script's item and over one the library
//     wrote.
func TestServiceWritesKeptOnRead_PF2_PF3_PF5(t *testing.T) {
	t.Parallel()
	tbl := tabletest.NewTable(t, podcastflow.Schema(""))
	s := podcastflow.New(tbl)
	c := t.Context()
	S := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	B := func(v bool) types.AttributeValue { return &types.AttributeValueMemberBOOL{Value: v} }
	M := func(kv map[string]types.AttributeValue) types.AttributeValue {
		return &types.AttributeValueMemberM{Value: kv}
	}
	put := func(item map[string]types.AttributeValue) {
		t.Helper()
		if _, err := tbl.Client().PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(tbl.Name()), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	now := S("2026-11-26T10:00:00.000Z")
	// populate-sample-data.js: the organization and its settings.
	put(map[string]types.AttributeValue{"PK": S("ORG#acme-corp"), "SK": S("PROFILE"), "organizationId": S("acme-corp"), "name": S("Acme Corp"),
		"domain": S("acme.com"), "plan": S("enterprise"), "status": S("active"),
		"features": &types.AttributeValueMemberL{Value: []types.AttributeValue{S("advanced-analytics"), S("custom-branding"), S("api-access")}},
		"limits":   M(map[string]types.AttributeValue{"users": &types.AttributeValueMemberN{Value: "100"}}), "createdAt": S("2024-01-15T00:00:00Z"),
		"updatedAt": now, "createdBy": S("admin-user-123")})
	put(map[string]types.AttributeValue{"PK": S("ORG#acme-corp"), "SK": S("SETTINGS"),
		"allowedDomains": &types.AttributeValueMemberL{Value: []types.AttributeValue{S("acme.com")}}, "requireApproval": B(true), "ssoEnabled": B(true),
		"customBranding": M(map[string]types.AttributeValue{"logo": S(""), "colors": M(map[string]types.AttributeValue{})}), "updatedAt": now})
	// populate-sample-data.js: a user's preferences; then the user Lambda's
	// PUT /preferences over it.
	put(map[string]types.AttributeValue{"PK": S("USER#user-1"), "SK": S("PREFERENCES"), "notifications": B(true), "theme": S("light"),
		"language": S("en"), "timezone": S("America/New_York"), "updatedAt": now})
	lambdaPut := func(user string) {
		put(map[string]types.AttributeValue{"PK": S("USER#" + user), "SK": S("PREFERENCES"), "userId": S(user),
			"notifications": M(map[string]types.AttributeValue{"email": B(true), "browser": B(false)}),
			"display":       M(map[string]types.AttributeValue{"theme": S("dark"), "density": S("compact"), "showTutorials": B(false)}), "updatedAt": now})
	}
	lambdaPut("user-1")
	// A user whose preferences the library wrote first, then the Lambda.
	if err := s.Users.PutPreferences(c, &pf.UserPreferences{UserID: "user-2", Theme: "light"}); err != nil {
		t.Fatal(err)
	}
	lambdaPut("user-2")

	wantBranding := map[string]any{"logo": "", "colors": map[string]any{}}
	check := func(when string) {
		t.Helper()
		got, err := s.Organizations.GetWithSettings(c, "acme-corp") // PF-5
		if err != nil || got.Settings == nil {
			t.Fatalf("%s: GetWithSettings: %+v, %v", when, got, err)
		}
		if d := cmp.Diff(wantBranding, got.Settings.CustomBranding); d != "" {
			t.Errorf("%s: GetWithSettings customBranding (-want +got):\n%s", when, d)
		}
		st, err := s.Organizations.Settings.Get(c, pf.OrganizationSettings{OrganizationID: "acme-corp"})
		if d := cmp.Diff(wantBranding, st.CustomBranding); err != nil || d != "" {
			t.Errorf("%s: Settings customBranding (-want +got): %v\n%s", when, err, d)
		}
		for _, u := range []pf.UserID{"user-1", "user-2"} {
			p, err := s.Users.Preferences.Get(c, pf.UserPreferences{UserID: u}) // PF-2
			if err != nil || p.UserID != u {
				t.Errorf("%s: Preferences(%s) userId = %q, %v; want %q", when, u, p.UserID, err, u)
			}
			if !p.Notifications.On("email") || p.Notifications.On("browser") || p.Display["density"] != "compact" {
				t.Errorf("%s: Preferences(%s): %+v", when, u, p)
			}
			w, err := s.Users.GetWithPreferences(c, u) // PF-3 (user-1 and user-2 have no profile)
			if err == nil && (w.Preferences == nil || w.Preferences.UserID != u) {
				t.Errorf("%s: GetWithPreferences(%s) lost userId: %+v", when, u, w.Preferences)
			}
		}
	}
	check("before adoption")
	if _, err := tbl.RunJob(c, table.AdoptJob("adopt-pf", tbl.Entities()...)); err != nil {
		t.Fatal(err)
	}
	check("after adoption")
	// The library writes both back as read: what the services stored stays.
	st, err := s.Organizations.Settings.Get(c, pf.OrganizationSettings{OrganizationID: "acme-corp"})
	if err != nil {
		t.Fatal(err)
	}
	st.SSOEnabled = false
	if err := s.Organizations.PutSettings(c, &st); err != nil {
		t.Fatal(err)
	}
	for _, u := range []pf.UserID{"user-1", "user-2"} {
		p, err := s.Users.Preferences.Get(c, pf.UserPreferences{UserID: u})
		if err != nil {
			t.Fatal(err)
		}
		p.Theme = "sepia"
		if err := s.Users.PutPreferences(c, &p); err != nil {
			t.Fatal(err)
		}
		raw := tabletest.RawItem(t, tbl, table.Key{PK: "USER#" + string(u), SK: "PREFERENCES"})
		if v, ok := raw["userId"].(*types.AttributeValueMemberS); !ok || v.Value != string(u) {
			t.Errorf("after PutPreferences(%s): stored userId %#v", u, raw["userId"])
		}
	}
	raw := tabletest.RawItem(t, tbl, table.Key{PK: "ORG#acme-corp", SK: "SETTINGS"})
	if b, ok := raw["customBranding"].(*types.AttributeValueMemberM); !ok || b.Value["logo"] == nil {
		t.Errorf("after PutSettings: stored customBranding %#v", raw["customBranding"])
	}
	check("after the library's writes")
}

// Issue 42: preferences the library writes carry userId, as the user
// Lambda's PUT /preferences writes it, so the service's own GET
// /preferences (infrastructure/lambdas/user/index.js getPreferences: a
// DocumentClient get of USER#{userId} / PREFERENCES, the item returned as
// stored) answers with userId for them too. The Lambda's GET is reproduced
// with the raw SDK: the item as stored, every attribute.
func TestPreferencesCarryUserID_PF2(t *testing.T) {
	t.Parallel()
	tbl := tabletest.NewTable(t, podcastflow.Schema(""))
	s := podcastflow.New(tbl)
	c := t.Context()
	if err := s.Users.PutPreferences(c, &pf.UserPreferences{UserID: "user-3", Theme: "dark", Language: "de"}); err != nil {
		t.Fatal(err)
	}
	// getPreferences: dynamodb.get({Key: {PK, SK}}), body = result.Item.
	out, err := tbl.Client().GetItem(c, &dynamodb.GetItemInput{TableName: aws.String(tbl.Name()),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "USER#user-3"}, "SK": &types.AttributeValueMemberS{Value: "PREFERENCES"}}})
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := out.Item["userId"].(*types.AttributeValueMemberS); !ok || v.Value != "user-3" {
		t.Errorf("GET /preferences of library-written preferences: userId %#v, want \"user-3\" (item %v)", out.Item["userId"], out.Item)
	}
	for _, name := range []string{"theme", "language"} {
		if out.Item[name] == nil {
			t.Errorf("GET /preferences: %s missing from %v", name, out.Item)
		}
	}
	// A stored userId that disagrees with the key does not win on read.
	if _, err := tbl.Client().UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String(tbl.Name()),
		Key:                       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "USER#user-3"}, "SK": &types.AttributeValueMemberS{Value: "PREFERENCES"}},
		UpdateExpression:          aws.String("SET userId = :u"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":u": &types.AttributeValueMemberS{Value: "someone-else"}}}); err != nil {
		t.Fatal(err)
	}
	p, err := s.Users.Preferences.Get(c, pf.UserPreferences{UserID: "user-3"}) // PF-2
	if err != nil || p.UserID != "user-3" || p.Theme != "dark" {
		t.Errorf("Preferences(user-3) = %+v, %v; want userId from the key", p, err)
	}
}
