package listbackup_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/migrate"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
	"github.com/singletable/singletable/table/feed/feedtest"
)

var errQueueDown = errors.New("queue unavailable")

// recQueue is a recording job queue (the service-supplied interface, not
// a mock of the store). It refuses what SQS refuses (an empty attribute
// value, an empty or over-long group or deduplication ID), fails the
// next fail sends, and records every message it accepted.
type recQueue struct {
	mu       sync.Mutex
	sent     []listbackup.JobMessage
	fail     int
	failures int
}

func (q *recQueue) Send(_ context.Context, m listbackup.JobMessage) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.fail > 0 {
		q.fail--
		q.failures++
		return errQueueDown
	}
	for name, v := range m.Attributes {
		if v == "" {
			return fmt.Errorf("InvalidParameterValue: message attribute %s has an empty value", name)
		}
	}
	if m.GroupID == "" || len(m.GroupID) > 128 || m.DeduplicationID == "" || len(m.DeduplicationID) > 128 || m.Body == "" {
		return fmt.Errorf("InvalidParameterValue: group %q, deduplication ID %q", m.GroupID, m.DeduplicationID)
	}
	q.sent = append(q.sent, m)
	return nil
}

func (q *recQueue) messages() []listbackup.JobMessage {
	q.mu.Lock()
	defer q.mu.Unlock()
	return slices.Clone(q.sent)
}

// delivered is what a FIFO queue keeps of the messages sent within its
// five-minute deduplication window (the whole test): the first message of
// each deduplication ID.
func delivered(sent []listbackup.JobMessage) []listbackup.JobMessage {
	seen := map[string]bool{}
	var out []listbackup.JobMessage
	for _, m := range sent {
		if !seen[m.DeduplicationID] {
			seen[m.DeduplicationID] = true
			out = append(out, m)
		}
	}
	return out
}

// msg is a message as the legacy handler routes it, with its flaws fixed:
// no empty attribute, a deduplication ID per attempt.
func msg(queue, group, dedup string, b listbackup.JobBody) listbackup.JobMessage {
	body, _ := json.Marshal(b)
	m := listbackup.JobMessage{Queue: queue, GroupID: group, DeduplicationID: dedup, Body: string(body),
		Attributes: map[string]string{"JobType": b.Type, "Priority": b.Priority, "AccountId": b.AccountID}}
	if b.SourceID != "" {
		m.Attributes["SourceId"] = b.SourceID
	}
	if b.SubType != "" {
		m.Attributes["SubType"] = b.SubType
	}
	return m
}

// streamStore is a store on a fresh table whose schema declares the
// stream (listbackup.Schema), with the job queue handler on a router.
type streamStore struct {
	*fixture
	q      *recQueue
	router *feed.Router
	mu     sync.Mutex
	events []listbackup.JobEvent
}

func newStreamStore(t *testing.T) *streamStore {
	f := newFixture(t)
	if f.tbl.Schema().Stream != types.StreamViewTypeNewAndOldImages {
		t.Fatalf("listbackup.Schema declares stream %q, want NEW_AND_OLD_IMAGES", f.tbl.Schema().Stream)
	}
	s := &streamStore{fixture: f, q: &recQueue{}, router: feed.NewRouter(f.tbl)}
	h := listbackup.NewJobQueueHandler(f.Store, s.q)
	h.Observe = func(_ context.Context, e listbackup.JobEvent) {
		s.mu.Lock()
		s.events = append(s.events, e)
		s.mu.Unlock()
	}
	h.Register(s.router)
	s.router.Unknown(func(_ context.Context, rec table.Record) error {
		return fmt.Errorf("a record of no ListBackup entity: %v", rec.Keys)
	})
	return s
}

// actions returns the actions the handler took on job id, in order.
func (s *streamStore) actions(id lb.JobID) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, e := range s.events {
		if e.Job.JobID == id {
			out = append(out, e.Action.String())
		}
	}
	return out
}

func (s *streamStore) consumer(name string) *feed.Consumer {
	return &feed.Consumer{Table: s.tbl, Name: name, Handler: s.router, Poll: 10 * time.Millisecond, Backoff: time.Millisecond, MaxBackoff: 20 * time.Millisecond}
}

