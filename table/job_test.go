package table_test

// Adopting a live table (issue 10 §4, §5): one job runner brings items
// written by other services up to the library's invariants. Create on a
// live table and the plan of its differences are tested in tableschema.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// legacyMember writes a member as another service would: no type, no
// version, no index keys, no guard.
func legacyMember(t *testing.T, tb *table.Table, id, email string) {
	t.Helper()
	putRaw(t, tb, map[string]string{"PK": "MEMBER#" + id, "SK": "PROFILE", "id": id, "email": email, "status": "active",
		"updatedAt": "2020-01-01T00:00:00Z"})
}

// adoptableMembers binds members: their declared keys recognise the
// untyped items (MEMBER#{id} / PROFILE).
func adoptableMembers(tb *table.Table) *table.Entity[member] { return table.NewEntity(tb, memberDef) }

func TestAdoptJob(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	for i := range 40 {
		legacyMember(t, f.t, fmt.Sprintf("m%02d", i), fmt.Sprintf("m%02d@x.io", i))
	}
	legacyMember(t, f.t, "dup", "m07@x.io") // a duplicate email in the live data
	putRaw(t, f.t, map[string]string{"PK": "OTHER#1", "SK": "X"})
	members := adoptableMembers(f.t)
	job := table.AdoptJob("adopt-members", members)
	job.Segments, job.PageSize = 3, 7

	job.DryRun = true
	rep, err := f.t.RunJob(c, job)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Seen != 42 || rep.Changed != 40 || rep.Conflicted != 1 || rep.Skipped != 1 {
		t.Fatalf("dry run: %v; want seen 42, changed 40 (would), 1 conflict, 1 skipped", rep)
	}
	if _, err := f.t.LookupUnique(c, table.Unique{Name: "email", Value: "m01@x.io"}); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("dry run wrote a guard: %v", err)
	}

	job.DryRun = false
	rep, err = f.t.RunJob(c, job)
	if err != nil {
		t.Fatal(err)
	}
	// One of m07 and dup claims the email first; the other is the conflict.
	if rep.Seen != 42 || rep.Changed != 40 || rep.Conflicted != 1 || len(rep.Conflicts) != 1 || rep.Capacity <= 0 || rep.Skipped != 1 {
		t.Fatalf("run: %v %v; want 40 changed, 1 conflict, capacity measured", rep, rep.Conflicts)
	}
	if !strings.Contains(rep.Conflicts[0].Reason, "m07@x.io") {
		t.Errorf("conflict reason %q does not name the value", rep.Conflicts[0].Reason)
	}
	k := table.Key{PK: "MEMBER#m01", SK: "PROFILE"}
	owner, err := f.t.LookupUnique(c, table.Unique{Name: "email", Value: "m01@x.io"})
	if err != nil || owner != k {
		t.Fatalf("guard of m01: %v %v", owner, err)
	}
	raw := tabletest.RawItem(t, f.t, k)
	if s, ok := raw["GSI1PK"].(*types.AttributeValueMemberS); !ok || s.Value != "STATUS#active" {
		t.Errorf("GSI1PK not backfilled: %#v", raw["GSI1PK"])
	}
	if s := raw["updatedAt"].(*types.AttributeValueMemberS).Value; s != "2020-01-01T00:00:00Z" {
		t.Errorf("adoption moved updatedAt to %s", s)
	}
	// Idempotent: a second run changes nothing.
	rep, err = f.t.RunJob(c, job)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Changed != 0 || rep.Unchanged != 40 || rep.Conflicted != 1 {
		t.Fatalf("second run: %v; want nothing changed", rep)
	}
}

// An interrupted job resumes after its last completed page, and its report
// covers the whole job.
func TestJobResumesFromCheckpoint(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for i := range 50 {
		legacyMember(t, f.t, fmt.Sprintf("r%02d", i), fmt.Sprintf("r%02d@x.io", i))
	}
	var visits atomic.Int64
	job := table.Job{Name: "count", Segments: 2, PageSize: 5,
		Visit: func(ctx context.Context, raw table.Item, dry bool) (table.JobOutcome, error) {
			visits.Add(1)
			return table.Unchanged, nil
		}}
	c, cancel := context.WithCancel(ctx(t))
	pages := 0
	job.Progress = func(table.JobReport) {
		if pages++; pages == 3 {
			cancel() // interrupted after 3 pages
		}
	}
	rep, err := f.t.RunJob(c, job)
	if !errors.Is(err, context.Canceled) || rep.Seen >= 50 || rep.Seen == 0 {
		t.Fatalf("interrupted run: %v, %v; want context.Canceled part way", rep, err)
	}
	job.Progress, job.Resume = nil, true
	rep, err = f.t.RunJob(ctx(t), job)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Seen != 50 || !rep.Resumed {
		t.Fatalf("resumed run: %v; want seen 50 over the whole job", rep)
	}
	// At most the pages in flight when interrupted were visited twice.
	if v := visits.Load(); v < 50 || v > 50+2*5 {
		t.Fatalf("%d visits for 50 items", v)
	}
}

