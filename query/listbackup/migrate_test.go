package listbackup_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/internal/legacytest"
	"github.com/singletable/singletable/migrate"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// legacyData is a generated legacy deployment: the raw items of each
// legacy table, written as the documents define them (plaintext secrets,
// composite key attributes, some empty strings and NULLs).
type legacyData map[string][]table.Item

func (d legacyData) total() int {
	n := 0
	for _, items := range d {
		n += len(items)
	}
	return n
}

// genLegacy builds a data set of realistic shape: scale 1 is about 3,500
// items over the 19 tables.
func genLegacy(t testing.TB, scale int) legacyData {
	t.Helper()
	d := legacyData{}
	at := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	add := func(suffix string, v any, extra map[string]string) {
		item, err := dynamo.MarshalItem(v)
		if err != nil {
			t.Fatal(err)
		}
		for k, val := range extra {
			item[k] = &types.AttributeValueMemberS{Value: val}
		}
		d[suffix] = append(d[suffix], item)
	}
	ts := func(tm time.Time) string { return fmt.Sprint(tm.Unix()) }
	nAcct, nUser := 40*scale, 300*scale
	for i := range nAcct {
		a := lb.Account{AccountID: lb.AccountID(fmt.Sprintf("account:%04d", i)), AccountName: fmt.Sprintf("Account %d", i),
			AccountPath: fmt.Sprintf("/a%d/", i), AccountType: lb.AccountConglomerate, Status: lb.AccountActive, Plan: lb.PlanStarter,
			CreatedAt: at, UpdatedAt: at}
		add("accounts", a, nil)
		for j := range 2 {
			c := lb.Account{AccountID: lb.AccountID(fmt.Sprintf("account:%04d-%d", i, j)), AccountName: fmt.Sprintf("Account %d.%d", i, j),
				ParentAccountID: a.AccountID, AccountPath: fmt.Sprintf("/a%d/s%d/", i, j), AccountType: lb.AccountSubsidiary, Level: 1,
				Status: lb.AccountActive, CreatedAt: at, UpdatedAt: at}
			add("accounts", c, nil)
		}
	}
	acct := func(i int) lb.AccountID { return lb.AccountID(fmt.Sprintf("account:%04d", i%nAcct)) }
	for i := range nUser {
		u := lb.User{UserID: lb.UserID(fmt.Sprintf("user:sub-%05d", i)), Email: fmt.Sprintf("User%d@Example.com", i),
			Name: fmt.Sprintf("User %d", i), AccountID: acct(i), Status: lb.UserActive, Role: lb.UserRoleUser, CreatedAt: at, UpdatedAt: at}
		if i%3 == 0 {
			u.Username = fmt.Sprintf("user%d", i)
		}
		if i%10 == 0 {
			u.MFAEnabled, u.MFASecret = true, fmt.Sprintf("JBSWY3DPEHPK3PXP%d", i) // plaintext in the legacy table
		}
		add("users", u, nil)
		add("users-accounts", lb.Membership{UserID: u.UserID, AccountID: u.AccountID, Role: lb.MemberMember, Status: lb.MemberActive, JoinedAt: at}, nil)
	}
	user := func(i int) lb.UserID { return lb.UserID(fmt.Sprintf("user:sub-%05d", i%nUser)) }
	for i := range 20 * scale {
		add("teams", lb.Team{AccountID: acct(i), TeamID: lb.TeamID(fmt.Sprintf("team:%d", i)), TeamName: fmt.Sprintf("Team %d", i),
			Members: []lb.TeamMember{{UserID: user(i), Role: lb.TeamRoleLead}}, CreatedAt: at, UpdatedAt: at}, nil)
	}
	for i := range 200 * scale {
		src := lb.Source{AccountID: acct(i), SourceID: lb.SourceID(fmt.Sprintf("source:%05d", i)), SourceName: fmt.Sprintf("Source %d", i),
			Platform: lb.PlatformStripe, PlatformID: lb.PlatformStripe, ConnectionType: lb.ConnAPIKey, Status: lb.SourceActive,
			Credentials: lb.SourceCredentials{Data: fmt.Sprintf("sk_live_%d", i)}, CreatedAt: at, UpdatedAt: at}
		add("sources", src, nil)
		add("oauth-tokens", lb.OAuthToken{SourceID: src.SourceID, AccountID: src.AccountID, Platform: lb.PlatformStripe,
			Tokens: lb.OAuthTokenSet{AccessToken: fmt.Sprintf("at-%d", i), RefreshToken: fmt.Sprintf("rt-%d", i)}, CreatedAt: at, UpdatedAt: at}, nil)
		if i%2 == 0 {
			add("sync_schedules", lb.SyncSchedule{SourceID: src.SourceID, ScheduleID: lb.ScheduleID(fmt.Sprintf("schedule:%d", i)),
				ScheduleType: lb.ScheduleDaily, DataTypes: []string{"contacts"}, IsActive: true, NextRunAt: at.Add(24 * time.Hour),
				CreatedAt: at, UpdatedAt: at}, nil)
			add("sync_history", lb.SyncRun{SourceID: src.SourceID, SyncID: lb.SyncID(fmt.Sprintf("sync:%d", i)), Status: lb.RunCompleted,
				StartedAt: at, DataTypes: []string{"contacts"}}, nil)
		}
	}
	// Activities and notifications are recent (they expire after 90 and
	// 30 days); the last ten of each are past their retention.
	recent := time.Now().UTC().Add(-24 * time.Hour).Truncate(time.Second)
	for i := range 1000 * scale {
		created := recent.Add(time.Duration(i) * time.Second)
		if i >= 1000*scale-10 {
			created = at
		}
		id := fmt.Sprintf("evt-%06d", i)
		a := lb.Activity{AccountID: acct(i), EventID: lb.EventID(id), UserID: user(i), EventType: "source.created",
			ResourceType: lb.ResSource, ResourceID: "source:1", Action: lb.ActionCreate, CreatedAt: created, Timestamp: created}
		add("activities", a, map[string]string{"timestamp#eventId": ts(created) + "#" + id, "ipAddress": ""})
	}
	for i := range 200 * scale {
		add("jobs", lb.Job{AccountID: acct(i), JobID: lb.JobID(fmt.Sprintf("job:%05d", i)), JobType: lb.JobSync, Status: lb.JobPending,
			Priority: lb.PriorityMedium, SourceID: lb.SourceID(fmt.Sprintf("source:%05d", i)), CreatedAt: at}, nil)
	}
	for i := range 100 * scale {
		add("connections", lb.Connection{ConnectionID: lb.ConnectionID(fmt.Sprintf("connection:%d", i)), AccountID: acct(i), UserID: user(i),
			Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth, Status: lb.ConnectionActive,
			Credentials: lb.ConnectionCredentials{AccessToken: fmt.Sprintf("cat-%d", i), RefreshToken: fmt.Sprintf("crt-%d", i)},
			CreatedAt:   at, UpdatedAt: at}, nil)
	}
	for i := range 20 * scale {
		add("oauth-states", lb.OAuthState{State: fmt.Sprintf("st%020dQwErTy", i), AccountID: acct(i), UserID: user(i), Platform: lb.PlatformKeap,
			RedirectURI: "https://app.listbackup.ai/callback", ExpiresAt: time.Now().Add(time.Hour).UTC().Truncate(time.Second), CreatedAt: at}, nil)
	}
	for i := range 200 * scale {
		add("refresh-tokens", lb.RefreshToken{TokenHash: fmt.Sprintf("%064x", i+1), UserID: user(i), TokenFamily: lb.TokenFamilyID(fmt.Sprintf("family-%d", i/2)),
			IssuedAt: time.Now().UTC().Truncate(time.Second), ExpiresAt: time.Now().Add(30 * 24 * time.Hour).UTC().Truncate(time.Second)}, nil)
	}
	for i := range 100 * scale {
		tg := lb.Tag{TagID: lb.TagID(fmt.Sprintf("tag:%d", i)), TagKey: "env", TagValue: fmt.Sprintf("v%d#x", i), ResourceType: lb.ResSource,
			CreatedAt: at, UpdatedAt: at}
		// v2 keeps the account only in the composite key.
		add("tags", tg, map[string]string{"accountId#resourceType": string(acct(i)) + "#source", "tagKey#tagValue": "env#" + tg.TagValue})
	}
	for i := range 300 * scale {
		created := recent.Add(time.Duration(i) * time.Second)
		if i >= 300*scale-10 {
			created = at
		}
		id := fmt.Sprintf("notification:%d", i)
		add("notifications", lb.Notification{UserID: user(i), NotificationID: lb.NotificationID(id), AccountID: acct(i), Type: lb.NotifyInfo,
			Category: lb.CategorySystem, Message: "Backup done", Status: lb.NotificationSent, CreatedAt: created},
			map[string]string{"timestamp#notificationId": ts(created) + "#" + id})
	}
	for i := range 50 * scale {
		add("api_keys", lb.APIKey{APIKeyID: lb.APIKeyID(fmt.Sprintf("apikey:%d", i)), APIKeyHash: fmt.Sprintf("%064x", 1_000_000+i),
			AccountID: acct(i), UserID: user(i), Name: "CI", Status: lb.KeyActive, Permissions: []string{"read"}, CreatedAt: at}, nil)
	}
	for i := range 30 * scale {
		add("webhooks", lb.Webhook{WebhookID: lb.WebhookID(fmt.Sprintf("webhook:%d", i)), AccountID: acct(i), URL: "https://hooks.example.com/lb",
			Secret: fmt.Sprintf("whsec-%d", i), Events: []string{"sync.completed"}, IsActive: i%3 != 0, CreatedAt: at, UpdatedAt: at}, nil)
	}
	for i := range 100 * scale {
		add("usage_metrics", lb.UsageMetrics{AccountID: acct(i), MetricDate: lb.Date(fmt.Sprintf("2025-05-%02d", 1+i/nAcct%28)), APICalls: int64(i)}, nil)
	}
	for i, name := range []string{"Free", "Starter", "Pro", "Business", "Enterprise"} {
		add("billing_plans", lb.BillingPlan{PlanID: lb.PlanID(strings.ToLower(name)), PlanName: name, PlanType: lb.PlanStarter,
			Price: int64(i * 2900), Currency: "USD", IsActive: true, CreatedAt: at, UpdatedAt: at}, nil)
	}
	// The documents allow NULL for optional attributes.
	d["accounts"][0]["createdBy"] = &types.AttributeValueMemberNULL{Value: true}
	d["users"][0]["lastLoginAt"] = &types.AttributeValueMemberNULL{Value: true}
	return d
}

