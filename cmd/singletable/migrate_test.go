package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/internal/legacytest"
	"github.com/singletable/singletable/migrate"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table/tabletest"
)

// singletable migrate on a small legacy deployment: the dry run needs no
// key and writes nothing, the run without a key is refused before any
// write (secrets would stay plaintext), the run copies and verifies, a
// second run changes nothing. (The migration itself is proven on
// thousands of items in query/listbackup.)
func TestMigrateCommand(t *testing.T) {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := tabletest.Client(t)
	stack := fmt.Sprintf("cmdmig%d", time.Now().UnixNano()%1_000_000)
	if err := migrate.CreateLayout(c, client, stack, listbackup.DocumentsLayout()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, lt := range listbackup.DocumentsLayout().Tables {
			client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(stack + "-" + lt.Suffix)})
		}
	})
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	put := func(suffix string, item map[string]types.AttributeValue) {
		if _, err := client.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(stack + "-" + suffix), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().UTC().Format(time.RFC3339)
	put("accounts", map[string]types.AttributeValue{"accountId": s("account:1"), "accountName": s("Acme"), "accountPath": s("/acme/"),
		"accountType": s("conglomerate"), "status": s("active"), "level": &types.AttributeValueMemberN{Value: "0"}, "createdAt": s(now), "updatedAt": s(now)})
	for i := range 3 {
		put("users", map[string]types.AttributeValue{"userId": s(fmt.Sprintf("user:%d", i)), "email": s(fmt.Sprintf("u%d@example.com", i)),
			"name": s("U"), "accountId": s("account:1"), "status": s("active"), "role": s("user"), "createdAt": s(now), "updatedAt": s(now),
			"mfaEnabled": &types.AttributeValueMemberBOOL{Value: false}})
	}
	put("sources", map[string]types.AttributeValue{"accountId": s("account:1"), "sourceId": s("source:1"), "sourceName": s("Stripe"),
		"platform": s("stripe"), "connectionType": s("apikey"), "status": s("active"), "createdAt": s(now), "updatedAt": s(now),
		"credentials": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"encryptedData": s("sk_live_plain")}}})
	main := tabletest.TableName("lbcmd", t.Name())
	t.Cleanup(func() {
		client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(main)})
	})
	base := []string{"migrate", "-app", "listbackup", "-stack", stack, "-endpoint", tabletest.Endpoint(t), "-table", main, "-quiet"}

	t.Setenv("SINGLETABLE_SECRET_KEY", "")
	out, err := runCmd(t, append(base, "-dry-run", "-create")...)
	if err != nil || !strings.Contains(out, "dry run 5 items") {
		t.Fatalf("dry run: %v\n%s", err, out)
	}
	if _, err := runCmd(t, base...); exitCode(err) != 2 {
		t.Errorf("a run without SINGLETABLE_SECRET_KEY: %v (exit %d), want a usage error", err, exitCode(err))
	}
	t.Setenv("SINGLETABLE_SECRET_KEY", strings.Repeat("ab", 32))
	out, err = runCmd(t, base...)
	if err != nil {
		t.Fatalf("migrate: %v\n%s", err, out)
	}
	checkOutput(t, out, []string{"migrated 5 items", "verified " + stack + "-users: 3 of 3 found", "verified " + stack + "-sources: 1 of 1 found"}, nil)
	out, err = runCmd(t, base...)
	if err != nil || !strings.Contains(out, stack+"-users -> User: seen 3, changed 0, unchanged 3") {
		t.Errorf("second run: %v\n%s", err, out)
	}
	if _, err := runCmd(t, "migrate", "-app", "tinode", "-stack", "x", "-endpoint", tabletest.Endpoint(t)); exitCode(err) != 2 {
		t.Errorf("migrate -app tinode: exit %d, want 2", exitCode(err))
	}
}

