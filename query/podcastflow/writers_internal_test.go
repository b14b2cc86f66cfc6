package podcastflow

// Every attribute PodcastFlow's own writers store survives the library
// (issue 26 §6): the scripts (scripts/populate-sample-data.js,
// add-more-sample-data.js), the user Lambda (profile and preferences:
// userId plus whatever the client sends), the auth Lambda (SET name,
// phone, timezone; SET organization) and the organization Lambda
// (settings: orgId plus the client's fields). Each item below is shaped
// as its writer stores it (values are ours); it is read, updated and
// rewritten whole, and every attribute the writer stored and the write
// did not change must be stored byte for byte as before.

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

var exporter = cmp.Exporter(func(reflect.Type) bool { return true })

func sv(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func nv(n string) types.AttributeValue { return &types.AttributeValueMemberN{Value: n} }
func bv(b bool) types.AttributeValue   { return &types.AttributeValueMemberBOOL{Value: b} }
func mv(kv ...any) types.AttributeValue {
	m := map[string]types.AttributeValue{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(types.AttributeValue)
	}
	return &types.AttributeValueMemberM{Value: m}
}
func lv(vs ...types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberL{Value: append([]types.AttributeValue{}, vs...)}
}

var null = &types.AttributeValueMemberNULL{Value: true}

// attrsOf returns the top-level attribute names T models.
func attrsOf[T any]() map[string]bool {
	out := map[string]bool{}
	rt := reflect.TypeFor[T]()
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("dynamo"), ",")
		if name != "-" && name != "" {
			out[name] = true
		}
	}
	return out
}

