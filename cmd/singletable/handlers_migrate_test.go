package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/internal/legacytest"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// v1 is an attribute value as ListBackup's Go handlers marshal it
// (aws-sdk-go v1 dynamodbattribute.MarshalMap): an empty string, a nil
// pointer without omitempty and a nil map are NULL, a time.Time an RFC 3339
// string with nanoseconds, an int a number; the constructors are
// legacytest's.
type v1 = types.AttributeValue

var v1s, v1n, v1b, v1t, v1m, v1null = legacytest.S, legacytest.N[int], legacytest.Bool, legacytest.Time, legacytest.M, legacytest.Null

func trimAcct(id string) string { return strings.TrimPrefix(id, "account:") }

// handlersDeployment is what ListBackup's Lambda handlers write (read from
// ListBackup-ai/listbackup-ai at c3e967f, backend/golang/cmd/handlers/...;
// reproduced here byte for byte with the raw SDK, values ours), per legacy
// table suffix:
//
//   - auth/register/main.go: the user (User struct: phoneNumber "" ->
//     NULL, currentAccountId set afterwards by an UpdateItem), the root
//     account (Account struct: accountPath "/" + uuid WITHOUT its closing
//     '/', plan "free", status "active", company "" -> NULL, no
//     parentAccountId: a nil pointer with omitempty) and the Owner
//     membership (role "Owner", status "Active").
//   - accounts/create/main.go with the client's parentAccountId (the root)
//     and plan "pro" (stored as sent): accountPath = parent's path + uuid
//   - "/" (so the root's uuid and this one run together), status
//     "Active", the internal/types Account with settings (whiteLabel's
//     empty logo and brandName -> NULL inside the map) and usage; the
//     Admin membership with its permissions.
//   - accounts/create-sub-account/main.go under the root (plan "starter")
//     and under the "pro" account (a grandchild, whose path inherits the
//     run-together prefix).
//   - platform-connections/create/main.go with authType apikey and the
//     web client's credentials {"apiKey": ...} (expiresAt: a nil *time.Time
//     -> NULL), and platform-connections/oauth-callback/main.go with
//     Keap's token response (snake_case, plaintext) as credentials.
func handlersDeployment(at time.Time) (map[string][]map[string]v1, map[string]string) {
	d := map[string][]map[string]v1{}
	add := func(table string, item map[string]v1) { d[table] = append(d[table], item) }
	const user = "user:0c7e1f2a-1111-4a4a-8b8b-000000000001"
	const root = "account:aaaaaaaa-0000-4000-8000-000000000001"
	const pro = "account:bbbbbbbb-0000-4000-8000-000000000002"
	const sub = "account:cccccccc-0000-4000-8000-000000000003"
	const grand = "account:dddddddd-0000-4000-8000-000000000004"
	// auth/register
	add("users", map[string]v1{"userId": v1s(user), "cognitoUserId": v1s(strings.TrimPrefix(user, "user:")), "email": v1s("ada@example.com"),
		"name": v1s("Ada"), "phoneNumber": v1s(""), "status": v1s("active"), "currentAccountId": v1s(root), "createdAt": v1t(at), "updatedAt": v1t(at)})
	rootPath := "/" + trimAcct(root) // no closing '/': the register bug
	add("accounts", map[string]v1{"accountId": v1s(root), "ownerUserId": v1s(user), "createdByUserId": v1s(user), "name": v1s("Ada's Account"),
		"company": v1s(""), "accountPath": v1s(rootPath), "level": v1n(0), "plan": v1s("free"), "status": v1s("active"),
		"createdAt": v1t(at), "updatedAt": v1t(at)})
	add("user-accounts", map[string]v1{"userId": v1s(user), "accountId": v1s(root), "role": v1s("Owner"), "status": v1s("Active"),
		"linkedAt": v1t(at), "updatedAt": v1t(at)})
	// internal/types Account, as accounts/create and create-sub-account
	// marshal it.
	account := func(id, parent, parentPath string, level int, plan, status string, maxSub int, allowSub bool) map[string]v1 {
		return map[string]v1{"accountId": v1s(id), "parentAccountId": v1s(parent), "ownerUserId": v1s(user), "createdByUserId": v1s(user),
			"name": v1s("Account " + trimAcct(id)[:8]), "company": v1s(""), "accountPath": v1s(parentPath + trimAcct(id) + "/"),
			"level": v1n(level), "plan": v1s(plan), "status": v1s(status), "billingEmail": v1s(""), "createdAt": v1t(at), "updatedAt": v1t(at),
			"settings": v1m(map[string]v1{"maxSources": v1n(10), "maxStorageGB": v1n(5), "maxBackupJobs": v1n(3), "retentionDays": v1n(30),
				"encryptionEnabled": v1b(true), "twoFactorRequired": v1b(false), "allowSubAccounts": v1b(allowSub), "maxSubAccounts": v1n(maxSub),
				"whiteLabel": v1m(map[string]v1{"enabled": v1b(false), "logo": v1s(""), "brandName": v1s("")})}),
			"usage": v1m(map[string]v1{"sources": v1n(0), "storageUsedGB": v1n(0), "backupJobs": v1n(0), "monthlyBackups": v1n(0), "monthlyAPIRequests": v1n(0)})}
	}
	admin := func(id string) map[string]v1 {
		perms := map[string]v1{}
		for _, p := range []string{"canCreateSubAccounts", "canInviteUsers", "canManageIntegrations", "canViewAllData", "canManageBilling", "canDeleteAccount", "canModifySettings"} {
			perms[p] = v1b(true)
		}
		return map[string]v1{"userId": v1s(user), "accountId": v1s(id), "role": v1s("Admin"), "status": v1s("Active"), "permissions": v1m(perms),
			"linkedAt": v1t(at), "updatedAt": v1t(at)}
	}
	proPath := rootPath + trimAcct(pro) + "/"
	add("accounts", account(pro, root, rootPath, 1, "pro", "Active", 0, false)) // accounts/create, the client's plan
	add("user-accounts", admin(pro))
	add("accounts", account(sub, root, rootPath, 1, "starter", "active", 5, true)) // create-sub-account
	add("user-accounts", admin(sub))
	add("accounts", account(grand, pro, proPath, 2, "starter", "active", 5, true)) // create-sub-account under the pro account
	add("user-accounts", admin(grand))
	// platform-connections/create (apikey) and oauth-callback (Keap).
	add("platform-connections", map[string]v1{"connectionId": v1s("connection:11111111-0000-4000-8000-000000000001"), "accountId": v1s(root),
		"userId": v1s(user), "platformId": v1s("platform:stripe"), "name": v1s("Stripe live"), "status": v1s("active"), "authType": v1s("apikey"),
		"credentials": v1m(map[string]v1{"apiKey": v1s("sk_live_51Hx-plaintext")}), "expiresAt": v1null(), "createdAt": v1t(at), "updatedAt": v1t(at)})
	add("platform-connections", map[string]v1{"connectionId": v1s("connection:22222222-0000-4000-8000-000000000002"), "accountId": v1s(root),
		"userId": v1s(user), "platformId": v1s("platform:keap"), "name": v1s("Keap Connection"), "status": v1s("active"), "authType": v1s("oauth"),
		"credentials": v1m(map[string]v1{"access_token": v1s("KeapAT-plaintext"), "refresh_token": v1s("KeapRT-plaintext"),
			"expires_in": v1n(86399), "token_type": v1s("bearer"), "scope": v1s("full|xy123.infusionsoft.com")}),
		"expiresAt": v1t(at.Add(24 * time.Hour)), "createdAt": v1t(at), "updatedAt": v1t(at)})
	// The paths the parentAccountId chain gives.
	paths := map[string]string{
		root:  "/" + trimAcct(root) + "/",
		pro:   "/" + trimAcct(root) + "/" + trimAcct(pro) + "/",
		sub:   "/" + trimAcct(root) + "/" + trimAcct(sub) + "/",
		grand: "/" + trimAcct(root) + "/" + trimAcct(pro) + "/" + trimAcct(grand) + "/",
	}
	return d, paths
}