func reportTotals(rs []migrate.TableResult) (changed, unchanged, conflicted int64, conflicts []string) {
	for _, r := range rs {
		changed += r.Report.Changed
		unchanged += r.Report.Unchanged
		conflicted += r.Report.Conflicted
		for _, c := range r.Report.Conflicts {
			conflicts = append(conflicts, r.Name+" "+c.Key.PK+" "+c.Key.SK+": "+c.Reason)
		}
	}
	return
}

// countItems counts the items of the single table by entity type.
func countItems(t testing.TB, tb *table.Table) map[string]int {
	t.Helper()
	counts := map[string]int{}
	var start map[string]types.AttributeValue
	for {
		out, err := tb.Client().Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(tb.Name()), ExclusiveStartKey: start})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range out.Items {
			if v, ok := it["_type"].(*types.AttributeValueMemberS); ok {
				counts[v.Value]++
			}
		}
		if len(out.LastEvaluatedKey) == 0 {
			return counts
		}
		start = out.LastEvaluatedKey
	}
}

// A ListBackup deployment in its 13 + 6 legacy tables, created as the
// documents define them and filled with about 3,500 generated items,
// migrates into the single table: a dry run writes nothing, the run
// creates every item through its entity (guards, indexes, sealed
// secrets), an interrupted run resumes from its checkpoints, a second run
// changes nothing, and verification finds every legacy item, equal field
// by field, through the access patterns (LB-1, LB-5, LB-14, LB-18, LB-62).
func TestMigrateLegacyDeployment_LB1_LB5_LB14_LB18_LB62(t *testing.T) {
	// Longer than ctx's two minutes: five passes over 3,445 items on a
	// DynamoDB Local shared by other test runs.
	c, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	client := tabletest.Client(t)
	stack := legacytest.Stack(c, t, client, "lbmig", listbackup.DocumentsLayout())
	data := genLegacy(t, 1)
	legacytest.Put(t, client, stack, data)
	t.Logf("legacy data set: %d items in %d tables", data.total(), len(data))
	tb := tabletest.NewTable(t, listbackup.Schema("lbmig"), func(o *table.Options) { o.Cipher = tabletest.Cipher() })
	s := listbackup.New(tb)

	// 1. A dry run converts and validates everything and writes nothing
	// but checkpoints.
	dry, err := s.Migrate(c, migrate.Options{Stack: stack, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	changed, _, conflicted, conflicts := reportTotals(dry)
	const expired = 20 // ten activities and ten notifications past their retention
	live := data.total() - expired
	if conflicted != 0 || changed != int64(live) {
		t.Fatalf("dry run: %d would change, %d conflicts (want %d, 0): %v", changed, conflicted, live, first(conflicts, 5))
	}
	if n := countItems(t, tb); len(n) != 0 && !(len(n) == 1 && n["_job"] > 0) {
		t.Fatalf("a dry run wrote items: %v", n)
	}

	// 2. The run is interrupted after a few pages of activities, then
	// resumed from its checkpoints.
	ictx, cancel := context.WithCancel(c)
	var pages atomic.Int64
	_, err = s.Migrate(ictx, migrate.Options{Stack: stack, Segments: 4, Progress: func(legacy string, r table.JobReport) {
		if strings.HasSuffix(legacy, "-activities") && pages.Add(1) == 3 {
			cancel()
		}
	}})
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v, want context.Canceled", err)
	}
	started := time.Now()
	res, err := s.Migrate(c, migrate.Options{Stack: stack, Segments: 4, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(started)
	changed, unchanged, conflicted, conflicts := reportTotals(res)
	if conflicted != 0 {
		t.Fatalf("%d conflicts: %v", conflicted, first(conflicts, 5))
	}
	t.Logf("resumed run: %d created, %d already there, in %v", changed, unchanged, took.Round(time.Millisecond))

	// Every legacy item is an item of its entity, once.
	counts := countItems(t, tb)
	want := map[string]int{}
	for _, lt := range listbackup.DocumentsLayout().Tables {
		want[lt.Entity] += len(data[lt.Suffix])
	}
	want[listbackup.TypeActivity] -= 10
	want[listbackup.TypeNotification] -= 10
	for ent, n := range want {
		if counts[ent] != n {
			t.Errorf("%s: %d items in the single table, %d in the legacy tables", ent, counts[ent], n)
		}
	}

	// 3. A second run changes nothing.
	again, err := s.Migrate(c, migrate.Options{Stack: stack})
	if err != nil {
		t.Fatal(err)
	}
	if changed, unchanged, conflicted, _ := reportTotals(again); changed != 0 || conflicted != 0 || unchanged != int64(live) {
		t.Errorf("second run: %d changed, %d unchanged, %d conflicts; want 0, %d, 0", changed, unchanged, conflicted, live)
	}

	// 4. Verification: every legacy item found by its key, equal.
	ver, err := s.VerifyMigration(c, stack)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range ver {
		if v.Found+v.Expired != v.Scanned || !v.OK() {
			t.Errorf("%s: %d of %d found (%d expired), absent %v, differences %v", v.Name, v.Found, v.Scanned, v.Expired, first(v.Absent, 3), first(v.Differences, 5))
		}
		if n := len(data[strings.TrimPrefix(v.Name, stack+"-")]); v.Scanned != n {
			t.Errorf("%s: verification scanned %d, the table holds %d", v.Name, v.Scanned, n)
		}
	}

	// The migrated data answers the access patterns.
	u, err := s.Users.GetByEmail(c, "user7@example.com") // LB-1, by email whatever its case
	if err != nil || u.UserID != "user:sub-00007" {
		t.Errorf("LB-1 user by email: %+v, %v", u.UserID, err)
	}
	kids, err := s.Accounts.Children.List(c, lb.Account{ParentAccountID: "account:0003"}) // LB-5
	if err != nil || len(kids.Items) != 2 {
		t.Errorf("LB-5 children: %d, %v", len(kids.Items), err)
	}
	srcs, err := s.Sources.ByAccount.List(c, lb.Source{AccountID: "account:0001"}) // LB-14
	if err != nil || len(srcs.Items) != 5 {
		t.Errorf("LB-14 sources of account:0001: %d, %v", len(srcs.Items), err)
	}
	acts, err := s.Activities.ByAccount.Between(c, lb.Activity{AccountID: "account:0001"}, lb.Activity{AccountID: "account:0001"}) // LB-18
	if err != nil || len(acts.Items) == 0 {
		t.Errorf("LB-18 activities: %d, %v", len(acts.Items), err)
	}
	plans, err := s.Plans.Active.List(c, lb.BillingPlan{}) // LB-62
	if err != nil || len(plans.Items) != 5 {
		t.Errorf("LB-62 plans: %d, %v", len(plans.Items), err)
	}
	// Secrets that were plaintext in the legacy tables are sealed.
	raw, err := tb.Client().GetItem(c, &dynamodb.GetItemInput{TableName: aws.String(tb.Name()), Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: "SOURCE#source:00001"}, "SK": &types.AttributeValueMemberS{Value: "SOURCE"}}})
	if err != nil {
		t.Fatal(err)
	}
	cred, _ := raw.Item["credentials"].(*types.AttributeValueMemberM)
	if cred == nil {
		t.Fatalf("migrated source has no credentials: %v", raw.Item)
	}
	if _, sealed := cred.Value["encryptedData"].(*types.AttributeValueMemberB); !sealed {
		t.Errorf("migrated source credentials stored as %T, want a sealed binary envelope", cred.Value["encryptedData"])
	}
	src, err := s.Sources.ByID.Get(c, lb.Source{SourceID: "source:00001"})
	if err != nil || src.Credentials.Data != "sk_live_1" {
		t.Errorf("migrated secret reads back as %q, %v", src.Credentials.Data, err)
	}
}

func first[T any](s []T, n int) []T { return s[:min(n, len(s))] }

// BenchmarkMigrate measures the migration of the generated deployment
// (about 3,500 items over 19 legacy tables) against a raw BatchWriteItem
// of the same converted items into an empty table, in the same run:
// items/s of each and their ratio. The migration does more per item (a
// conditional create, guard items in a transaction, a parallel Scan of
// each legacy table, checkpoints), so it is expected to be slower; the
// ratio says by how much.
func BenchmarkMigrate(b *testing.B) {
	c := context.Background()
	client := tabletest.Client(b)
	stack := legacytest.Stack(c, b, client, "lbbench", listbackup.DocumentsLayout())
	data := genLegacy(b, 1)
	legacytest.Put(b, client, stack, data)
	withCipher := func(o *table.Options) { o.Cipher = tabletest.Cipher() }
	var migrated, raw time.Duration
	var items int64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tb := tabletest.NewTable(b, listbackup.Schema(fmt.Sprintf("lbbench%d", i)), withCipher)
		s := listbackup.New(tb)
		b.StartTimer()
		start := time.Now()
		res, err := s.Migrate(c, migrate.Options{Stack: stack, Segments: 4})
		migrated += time.Since(start)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range res {
			items += r.Report.Changed
		}
		// The same items, as the migration wrote them, written raw.
		var written []table.Item
		var from map[string]types.AttributeValue
		for {
			out, err := client.Scan(c, &dynamodb.ScanInput{TableName: aws.String(tb.Name()), ExclusiveStartKey: from})
			if err != nil {
				b.Fatal(err)
			}
			written = append(written, out.Items...)
			if len(out.LastEvaluatedKey) == 0 {
				break
			}
			from = out.LastEvaluatedKey
		}
		dst := tabletest.NewTable(b, listbackup.Schema(fmt.Sprintf("lbraw%d", i)))
		start = time.Now()
		for j := 0; j < len(written); j += 25 {
			var reqs []types.WriteRequest
			for _, it := range written[j:min(j+25, len(written))] {
				reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
			}
			in := map[string][]types.WriteRequest{dst.Name(): reqs}
			for len(in) > 0 {
				out, err := client.BatchWriteItem(c, &dynamodb.BatchWriteItemInput{RequestItems: in})
				if err != nil {
					b.Fatal(err)
				}
				in = out.UnprocessedItems
			}
		}
		raw += time.Since(start)
		b.ReportMetric(float64(len(written)), "items-written/op")
	}
	b.ReportMetric(float64(items)/migrated.Seconds(), "migrated-items/s")
	b.ReportMetric(float64(items)/raw.Seconds(), "raw-batchwrite-items/s")
	b.ReportMetric(raw.Seconds()/migrated.Seconds(), "migrate/raw-throughput")
}