// survives writes item raw (as its writer does), then checks: the read
// models or keeps (Extra) every attribute; Update with change and a
// whole-item rewrite with rewrite leave every stored attribute except
// changed (and updatedAt, which Touch moves) byte for byte.
func survives[T any](t *testing.T, tb *table.Table, e *table.Entity[T], item table.Item, extra func(*T) table.Extra,
	change func(*T), rewrite func(context.Context, *T) error, changed ...string) {
	t.Helper()
	k := table.Key{PK: item["PK"].(*types.AttributeValueMemberS).Value, SK: item["SK"].(*types.AttributeValueMemberS).Value}
	if _, err := tb.Client().PutItem(t.Context(), &dynamodb.PutItemInput{TableName: aws.String(tb.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	stored := tabletest.RawItem(t, tb, k)
	check := tabletest.Unchanged(t, tb, k, append([]string{"PK", "SK", "updatedAt"}, changed...)...)

	v, err := e.Get(t.Context(), k)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	modelled := attrsOf[T]()
	var kept table.Extra
	if extra != nil {
		kept = extra(&v)
	}
	for n, av := range stored {
		if n == "PK" || n == "SK" || modelled[n] {
			continue
		}
		if d := cmp.Diff(av, kept[n], exporter); d != "" {
			t.Errorf("Get: %s is neither modelled nor kept as stored (-stored +Extra):\n%s", n, d)
		}
	}
	if _, err := e.Update(t.Context(), k, func(x *T) error { change(x); return nil }); err != nil {
		t.Fatalf("Update: %v", err)
	}
	check("Update")
	v, err = e.Get(t.Context(), k)
	if err != nil {
		t.Fatal(err)
	}
	change(&v)
	if err := rewrite(t.Context(), &v); err != nil {
		t.Fatalf("rewrite: %v", err)
	}
	check("rewrite")
}

// TestWritersAttributesSurvive: one item per entity, shaped as the
// platform's writers store it.
func TestWritersAttributesSurvive(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, Schema(""))
	s := New(tb)
	e := s.Users.e
	now := sv("2026-11-20T10:00:00.000Z")

	t.Run("UserProfile", func(t *testing.T) {
		// The script's profile, then the auth Lambda's SET name, phone,
		// timezone and SET organization, and the user Lambda's client
		// fields (language).
		survives(t, tb, e.users, table.Item{"PK": sv("USER#u-prof"), "SK": sv("PROFILE"), "userId": sv("u-prof"),
			"email": sv("ann@acme.com"), "name": sv("Ann"), "role": sv("admin"), "status": sv("active"), "organizationId": sv("acme-corp"),
			"phone": sv("+1-555-0100"), "avatar": sv(""), "createdAt": sv("2024-06-01T00:00:00Z"), "updatedAt": now, "lastLogin": now,
			"timezone": sv("America/New_York"), "language": sv("en"), "organization": sv("ORG#1751800000000")},
			func(u *pf.UserProfile) table.Extra { return u.Extra },
			func(u *pf.UserProfile) { u.Name += "!" },
			func(ctx context.Context, u *pf.UserProfile) error { return e.users.Upsert(ctx, u) }, "name")
	})
	t.Run("UserPreferences", func(t *testing.T) {
		// The user Lambda: userId plus the client's document.
		survives(t, tb, e.prefs, table.Item{"PK": sv("USER#u-pref"), "SK": sv("PREFERENCES"), "userId": sv("u-pref"),
			"notifications": mv("email", bv(true), "browser", bv(true), "mobile", bv(false), "weeklyReports", bv(true)),
			"display":       mv("theme", sv("light"), "density", sv("comfortable"), "showTutorials", bv(true), "accent", sv("")),
			"emailDigest":   sv("weekly"), "shortcuts": null, "updatedAt": now},
			func(p *pf.UserPreferences) table.Extra { return p.Extra },
			func(p *pf.UserPreferences) { p.Display["density"] = "compact" },
			func(ctx context.Context, p *pf.UserPreferences) error { return e.prefs.Upsert(ctx, p) }, "display")
		// Users.Preferences gives back what is stored.
		p, err := s.Users.Preferences.Get(t.Context(), pf.UserPreferences{UserID: "u-pref"})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(map[string]any{"theme": "light", "density": "compact", "showTutorials": true, "accent": ""}, p.Display); d != "" {
			t.Errorf("Preferences display (-want +got):\n%s", d)
		}
		if d := cmp.Diff(table.Extra{"emailDigest": sv("weekly"), "shortcuts": null}, p.Extra, exporter); d != "" {
			t.Errorf("Preferences extra (-want +got):\n%s", d)
		}
	})
	t.Run("UserPreferences/script", func(t *testing.T) {
		survives(t, tb, e.prefs, table.Item{"PK": sv("USER#u-pref2"), "SK": sv("PREFERENCES"), "notifications": bv(true),
			"theme": sv("light"), "language": sv("en"), "timezone": sv("America/New_York"), "updatedAt": now},
			func(p *pf.UserPreferences) table.Extra { return p.Extra },
			func(p *pf.UserPreferences) { p.Theme = "dark" },
			func(ctx context.Context, p *pf.UserPreferences) error { return e.prefs.Upsert(ctx, p) }, "theme")
	})
	t.Run("OrganizationProfile", func(t *testing.T) {
		survives(t, tb, e.orgs, table.Item{"PK": sv("ORG#acme-corp"), "SK": sv("PROFILE"), "organizationId": sv("acme-corp"),
			"name": sv("Acme Corp"), "domain": sv("acme.com"), "plan": sv("enterprise"), "status": sv("active"),
			"features": lv(sv("advanced-analytics"), sv("api-access")), "limits": mv("users", nv("100"), "storage", nv("500"), "apiCalls", nv("10000")),
			"createdAt": sv("2024-01-15T00:00:00Z"), "updatedAt": now, "createdBy": sv("admin-user-123")},
			nil,
			func(o *pf.OrganizationProfile) { o.Name += "!" },
			func(ctx context.Context, o *pf.OrganizationProfile) error { return e.orgs.Upsert(ctx, o) }, "name")
	})
	t.Run("OrganizationSettings", func(t *testing.T) {
		// The script's settings (customBranding {logo: "", colors: {}}),
		// then the organization Lambda's orgId and client fields.
		survives(t, tb, e.orgSettings, table.Item{"PK": sv("ORG#acme-corp"), "SK": sv("SETTINGS"), "orgId": sv("acme-corp"),
			"allowedDomains": lv(sv("acme.com")), "requireApproval": bv(true), "ssoEnabled": bv(true),
			"customBranding": mv("logo", sv(""), "colors", mv()), "welcomeMessage": sv(""), "updatedAt": now},
			func(o *pf.OrganizationSettings) table.Extra { return o.Extra },
			func(o *pf.OrganizationSettings) { o.SSOEnabled = !o.SSOEnabled },
			func(ctx context.Context, o *pf.OrganizationSettings) error {
				return s.Organizations.PutSettings(ctx, o)
			}, "ssoEnabled")
		st, err := s.Organizations.Settings.Get(t.Context(), pf.OrganizationSettings{OrganizationID: "acme-corp"})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(map[string]any{"logo": "", "colors": map[string]any{}}, st.CustomBranding); d != "" {
			t.Errorf("customBranding (-want +got):\n%s", d)
		}
	})
	t.Run("PlatformSettings", func(t *testing.T) {
		item := table.Item{"PK": sv("PLATFORM"), "SK": sv("SETTINGS"), "platformName": sv("PodcastFlow Pro"),
			"supportEmail": sv("support@example.com"), "maintenanceMode": bv(false), "registrationEnabled": bv(true),
			"defaultUserRole": sv("client"), "enforceSSL": bv(true), "sessionTimeout": nv("24"), "passwordMinLength": nv("8"),
			"requireMFA": bv(false), "allowedDomains": sv(""), "emailNotifications": bv(true), "systemAlerts": bv(true),
			"maintenanceNotices": bv(true), "weeklyReports": bv(true), "maxUploadSize": nv("100"), "storageQuota": nv("1000"),
			"backupRetention": nv("30"), "rateLimitEnabled": bv(true), "requestsPerMinute": nv("1000"), "apiVersioning": bv(true), "updatedAt": now}
		survives(t, tb, e.platform, item, nil,
			func(p *pf.PlatformSettings) { p.MaintenanceMode = !p.MaintenanceMode },
			func(ctx context.Context, p *pf.PlatformSettings) error { return e.platform.Replace(ctx, p) }, "maintenanceMode")
	})
	t.Run("GlobalMetrics", func(t *testing.T) {
		survives(t, tb, e.globalM, table.Item{"PK": sv("ANALYTICS"), "SK": sv("GLOBAL#2026-11-20"), "date": sv("2026-11-20"),
			"totalUsers": nv("1247"), "activeUsers": nv("892"), "totalOrganizations": nv("45"), "totalRevenue": nv("124750"),
			"storageUsed": nv("2.4"), "apiCalls": nv("1234567"), "uptime": nv("99.9"), "avgResponseTime": nv("145"), "createdAt": now},
			nil,
			func(g *pf.GlobalMetrics) { g.TotalUsers++ },
			func(ctx context.Context, g *pf.GlobalMetrics) error { return e.globalM.Upsert(ctx, g) }, "totalUsers")
	})
	t.Run("OrganizationMetrics", func(t *testing.T) {
		survives(t, tb, e.orgM, table.Item{"PK": sv("ANALYTICS"), "SK": sv("ORG#acme-corp#2026-11-20"), "organizationId": sv("acme-corp"),
			"date": sv("2026-11-20"), "users": nv("25"), "revenue": nv("12500"), "plan": sv("Enterprise"), "storageUsed": nv("450"),
			"apiCalls": nv("85000"), "activeUsers": nv("20"), "createdAt": now},
			nil,
			func(o *pf.OrganizationMetrics) { o.Users++ },
			func(ctx context.Context, o *pf.OrganizationMetrics) error { return e.orgM.Upsert(ctx, o) }, "users")
	})
	t.Run("BillingRecord", func(t *testing.T) {
		survives(t, tb, e.billing, table.Item{"PK": sv("BILLING#acme-corp"), "SK": sv("RECORD#2026-11-20"), "organizationId": sv("acme-corp"),
			"organizationName": sv("Acme Corp"), "plan": sv("Enterprise"), "amount": nv("12500"), "status": sv("paid"),
			"dueDate": sv("2025-07-15T00:00:00Z"), "lastPayment": sv("2025-06-15T00:00:00Z"),
			"invoiceUrl": sv("https://invoices.example.com/acme-202507.pdf"), "createdAt": now, "updatedAt": now},
			nil,
			func(b *pf.BillingRecord) { b.Amount++ },
			func(ctx context.Context, b *pf.BillingRecord) error { return e.billing.Upsert(ctx, b) }, "amount")
	})
}
