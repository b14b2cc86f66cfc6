package listbackup_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

func schedIDs(items []lb.SyncSchedule) []lb.ScheduleID {
	return ids(items, func(s lb.SyncSchedule) lb.ScheduleID { return s.ScheduleID })
}

// LB-47 schedules of a source, LB-48 schedules due (nextRunAt <= now),
// LB-49 update a schedule after a run.
func TestSchedules_LB47_LB48_LB49(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	seed := []lb.SyncSchedule{
		{SourceID: "s1", ScheduleID: "h1", ScheduleType: lb.ScheduleHourly, DataTypes: []string{"contacts"}, IsActive: true, NextRunAt: t0.Add(-time.Minute)},
		{SourceID: "s1", ScheduleID: "d1", ScheduleType: lb.ScheduleDaily, DataTypes: []string{"orders"}, IsActive: true, NextRunAt: t0.Add(time.Hour)},
		{SourceID: "s2", ScheduleID: "c1", ScheduleType: lb.ScheduleCustom, CronExpression: "0 3 * * *", DataTypes: []string{"all"}, IsActive: true, NextRunAt: lb.Seconds(t0)},
		{SourceID: "s2", ScheduleID: "off", ScheduleType: lb.ScheduleDaily, DataTypes: []string{"all"}, IsActive: false, NextRunAt: t0.Add(-time.Hour)},
	}
	for i := range seed {
		must(t, f.Schedules.Create(c, &seed[i]))
	}
	p, err := f.Schedules.BySource.List(c, lb.SyncSchedule{SourceID: "s1"}) // LB-47
	if diff := cmp.Diff([]lb.ScheduleID{"d1", "h1"}, schedIDs(collect(t, p, err))); diff != "" {
		t.Errorf("LB-47 (-want +got):\n%s", diff)
	}
	p, err = f.Schedules.Due(c, lb.Seconds(t0)) // LB-48: nextRunAt <= now, inactive left out
	if diff := cmp.Diff([]lb.ScheduleID{"h1", "c1"}, schedIDs(collect(t, p, err))); diff != "" {
		t.Errorf("LB-48 (-want +got):\n%s", diff)
	}
	sc, err := f.Schedules.RecordRun(c, "s1", "h1", t0, t0.Add(time.Hour+time.Minute)) // LB-49
	must(t, err)
	if !sc.LastRunAt.Equal(lb.Seconds(t0)) || !sc.NextRunAt.Equal(lb.Seconds(t0.Add(time.Hour+time.Minute))) {
		t.Errorf("LB-49: %+v", sc)
	}
	p, err = f.Schedules.Due(c, lb.Seconds(t0))
	if diff := cmp.Diff([]lb.ScheduleID{"c1"}, schedIDs(collect(t, p, err))); diff != "" {
		t.Errorf("LB-48 after LB-49 (-want +got):\n%s", diff)
	}
	p, err = f.Schedules.Due(c, t0.Add(2*time.Hour))
	if diff := cmp.Diff([]lb.ScheduleID{"c1", "d1", "h1"}, schedIDs(collect(t, p, err))); diff != "" {
		t.Errorf("LB-48 later (-want +got):\n%s", diff)
	}
	_, err = f.Schedules.RecordRun(c, "s1", "h1", t0, t0)
	wantInvalid(t, err, "nextRunAt")
	_, err = f.Schedules.Due(c, time.Time{})
	wantInvalid(t, err, "now")
}

// LB-50 sync runs of a source newest first, LB-51 runs in a status within
// a time range (recent failures).
func TestRuns_LB50_LB51(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	var runs []lb.SyncRun
	for i, src := range []lb.SourceID{"s1", "s1", "s2", "s1"} {
		r := lb.SyncRun{SourceID: src, SyncID: lb.SyncID([]string{"r1", "r2", "r3", "r4"}[i]), DataTypes: []string{"contacts"},
			StartedAt: t0.Add(time.Duration(i) * time.Hour), RecordsProcessed: map[string]int64{}}
		must(t, f.Runs.Record(c, &r))
		runs = append(runs, r)
	}
	f.clock.Add(5 * time.Hour)
	for i, st := range []lb.RunStatus{lb.RunFailed, lb.RunCompleted, lb.RunFailed} {
		_, err := f.Runs.Finish(c, runs[i].SourceID, runs[i].StartedAt, runs[i].SyncID, st, map[string]int64{"contacts": 10}, nil)
		must(t, err)
	}
	rid := func(r lb.SyncRun) lb.SyncID { return r.SyncID }
	p, err := f.Runs.BySource.List(c, lb.SyncRun{SourceID: "s1"}) // LB-50
	if diff := cmp.Diff([]lb.SyncID{"r4", "r2", "r1"}, ids(collect(t, p, err), rid)); diff != "" {
		t.Errorf("LB-50 (-want +got):\n%s", diff)
	}
	p, err = f.Runs.ListByStatus(c, lb.RunFailed, listbackup.TimeRange{From: t0.Add(time.Hour)}) // LB-51
	if diff := cmp.Diff([]lb.SyncID{"r3"}, ids(collect(t, p, err), rid)); diff != "" {
		t.Errorf("LB-51 recent failures (-want +got):\n%s", diff)
	}
	p, err = f.Runs.ListByStatus(c, lb.RunFailed, listbackup.TimeRange{})
	if diff := cmp.Diff([]lb.SyncID{"r3", "r1"}, ids(collect(t, p, err), rid)); diff != "" {
		t.Errorf("LB-51 all failures (-want +got):\n%s", diff)
	}
	_, err = f.Runs.ListByStatus(c, "exploded", listbackup.TimeRange{})
	wantInvalid(t, err, "status")
}