func (s *streamStore) setStatus(t *testing.T, c context.Context, id lb.JobID, st ...lb.JobStatus) {
	t.Helper()
	for _, x := range st {
		_, err := s.Jobs.Update(c, id, func(j *lb.Job) error { j.Status = x; return nil })
		must(t, err)
	}
}

// writeEveryEntity writes an item of every entity the store binds, through
// the store's own methods, then changes and deletes some: the writes of
// ListBackup next to which its jobs live. IDs carry p.
func writeEveryEntity(t *testing.T, c context.Context, s *listbackup.Store, p string, now time.Time) {
	t.Helper()
	id := func(x string) string { return p + "-" + x }
	acct, user, src := lb.AccountID(id("acct")), lb.UserID(id("user")), lb.SourceID(id("src"))
	must(t, s.Users.Create(c, newUser(string(user), p+"@example.com", p+"user")))
	_, err := s.Users.Update(c, user, func(u *lb.User) error { u.Email = p + "@example.org"; return nil }) // the email guard moves
	must(t, err)
	must(t, s.Accounts.Create(c, &lb.Account{AccountID: acct, AccountName: "Acme " + p, AccountPath: "/" + p + "/", AccountType: lb.AccountConglomerate}))
	must(t, s.Memberships.Add(c, &lb.Membership{UserID: user, AccountID: acct, Role: lb.MemberOwner, IsDefault: true}))
	must(t, s.Teams.Create(c, &lb.Team{AccountID: acct, TeamID: lb.TeamID(id("team")), TeamName: "Ops", Members: []lb.TeamMember{{UserID: user, Role: lb.TeamRoleLead}}}))
	_, err = s.Teams.Update(c, lb.TeamID(id("team")), func(tm *lb.Team) error { tm.TeamName = "Operations"; return nil })
	must(t, err)
	must(t, s.Sources.Create(c, &lb.Source{AccountID: acct, SourceID: src, SourceName: "Keap", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth}))
	must(t, s.Activities.Record(c, &lb.Activity{AccountID: acct, EventID: lb.EventID(id("evt")), UserID: user, EventType: "source.created",
		ResourceType: lb.ResSource, Action: lb.ActionCreate, CreatedAt: now}))
	must(t, s.Connections.Create(c, &lb.Connection{ConnectionID: lb.ConnectionID(id("conn")), AccountID: acct, UserID: user, Platform: lb.PlatformKeap,
		ConnectionType: lb.ConnOAuth, Credentials: lb.ConnectionCredentials{AccessToken: "at", RefreshToken: "rt"}}))
	st, err := s.OAuthStates.Create(c, listbackup.NewOAuthState{AccountID: acct, UserID: user, Platform: lb.PlatformKeap,
		RedirectURI: "https://app.example.com/cb", Metadata: lb.OAuthStateMetadata{SourceID: src}})
	must(t, err)
	_, err = s.OAuthStates.Consume(c, st.State)
	must(t, err)
	must(t, s.OAuthTokens.Save(c, &lb.OAuthToken{SourceID: src, AccountID: acct, Platform: lb.PlatformKeap, Tokens: lb.OAuthTokenSet{AccessToken: "at"}}))
	plain, _, err := s.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: user, AccountID: acct, UserAgent: "test"})
	must(t, err)
	_, _, err = s.RefreshTokens.Rotate(c, plain, "test", "10.0.0.1")
	must(t, err)
	must(t, s.Tags.Create(c, &lb.Tag{AccountID: acct, TagID: lb.TagID(id("tag")), TagKey: "env", TagValue: "prod", ResourceType: lb.ResSource}))
	must(t, s.Notifications.Send(c, &lb.Notification{UserID: user, NotificationID: lb.NotificationID(id("note")), AccountID: acct,
		Type: lb.NotifyInApp, Category: lb.CategoryJob, Subject: "Job done", Message: "done", Title: "Done"}))
	must(t, s.Schedules.Create(c, &lb.SyncSchedule{SourceID: src, ScheduleID: lb.ScheduleID(id("sched")), ScheduleType: lb.ScheduleHourly,
		DataTypes: []string{"contacts"}, IsActive: true, NextRunAt: now.Add(time.Hour)}))
	must(t, s.Runs.Record(c, &lb.SyncRun{SourceID: src, SyncID: lb.SyncID(id("run")), DataTypes: []string{"contacts"}, StartedAt: now,
		RecordsProcessed: map[string]int64{}}))
	_, _, err = s.APIKeys.Create(c, listbackup.NewAPIKey{AccountID: acct, UserID: user, Name: "ci", Permissions: []string{"read"}})
	must(t, err)
	must(t, s.Webhooks.Create(c, &lb.Webhook{WebhookID: lb.WebhookID(id("hook")), AccountID: acct, URL: "https://a.example/h",
		Events: []string{"sync.completed"}, IsActive: true, Secret: "s1"}))
	_, err = s.Usage.Increment(c, acct, "2025-03-14", map[lb.Counter]int64{lb.CounterAPICalls: 1})
	must(t, err)
	must(t, s.Plans.Put(c, &lb.BillingPlan{PlanID: lb.PlanID(id("plan")), PlanName: "Pro", PlanType: lb.PlanProfessional, Price: 4900, Currency: "USD", IsActive: true}))
	must(t, s.SourceGroups.Create(c, &lb.SourceGroup{GroupID: lb.SourceGroupID(id("group")), AccountID: acct, ConnectionID: lb.ConnectionID(id("conn")), Name: "My Keap"}))
	must(t, s.TeamMembers.Add(c, &lb.TeamMembership{TeamID: lb.TeamID(id("team")), UserID: user, Role: "member"}))
	must(t, s.Labels.Create(c, &lb.Label{TagID: lb.TagID(id("label")), AccountID: acct, Name: "Production", Color: "#ff0000"}))
	must(t, s.Labels.Tag(c, &lb.EntityTag{EntityTagID: lb.EntityTagID(id("et")), AccountID: acct, EntityType: "source", EntityID: string(src), TagID: lb.TagID(id("label"))}))
	must(t, s.MFACodes.Create(c, &lb.MFACode{CodeID: lb.MFACodeID(id("code")), UserID: user, Code: "123456", CreatedAt: now, ExpiresAt: now.Add(5 * time.Minute)}))
	must(t, s.Catalog.PutPlatform(c, &lb.CatalogPlatform{PlatformID: lb.CatalogPlatformID(id("keap")), Name: "Keap"}))
	must(t, s.Catalog.PutSource(c, &lb.CatalogSource{PlatformSourceID: lb.PlatformSourceID(id("keap-contacts")), PlatformID: lb.CatalogPlatformID(id("keap")), Name: "Contacts"}))
	must(t, s.Inbox.Create(c, &lb.InboxNotification{NotificationID: lb.NotificationID(id("inbox")), AccountID: acct, UserID: user,
		Type: lb.InboxInfo, Category: "backup", Title: "Backup done", Message: "1,200 records", Status: lb.InboxUnread, CreatedAt: now}))
	_, err = s.Inbox.MarkRead(c, lb.NotificationID(id("inbox")))
	must(t, err)
	must(t, s.Teams.Delete(c, lb.TeamID(id("team"))))
}