// singletable migrate on a deployment of ListBackup's own code: the
// layout is recognised and said, -plan prints each table's entity, count
// estimate, renames and mappings; the run migrates what the handlers
// wrote (the Owner membership, the created job, the millisecond
// activity), reports the missing notifications table and the unknown
// dashboards table without failing, counts an expired activity with its
// key, and verification finds every attribute, the unmodelled ones too.
func TestMigrateCommandCodeLayout(t *testing.T) {
	c, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	client := tabletest.Client(t)
	stack := legacytest.Stack(c, t, client, "listbackup-cmd", listbackup.CodeLayout(), "dashboards")
	if _, err := client.DeleteTable(c, &dynamodb.DeleteTableInput{TableName: aws.String(stack + "-notifications")}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.CreateTable(c, &dynamodb.CreateTableInput{TableName: aws.String(stack + "-dashboards"), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("dashboardId"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("dashboardId"), AttributeType: types.ScalarAttributeTypeS}}}); err != nil {
		t.Fatal(err)
	}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v int64) types.AttributeValue { return &types.AttributeValueMemberN{Value: fmt.Sprint(v)} }
	put := func(suffix string, item map[string]types.AttributeValue) {
		if _, err := client.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(stack + "-" + suffix), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Now().Add(-time.Hour)
	ts := at.Format(time.RFC3339Nano)
	const user, acct = "user:9d1e", "account:77aa"
	put("users", map[string]types.AttributeValue{"userId": s(user), "cognitoUserId": s("9d1e"), "email": s("ada@example.com"), "name": s("Ada"),
		"status": s("active"), "currentAccountId": &types.AttributeValueMemberNULL{Value: true}, "createdAt": s(ts), "updatedAt": s(ts)})
	put("accounts", map[string]types.AttributeValue{"accountId": s(acct), "ownerUserId": s(user), "createdByUserId": s(user), "name": s("Ada's Account"),
		"accountPath": s("/77aa"), "level": n(0), "plan": s("free"), "status": s("active"), "createdAt": s(ts), "updatedAt": s(ts)})
	put("user-accounts", map[string]types.AttributeValue{"userId": s(user), "accountId": s(acct), "role": s("Owner"), "status": s("Active"),
		"linkedAt": s(ts), "updatedAt": s(ts)})
	put("jobs", map[string]types.AttributeValue{"jobId": s("job:1"), "accountId": s(acct), "userId": s(user), "sourceId": s("source:1"),
		"name": s("Nightly"), "type": s("backup"), "status": s("created"), "enabled": &types.AttributeValueMemberBOOL{Value: true},
		"createdAt": s(ts), "updatedAt": s(ts)})
	for i, ttl := range []time.Time{at.Add(90 * 24 * time.Hour), at.Add(-time.Hour)} {
		put("activity", map[string]types.AttributeValue{"eventId": s(fmt.Sprintf("activity:%d:x%d", at.UnixMilli(), i)), "accountId": s(acct),
			"userId": s(user), "type": s("jobs"), "action": s("create_success"), "status": s("success"), "message": s("Created job: Nightly"),
			"timestamp": n(at.UnixMilli()), "ttl": n(ttl.Unix())})
	}
	main := tabletest.TableName("lbcode", t.Name())
	t.Cleanup(func() {
		client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(main)})
	})
	t.Setenv("SINGLETABLE_SECRET_KEY", strings.Repeat("cd", 32))
	base := []string{"migrate", "-app", "listbackup", "-stack", stack, "-endpoint", tabletest.Endpoint(t), "-table", main, "-quiet"}

	out, err := runCmd(t, append(base, "-plan")...)
	t.Logf("singletable migrate -plan:\n%s", out)
	if err != nil {
		t.Fatalf("-plan: %v", err)
	}
	for _, want := range []string{"layout listbackup-code: 21 of its 22 tables found", stack + "-user-accounts (~", "-> Membership",
		"map role: Admin -> admin, Manager -> manager, Member -> member, Owner -> owner, Viewer -> viewer (other values kept)",
		"rename linkedAt -> joinedAt", "time timestamp (Unix seconds or milliseconds, detected per item) -> createdAt",
		stack + "-rate-limits (~", "not migrated: transient", "missing (reported, not an error): " + stack + "-notifications",
		"unknown " + stack + "-dashboards"} {
		if !strings.Contains(out, want) {
			t.Errorf("-plan output lacks %q", want)
		}
	}
	out, err = runCmd(t, append(base, "-create")...)
	t.Logf("singletable migrate:\n%s", out)
	if err != nil {
		t.Errorf("migrate: %v (exit %d)", err, exitCode(err))
	}
	checkOutput(t, out, []string{
		"migrated " + stack + "-user-accounts -> Membership: seen 1, changed 1",
		"migrated " + stack + "-jobs -> Job: seen 1, changed 1",
		"migrated " + stack + "-activity -> Activity: seen 2, changed 1, unchanged 0, skipped 1",
		"1 past their TTL, not migrated: eventId=activity:",
		"missing " + stack + "-notifications: the deployment has no such table",
		"skipped " + stack + "-rate-limits: transient",
		"unknown " + stack + "-dashboards: not in layout listbackup-code",
		"verified " + stack + "-user-accounts: 1 of 1 found (0 past their TTL, not copied), 0 differing",
		"verified " + stack + "-users: 1 of 1 found (0 past their TTL, not copied), 0 differing",
		"verified " + stack + "-activity: 1 of 2 found (1 past their TTL, not copied), 0 differing",
	}, []string{"differs", "  conflict "})
}

