package listbackup_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/internal/legacytest"
	"github.com/singletable/singletable/migrate"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// Attribute values as ListBackup's Go backend marshals its structs
// (aws-sdk-go dynamodbattribute.MarshalMap): an empty string or a nil map
// is NULL, a time.Time an RFC 3339 string with nanoseconds; the
// constructors are legacytest's.
type av = types.AttributeValue

var sv, nv, bv, mv, lv, tv, null = legacytest.S, legacytest.N[int64], legacytest.Bool, legacytest.M, legacytest.L, legacytest.Time, legacytest.Null

func bools(names ...string) av { return boolMap(true, names...) }
func boolMap(v bool, names ...string) av {
	m := map[string]av{}
	for _, n := range names {
		m[n] = bv(v)
	}
	return mv(m)
}

// codeDeployment is a deployment of ListBackup's own code: per table, the
// items its handlers write, shaped as they write them (read from
// ListBackup-ai/listbackup-ai at c3e967f; written here by hand).
func codeDeployment(now time.Time) map[string][]map[string]av {
	d := map[string][]map[string]av{}
	add := func(table string, item map[string]av) { d[table] = append(d[table], item) }
	at := now.Add(-48 * time.Hour).In(time.FixedZone("PDT", -7*3600)) // a Lambda clock need not be UTC
	const acct, sub = "account:6f1c2a9e-0c55-4a4e-9d11-1b2f3c4d5e6f", "account:7a2d3b0f-1d66-4b5f-8e22-2c3f4d5e6f70"
	// auth/register: the user, the root account, the Owner membership.
	for i, u := range []struct{ sub, email, name, phone string }{
		{"3b9f0c1e-aaaa-4c7e-9a51-000000000001", "Ada@Example.com", "Ada Lovelace", "+15555550101"},
		{"3b9f0c1e-aaaa-4c7e-9a51-000000000002", "grace@example.com", "Grace Hopper", ""},
	} {
		item := map[string]av{"userId": sv("user:" + u.sub), "cognitoUserId": sv(u.sub), "email": sv(strings.ToLower(u.email)),
			"name": sv(u.name), "phoneNumber": sv(u.phone), "status": sv("active"), "currentAccountId": sv(""),
			"createdAt": tv(at), "updatedAt": tv(at)}
		if i == 0 {
			// users/update-settings and login add preferences and lastLoginAt.
			item["currentAccountId"] = sv(acct)
			item["preferences"] = mv(map[string]av{"timezone": sv("Europe/London"), "theme": sv("dark"),
				"notifications": mv(map[string]av{"email": bv(true), "slack": bv(false), "backupComplete": bv(true), "backupFailed": bv(true), "weeklyReport": bv(false)})})
			item["lastLoginAt"] = tv(at.Add(time.Hour))
		}
		add("users", item)
	}
	user1, user2 := "user:3b9f0c1e-aaaa-4c7e-9a51-000000000001", "user:3b9f0c1e-aaaa-4c7e-9a51-000000000002"
	add("accounts", map[string]av{"accountId": sv(acct), "ownerUserId": sv(user1), "createdByUserId": sv(user1),
		"name": sv("Ada Lovelace's Account"), "company": sv(""), "accountPath": sv("/6f1c2a9e-0c55-4a4e-9d11-1b2f3c4d5e6f"),
		"level": nv(0), "plan": sv("free"), "status": sv("active"), "createdAt": tv(at), "updatedAt": tv(at)})
	// accounts/create (a sub-account): the full Account struct.
	add("accounts", map[string]av{"accountId": sv(sub), "parentAccountId": sv(acct), "ownerUserId": sv(user1), "createdByUserId": sv(user1),
		"name": sv("Analytical Engines"), "company": sv("Engines Ltd"), "accountPath": sv("/6f1c2a9e-0c55-4a4e-9d11-1b2f3c4d5e6f/7a2d3b0f-1d66-4b5f-8e22-2c3f4d5e6f70/"),
		"level": nv(1), "plan": sv("Free"), "status": sv("Active"), "billingEmail": sv("billing@example.com"), "createdAt": tv(at), "updatedAt": tv(at),
		"settings": mv(map[string]av{"maxSources": nv(10), "maxStorageGB": nv(5), "maxBackupJobs": nv(20), "retentionDays": nv(30),
			"encryptionEnabled": bv(true), "twoFactorRequired": bv(false), "allowSubAccounts": bv(true), "maxSubAccounts": nv(5),
			"whiteLabel": mv(map[string]av{"enabled": bv(false), "logo": sv(""), "brandName": sv("")})}),
		"usage": mv(map[string]av{"sources": nv(0), "storageUsedGB": nv(0), "backupJobs": nv(0), "monthlyBackups": nv(0), "monthlyAPIRequests": nv(0)})})
	add("user-accounts", map[string]av{"userId": sv(user1), "accountId": sv(acct), "role": sv("Owner"), "status": sv("Active"),
		"linkedAt": tv(at), "updatedAt": tv(at)})
	add("user-accounts", map[string]av{"userId": sv(user2), "accountId": sv(acct), "role": sv("Viewer"), "status": sv("Invited"),
		"linkedAt": tv(at), "updatedAt": tv(at)})
	add("user-accounts", map[string]av{"userId": sv(user1), "accountId": sv(sub), "role": sv("Admin"), "status": sv("Active"),
		"permissions": bools("canCreateSubAccounts", "canInviteUsers", "canManageIntegrations", "canViewAllData", "canManageBilling", "canDeleteAccount", "canModifySettings"),
		"linkedAt":    tv(at), "updatedAt": tv(at)})
	// Activity: jobs/* and login write milliseconds, the OAuth service
	// seconds; one event is past its ttl.
	ms := func(t time.Time) int64 { return t.UnixNano() / 1e6 }
	for i, a := range []struct {
		typ, action string
		ts          int64
		ttl         time.Time
	}{
		{"auth", "login_success", ms(at), at.Add(90 * 24 * time.Hour)},
		{"jobs", "create_success", ms(at.Add(time.Minute)), at.Add(90 * 24 * time.Hour)},
		{"integration", "oauth_connected", at.Add(2 * time.Minute).Unix(), at.Add(30 * 24 * time.Hour)},
		{"jobs", "delete_success", ms(at.Add(-100 * 24 * time.Hour)), at.Add(-10 * 24 * time.Hour)}, // expired
	} {
		add("activity", map[string]av{"eventId": sv(fmt.Sprintf("activity:%d:k3j9x%04d", a.ts, i)), "accountId": sv(acct), "userId": sv(user1),
			"type": sv(a.typ), "action": sv(a.action), "status": sv("success"), "message": sv("event " + a.action),
			"timestamp": nv(a.ts), "ttl": nv(a.ttl.Unix())})
	}
	// The platform catalog (cmd/setup-all-platforms) and its source
	// templates.
	add("platforms", map[string]av{"platformId": sv("keap"), "name": sv("Keap"), "description": sv("CRM and marketing automation"),
		"category": sv("CRM"), "website": sv("https://keap.com"), "logoUrl": sv("https://logos.listbackup.ai/keap.png"),
		"requiresOAuth": bv(true), "isActive": bv(true), "supportedFeatures": lv(sv("contacts"), sv("orders")),
		"createdAt": sv(at.Format(time.RFC3339)), "updatedAt": sv(at.Format(time.RFC3339))})
	add("platform-sources", map[string]av{"platformSourceId": sv("platform-source:keap-contacts"), "platformId": sv("keap"),
		"name": sv("Contacts"), "description": sv("All contacts"), "dataType": sv("contacts"), "icon": sv("users"), "category": sv("CRM"),
		"popularity": nv(90), "status": sv("active"), "createdAt": tv(at), "updatedAt": tv(at),
		"defaultSettings": mv(map[string]av{"enabled": bv(true), "priority": sv("high"), "frequency": sv("daily"), "retentionDays": nv(30),
			"incrementalSync": bv(true), "notifications": boolMap(false, "onSuccess", "onFailure", "onSizeLimit"), "customParams": null()})})
	// platform-connections/oauth-callback: the provider's token response
	// as credentials, in plaintext.
	const conn = "connection:0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"
	add("platform-connections", map[string]av{"connectionId": sv(conn), "accountId": sv(acct), "userId": sv(user1),
		"platformId": sv("platform:keap"), "name": sv("Keap Connection"), "status": sv("active"), "authType": sv("oauth"),
		"credentials": mv(map[string]av{"access_token": sv("ya29.secret-access"), "refresh_token": sv("1//secret-refresh"),
			"expires_in": nv(3600), "token_type": sv("Bearer"), "scope": sv("full")}),
		"createdAt": tv(at), "updatedAt": tv(at), "expiresAt": tv(at.Add(time.Hour))})
	// source-groups/create and sources/create.
	const group = "group:1a2b3c4d-0000-4000-8000-000000000001"
	add("source-groups", map[string]av{"groupId": sv(group), "accountId": sv(acct), "userId": sv(user1), "connectionId": sv(conn),
		"name": sv("My Keap Account"), "description": sv(""), "status": sv("active"), "sourceCount": nv(2), "createdAt": tv(at), "updatedAt": tv(at)})
	for i, name := range []string{"My Contacts Backup", "My Orders Backup"} {
		add("sources", map[string]av{"sourceId": sv(fmt.Sprintf("source:5e6f7a8b-0000-4000-8000-00000000000%d", i+1)), "accountId": sv(acct),
			"userId": sv(user1), "groupId": sv(group), "connectionId": sv(conn), "platformSourceId": sv("platform-source:keap-contacts"),
			"name": sv(name), "status": sv("active"), "createdAt": tv(at), "updatedAt": tv(at),
			"settings": mv(map[string]av{"enabled": bv(true), "priority": sv("medium"), "frequency": sv("daily"), "schedule": sv(""),
				"retentionDays": nv(30), "incrementalSync": bv(false), "notifications": boolMap(true, "onSuccess", "onFailure", "onSizeLimit"),
				"customParams": null()})})
	}
	// jobs/create: status created, no priority, the zero config and progress.
	for i, typ := range []string{"backup", "sync"} {
		add("jobs", map[string]av{"jobId": sv(fmt.Sprintf("job:9c8b7a6f-0000-4000-8000-00000000000%d", i+1)), "accountId": sv(acct), "userId": sv(user1),
			"sourceId": sv("source:5e6f7a8b-0000-4000-8000-000000000001"), "name": sv("Nightly " + typ), "type": sv(typ), "subType": sv(""),
			"priority": sv(""), "schedule": sv("0 2 * * *"), "status": sv("created"), "enabled": bv(true),
			"config": mv(map[string]av{"endpoints": null(), "retentionDays": nv(0), "incrementalSync": bv(false), "maxRetries": nv(0), "timeout": nv(0), "metadata": null()}),
			"progress": mv(map[string]av{"totalSteps": nv(0), "completedSteps": nv(0), "failedSteps": nv(0), "percentComplete": nv(0),
				"currentStep": sv(""), "recordsProcessed": nv(0), "dataSizeBytes": nv(0)}),
			"createdAt": tv(at.Add(time.Duration(i) * time.Minute)), "updatedAt": tv(at.Add(time.Duration(i) * time.Minute))})
	}
	// teams/create and teams/add-member.
	const team = "team:2b3c4d5e-0000-4000-8000-000000000001"
	add("teams", map[string]av{"teamId": sv(team), "accountId": sv(acct), "ownerId": sv(user1), "name": sv("Backups"),
		"description": sv("The backup crew"), "status": sv("active"), "createdAt": tv(at), "updatedAt": tv(at)})
	for _, m := range []struct{ user, role string }{{user1, "owner"}, {user2, "member"}} {
		add("team-members", map[string]av{"teamId": sv(team), "userId": sv(m.user), "role": sv(m.role), "status": sv("active"),
			"permissions": mv(map[string]av{"canManageTeam": bv(m.role == "owner"), "canInviteMembers": bv(m.role == "owner"),
				"canRemoveMembers": bv(m.role == "owner"), "canManageAccounts": bv(false), "canViewReports": bv(true)}),
			"joinedAt": tv(at), "updatedAt": tv(at)})
	}
	// tags/create and tags/entity-tags.
	const tag = "4c5d6e7f-0000-4000-8000-000000000001"
	add("tags", map[string]av{"tagId": sv(tag), "accountId": sv(acct), "userId": sv(user1), "name": sv("Production"),
		"color": sv("#ff0000"), "isSystem": bv(false), "usageCount": nv(1), "createdAt": tv(at), "updatedAt": tv(at)})
	add("entity-tags", map[string]av{"entityTagId": sv("5d6e7f80-0000-4000-8000-000000000001"), "accountId": sv(acct),
		"entityId": sv("source:5e6f7a8b-0000-4000-8000-000000000001"), "entityType": sv("source"), "tagId": sv(tag), "userId": sv(user1), "createdAt": tv(at)})
	// auth/mfa-setup: a live code and one past its five minutes.
	for i, exp := range []time.Time{now.Add(5 * time.Minute), now.Add(-time.Hour)} {
		add("mfa-codes", map[string]av{"codeId": sv(fmt.Sprintf("6e7f8091-0000-4000-8000-00000000000%d", i+1)), "userId": sv(user1),
			"code": sv(fmt.Sprintf("48213%d", i)), "method": sv("EMAIL"), "destination": sv("ada@example.com"), "purpose": sv("MFA_SETUP"),
			"verified": bv(false), "createdAt": sv(exp.Add(-5 * time.Minute).UTC().Format(time.RFC3339)), "expiresAt": nv(exp.Unix())})
	}
	// platform-connections/oauth-start: a live state and an expired one.
	for i, exp := range []time.Time{now.Add(15 * time.Minute), now.Add(-time.Hour)} {
		add("oauth-states", map[string]av{"stateId": sv(fmt.Sprintf("q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x%d=", i)), "provider": sv("keap"),
			"userId": sv(user1), "accountId": sv(acct), "redirectUri": sv("https://app.listbackup.ai/connections/callback"), "shopDomain": sv(""),
			"createdAt": tv(exp.Add(-15 * time.Minute)), "expiresAt": tv(exp)})
	}
	// notifications/create (status unread, priority normal unless given,
	// channels a list, time.Time fields RFC 3339 with nanoseconds, nil
	// pointers and maps omitted); mark-read, update and the delivery mark
	// then set RFC 3339 strings: readAt and status read, archivedAt and
	// status archived, status deleted, deliveredAt. One was created with an
	// expiresAt now past.
	rfc := func(t time.Time) av { return sv(t.UTC().Format(time.RFC3339)) }
	for i, n := range []struct {
		user, account, typ, category, priority, status string
		channels                                       []string
		created                                        time.Time
		extra                                          map[string]av
	}{
		{user1, acct, "success", "backup", "normal", "unread", []string{"app"}, at.Add(10 * time.Minute), map[string]av{
			"entityId": sv("source:5e6f7a8b-0000-4000-8000-000000000001"), "entityType": sv("source"), "actionUrl": sv("/sources/source:5e6f7a8b-0000-4000-8000-000000000001"),
			"actionLabel": sv("View backup"), "data": mv(map[string]av{"jobId": sv("job:9c8b7a6f-0000-4000-8000-000000000001"), "records": nv(1200)})}},
		{user1, acct, "error", "backup", "urgent", "unread", []string{"app", "email"}, at.Add(20 * time.Minute), map[string]av{
			"deliveredAt": rfc(at.Add(21 * time.Minute)), "updatedAt": rfc(at.Add(21 * time.Minute))}},
		{user1, acct, "info", "system", "low", "read", []string{"app"}, at.Add(30 * time.Minute), map[string]av{
			"readAt": rfc(at.Add(31 * time.Minute)), "updatedAt": rfc(at.Add(31 * time.Minute))}},
		{user1, acct, "warning", "billing", "high", "archived", []string{"app"}, at.Add(40 * time.Minute), map[string]av{
			"archivedAt": rfc(at.Add(41 * time.Minute)), "updatedAt": rfc(at.Add(41 * time.Minute)), "imageUrl": sv("https://cdn.listbackup.ai/i/card.png"),
			"metadata": mv(map[string]av{"invoice": sv("in_1"), "amount": nv(4900)})}},
		{user1, sub, "system", "maintenance", "normal", "deleted", []string{"app"}, at.Add(50 * time.Minute), map[string]av{
			"updatedAt": rfc(at.Add(51 * time.Minute)), "expiresAt": tv(now.Add(24 * time.Hour))}},
		{user2, acct, "info", "team", "normal", "unread", []string{"app"}, at.Add(60 * time.Minute), map[string]av{
			"scheduledFor": tv(at.Add(61 * time.Minute))}},
		{user2, acct, "info", "team", "normal", "unread", []string{"app"}, at.Add(-30 * 24 * time.Hour), map[string]av{
			"expiresAt": tv(now.Add(-time.Hour))}}, // expired
	} {
		item := map[string]av{"notificationId": sv(fmt.Sprintf("7f809102-0000-4000-8000-00000000000%d", i+1)), "accountId": sv(n.account),
			"userId": sv(n.user), "type": sv(n.typ), "category": sv(n.category), "title": sv("Notice " + n.category),
			"message": sv("Something about " + n.category), "priority": sv(n.priority), "status": sv(n.status),
			"createdAt": tv(n.created), "updatedAt": tv(n.created)}
		var ch []av
		for _, c := range n.channels {
			ch = append(ch, sv(c))
		}
		item["channels"] = lv(ch...)
		for k, v := range n.extra {
			item[k] = v
		}
		add("notifications", item)
	}
	// Transient tables.
	add("rate-limits", map[string]av{"key": sv("login:203.0.113.7"), "count": nv(3), "ttl": nv(now.Add(time.Minute).Unix())})
	add("account-lockouts", map[string]av{"userId": sv(user2), "email": sv("grace@example.com"), "failedAttempts": nv(5), "lockoutExpiry": nv(now.Add(10 * time.Minute).Unix())})
	return d
}