// A capacity cap slows the job down to the cap, measured from DynamoDB's
// consumed capacity.
func TestJobCapacityCap(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for i := range 20 {
		legacyMember(t, f.t, fmt.Sprintf("c%02d", i), fmt.Sprintf("c%02d@x.io", i))
	}
	job := table.AdoptJob("capped", adoptableMembers(f.t))
	job.Segments, job.PageSize, job.MaxCapacity = 1, 5, 200
	start := time.Now()
	rep, err := f.t.RunJob(ctx(t), job)
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	// The runner may not consume more than the cap allows over the run
	// (plus one request's worth, which is spent before the wait).
	if max := job.MaxCapacity*elapsed.Seconds() + 10; rep.Capacity > max {
		t.Fatalf("consumed %.1f units in %v, over the cap of %.0f/s", rep.Capacity, elapsed, job.MaxCapacity)
	}
	if rep.Capacity < 20 {
		t.Fatalf("capacity %.1f for 20 adoptions: not measured", rep.Capacity)
	}
}

// A run that starts over (no Resume) resets the checkpoints an earlier run
// left: interrupted before some segments read a page, then resumed, it
// still visits every item, instead of taking the earlier run's "done" for
// those segments.
func TestJobStartingOverResetsCheckpoints(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for i := range 40 {
		legacyMember(t, f.t, fmt.Sprintf("s%02d", i), fmt.Sprintf("s%02d@x.io", i))
	}
	visit := func(ctx context.Context, raw table.Item, dry bool) (table.JobOutcome, error) {
		return table.Unchanged, nil
	}
	job := table.Job{Name: "again", Segments: 4, PageSize: 5, Visit: visit}
	if rep, err := f.t.RunJob(ctx(t), job); err != nil || rep.Seen != 40 {
		t.Fatalf("first run: %v, %v", rep, err)
	}
	// The second run starts over and stops at its first item, before
	// most segments saved a page.
	fail := errors.New("stop")
	job.Visit = func(ctx context.Context, raw table.Item, dry bool) (table.JobOutcome, error) {
		return table.Unchanged, fail
	}
	if _, err := f.t.RunJob(ctx(t), job); !errors.Is(err, fail) {
		t.Fatalf("second run: %v", err)
	}
	var visits atomic.Int64
	job.Resume = true
	job.Visit = func(ctx context.Context, raw table.Item, dry bool) (table.JobOutcome, error) {
		visits.Add(1)
		return table.Unchanged, nil
	}
	rep, err := f.t.RunJob(ctx(t), job)
	if err != nil || rep.Seen != 40 || visits.Load() != 40 {
		t.Fatalf("resumed: %v, %v, %d visits; want all 40 items visited by the run that started over", rep, err, visits.Load())
	}
}

// Resuming with another segment count is refused before any item is
// visited: segment i of another count covers other items.
func TestJobResumeNeedsTheSameSegments(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for i := range 10 {
		legacyMember(t, f.t, fmt.Sprintf("g%02d", i), fmt.Sprintf("g%02d@x.io", i))
	}
	var visits atomic.Int64
	job := table.Job{Name: "segs", Segments: 2, PageSize: 5, Visit: func(ctx context.Context, raw table.Item, dry bool) (table.JobOutcome, error) {
		visits.Add(1)
		return table.Unchanged, nil
	}}
	if _, err := f.t.RunJob(ctx(t), job); err != nil {
		t.Fatal(err)
	}
	visits.Store(0)
	job.Segments, job.Resume = 3, true
	if _, err := f.t.RunJob(ctx(t), job); !errors.Is(err, table.ErrInvalidInput) || visits.Load() != 0 {
		t.Fatalf("resume with 3 segments after 2: %v, %d visits; want ErrInvalidInput and none", err, visits.Load())
	}
	job.Segments = 2
	if rep, err := f.t.RunJob(ctx(t), job); err != nil || rep.Seen != 10 {
		t.Fatalf("resume with the same 2: %v, %v", rep, err)
	}
}