// migrateLegacyJob writes a job as ListBackup's jobs/create writes it (no
// priority, status created, its retry limit under config) into a legacy
// jobs table and migrates it into the store's table (singletable
// migrate's path): the INSERT the stream then carries.
func migrateLegacyJob(t *testing.T, c context.Context, s *listbackup.Store, id, acct, src, typ, subType string, at time.Time) {
	t.Helper()
	client := s.Table().Client()
	stack := fmt.Sprintf("lbq%d", time.Now().UnixNano()%1_000_000_000)
	name := stack + "-jobs"
	if _, err := client.CreateTable(c, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("jobId"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("jobId"), AttributeType: types.ScalarAttributeTypeS}}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	})
	item := map[string]av{"jobId": sv(id), "accountId": sv(acct), "userId": sv("user:legacy"), "sourceId": sv(src), "name": sv("Nightly " + typ),
		"type": sv(typ), "subType": sv(subType), "priority": null(), "schedule": sv("0 2 * * *"), "status": sv("created"), "enabled": bv(true),
		"config":    mv(map[string]av{"endpoints": null(), "retentionDays": nv(0), "incrementalSync": bv(false), "maxRetries": nv(0), "timeout": nv(0), "metadata": null()}),
		"createdAt": tv(at), "updatedAt": tv(at)}
	if _, err := client.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(name), Item: item}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Migrate(c, migrate.Options{Stack: stack, Manifest: listbackup.CodeLayout(), Tables: []string{"jobs"}, Segments: 1})
	must(t, err)
	if len(res) != 1 || res[0].Report.Changed != 1 {
		t.Fatalf("migrate the legacy job: %+v", res)
	}
}