// LB-52 validate an API key by its hash, LB-53 keys of an account
// (optionally by status), LB-54 revoke.
func TestAPIKeys_LB52_LB53_LB54(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	plain, k1, err := f.APIKeys.Create(c, listbackup.NewAPIKey{AccountID: "a1", UserID: "u1", Name: "ci", Permissions: []string{"sources:read"}})
	must(t, err)
	f.clock.Add(time.Second)
	_, k2, err := f.APIKeys.Create(c, listbackup.NewAPIKey{AccountID: "a1", UserID: "u1", Name: "old", Permissions: []string{"*"}})
	must(t, err)
	f.clock.Add(time.Second)
	plain3, _, err := f.APIKeys.Create(c, listbackup.NewAPIKey{AccountID: "a1", UserID: "u1", Name: "short", Permissions: []string{"*"}, ExpiresAt: t0.Add(time.Hour)})
	must(t, err)
	k := listbackup.Key(lb.APIKey{APIKeyID: k1.APIKeyID})
	if got := str(t, raw(t, f, k), "apiKeyHash"); got != lb.Hash(plain) {
		t.Errorf("stored hash %q", got)
	}
	got, err := f.APIKeys.Validate(c, plain) // LB-52
	must(t, err)
	if got.APIKeyID != k1.APIKeyID {
		t.Errorf("LB-52: %+v", got)
	}
	_, err = f.APIKeys.Validate(c, plain+"x")
	wantIs(t, err, table.ErrNotFound)
	_, err = f.APIKeys.Revoke(c, k2.APIKeyID) // LB-54
	must(t, err)
	kid := func(x lb.APIKey) string { return x.Name }
	p, err := f.APIKeys.ByAccount.List(c, lb.APIKey{AccountID: "a1"}) // LB-53
	if diff := cmp.Diff([]string{"short", "old", "ci"}, ids(collect(t, p, err), kid)); diff != "" {
		t.Errorf("LB-53 all (-want +got):\n%s", diff)
	}
	p, err = f.APIKeys.ByAccount.List(c, lb.APIKey{AccountID: "a1", Status: lb.KeyActive})
	if diff := cmp.Diff([]string{"short", "ci"}, ids(collect(t, p, err), kid)); diff != "" {
		t.Errorf("LB-53 active (-want +got):\n%s", diff)
	}
	_, err = f.APIKeys.Revoke(c, k1.APIKeyID) // LB-54: validation refuses it from then on
	must(t, err)
	_, err = f.APIKeys.Validate(c, plain)
	wantIs(t, err, listbackup.ErrKeyInactive)
	f.clock.Add(2 * time.Hour)
	_, err = f.APIKeys.Validate(c, plain3) // expired
	wantIs(t, err, listbackup.ErrKeyInactive)
	_, err = f.APIKeys.Revoke(c, "nope")
	wantIs(t, err, table.ErrNotFound)
	_, err = f.APIKeys.Validate(c, "sk_wrongprefix")
	wantInvalid(t, err, "apiKey")
}

