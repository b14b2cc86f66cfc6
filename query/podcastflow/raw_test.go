package podcastflow_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// rawItems are items exactly as the document writes them, with the plain
// SDK: its keys, its attribute names, JavaScript ISO timestamps, and no
// _type, _v or GSI attributes.
var rawItems = []map[string]any{
	{"PK": "USER#legacy-1", "SK": "PROFILE", "userId": "legacy-1", "email": "Legacy@Example.com",
		"name": "Legacy User", "role": "producer", "status": "active", "organizationId": "org-9",
		"phone": "+1-555-0199", "avatar": "https://cdn.example.com/l.png",
		"createdAt": "2023-11-02T08:15:30.000Z", "updatedAt": "2024-01-15T10:30:00.000Z",
		"lastLogin": "2024-01-20T07:00:00.000Z"},
	{"PK": "USER#legacy-1", "SK": "PREFERENCES", "notifications": true, "theme": "dark",
		"language": "fr", "timezone": "Europe/Paris", "updatedAt": "2024-01-15T10:30:00.000Z"},
	{"PK": "ORG#org-9", "SK": "PROFILE", "organizationId": "org-9", "name": "Legacy Org",
		"domain": "legacy.example.com", "plan": "enterprise", "status": "trial",
		"features": []string{"analytics"}, "limits": map[string]int{"maxUsers": 25},
		"createdAt": "2023-11-01T00:00:00.000Z", "updatedAt": "2023-11-01T00:00:00.000Z", "createdBy": "legacy-1"},
	{"PK": "ORG#org-9", "SK": "SETTINGS", "allowedDomains": []string{"legacy.example.com"},
		"requireApproval": true, "ssoEnabled": false, "customBranding": map[string]string{"logoUrl": "https://x.example/l.svg"},
		"updatedAt": "2023-11-01T00:00:00.000Z"},
	{"PK": "PLATFORM", "SK": "SETTINGS", "platformName": "PodcastFlow Pro", "supportEmail": "help@example.com",
		"maintenanceMode": false, "registrationEnabled": true, "defaultUserRole": "client", "enforceSSL": true,
		"sessionTimeout": 24, "passwordMinLength": 8, "requireMFA": false, "allowedDomains": "example.com",
		"emailNotifications": true, "systemAlerts": true, "maintenanceNotices": false, "weeklyReports": true,
		"maxUploadSize": 250, "storageQuota": 50, "backupRetention": 14, "rateLimitEnabled": true,
		"requestsPerMinute": 120, "apiVersioning": false, "updatedAt": "2024-01-01T00:00:00.000Z"},
	{"PK": "ANALYTICS", "SK": "GLOBAL#2024-01-15", "date": "2024-01-15", "totalUsers": 1200, "activeUsers": 300,
		"totalOrganizations": 40, "totalRevenue": 98765.43, "storageUsed": 2.5, "apiCalls": 123456,
		"uptime": 99.99, "avgResponseTime": 87.5, "createdAt": "2024-01-16T00:00:00.000Z"},
	{"PK": "ANALYTICS", "SK": "ORG#org-9#2024-01-15", "organizationId": "org-9", "date": "2024-01-15",
		"users": 12, "revenue": 499, "plan": "enterprise", "storageUsed": 40.5, "apiCalls": 999,
		"activeUsers": 7, "createdAt": "2024-01-16T00:00:00.000Z"},
	{"PK": "BILLING#org-9", "SK": "RECORD#2024-01-01", "organizationId": "org-9", "organizationName": "Legacy Org",
		"plan": "enterprise", "amount": 499, "status": "overdue", "dueDate": "2024-01-31T00:00:00.000Z",
		"lastPayment": "2023-12-01T12:00:00.000Z", "invoiceUrl": "https://billing.example.com/inv-1.pdf",
		"createdAt": "2024-01-01T00:00:00.000Z", "updatedAt": "2024-01-01T00:00:00.000Z"},
	{"PK": "BILLING", "SK": "METRICS#2024-01-15", "date": "2024-01-15", "totalRevenue": 98765.43,
		"monthlyRecurring": 80000, "overdueAmount": 499, "churnRate": 2.5, "createdAt": "2024-01-16T00:00:00.000Z"},
}

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// Items written by another service in the document's format, with the
// plain SDK, read back through every pattern that reads by key: PF-1,
// PF-2, PF-3, PF-5, PF-7, PF-8, PF-9, PF-10, PF-11. Collections (PF-3,
// PF-5) recognize the untyped items by key (Def.Match). Reindex makes them
// join the GSIs (PF-4, PF-12, PF-13, PF-14).
func TestRawDocumentItems_PF1_PF2_PF3_PF5_PF7_PF8_PF9_PF10_PF11(t *testing.T) {
	t.Parallel()
	tbl := tabletest.NewTable(t, podcastflow.Schema(""))
	s := podcastflow.New(tbl)
	ctx := t.Context()
	for _, it := range rawItems {
		av, err := attributevalue.MarshalMap(it)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tbl.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tbl.Name()), Item: av}); err != nil {
			t.Fatal(err)
		}
	}

	wantUser := pf.UserProfile{UserID: "legacy-1", Email: "Legacy@Example.com", Name: "Legacy User",
		Role: pf.RoleProducer, Status: pf.UserActive, OrganizationID: "org-9", Phone: "+1-555-0199",
		Avatar: "https://cdn.example.com/l.png", CreatedAt: ts("2023-11-02T08:15:30Z"),
		UpdatedAt: ts("2024-01-15T10:30:00Z"), LastLogin: ts("2024-01-20T07:00:00Z")}
	wantPrefs := pf.UserPreferences{UserID: "legacy-1", Notifications: pf.NotificationPrefs{Enabled: true}, Theme: "dark", Language: "fr",
		Timezone: "Europe/Paris", UpdatedAt: ts("2024-01-15T10:30:00Z")}
	both, err := s.Users.GetWithPreferences(ctx, "legacy-1") // PF-3
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(podcastflow.UserWithPreferences{Profile: wantUser, Preferences: &wantPrefs}, both); diff != "" {
		t.Errorf("PF-3 raw (-want +got):\n%s", diff)
	}
	u, err := s.Users.Profile.Get(ctx, pf.UserProfile{UserID: "legacy-1"}) // PF-1
	if err != nil || !cmp.Equal(wantUser, u) {
		t.Errorf("PF-1 raw = %+v, %v", u, err)
	}
	p, err := s.Users.Preferences.Get(ctx, pf.UserPreferences{UserID: "legacy-1"}) // PF-2
	if err != nil || !cmp.Equal(wantPrefs, p) {
		t.Errorf("PF-2 raw = %+v, %v", p, err)
	}

	wantOrg := pf.OrganizationProfile{OrganizationID: "org-9", Name: "Legacy Org", Domain: "legacy.example.com",
		Plan: pf.PlanEnterprise, Status: pf.OrgTrial, Features: []string{"analytics"},
		Limits: map[string]int64{"maxUsers": 25}, CreatedAt: ts("2023-11-01T00:00:00Z"),
		UpdatedAt: ts("2023-11-01T00:00:00Z"), CreatedBy: "legacy-1"}
	wantSettings := pf.OrganizationSettings{OrganizationID: "org-9", AllowedDomains: []string{"legacy.example.com"},
		RequireApproval: true, CustomBranding: map[string]any{"logoUrl": "https://x.example/l.svg"},
		UpdatedAt: ts("2023-11-01T00:00:00Z")}
	o, err := s.Organizations.GetWithSettings(ctx, "org-9") // PF-5
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(podcastflow.OrganizationWithSettings{Profile: wantOrg, Settings: &wantSettings}, o); diff != "" {
		t.Errorf("PF-5 raw (-want +got):\n%s", diff)
	}

	ps, err := s.Platform.Settings.Get(ctx, pf.PlatformSettings{}) // PF-7
	if err != nil {
		t.Fatal(err)
	}
	if ps.PlatformName != "PodcastFlow Pro" || ps.SessionTimeout != 24 || ps.DefaultUserRole != pf.RoleClient || ps.Version != 0 {
		t.Errorf("PF-7 raw = %+v", ps)
	}
	ps.MaintenanceMode = true // an unversioned item can be replaced at version 0
	if err := s.Platform.ReplaceSettings(ctx, &ps); err != nil || ps.Version != 1 {
		t.Errorf("PF-7 replace of raw settings: version %d, %v", ps.Version, err)
	}

	g, err := s.Analytics.GlobalMetrics.Between(ctx, pf.GlobalMetrics{Date: "2024-01-01"}, pf.GlobalMetrics{Date: "2024-01-31"}) // PF-8
	if err != nil || len(g.Items) != 1 || g.Items[0].TotalRevenue != 98765.43 || g.Items[0].Date != "2024-01-15" {
		t.Errorf("PF-8 raw = %+v, %v", g.Items, err)
	}
	om, err := s.Analytics.OrganizationMetrics.Get(ctx, pf.OrganizationMetrics{OrganizationID: "org-9", Date: "2024-01-15"}) // PF-9
	if err != nil || om.Users != 12 || om.Plan != pf.PlanEnterprise {
		t.Errorf("PF-9 raw = %+v, %v", om, err)
	}
	wantRec := pf.BillingRecord{OrganizationID: "org-9", Date: "2024-01-01", OrganizationName: "Legacy Org",
		Plan: pf.PlanEnterprise, Amount: 499, Status: pf.BillingOverdue, DueDate: ts("2024-01-31T00:00:00Z"),
		LastPayment: ts("2023-12-01T12:00:00Z"), InvoiceURL: "https://billing.example.com/inv-1.pdf",
		CreatedAt: ts("2024-01-01T00:00:00Z"), UpdatedAt: ts("2024-01-01T00:00:00Z")}
	recs := collect(t, s.Billing.Records.All(ctx, pf.BillingRecord{OrganizationID: "org-9"})) // PF-10
	if diff := cmp.Diff([]pf.BillingRecord{wantRec}, recs); diff != "" {
		t.Errorf("PF-10 raw (-want +got):\n%s", diff)
	}
	bm, err := s.Billing.Metrics.Get(ctx, pf.BillingMetrics{Date: "2024-01-15"}) // PF-11
	if err != nil || bm.ChurnRate != 2.5 || bm.MonthlyRecurring != 80000 {
		t.Errorf("PF-11 raw = %+v, %v", bm, err)
	}

	// The raw items carry no GSI keys; Reindex makes them join the indexes.
	if p, _ := s.Users.ByRole.List(ctx, pf.UserProfile{Role: pf.RoleProducer}); len(p.Items) != 0 {
		t.Errorf("PF-13 before reindex = %d users, want 0", len(p.Items))
	}
	if _, err := s.Users.Reindex(ctx, "legacy-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Organizations.Reindex(ctx, "org-9"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Billing.ReindexRecord(ctx, podcastflow.RecordRef{Org: "org-9", Date: "2024-01-01"}); err != nil {
		t.Fatal(err)
	}
	byRole, err := s.Users.ByRole.List(ctx, pf.UserProfile{Role: pf.RoleProducer})
	if err != nil || len(byRole.Items) != 1 || byRole.Items[0].UserID != "legacy-1" {
		t.Errorf("PF-13 after reindex = %v, %v", userIDs(byRole.Items), err)
	}
	byOrg := collect(t, s.Users.ByOrganization.All(ctx, pf.UserProfile{OrganizationID: "org-9"}))
	if diff := cmp.Diff([]pf.UserID{"legacy-1"}, userIDs(byOrg)); diff != "" {
		t.Errorf("PF-12 after reindex (-want +got):\n%s", diff)
	}
	overdue := entityIDs(collect(t, table.Every(ctx, s.Statuses.List, "overdue")))
	trial := entityIDs(collect(t, table.Every(ctx, s.Statuses.List, "trial")))
	if diff := cmp.Diff([]string{"BILLING:org-9/2024-01-01", "ORG:org-9"}, append(overdue, trial...)); diff != "" {
		t.Errorf("PF-14 after reindex (-want +got):\n%s", diff)
	}
}