// The attributes ListBackup's code writes that a migration drops, per
// table: none. Those no entity models are kept by the engine's catch-all
// (table.Extra) and returned on read; verification would report any other
// as missing.
var unmodelled = map[string][]string{}

// A deployment of ListBackup's own code (22 tables, items as its handlers
// write them) migrates into the single table: its layout is recognised,
// every table holding user data becomes entities with no conflict, items
// past their TTL are counted with their keys, the transient tables are
// skipped by their rule, a missing table is reported and not fatal, an
// interrupted run resumes, a second run changes nothing, verification
// compares every attribute, and every item reads back through the access
// patterns (LB-1, LB-5..LB-7, LB-9, LB-10, LB-15, LB-18, LB-25, LB-26, LB-28,
// LB-30, LB-69..LB-83).
func TestMigrateCodeLayout_LB69_LB83(t *testing.T) {
	c, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	client := tabletest.Client(t)
	m := listbackup.CodeLayout()
	stack := legacytest.Stack(c, t, client, "listbackup-rh", m, "dashboards")
	now := time.Now()
	data := codeDeployment(now)
	legacytest.Put(t, client, stack, data)
	// A table the layout does not know, and one it expects that is gone.
	if _, err := client.CreateTable(c, &dynamodb.CreateTableInput{TableName: aws.String(stack + "-dashboards"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("dashboardId"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("dashboardId"), AttributeType: types.ScalarAttributeTypeS}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.DeleteTable(c, &dynamodb.DeleteTableInput{TableName: aws.String(stack + "-billing-usage")}); err != nil {
		t.Fatal(err)
	}

	// The layout is recognised by its tables.
	got, _, err := migrate.Detect(c, client, stack, listbackup.Layouts()...)
	if err != nil || got.Name != "listbackup-code" {
		t.Fatalf("DetectLayout: %v, %v", got, err)
	}
	sv, err := migrate.Survey(c, client, stack, m)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sv.Missing(), []string{stack + "-billing-usage"}) || !slices.Equal(sv.Unknown, []string{stack + "-dashboards"}) {
		t.Errorf("survey: missing %v, unknown %v", sv.Missing(), sv.Unknown)
	}

	tb := tabletest.NewTable(t, listbackup.Schema("lbcode"), func(o *table.Options) { o.Cipher = tabletest.Cipher() })
	s := listbackup.New(tb)
	o := migrate.Options{Stack: stack, Manifest: m, Segments: 2}

	// An interrupted run (its first progress report cancels it), resumed.
	ictx, icancel := context.WithCancel(c)
	var calls atomic.Int64
	io := o
	io.Progress = func(string, table.JobReport) {
		if calls.Add(1) == 1 {
			icancel()
		}
	}
	_, err = s.Migrate(ictx, io)
	icancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v, want context.Canceled", err)
	}
	o.Resume = true
	res, err := s.Migrate(c, o)
	if err != nil {
		t.Fatal(err)
	}
	o.Resume = false
	wantExpired := map[string]int64{"activity": 1, "mfa-codes": 1, "oauth-states": 1, "notifications": 1}
	for _, r := range res {
		suffix := strings.TrimPrefix(r.Name, stack+"-")
		lt, _ := m.Table(suffix)
		switch {
		case suffix == "billing-usage":
			if !r.Missing {
				t.Errorf("billing-usage: %+v, want reported missing", r)
			}
		case lt.Skip != "":
			if r.Skip == "" || r.Report.Seen != 0 {
				t.Errorf("%s: %+v, want skipped by its rule", suffix, r)
			}
		default:
			n := int64(len(data[suffix]))
			if r.Report.Conflicted != 0 || r.Report.Seen != n || r.Report.Skipped != wantExpired[suffix] || r.Report.Changed+r.Report.Unchanged+r.Report.Skipped != n {
				t.Errorf("%s -> %s: %v %v", suffix, r.Entity, r.Report, r.Report.Conflicts)
			}
			if int64(len(r.Expired)) > r.Report.Skipped {
				t.Errorf("%s: expired keys %v for %d skipped", suffix, r.Expired, r.Report.Skipped)
			}
		}
		t.Logf("%s -> %s: %v expired %v %s", r.Name, r.Entity, r.Report, r.Expired, r.Skip)
	}

	// A second run changes nothing.
	again, err := s.Migrate(c, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range again {
		suffix := strings.TrimPrefix(r.Name, stack+"-")
		if r.Report.Changed != 0 || r.Report.Conflicted != 0 {
			t.Errorf("second run %s: %v", r.Name, r.Report)
		}
		// Items past their TTL are counted with their keys.
		if int64(len(r.Expired)) != wantExpired[suffix] || r.Report.Skipped != wantExpired[suffix] {
			t.Errorf("second run %s: %d skipped, expired keys %v; want %d", suffix, r.Report.Skipped, r.Expired, wantExpired[suffix])
		}
	}

	// Verification compares every attribute: what differs is exactly the
	// unmodelled attributes (see unmodelled), reported per item.
	ver, err := s.Verify(c, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range ver {
		suffix := strings.TrimPrefix(v.Name, stack+"-")
		if v.Missing || v.Skip != "" {
			continue
		}
		if len(v.Absent) > 0 || v.Found+v.Expired != v.Scanned || v.Scanned != len(data[suffix]) {
			t.Errorf("%s: %d of %d found, %d expired, absent %v", suffix, v.Found, v.Scanned, v.Expired, v.Absent)
		}
		var missing []string
		for _, d := range v.Differences {
			_, rest, _ := strings.Cut(d, ": ")
			for _, part := range strings.Split(rest, "; ") {
				attr, ok := strings.CutPrefix(part, "missing ")
				if !ok {
					t.Errorf("%s: %s (not a missing attribute)", suffix, d)
					continue
				}
				if !slices.Contains(missing, attr) {
					missing = append(missing, attr)
				}
			}
		}
		slices.Sort(missing)
		if !slices.Equal(missing, unmodelled[suffix]) {
			t.Errorf("%s: verification reports missing %v, want %v: %v", suffix, missing, unmodelled[suffix], v.Differences)
		}
	}

	// Every item reads back through the access patterns.
	const acct = lb.AccountID("account:6f1c2a9e-0c55-4a4e-9d11-1b2f3c4d5e6f")
	const user1 = lb.UserID("user:3b9f0c1e-aaaa-4c7e-9a51-000000000001")
	u, err := s.Users.GetByEmail(c, "ADA@example.com") // LB-1
	if err != nil || u.UserID != user1 || u.Name != "Ada Lovelace" || u.Preferences.Theme != "dark" {
		t.Errorf("LB-1 user by email: %+v, %v", u, err)
	}
	// What no field models is kept and returned on read.
	for attr, want := range map[string]string{"cognitoUserId": "3b9f0c1e-aaaa-4c7e-9a51-000000000001", "phoneNumber": "+15555550101", "currentAccountId": string(acct)} {
		if v, ok := u.Extra[attr].(*types.AttributeValueMemberS); !ok || v.Value != want {
			t.Errorf("LB-1 user %s: %v, want %q", attr, u.Extra[attr], want)
		}
	}
	members, err := s.Memberships.ByAccount.List(c, lb.Membership{AccountID: acct}) // LB-10
	if err != nil || len(members.Items) != 2 {
		t.Errorf("LB-10 members of the account: %+v, %v", members.Items, err)
	}
	for _, mb := range members.Items {
		if (mb.UserID == user1) != (mb.Role == lb.MemberOwner) || (mb.UserID != user1 && mb.Status != lb.MemberPending) {
			t.Errorf("LB-10 member %s: role %q status %q", mb.UserID, mb.Role, mb.Status)
		}
	}
	mine, err := s.Memberships.ByUser.List(c, lb.Membership{UserID: user1}) // LB-9
	if err != nil || len(mine.Items) != 2 {
		t.Errorf("LB-9 accounts of the user: %d, %v", len(mine.Items), err)
	}
	for _, mb := range mine.Items {
		if mb.AccountID != acct && !mb.Capabilities["canInviteUsers"] {
			t.Errorf("LB-9 sub-account membership lost its permission flags: %+v", mb)
		}
	}
	kids, err := s.Accounts.Children.List(c, lb.Account{ParentAccountID: acct}) // LB-6
	if err != nil || len(kids.Items) != 1 || kids.Items[0].AccountName != "Analytical Engines" {
		t.Errorf("LB-6 sub-accounts: %+v, %v", kids.Items, err)
	}
	// The code stores no account type: none is invented. An untyped
	// account is its parent's child, of no type, and can be updated.
	for _, id := range []lb.AccountID{acct, "account:7a2d3b0f-1d66-4b5f-8e22-2c3f4d5e6f70"} {
		if a, err := s.Accounts.ByID.Get(c, lb.Account{AccountID: id}); err != nil || a.AccountType != "" { // LB-5
			t.Errorf("LB-5 account %s: type %q, %v; want none", id, a.AccountType, err)
		}
	}
	if got, err := s.Accounts.Children.List(c, lb.Account{ParentAccountID: acct, AccountType: lb.AccountSubsidiary}); err != nil || len(got.Items) != 0 {
		t.Errorf("LB-6 subsidiaries among the children: %+v, %v; want none", got.Items, err)
	}
	if got, err := s.Accounts.ByType.List(c, lb.Account{AccountType: lb.AccountConglomerate}); err != nil || len(got.Items) != 0 { // LB-7
		t.Errorf("LB-7 conglomerates: %+v, %v; want none", got.Items, err)
	}
	if a, err := s.Accounts.Update(c, "account:7a2d3b0f-1d66-4b5f-8e22-2c3f4d5e6f70", func(a *lb.Account) error { a.AccountName = "Engines"; return nil }); err != nil || a.AccountType != "" {
		t.Errorf("LB-63 update of an untyped account: %+v, %v", a, err)
	}
	if kids, err := s.Accounts.Children.List(c, lb.Account{ParentAccountID: acct}); err != nil || len(kids.Items) != 1 || kids.Items[0].AccountName != "Engines" {
		t.Errorf("LB-6 after the update: %+v, %v", kids.Items, err)
	}
	if err := s.Accounts.Create(c, &lb.Account{AccountID: "account:new", AccountName: "New", AccountPath: "/new/"}); !errors.As(err, new(*table.ValidationError)) {
		t.Errorf("create without a type: %v, want a ValidationError (only migrated accounts lack one)", err)
	}
	srcs, err := s.Sources.ByAccount.List(c, lb.Source{AccountID: acct}) // LB-15
	if err != nil || len(srcs.Items) != 2 {
		t.Errorf("LB-15 sources of the account: %d, %v", len(srcs.Items), err)
	}
	jobs, err := s.Jobs.BySource.List(c, lb.Job{SourceID: "source:5e6f7a8b-0000-4000-8000-000000000001"}) // LB-26
	if err != nil || len(jobs.Items) != 2 {
		t.Errorf("LB-26 jobs of the source: %d, %v", len(jobs.Items), err)
	}
	created, err := s.Jobs.ByStatus.List(c, lb.Job{AccountID: acct, Status: lb.JobCreated}) // LB-25, the code's stored status
	if err != nil || len(created.Items) != 2 {
		t.Errorf("LB-25 jobs with status created: %d, %v", len(created.Items), err)
	}
	acts, err := s.Activities.ByAccount.Between(c, lb.Activity{AccountID: acct, CreatedAt: now.Add(-72 * time.Hour)}, lb.Activity{AccountID: acct, CreatedAt: now}) // LB-18
	if err != nil || len(acts.Items) != 3 {
		t.Errorf("LB-18 activity by time: %d, %v", len(acts.Items), err)
	}
	for _, a := range acts.Items {
		if a.CreatedAt.Before(now.Add(-49*time.Hour)) || a.CreatedAt.After(now.Add(-47*time.Hour)) {
			t.Errorf("LB-18 %s at %v: the millisecond or second timestamp read in the wrong unit", a.EventID, a.CreatedAt)
		}
	}
	conns, err := s.Connections.ByAccountPlatform.List(c, lb.Connection{AccountID: acct, Platform: lb.PlatformKeap}) // LB-28
	if err != nil || len(conns.Items) != 1 || conns.Items[0].Credentials.AccessToken != "ya29.secret-access" || conns.Items[0].Credentials.RefreshToken != "1//secret-refresh" {
		t.Errorf("LB-28 connections: %+v, %v", conns.Items, err)
	}
	groups, err := s.SourceGroups.ByAccount.List(c, lb.SourceGroup{AccountID: acct}) // LB-69
	if err != nil || len(groups.Items) != 1 || groups.Items[0].SourceCount != 2 {
		t.Errorf("LB-69 source groups: %+v, %v", groups.Items, err)
	}
	grouped, err := s.SourceGroups.Sources.List(c, lb.Source{GroupID: "group:1a2b3c4d-0000-4000-8000-000000000001"}) // LB-70
	if err != nil || len(grouped.Items) != 2 {
		t.Errorf("LB-70 sources of the group: %d, %v", len(grouped.Items), err)
	}
	tm, err := s.TeamMembers.ByTeam.List(c, lb.TeamMembership{TeamID: "team:2b3c4d5e-0000-4000-8000-000000000001"}) // LB-71
	if err != nil || len(tm.Items) != 2 || !tm.Items[0].Permissions["canViewReports"] {
		t.Errorf("LB-71 team members: %+v, %v", tm.Items, err)
	}
	ut, err := s.TeamMembers.ByUser.List(c, lb.TeamMembership{UserID: user1}) // LB-72
	if err != nil || len(ut.Items) != 1 {
		t.Errorf("LB-72 teams of the user: %d, %v", len(ut.Items), err)
	}
	labels, err := s.Labels.ByAccount.List(c, lb.Label{AccountID: acct}) // LB-73
	if err != nil || len(labels.Items) != 1 || labels.Items[0].Color != "#ff0000" {
		t.Errorf("LB-73 labels: %+v, %v", labels.Items, err)
	}
	onSource, err := s.Labels.OfEntity.List(c, lb.EntityTag{EntityType: "source", EntityID: "source:5e6f7a8b-0000-4000-8000-000000000001"}) // LB-74
	if err != nil || len(onSource.Items) != 1 {
		t.Errorf("LB-74 tags of the source: %d, %v", len(onSource.Items), err)
	}
	tagged, err := s.Labels.Tagged.List(c, lb.EntityTag{TagID: "4c5d6e7f-0000-4000-8000-000000000001"}) // LB-75
	if err != nil || len(tagged.Items) != 1 {
		t.Errorf("LB-75 entities with the label: %d, %v", len(tagged.Items), err)
	}
	codes, err := s.MFACodes.ByUser.List(c, lb.MFACode{UserID: user1}) // LB-76
	if err != nil || len(codes.Items) != 1 || codes.Items[0].Code != "482130" {
		t.Errorf("LB-76 live MFA codes: %+v, %v", codes.Items, err)
	}
	plats, err := s.Catalog.Platforms.List(c, lb.CatalogPlatform{}) // LB-77
	if err != nil || len(plats.Items) != 1 || !plats.Items[0].RequiresOAuth {
		t.Errorf("LB-77 catalog: %+v, %v", plats.Items, err)
	}
	tmpl, err := s.Catalog.Sources.List(c, lb.CatalogSource{PlatformID: "keap"}) // LB-78
	if err != nil || len(tmpl.Items) != 1 {
		t.Errorf("LB-78 templates of keap: %d, %v", len(tmpl.Items), err)
	}
	const user2 = lb.UserID("user:3b9f0c1e-aaaa-4c7e-9a51-000000000002")
	n1, err := s.Inbox.ByID.Get(c, lb.InboxNotification{NotificationID: "7f809102-0000-4000-8000-000000000001"}) // LB-79
	if err != nil || n1.Status != lb.InboxUnread || n1.Priority != lb.InboxNormal || !slices.Equal(n1.Channels, []string{"app"}) ||
		n1.EntityType != "source" || n1.Data["records"] != float64(1200) || n1.UserID != user1 {
		t.Errorf("LB-79 notification by ID: %+v, %v", n1, err)
	}
	if _, err := s.Inbox.ByID.Get(c, lb.InboxNotification{NotificationID: "7f809102-0000-4000-8000-000000000007"}); !errors.Is(err, table.ErrNotFound) {
		t.Errorf("LB-79 notification past its expiresAt: %v, want table.ErrNotFound", err)
	}
	inbox, err := s.Inbox.ByUser.List(c, lb.InboxNotification{UserID: user1}) // LB-80
	if err != nil || len(inbox.Items) != 5 || inbox.Items[0].NotificationID != "7f809102-0000-4000-8000-000000000005" ||
		inbox.Items[4].NotificationID != "7f809102-0000-4000-8000-000000000001" {
		t.Errorf("LB-80 the user's notifications, newest first: %+v, %v", inbox.Items, err)
	}
	for st, want := range map[lb.InboxStatus]int{lb.InboxUnread: 2, lb.InboxRead: 1, lb.InboxArchived: 1, lb.InboxDeleted: 1} { // LB-81
		got, err := s.Inbox.ByStatus.List(c, lb.InboxNotification{UserID: user1, Status: st})
		if err != nil || len(got.Items) != want {
			t.Errorf("LB-81 the user's %s notifications: %d, %v; want %d", st, len(got.Items), err, want)
		}
	}
	if got, err := s.Inbox.ByAccount.List(c, lb.InboxNotification{AccountID: acct}); err != nil || len(got.Items) != 5 { // LB-82: 4 of user 1, 1 live of user 2
		t.Errorf("LB-82 the account's notifications: %d, %v", len(got.Items), err)
	}
	if got, err := s.Inbox.ByUser.List(c, lb.InboxNotification{UserID: user2}); err != nil || len(got.Items) != 1 || got.Items[0].ScheduledFor.IsZero() {
		t.Errorf("LB-80 user 2's live notifications: %+v, %v", got.Items, err)
	}
	// LB-83: read, archive, unread, delete; each moves between the lists.
	if n, err := s.Inbox.MarkRead(c, "7f809102-0000-4000-8000-000000000002"); err != nil || n.Status != lb.InboxRead || n.ReadAt.IsZero() ||
		n.DeliveredAt.IsZero() || !slices.Equal(n.Channels, []string{"app", "email"}) {
		t.Errorf("LB-83 mark read: %+v, %v", n, err)
	}
	if n, err := s.Inbox.MarkUnread(c, "7f809102-0000-4000-8000-000000000003"); err != nil || n.Status != lb.InboxUnread || !n.ReadAt.IsZero() {
		t.Errorf("LB-83 mark unread: %+v, %v", n, err)
	}
	if n, err := s.Inbox.Archive(c, "7f809102-0000-4000-8000-000000000001"); err != nil || n.Status != lb.InboxArchived || n.ArchivedAt.IsZero() {
		t.Errorf("LB-83 archive: %+v, %v", n, err)
	}
	if err := s.Inbox.Delete(c, "7f809102-0000-4000-8000-000000000005"); err != nil {
		t.Errorf("LB-83 delete: %v", err)
	}
	for st, want := range map[lb.InboxStatus][]lb.NotificationID{lb.InboxUnread: {"7f809102-0000-4000-8000-000000000003"},
		lb.InboxRead: {"7f809102-0000-4000-8000-000000000002"}, lb.InboxDeleted: nil,
		lb.InboxArchived: {"7f809102-0000-4000-8000-000000000004", "7f809102-0000-4000-8000-000000000001"}} {
		got, err := s.Inbox.ByStatus.List(c, lb.InboxNotification{UserID: user1, Status: st})
		var ids []lb.NotificationID
		for _, n := range got.Items {
			ids = append(ids, n.NotificationID)
		}
		if err != nil || !slices.Equal(ids, want) {
			t.Errorf("LB-81 after LB-83, %s: %v, %v; want %v", st, ids, err, want)
		}
	}
	if _, err := s.Inbox.ByStatus.List(c, lb.InboxNotification{UserID: user1, Status: "pending"}); !errors.As(err, new(*table.ValidationError)) {
		t.Errorf("LB-81 status pending (not the code's): %v, want a ValidationError", err)
	}
	st, err := s.OAuthStates.Consume(c, "q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x0=") // LB-30
	if err != nil || st.Platform != lb.PlatformKeap {
		t.Errorf("LB-30 OAuth state: %+v, %v", st, err)
	}
}