// singletable migrate -create-legacy creates either legacy layout on an
// endpoint without it, to rehearse a migration: the tables of ListBackup's
// own code (22) or of its documents (19), recognised as that layout; it
// refuses a layout whose tables exist and a layout it does not know (exit
// 2); and the rehearsal migrates: a notification written as
// notifications/create writes it is copied and verified (LB-79).
func TestMigrateCommandCreateLegacy(t *testing.T) {
	c, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	client := tabletest.Client(t)
	endpoint := tabletest.Endpoint(t)
	id := time.Now().UnixNano() % 1_000_000
	code, docs := fmt.Sprintf("listbackup-cl%d", id), fmt.Sprintf("lbdocs%d", id)
	main := tabletest.TableName("lbrehearse", t.Name())
	t.Cleanup(func() {
		for _, m := range []*migrate.Manifest{listbackup.CodeLayout(), listbackup.DocumentsLayout()} {
			for _, lt := range m.Tables {
				for _, stack := range []string{code, docs} {
					client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(stack + "-" + lt.Suffix)})
				}
			}
		}
		client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(main)})
	})
	for _, tc := range []struct {
		stack, layout string
		tables        int
	}{{code, "listbackup-code", 22}, {docs, "documents", 19}} {
		out, err := runCmd(t, "migrate", "-app", "listbackup", "-stack", tc.stack, "-endpoint", endpoint, "-create-legacy", tc.layout)
		t.Logf("singletable migrate -create-legacy %s:\n%s", tc.layout, out)
		if err != nil {
			t.Fatalf("-create-legacy %s: %v", tc.layout, err)
		}
		if want := fmt.Sprintf("created the %d tables of layout %s under %s-", tc.tables, tc.layout, tc.stack); !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
		m, found, err := migrate.Detect(c, client, tc.stack, listbackup.Layouts()...)
		if err != nil || m.Name != tc.layout || len(found) != tc.tables {
			t.Errorf("%s: detected %v with %d tables, %v", tc.stack, m, len(found), err)
		}
		// A second time: the tables exist.
		out, err = runCmd(t, "migrate", "-app", "listbackup", "-stack", tc.stack, "-endpoint", endpoint, "-create-legacy", tc.layout)
		if exitCode(err) != 2 || !strings.Contains(fmt.Sprint(err), "already exist") {
			t.Errorf("-create-legacy %s again: exit %d, %v\n%s", tc.layout, exitCode(err), err, out)
		}
	}
	out, err := runCmd(t, "migrate", "-app", "listbackup", "-stack", "x", "-endpoint", endpoint, "-create-legacy", "v3")
	if exitCode(err) != 2 || !strings.Contains(fmt.Sprint(err), "want one of documents, listbackup-code") {
		t.Errorf("-create-legacy v3: exit %d, %v\n%s", exitCode(err), err, out)
	}

	// The rehearsal: a notification as notifications/create writes it.
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	ts := time.Now().Add(-time.Hour).Format(time.RFC3339Nano)
	if _, err := client.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(code + "-notifications"), Item: map[string]types.AttributeValue{
		"notificationId": s("0d5f6a7b-0000-4000-8000-000000000001"), "accountId": s("account:77aa"), "userId": s("user:9d1e"),
		"type": s("success"), "category": s("backup"), "title": s("Backup complete"), "message": s("1,200 contacts backed up"),
		"priority": s("normal"), "status": s("unread"), "channels": &types.AttributeValueMemberL{Value: []types.AttributeValue{s("app")}},
		"createdAt": s(ts), "updatedAt": s(ts)}}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SINGLETABLE_SECRET_KEY", strings.Repeat("cd", 32))
	out, err = runCmd(t, "migrate", "-app", "listbackup", "-stack", code, "-endpoint", endpoint, "-table", main, "-create", "-quiet")
	t.Logf("singletable migrate:\n%s", out)
	if err != nil {
		t.Errorf("migrate: %v (exit %d)", err, exitCode(err))
	}
	checkOutput(t, out, []string{"layout listbackup-code: 22 of its 22 tables found",
		"migrated " + code + "-notifications -> InboxNotification: seen 1, changed 1",
		"verified " + code + "-notifications: 1 of 1 found (0 past their TTL, not copied), 0 differing"}, nil)
}

// checkOutput fails t for each of want that the command's output out
// lacks and each of bad that it reports.
func checkOutput(t *testing.T, out string, want, bad []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q", w)
		}
	}
	for _, b := range bad {
		if strings.Contains(out, b) {
			t.Errorf("output reports %q", b)
		}
	}
}