// LB-55 webhook by ID, update, delete; LB-56 active webhooks of an account;
// LB-57 active webhooks subscribed to one event type.
func TestWebhooks_LB55_LB56_LB57(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	seed := []lb.Webhook{
		{WebhookID: "w1", AccountID: "a1", URL: "https://a.example/h", Events: []string{"sync.completed", "sync.failed"}, IsActive: true, Secret: "s1"},
		{WebhookID: "w2", AccountID: "a1", URL: "https://b.example/h", Events: []string{"source.created"}, IsActive: true, Secret: "s2"},
		{WebhookID: "w3", AccountID: "a1", URL: "https://c.example/h", Events: []string{"sync.completed"}, IsActive: false, Secret: "s3"},
	}
	for i := range seed {
		must(t, f.Webhooks.Create(c, &seed[i]))
	}
	w, err := f.Webhooks.ByID.Get(c, lb.Webhook{WebhookID: "w1"}) // LB-55 get
	must(t, err)
	if w.URL != "https://a.example/h" || w.Secret != "s1" {
		t.Errorf("LB-55 get: %+v", w)
	}
	wid := func(x lb.Webhook) lb.WebhookID { return x.WebhookID }
	p, err := f.Webhooks.Active.List(c, lb.Webhook{AccountID: "a1"}) // LB-56
	if diff := cmp.Diff([]lb.WebhookID{"w1", "w2"}, ids(collect(t, p, err), wid)); diff != "" {
		t.Errorf("LB-56 (-want +got):\n%s", diff)
	}
	p, err = f.Webhooks.ActiveForEvent.List(c, lb.Webhook{AccountID: "a1", Events: []string{string("sync.completed")}}) // LB-57
	if diff := cmp.Diff([]lb.WebhookID{"w1"}, ids(collect(t, p, err), wid)); diff != "" {
		t.Errorf("LB-57 (-want +got):\n%s", diff)
	}
	_, err = f.Webhooks.Update(c, "w3", func(w *lb.Webhook) error { w.IsActive = true; return nil }) // LB-55 update
	must(t, err)
	must(t, f.Webhooks.Delete(c, "w1")) // LB-55 delete
	_, err = f.Webhooks.ByID.Get(c, lb.Webhook{WebhookID: "w1"})
	wantIs(t, err, table.ErrNotFound)
	p, err = f.Webhooks.ActiveForEvent.List(c, lb.Webhook{AccountID: "a1", Events: []string{string("sync.completed")}})
	if diff := cmp.Diff([]lb.WebhookID{"w3"}, ids(collect(t, p, err), wid)); diff != "" {
		t.Errorf("LB-57 after update and delete (-want +got):\n%s", diff)
	}
	_, err = f.Webhooks.ActiveForEvent.List(c, lb.Webhook{AccountID: "a1", Events: []string{string("BAD EVENT")}})
	wantInvalid(t, err, "eventType")
}

