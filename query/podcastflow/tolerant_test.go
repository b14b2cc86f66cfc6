package podcastflow_test

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Tolerant reads, strict writes (issue 10 §2), on items as PodcastFlow's
// scripts and user Lambda write them: billing plans the enum does not know
// ("Enterprise", "Professional", "Starter") read, list and update in their
// other fields; customBranding.colors and preferences.notifications are
// maps; settings written by the library keep the scripts' changes (PF-5,
// PF-10, PF-11, PF-1).
func TestScriptWrittenItems_PF1_PF5_PF10_PF11(t *testing.T) {
	t.Parallel()
	tbl := tabletest.NewTable(t, podcastflow.Schema(""))
	s := podcastflow.New(tbl)
	ctx := t.Context()
	put := func(it map[string]any) {
		av, err := attributevalue.MarshalMap(it)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tbl.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tbl.Name()), Item: av}); err != nil {
			t.Fatal(err)
		}
	}
	for i, plan := range []string{"Enterprise", "Professional", "Starter"} {
		put(map[string]any{"PK": "BILLING#org-s", "SK": "RECORD#2024-0" + string(rune('1'+i)) + "-01", "organizationId": "org-s",
			"organizationName": "Scripted", "plan": plan, "amount": 99, "status": "paid",
			"createdAt": "2024-01-01T00:00:00.000Z", "updatedAt": "2024-01-01T00:00:00.000Z"})
	}
	put(map[string]any{"PK": "ORG#org-s", "SK": "SETTINGS", "allowedDomains": []string{"s.example"}, "requireApproval": false,
		"ssoEnabled": false, "customBranding": map[string]any{"logoUrl": "https://s.example/l.svg",
			"colors": map[string]string{"primary": "#112233", "secondary": "#445566"}}, "updatedAt": "2024-01-01T00:00:00.000Z"})
	put(map[string]any{"PK": "USER#lam-1", "SK": "PREFERENCES", "notifications": map[string]bool{"email": true, "push": false},
		"theme": "light", "language": "en", "timezone": "UTC", "updatedAt": "2024-01-01T00:00:00.000Z"})

	page, err := s.Billing.Records.List(ctx, pf.BillingRecord{OrganizationID: "org-s"}) // PF-10
	if err != nil || len(page.Items) != 3 {
		t.Fatalf("PF-10 with unknown plans: %d items, %v", len(page.Items), err)
	}
	for _, r := range page.Items {
		if pf.Plans.Valid(r.Plan) {
			t.Errorf("plan %q reported as known", r.Plan)
		}
	}
	if page.Items[0].Plan != "Enterprise" {
		t.Errorf("unknown plan replaced: %q", page.Items[0].Plan)
	}
	// Updated in another field: the legacy plan is carried through as is.
	r, err := s.Billing.SetRecordStatus(ctx, podcastflow.RecordRef{Org: "org-s", Date: page.Items[0].Date}, pf.BillingStatus("overdue"))
	if err != nil || r.Plan != "Enterprise" {
		t.Fatalf("status update of a record with an unknown plan: %+v %v", r.Plan, err)
	}
	st, err := s.Organizations.Settings.Get(ctx, pf.OrganizationSettings{OrganizationID: "org-s"}) // PF-5
	if err != nil {
		t.Fatal(err)
	}
	// Fields named by the key read from it (key:"name" tags): the script
	// stores no organizationId in settings and no date in records.
	if st.OrganizationID != "org-s" || page.Items[0].Date == "" || page.Items[0].OrganizationID != "org-s" {
		t.Errorf("key fields not read from the key: settings %q, record %q %q", st.OrganizationID, page.Items[0].OrganizationID, page.Items[0].Date)
	}
	colors, ok := st.CustomBranding["colors"].(map[string]any)
	if !ok || colors["primary"] != "#112233" {
		t.Fatalf("customBranding.colors = %#v", st.CustomBranding["colors"])
	}
	// A script changes an attribute the library does not know; the library
	// then writes the settings: the script's change stays.
	if _, err := tbl.Client().UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(tbl.Name()),
		Key:                       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "ORG#org-s"}, "SK": &types.AttributeValueMemberS{Value: "SETTINGS"}},
		UpdateExpression:          aws.String("SET billingContact = :c"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":c": &types.AttributeValueMemberS{Value: "ops@s.example"}}}); err != nil {
		t.Fatal(err)
	}
	st.SSOEnabled = true
	if err := s.Organizations.PutSettings(ctx, &st); err != nil {
		t.Fatal(err)
	}
	out, err := tbl.Client().GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(tbl.Name()),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "ORG#org-s"}, "SK": &types.AttributeValueMemberS{Value: "SETTINGS"}}})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := out.Item["billingContact"].(*types.AttributeValueMemberS); !ok || c.Value != "ops@s.example" {
		t.Errorf("the script's billingContact was lost by PutSettings: %#v", out.Item["billingContact"])
	}
	if b, ok := out.Item["ssoEnabled"].(*types.AttributeValueMemberBOOL); !ok || !b.Value {
		t.Errorf("ssoEnabled = %#v, want true", out.Item["ssoEnabled"])
	}
	prefs, err := s.Users.Preferences.Get(ctx, pf.UserPreferences{UserID: "lam-1"}) // PF-1 collection item
	if err != nil {
		t.Fatal(err)
	}
	if prefs.UserID != "lam-1" {
		t.Errorf("preferences' userId not read from the key: %q", prefs.UserID)
	}
	if !prefs.Notifications.On("email") || prefs.Notifications.On("push") {
		t.Errorf("notifications map read as %+v", prefs.Notifications)
	}
	// Written back, the map keeps its shape.
	prefs.Theme = "dark"
	if err := s.Users.PutPreferences(ctx, &prefs); err != nil {
		t.Fatal(err)
	}
	again, err := s.Users.Preferences.Get(ctx, pf.UserPreferences{UserID: "lam-1"})
	if err != nil || again.Theme != "dark" || again.Notifications.Channels == nil || again.Notifications.On("push") {
		t.Fatalf("after PutPreferences: %+v %v", again, err)
	}
}

// NFC and NFD spellings (and case) of one address are one address
// (issue 10 §3; PF-2 uniqueness through the email guard).
func TestEmailUnicodeForms_PF2(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	mustCreateOrgs(t, s, "o1")
	a := user("nfd", "o1", pf.RoleTalent)
	a.Email = "jose\u0301@example.com"
	mustCreateUser(t, s, a)
	b := user("nfc", "o1", pf.RoleTalent)
	b.Email = "JOS\u00c9@example.com"
	if err := s.Users.Create(t.Context(), b); !errors.Is(err, table.ErrUniqueViolation) {
		t.Fatalf("NFC upper-case twin of an NFD address: %v, want ErrUniqueViolation", err)
	}
	got, err := s.Users.GetByEmail(t.Context(), "jos\u00e9@EXAMPLE.com")
	if err != nil || got.UserID != "nfd" {
		t.Fatalf("GetByEmail in NFC: %v %v", got.UserID, err)
	}
}