// killAt makes a batch handler that routes records through r until stop
// says a record is the one to crash after: it then cancels the run and
// reports handled only the records before the back ones before it, as a
// consumer killed before its checkpoint (the back records and the one it
// stopped at are delivered again).
func killAt(r *feed.Router, cancel context.CancelFunc, back int, stop func(table.Record) bool) feed.BatchHandler {
	killed := false
	return feed.BatchFunc(func(ctx context.Context, b feed.Batch) (int, error) {
		if killed {
			return 0, errors.New("handler called after the kill")
		}
		for i, rec := range b.Records {
			if err := r.Route(ctx, rec); err != nil {
				return i, err
			}
			if stop(rec) {
				killed = true
				cancel()
				return max(0, i-back), context.Canceled
			}
		}
		return len(b.Records), nil
	})
}

func strOf(img table.Item, name string) string {
	if s, ok := img[name].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// A ListBackup job's lifecycle on the single table, heard from DynamoDB
// Local's real stream through the library's consumer, next to writes of
// every other ListBackup entity, with a consumer killed in the middle and a
// second of the same name resuming (LB-84): every message routes as the
// legacy handler routes it, with its four flaws fixed; none is lost; the
// only messages sent twice are those of the records the killed consumer
// had not checkpointed, and each repeat carries its first send's
// deduplication ID (the FIFO queue drops it). Jobs are created, run,
// failed, retried, cancelled and deleted through the store's own methods.
func TestJobQueueLifecycle_LB84(t *testing.T) {
	s := newStreamStore(t)
	c, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	now := s.clock.Now()
	start := time.Now()
	lap := func(what string) { t.Logf("%s: %v", what, time.Since(start).Round(time.Millisecond)) }
	const acct, s1, s2 = "qa1", "qs1", "qs2"
	body := func(id, typ, src, prio string, status lb.JobStatus, n, limit int) listbackup.JobBody {
		return listbackup.JobBody{JobID: id, AccountID: acct, SourceID: src, Type: typ, Priority: prio, Status: string(status), RetryCount: n, MaxRetries: limit}
	}
	var want []listbackup.JobMessage

	// Phase 1, one consumer: jobs created next to every other entity.
	writeEveryEntity(t, c, s.Store, "p1", now)
	must(t, s.Jobs.Create(c, &lb.Job{AccountID: acct, JobID: "jA", JobType: lb.JobSync, SourceID: s1, MaxRetries: 2}))
	want = append(want, msg("sync", s1, "jA", body("jA", "sync", s1, "medium", lb.JobPending, 0, 2)))
	// Account-wide, with a priority and no retries: grouped by its account,
	// no SourceId attribute (SQS refuses an empty one).
	must(t, s.Jobs.Create(c, &lb.Job{AccountID: acct, JobID: "jB", JobType: lb.JobBackup, Priority: lb.PriorityHigh}))
	want = append(want, msg("backup", acct, "jB", body("jB", "backup", "", "high", lb.JobPending, 0, 0)))
	// A type ListBackup has no queue for: nothing sent, as the legacy handler.
	must(t, s.Jobs.Create(c, &lb.Job{AccountID: acct, JobID: "jC", JobType: lb.JobImport, SourceID: s1, MaxRetries: 3}))
	must(t, s.Jobs.Create(c, &lb.Job{AccountID: acct, JobID: "jD", JobType: lb.JobExport, SourceID: s1, MaxRetries: 1}))
	want = append(want, msg("export", s1, "jD", body("jD", "export", s1, "medium", lb.JobPending, 0, 1)))
	s.setStatus(t, c, "jA", lb.JobRunning)
	s.setStatus(t, c, "jD", lb.JobRunning, lb.JobCompleted)
	// A rewrite that changes no status: nothing.
	_, err := s.Jobs.Update(c, "jD", func(j *lb.Job) error { j.Progress.Processed = 10; return nil })
	must(t, err)
	// A rewrite that changes no field (the engine bumps the version): a
	// bookkeeping-only modification, nothing.
	_, err = s.Jobs.Update(c, "jD", func(j *lb.Job) error { return nil })
	must(t, err)
	c1 := s.consumer("jobqueue")
	lap("phase 1 written")
	must(t, c1.CatchUp(c))
	if diff := cmp.Diff(want, s.q.messages()); diff != "" {
		t.Fatalf("phase 1 messages (-want +got):\n%s", diff)
	}

	// Phase 2: a job created and A failing, then the consumer killed right
	// after it routed A's failure, before its checkpoint covered the last
	// two records (G's creation and A's failure).
	writeEveryEntity(t, c, s.Store, "p2", now)
	must(t, s.Jobs.Create(c, &lb.Job{AccountID: acct, JobID: "jG", JobType: lb.JobSync, SourceID: s2, MaxRetries: 1}))
	want = append(want, msg("sync", s2, "jG", body("jG", "sync", s2, "medium", lb.JobPending, 0, 1)))
	s.setStatus(t, c, "jA", lb.JobFailed)
	want = append(want, msg("sync", s1, "jA#retry-1", body("jA", "sync", s1, "medium", lb.JobFailed, 1, 2)))
	lap("phase 2 written")
	kctx, kill := context.WithCancel(c)
	defer kill()
	k1 := s.consumer("jobqueue")
	k1.Handler = killAt(s.router, kill, 1, func(r table.Record) bool {
		return r.Op == "MODIFY" && strOf(r.Keys, "PK") == "JOB#jA" && strOf(r.Old, "status") == "running" && strOf(r.New, "status") == "failed"
	})
	if err := k1.Run(kctx); err != nil {
		t.Fatalf("killed consumer: %v", err)
	}
	// The count came before the send: the table holds the retry.
	if j, err := s.Jobs.ByID.Get(c, lb.Job{JobID: "jA"}); err != nil || j.RetryCount != 1 {
		t.Fatalf("job A after its first failure: retryCount %d, %v; want 1", j.RetryCount, err)
	}

	// Phase 3, a second consumer of the same name: the worker retries A
	// (it fails again, then once more past its limit), B fails without
	// retries, F is cancelled, D deleted, G refused deletion while running,
	// and a job ListBackup's jobs/create wrote arrives by migration.
	lap("phase 2 killed")
	c2 := s.consumer("jobqueue")
	must(t, c2.CatchUp(c))
	writeEveryEntity(t, c, s.Store, "p3", now)
	s.setStatus(t, c, "jA", lb.JobRunning, lb.JobFailed)
	want = append(want, msg("sync", s1, "jA#retry-2", body("jA", "sync", s1, "medium", lb.JobFailed, 2, 2)))
	must(t, c2.CatchUp(c))
	s.setStatus(t, c, "jA", lb.JobRunning, lb.JobFailed) // retryCount 2 = maxRetries 2: not re-queued
	s.setStatus(t, c, "jB", lb.JobRunning, lb.JobFailed)
	must(t, s.Jobs.Create(c, &lb.Job{AccountID: acct, JobID: "jF", JobType: lb.JobAlert, SourceID: s2, MaxRetries: 1}))
	want = append(want, msg("alert", s2, "jF", body("jF", "alert", s2, "medium", lb.JobPending, 0, 1)))
	s.setStatus(t, c, "jF", lb.JobCancelled)
	must(t, s.Jobs.Delete(c, "jD"))
	s.setStatus(t, c, "jG", lb.JobRunning)
	wantIs(t, s.Jobs.Delete(c, "jG"), listbackup.ErrJobRunning)
	const legacyID, legacySrc = "job:9c8b7a6f-0000-4000-8000-000000000001", "source:5e6f7a8b-0000-4000-8000-000000000001"
	migrateLegacyJob(t, c, s.Store, legacyID, acct, legacySrc, "backup", "contacts", now.Add(-time.Hour))
	legacy := func(status lb.JobStatus, n int) listbackup.JobBody {
		b := body(legacyID, "backup", legacySrc, "medium", status, n, listbackup.DefaultMaxRetries)
		b.UserID, b.SubType = "user:legacy", "contacts"
		return b
	}
	want = append(want, msg("backup", legacySrc, legacyID, legacy(lb.JobCreated, 0)))
	must(t, c2.CatchUp(c))
	s.setStatus(t, c, legacyID, lb.JobRunning, lb.JobFailed) // created -> running sends nothing; the failure is retried, limit 3
	want = append(want, msg("backup", legacySrc, legacyID+"#retry-1", legacy(lb.JobFailed, 1)))
	must(t, c2.CatchUp(c))

	lap("phase 3 routed")
	sent := s.q.messages()
	if diff := cmp.Diff(want, delivered(sent)); diff != "" {
		t.Errorf("messages the FIFO queue keeps (-want +got):\n%s", diff)
	}
	// Sent twice: exactly the two records the killed consumer had not
	// checkpointed, each repeat identical to its first send.
	first := map[string]listbackup.JobMessage{}
	var twice []string
	for _, m := range sent {
		f, dup := first[m.DeduplicationID]
		if !dup {
			first[m.DeduplicationID] = m
			continue
		}
		twice = append(twice, m.DeduplicationID)
		if diff := cmp.Diff(f, m); diff != "" {
			t.Errorf("message %s sent again differently (-first +again):\n%s", m.DeduplicationID, diff)
		}
	}
	if wantTwice := []string{"jG", "jA#retry-1"}; !slices.Equal(twice, wantTwice) {
		t.Errorf("sent twice %v, want %v (the killed consumer's unsaved records)", twice, wantTwice)
	}
	for id, wantActs := range map[lb.JobID][]string{
		"jA":     {"queued", "started", "retried", "retried", "status-changed", "retried", "status-changed", "retries-exhausted"},
		"jB":     {"queued", "started", "retries-exhausted"},
		"jC":     {"no-queue"},
		"jD":     {"queued", "started", "completed", "removed"},
		"jF":     {"queued", "cancelled"},
		"jG":     {"queued", "queued", "started"},
		legacyID: {"queued", "status-changed", "retried"},
	} {
		if got := s.actions(id); !slices.Equal(got, wantActs) {
			t.Errorf("job %s: actions %v, want %v", id, got, wantActs)
		}
	}
	for id, n := range map[lb.JobID]int{"jA": 2, "jB": 0, legacyID: 1} {
		if j, err := s.Jobs.ByID.Get(c, lb.Job{JobID: id}); err != nil || j.RetryCount != n {
			t.Errorf("job %s: retryCount %d, %v; want %d", id, j.RetryCount, err, n)
		}
	}
}

// A send that fails is returned as an error (the legacy handler reported
// success): the consumer retries the batch and the message is sent; a
// queue that stays down stops the consumer at the job's record, named,
// with its checkpoint before it, and a consumer of the same name sends it
// once the queue is back: none lost (LB-84).
func TestJobQueueSendFails_LB84(t *testing.T) {
	s := newStreamStore(t)
	c := ctx(t)
	must(t, s.Jobs.Create(c, &lb.Job{AccountID: "fa1", JobID: "fj1", JobType: lb.JobSync, SourceID: "fs1", MaxRetries: 1}))
	s.q.fail = 1
	c1 := s.consumer("fails")
	must(t, c1.CatchUp(c))
	if got := s.q.messages(); s.q.failures != 1 || len(got) != 1 || got[0].DeduplicationID != "fj1" {
		t.Fatalf("after one failed send: %d failures, sent %+v; want 1 failure then the message", s.q.failures, got)
	}

	// Down for good: the consumer stops at the record, naming it.
	must(t, s.Jobs.Create(c, &lb.Job{AccountID: "fa1", JobID: "fj2", JobType: lb.JobBackup, MaxRetries: 1}))
	s.q.fail = 1000
	c1.Attempts = 3
	err := c1.CatchUp(c)
	var re *table.RecordError
	if !errors.Is(err, errQueueDown) || !errors.As(err, &re) || re.Entity != listbackup.TypeJob || re.Key.PK != "JOB#fj2" {
		t.Fatalf("queue down: %v, want a *table.RecordError for JOB#fj2 wrapping the send's error", err)
	}
	if !strings.Contains(err.Error(), "deduplication ID fj2") {
		t.Errorf("error %q does not name the message", err)
	}
	s.q.mu.Lock()
	s.q.fail = 0
	s.q.mu.Unlock()
	c2 := s.consumer("fails")
	must(t, c2.CatchUp(c))
	var ids []string
	for _, m := range s.q.messages() {
		ids = append(ids, m.DeduplicationID)
	}
	if !slices.Equal(ids, []string{"fj1", "fj2"}) {
		t.Errorf("sent %v, want fj1 then fj2, each once", ids)
	}
}

// Every ListBackup write, of every entity the store binds, heard from the
// real stream as a typed change of its entity; the engine's own items go
// to the library handler; no record is unknown or left without a handler
// (LB-85).
func TestEveryWriteHeard_LB85(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	writeEveryEntity(t, c, f.Store, "all", f.clock.Now())
	must(t, f.Jobs.Create(c, &lb.Job{AccountID: "all-acct", JobID: "all-job", JobType: lb.JobSync, SourceID: "all-src", MaxRetries: 1}))
	must(t, f.Jobs.Delete(c, "all-job"))

	h := feedtest.New()
	r := h.Router(f.tbl)
	feedtest.Listen[lb.User](h, r, nil)
	feedtest.Listen[lb.Account](h, r, nil)
	feedtest.Listen[lb.Membership](h, r, nil)
	feedtest.Listen[lb.Team](h, r, nil)
	feedtest.Listen[lb.Source](h, r, nil)
	feedtest.Listen[lb.Activity](h, r, nil)
	feedtest.Listen[lb.Job](h, r, nil)
	feedtest.Listen[lb.Connection](h, r, nil)
	feedtest.Listen[lb.OAuthState](h, r, nil)
	feedtest.Listen[lb.OAuthToken](h, r, nil)
	feedtest.Listen[lb.RefreshToken](h, r, nil)
	feedtest.Listen[lb.TokenFamily](h, r, nil)
	feedtest.Listen[lb.Tag](h, r, nil)
	feedtest.Listen[lb.Notification](h, r, nil)
	feedtest.Listen[lb.SyncSchedule](h, r, nil)
	feedtest.Listen[lb.SyncRun](h, r, nil)
	feedtest.Listen[lb.APIKey](h, r, nil)
	feedtest.Listen[lb.Webhook](h, r, nil)
	feedtest.Listen[lb.UsageMetrics](h, r, nil)
	feedtest.Listen[lb.BillingPlan](h, r, nil)
	feedtest.Listen[lb.SourceGroup](h, r, nil)
	feedtest.Listen[lb.TeamMembership](h, r, nil)
	feedtest.Listen[lb.Label](h, r, nil)
	feedtest.Listen[lb.EntityTag](h, r, nil)
	feedtest.Listen[lb.MFACode](h, r, nil)
	feedtest.Listen[lb.CatalogPlatform](h, r, nil)
	feedtest.Listen[lb.CatalogSource](h, r, nil)
	feedtest.Listen[lb.InboxNotification](h, r, nil)

	cons := &feed.Consumer{Table: f.tbl, Name: "every-write", Handler: r, Attempts: 1}
	must(t, cons.CatchUp(c)) // an unknown record or one without a handler is an error

	var bound []string
	for _, e := range f.tbl.Entities() {
		bound = append(bound, e.Type())
	}
	slices.Sort(bound)
	var heard []string
	for typ, evs := range h.Events {
		heard = append(heard, typ)
		if evs[0] != "created" {
			t.Errorf("%s: first change %v, want created", typ, evs)
		}
	}
	slices.Sort(heard)
	if diff := cmp.Diff(bound, heard); diff != "" || len(bound) != 28 {
		t.Errorf("entities heard (-bound +heard), %d bound:\n%s", len(bound), diff)
	}
	for typ, want := range map[string][]string{
		listbackup.TypeTeam:  {"created", "modified", "removed"},
		listbackup.TypeJob:   {"created", "removed"},
		listbackup.TypeInbox: {"created", "modified"},
	} {
		if !slices.Equal(h.Events[typ], want) {
			t.Errorf("%s changes %v, want %v", typ, h.Events[typ], want)
		}
	}
	// The user's email and username guards (the email's moved): 3 created,
	// 1 removed.
	if h.Library[table.GuardType] < 4 {
		t.Errorf("library records %v, want at least the user's 4 guard records", h.Library)
	}
	t.Logf("LB-85: heard %d entities: %s", len(heard), h.EveryEntity(t, f.tbl))
}