// LB-58 usage of an account for a day, LB-59 over a date range, LB-60 all
// accounts for a day, LB-61 atomic counters: 50 goroutines x 10 increments
// on one day, none lost.
func TestUsage_LB58_LB59_LB60_LB61(t *testing.T) {
	f := newFixture(t)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			for range 10 {
				if _, err := f.Usage.Increment(ctx(t), "a1", "2025-03-14", map[lb.Counter]int64{lb.CounterAPICalls: 1, lb.CounterDataProcessed: 100}); err != nil {
					t.Errorf("LB-61 increment: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	// The context starts after the 500 contended increments, which may
	// take minutes on a loaded machine.
	c := ctx(t)
	m, err := f.Usage.Metrics.Get(c, lb.UsageMetrics{AccountID: "a1", MetricDate: "2025-03-14"}) // LB-58
	must(t, err)
	if m.APICalls != 500 || m.DataProcessed != 50000 {
		t.Errorf("LB-61: apiCalls %d dataProcessed %d, want 500 and 50000", m.APICalls, m.DataProcessed)
	}
	for _, d := range []lb.Date{"2025-03-01", "2025-03-31", "2025-04-01"} {
		_, err := f.Usage.Increment(c, "a1", d, map[lb.Counter]int64{lb.CounterErrorCount: 2})
		must(t, err)
	}
	must(t, f.Usage.Put(c, &lb.UsageMetrics{AccountID: "a2", MetricDate: "2025-03-14", APICalls: 7, ByPlatform: map[string]map[string]int64{"stripe": {"apiCalls": 7}}}))
	mdate := func(x lb.UsageMetrics) lb.Date { return x.MetricDate }
	p, err := f.Usage.Range.Between(c, lb.UsageMetrics{AccountID: "a1", MetricDate: "2025-03-01"}, lb.UsageMetrics{AccountID: "a1", MetricDate: "2025-03-31"}) // LB-59
	if diff := cmp.Diff([]lb.Date{"2025-03-01", "2025-03-14", "2025-03-31"}, ids(collect(t, p, err), mdate)); diff != "" {
		t.Errorf("LB-59 (-want +got):\n%s", diff)
	}
	p, err = f.Usage.Day.List(c, lb.UsageMetrics{MetricDate: "2025-03-14"}) // LB-60
	if diff := cmp.Diff([]lb.AccountID{"a1", "a2"}, ids(collect(t, p, err), func(x lb.UsageMetrics) lb.AccountID { return x.AccountID })); diff != "" {
		t.Errorf("LB-60 (-want +got):\n%s", diff)
	}
	_, err = f.Usage.Range.Between(c, lb.UsageMetrics{AccountID: "a1", MetricDate: "2025-03-31"}, lb.UsageMetrics{AccountID: "a1", MetricDate: "2025-03-01"})
	wantInvalid(t, err, "metricDate") // a reversed range names the field its template reads
	_, err = f.Usage.Increment(c, "a1", "2025-03-14", map[lb.Counter]int64{"bogus": 1})
	wantInvalid(t, err, "counter")
	_, err = f.Usage.Day.List(c, lb.UsageMetrics{MetricDate: "2025-02-30"})
	wantInvalid(t, err, "metricDate")
}

// LB-62 billing plan by ID; list active plans (sparse GSI, no Scan).
func TestPlans_LB62(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	for _, p := range []lb.BillingPlan{
		{PlanID: "pro", PlanName: "Pro", PlanType: lb.PlanProfessional, Price: 4900, Currency: "USD", IsActive: true, Features: []string{"hourly"},
			Limits: lb.PlanLimits{APICallsPerMonth: 100000, StorageGB: 100, Users: 10, Sources: 50, SyncFrequency: lb.IntervalHourly, DataRetentionDays: 90, Webhooks: 5, CustomDomains: 1}},
		{PlanID: "free", PlanName: "Free", PlanType: lb.PlanFree, Price: 0, Currency: "USD", IsActive: true, IsDefault: true},
		{PlanID: "legacy", PlanName: "Legacy", PlanType: lb.PlanStarter, Price: 900, Currency: "USD", IsActive: false},
		{PlanID: "ent", PlanName: "Enterprise", PlanType: lb.PlanEnterprise, Price: 99900, Currency: "USD", IsActive: true, Customizable: true},
	} {
		must(t, f.Plans.Put(c, &p))
	}
	got, err := f.Plans.ByID.Get(c, lb.BillingPlan{PlanID: "pro"})
	must(t, err)
	if got.Limits.Webhooks != 5 || got.Price != 4900 {
		t.Errorf("LB-62 get: %+v", got)
	}
	p, err := f.Plans.Active.List(c, lb.BillingPlan{})
	if diff := cmp.Diff([]lb.PlanID{"free", "pro", "ent"}, ids(collect(t, p, err), func(x lb.BillingPlan) lb.PlanID { return x.PlanID })); diff != "" {
		t.Errorf("LB-62 active (-want +got):\n%s", diff)
	}
	wantInvalid(t, f.Plans.Put(c, &lb.BillingPlan{PlanID: "x", PlanName: "X", PlanType: lb.PlanFree, Currency: "dollars"}), "currency")
}

// LB-48 with workers: 8 shards (the default), schedules due in the same
// second; workers owning disjoint shards see each due schedule exactly
// once, and Due (all shards) lists them all, oldest first, over pages.
func TestDueInShards_LB48(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	if n := f.Schedules.Shards(); n != listbackup.DefaultIndexShards {
		t.Fatalf("Shards = %d, want %d", n, listbackup.DefaultIndexShards)
	}
	var want []lb.ScheduleID
	for i := range 40 {
		sc := lb.SyncSchedule{SourceID: "s1", ScheduleID: lb.ScheduleID(fmt.Sprintf("h%02d", i)), ScheduleType: lb.ScheduleHourly,
			DataTypes: []string{"contacts"}, IsActive: true, NextRunAt: t0.Add(-time.Duration(i%5) * time.Minute)}
		must(t, f.Schedules.Create(c, &sc))
		want = append(want, sc.ScheduleID)
	}
	all := map[lb.ScheduleID]int{}
	for _, owned := range [][]int{{0, 1, 2}, {3, 4}, {5, 6, 7}} {
		for sc, err := range table.Pages(c, func(c context.Context, o ...table.ListOption) (table.Page[lb.SyncSchedule], error) {
			return f.Schedules.DueInShards(c, t0, owned, o...)
		}, table.Limit(3)) {
			must(t, err)
			if s := table.Shard(string(sc.ScheduleID), 8); !slices.Contains(owned, s) {
				t.Errorf("%s (shard %d) listed for shards %v", sc.ScheduleID, s, owned)
			}
			all[sc.ScheduleID]++
		}
	}
	for _, id := range want {
		if all[id] != 1 {
			t.Errorf("%s seen %d times by the workers, want once", id, all[id])
		}
	}
	var got []lb.ScheduleID
	var last time.Time
	for sc, err := range table.Every(c, f.Schedules.Due, t0, table.Limit(7)) {
		must(t, err)
		if sc.NextRunAt.Before(last) {
			t.Errorf("%s out of order", sc.ScheduleID)
		}
		last = sc.NextRunAt
		got = append(got, sc.ScheduleID)
	}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Every Due (-want +got):\n%s", diff)
	}
	_, err := f.Schedules.DueInShards(c, t0, []int{8})
	wantInvalid(t, err, "OnlyShards")
	_, err = f.Schedules.DueInShards(c, t0, nil)
	wantInvalid(t, err, "shards")
}