// legacyPath returns the accountPath the handlers stored for account id.
func legacyPath(d map[string][]map[string]v1, id string) string {
	for _, it := range d["accounts"] {
		if it["accountId"].(*types.AttributeValueMemberS).Value == id {
			return it["accountPath"].(*types.AttributeValueMemberS).Value
		}
	}
	return ""
}

// singletable migrate -app listbackup -stack listbackup-<stage> on what
// ListBackup's own handlers wrote (issue 35): the command (run, as main
// calls it) exits 0; every item is copied (the "pro" account and its
// descendants included, the unknown plan kept and read back as itself and
// reported); verification is clean (the connections' tokens, renamed and
// sealed by the migration, compare unsealed with the legacy values); every
// account path is rebuilt from the parentAccountId chain and reported, so
// each account is in its root's subtree (LB-8) and its parent's children
// (LB-6).
func TestMigrateCommandHandlersDeployment_LB5_LB6_LB8_LB28(t *testing.T) {
	c, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	client := tabletest.Client(t)
	stack := legacytest.Stack(c, t, client, "listbackup-h", listbackup.CodeLayout())
	at := time.Now().Add(-time.Hour).UTC()
	data, paths := handlersDeployment(at)
	n := legacytest.Put(t, client, stack, data)
	main := tabletest.TableName("lbhandlers", t.Name())
	t.Cleanup(func() {
		client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(main)})
	})
	key := strings.Repeat("e1", 32)
	t.Setenv("SINGLETABLE_SECRET_KEY", key)
	out, err := runCmd(t, "migrate", "-app", "listbackup", "-stack", stack, "-endpoint", tabletest.Endpoint(t), "-table", main, "-create", "-quiet")
	t.Logf("singletable migrate:\n%s", out)
	if err != nil {
		t.Fatalf("migrate: %v (exit %d), want exit 0", err, exitCode(err))
	}
	checkOutput(t, out, []string{
		fmt.Sprintf("migrated %d items", n),
		"migrated " + stack + "-accounts -> Account: seen 4, changed 4, unchanged 0, skipped 0, in conflict 0",
		"migrated " + stack + "-user-accounts -> Membership: seen 4, changed 4",
		"migrated " + stack + "-platform-connections -> Connection: seen 2, changed 2",
		`kept plan "pro"`,
		"verified " + stack + "-accounts: 4 of 4 found (0 past their TTL, not copied), 0 differing",
		"verified " + stack + "-platform-connections: 2 of 2 found (0 past their TTL, not copied), 0 differing",
		"verified " + stack + "-user-accounts: 4 of 4 found (0 past their TTL, not copied), 0 differing",
	}, []string{"differs", "absent", "  conflict "})
	for id, want := range paths {
		if !strings.Contains(out, fmt.Sprintf("rebuilt accountPath of accountId=%s: %q -> %q", id, legacyPath(data, id), want)) {
			t.Errorf("no repair reported for %s (want %s)", id, want)
		}
	}

	// Read back through the library, on the migrated table.
	ciph, err := secretOptions()
	if err != nil {
		t.Fatal(err)
	}
	s := listbackup.New(table.New(client, listbackup.Schema(main), ciph...))
	const root = lb.AccountID("account:aaaaaaaa-0000-4000-8000-000000000001")
	const pro = lb.AccountID("account:bbbbbbbb-0000-4000-8000-000000000002")
	a, err := s.Accounts.ByID.Get(c, lb.Account{AccountID: pro}) // LB-5
	if err != nil || a.Plan != "pro" || a.AccountPath != paths[string(pro)] || a.ParentAccountID != root {
		t.Errorf("LB-5 the pro account: plan %q path %q parent %q, %v", a.Plan, a.AccountPath, a.ParentAccountID, err)
	}
	// An update of another field carries the unknown plan through.
	if a, err := s.Accounts.Update(c, pro, func(a *lb.Account) error { a.AccountName = "Pro renamed"; return nil }); err != nil || a.Plan != "pro" {
		t.Errorf("update of the pro account: plan %q, %v", a.Plan, err)
	}
	kids, err := s.Accounts.Children.List(c, lb.Account{ParentAccountID: root}) // LB-6
	var kidIDs []string
	for _, k := range kids.Items {
		kidIDs = append(kidIDs, string(k.AccountID))
	}
	if err != nil || !slices.Equal(kidIDs, []string{string(pro), "account:cccccccc-0000-4000-8000-000000000003"}) {
		t.Errorf("LB-6 children of the root: %v, %v", kidIDs, err)
	}
	tree, err := s.Accounts.Subtree.List(c, lb.Account{AccountPath: paths[string(root)]}) // LB-8
	var got []string
	for _, x := range tree.Items {
		got = append(got, string(x.AccountID))
	}
	if err != nil || len(got) != 4 {
		t.Errorf("LB-8 the root's subtree: %v, %v; want all 4 accounts", got, err)
	}
	under, err := s.Accounts.Subtree.List(c, lb.Account{AccountPath: paths[string(pro)]})
	if err != nil || len(under.Items) != 2 {
		t.Errorf("LB-8 the pro account's subtree: %d accounts, %v; want it and its child", len(under.Items), err)
	}
	conns, err := s.Connections.ByAccountPlatform.List(c, lb.Connection{AccountID: root, Platform: lb.PlatformKeap}) // LB-28
	if err != nil || len(conns.Items) != 1 || conns.Items[0].Credentials.AccessToken != "KeapAT-plaintext" || conns.Items[0].Credentials.RefreshToken != "KeapRT-plaintext" {
		t.Errorf("LB-28 the Keap connection: %+v, %v", conns.Items, err)
	}
	stripe, err := s.Connections.ByID.Get(c, lb.Connection{ConnectionID: "connection:11111111-0000-4000-8000-000000000001"})
	if err != nil || stripe.Credentials.APIKey != "sk_live_51Hx-plaintext" {
		t.Errorf("the API key connection: %+v, %v", stripe.Credentials, err)
	}
	// The tokens are sealed at rest: no plaintext in the migrated table.
	for _, id := range []string{"connection:11111111-0000-4000-8000-000000000001", "connection:22222222-0000-4000-8000-000000000002"} {
		raw := tabletest.RawItem(t, s.Table(), table.Key{PK: "CONN#" + id, SK: lb.SKConn})
		if strings.Contains(fmt.Sprint(raw), "plaintext") {
			t.Errorf("%s holds a plaintext token: %v", id, raw["credentials"])
		}
	}
}
