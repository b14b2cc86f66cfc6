package listbackup_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

func srcIDs(items []lb.Source) []lb.SourceID {
	return ids(items, func(s lb.Source) lb.SourceID { return s.SourceID })
}

// LB-14 source by ID, LB-15 sources of an account, LB-16 by platform,
// LB-17 by status.
func TestSources_LB14_LB15_LB16_LB17(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	seed := []lb.Source{
		{AccountID: "a1", SourceID: "s1", SourceName: "Keap", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth},
		{AccountID: "a1", SourceID: "s2", SourceName: "Stripe", Platform: lb.PlatformStripe, ConnectionType: lb.ConnAPIKey, Status: lb.SourcePaused},
		{AccountID: "a1", SourceID: "s3", SourceName: "Stripe 2", Platform: lb.PlatformStripe, ConnectionType: lb.ConnAPIKeyCore},
		{AccountID: "a2", SourceID: "s4", SourceName: "Other", Platform: lb.PlatformStripe, ConnectionType: lb.ConnOAuth},
	}
	for i := range seed {
		must(t, f.Sources.Create(c, &seed[i]))
	}
	s, err := f.Sources.ByID.Get(c, lb.Source{SourceID: "s2"}) // LB-14
	must(t, err)
	if s.PlatformID != lb.PlatformStripe || s.Status != lb.SourcePaused {
		t.Errorf("LB-14: %+v", s)
	}
	check := func(name string, want []lb.SourceID, p table.Page[lb.Source], err error) {
		t.Helper()
		if diff := cmp.Diff(want, srcIDs(collect(t, p, err))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	p, err := f.Sources.ByAccount.List(c, lb.Source{AccountID: "a1"})
	check("LB-15", []lb.SourceID{"s1", "s3", "s2"}, p, err) // by status (active, paused), then ID
	p, err = f.Sources.ByPlatform.List(c, lb.Source{AccountID: "a1", Platform: lb.PlatformStripe})
	check("LB-16", []lb.SourceID{"s2", "s3"}, p, err)
	p, err = f.Sources.ByStatus.List(c, lb.Source{AccountID: "a1", Status: lb.SourceActive})
	check("LB-17 active", []lb.SourceID{"s1", "s3"}, p, err)
	// A status change moves the source in the LB-17 index.
	_, err = f.Sources.Update(c, "s1", func(s *lb.Source) error { s.Status = lb.SourceError; return nil })
	must(t, err)
	p, err = f.Sources.ByStatus.List(c, lb.Source{AccountID: "a1", Status: lb.SourceError})
	check("LB-17 error", []lb.SourceID{"s1"}, p, err)
}

// LB-27 connection by ID, LB-28 of an account on a platform, LB-29 of a
// user on a platform.
func TestConnections_LB27_LB28_LB29(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	seed := []lb.Connection{
		{ConnectionID: "c1", AccountID: "a1", UserID: "u1", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth},
		{ConnectionID: "c2", AccountID: "a1", UserID: "u2", Platform: lb.PlatformKeap, ConnectionType: lb.ConnOAuth},
		{ConnectionID: "c3", AccountID: "a1", UserID: "u1", Platform: lb.PlatformStripe, ConnectionType: lb.ConnAPIKey},
	}
	for i := range seed {
		must(t, f.Connections.Create(c, &seed[i]))
	}
	got, err := f.Connections.ByID.Get(c, lb.Connection{ConnectionID: "c3"}) // LB-27
	must(t, err)
	if got.Platform != lb.PlatformStripe || got.Status != lb.ConnectionActive {
		t.Errorf("LB-27: %+v", got)
	}
	cid := func(x lb.Connection) lb.ConnectionID { return x.ConnectionID }
	p, err := f.Connections.ByAccountPlatform.List(c, lb.Connection{AccountID: "a1", Platform: lb.PlatformKeap}) // LB-28
	if diff := cmp.Diff([]lb.ConnectionID{"c1", "c2"}, ids(collect(t, p, err), cid)); diff != "" {
		t.Errorf("LB-28 (-want +got):\n%s", diff)
	}
	p, err = f.Connections.ByUserPlatform.List(c, lb.Connection{UserID: "u1", Platform: lb.PlatformStripe}) // LB-29
	if diff := cmp.Diff([]lb.ConnectionID{"c3"}, ids(collect(t, p, err), cid)); diff != "" {
		t.Errorf("LB-29 (-want +got):\n%s", diff)
	}
}

// LB-23 jobs of an account (newest first), LB-24 job by ID, LB-25 by
// status, LB-26 jobs of a source by creation time.
func TestJobs_LB23_LB24_LB25_LB26(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	for i, id := range []lb.JobID{"j1", "j2", "j3", "j4"} {
		jb := &lb.Job{AccountID: "a1", JobID: id, JobType: lb.JobSync, SourceID: "s1", MaxRetries: 3}
		if id == "j3" {
			jb.SourceID = "s2"
		}
		if i%2 == 1 {
			jb.Status = lb.JobRunning
		}
		must(t, f.Jobs.Create(c, jb))
		f.clock.Add(time.Second)
	}
	jid := func(x lb.Job) lb.JobID { return x.JobID }
	jb, err := f.Jobs.ByID.Get(c, lb.Job{JobID: "j2"}) // LB-24
	must(t, err)
	if jb.Status != lb.JobRunning || jb.Priority != lb.PriorityMedium || !jb.CreatedAt.Equal(t0.Add(time.Second)) {
		t.Errorf("LB-24: %+v", jb)
	}
	p, err := f.Jobs.ByAccount.List(c, lb.Job{AccountID: "a1"}) // LB-23
	if diff := cmp.Diff([]lb.JobID{"j4", "j3", "j2", "j1"}, ids(collect(t, p, err), jid)); diff != "" {
		t.Errorf("LB-23 (-want +got):\n%s", diff)
	}
	p, err = f.Jobs.ByStatus.List(c, lb.Job{AccountID: "a1", Status: lb.JobRunning}) // LB-25
	if diff := cmp.Diff([]lb.JobID{"j4", "j2"}, ids(collect(t, p, err), jid)); diff != "" {
		t.Errorf("LB-25 (-want +got):\n%s", diff)
	}
	p, err = f.Jobs.BySource.List(c, lb.Job{SourceID: "s1"}) // LB-26
	if diff := cmp.Diff([]lb.JobID{"j1", "j2", "j4"}, ids(collect(t, p, err), jid)); diff != "" {
		t.Errorf("LB-26 (-want +got):\n%s", diff)
	}
	p, err = f.Jobs.BySource.List(c, lb.Job{SourceID: "s1"}, table.Desc()) // LB-26, newest first
	if diff := cmp.Diff([]lb.JobID{"j4", "j2", "j1"}, ids(collect(t, p, err), jid)); diff != "" {
		t.Errorf("LB-26 table.Desc (-want +got):\n%s", diff)
	}
	// LB-25: completing a job moves it between status partitions.
	_, err = f.Jobs.Update(c, "j2", func(j *lb.Job) error { j.Status = lb.JobCompleted; return nil })
	must(t, err)
	p, err = f.Jobs.ByStatus.List(c, lb.Job{AccountID: "a1", Status: lb.JobRunning})
	if diff := cmp.Diff([]lb.JobID{"j4"}, ids(collect(t, p, err), jid)); diff != "" {
		t.Errorf("LB-25 after update (-want +got):\n%s", diff)
	}
}

// Bad input is refused before any request (LB-14..LB-17, LB-23..LB-29).
func TestSourcesJobsConnectionsBadInput_LB14_LB16_LB17_LB24_LB25_LB26_LB27_LB28_LB29(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	_, err := f.Sources.ByID.Get(c, lb.Source{SourceID: "s#1"})
	wantInvalid(t, err, "sourceId")
	_, err = f.Sources.ByPlatform.List(c, lb.Source{AccountID: "a1", Platform: "myspace"})
	wantInvalid(t, err, "platform")
	_, err = f.Sources.ByStatus.List(c, lb.Source{AccountID: "a1", Status: "sleeping"})
	wantInvalid(t, err, "status")
	_, err = f.Jobs.ByID.Get(c, lb.Job{})
	wantInvalid(t, err, "jobId")
	_, err = f.Jobs.ByStatus.List(c, lb.Job{AccountID: "a1", Status: "done"})
	wantInvalid(t, err, "status")
	_, err = f.Jobs.BySource.List(c, lb.Job{})
	wantInvalid(t, err, "sourceId")
	_, err = f.Connections.ByID.Get(c, lb.Connection{ConnectionID: ""})
	wantInvalid(t, err, "connectionId")
	_, err = f.Connections.ByAccountPlatform.List(c, lb.Connection{AccountID: "a1"})
	wantInvalid(t, err, "platform")
	_, err = f.Connections.ByUserPlatform.List(c, lb.Connection{Platform: lb.PlatformKeap})
	wantInvalid(t, err, "userId")
	_, err = f.Sources.ByAccount.List(c, lb.Source{AccountID: "a1"}, table.Limit(-1))
	wantInvalid(t, err, "limit")
	wantInvalid(t, f.Sources.Create(c, &lb.Source{AccountID: "a1", SourceID: "s1", SourceName: "x", Platform: lb.PlatformKeap, ConnectionType: "carrier-pigeon"}), "connectionType")
	if n := f.requests.Load(); n != 0 {
		t.Errorf("bad input sent %d requests, want 0", n)
	}
}
