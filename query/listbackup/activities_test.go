package listbackup_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

func evIDs(items []lb.Activity) []lb.EventID {
	return ids(items, func(a lb.Activity) lb.EventID { return a.EventID })
}

// LB-18 activities of an account in a time range newest first, LB-19 of a
// user, LB-20 on a resource type, LB-21 of an event type; LB-22 they expire
// 90 days after the event (the TTL attribute holds the expiry).
func TestActivities_LB18_LB19_LB20_LB21_LB22(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	type ev struct {
		id   lb.EventID
		user lb.UserID
		rt   lb.ResourceType
		et   lb.EventType
	}
	seed := []ev{{"e1", "u1", lb.ResSource, "source.created"}, {"e2", "u2", lb.ResUser, "user.login"},
		{"e3", "u1", lb.ResSource, "sync.completed"}, {"e4", "u1", lb.ResSource, "source.created"}, {"e5", "", lb.ResJob, "sync.completed"}}
	for i, s := range seed {
		a := &lb.Activity{AccountID: "a1", EventID: s.id, UserID: s.user, EventType: s.et, ResourceType: s.rt, Action: lb.ActionCreate,
			CreatedAt: t0.Add(time.Duration(i) * time.Hour), Details: lb.ActivityDetails{After: lb.Object{"name": "x"}}}
		must(t, f.Activities.Record(c, a))
	}
	a1, u1 := lb.Activity{AccountID: "a1"}, lb.Activity{UserID: "u1"}
	from, to := a1, a1 // from t0+1h to t0+3h
	from.CreatedAt, to.CreatedAt = t0.Add(time.Hour), t0.Add(3*time.Hour)
	ufrom, uto := u1, u1
	ufrom.CreatedAt, uto.CreatedAt = from.CreatedAt, to.CreatedAt
	res, evt := lb.Activity{AccountID: "a1", ResourceType: lb.ResSource}, lb.Activity{AccountID: "a1", EventType: "sync.completed"}
	resFrom, evtTo := res, evt
	resFrom.CreatedAt, evtTo.CreatedAt = t0, t0.Add(4*time.Hour)
	check := func(name string, want []lb.EventID, p table.Page[lb.Activity], err error) {
		t.Helper()
		if diff := cmp.Diff(want, evIDs(collect(t, p, err))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	p, err := f.Activities.ByAccount.Between(c, from, to)
	check("LB-18 range, newest first", []lb.EventID{"e4", "e3", "e2"}, p, err)
	p, err = f.Activities.ByAccount.Between(c, a1, a1)
	check("LB-18 all", []lb.EventID{"e5", "e4", "e3", "e2", "e1"}, p, err)
	p, err = f.Activities.ByUser.Between(c, ufrom, uto)
	check("LB-19", []lb.EventID{"e4", "e3"}, p, err)
	p, err = f.Activities.ByResourceType.Between(c, resFrom, res)
	check("LB-20", []lb.EventID{"e4", "e3", "e1"}, p, err)
	p, err = f.Activities.ByEventType.Between(c, evt, evtTo)
	check("LB-21", []lb.EventID{"e5", "e3"}, p, err)

	// The core list options combine with the time range: table.Asc
	// overrides the newest-first default; table.Limit and table.After page
	// through the range, and AllByAccount follows the cursors.
	p, err = f.Activities.ByAccount.Between(c, from, to, table.Asc())
	check("LB-18 range, table.Asc", []lb.EventID{"e2", "e3", "e4"}, p, err)
	p, err = f.Activities.ByAccount.Between(c, from, to, table.Limit(2))
	check("LB-18 range, table.Limit(2)", []lb.EventID{"e4", "e3"}, p, err)
	if !p.More() {
		t.Fatal("LB-18 page 1 of 2 has no cursor")
	}
	p, err = f.Activities.ByAccount.Between(c, from, to, table.Limit(2), table.After(p.Cursor))
	check("LB-18 range, table.After", []lb.EventID{"e2"}, p, err)
	all, err := table.Collect(f.Activities.ByAccount.AllBetween(c, from, to, table.Limit(1)))
	if diff := cmp.Diff([]lb.EventID{"e4", "e3", "e2"}, evIDs(all)); err != nil || diff != "" {
		t.Errorf("ByAccount.AllBetween: err = %v (-want +got):\n%s", err, diff)
	}

	// LB-22: the table's TTL attribute is event time + 90 days (not the
	// event time), the document's timestamp stays the event time.
	k := listbackup.Key(lb.Activity{AccountID: "a1", CreatedAt: t0, EventID: "e1"})
	item := raw(t, f, k)
	if got, want := numAttr(t, item, "ttl"), t0.Add(90*24*time.Hour).Unix(); got != want {
		t.Errorf("LB-22 ttl = %d, want %d", got, want)
	}
	if got := numAttr(t, item, "timestamp"); got != t0.Unix() {
		t.Errorf("timestamp = %d, want %d", got, t0.Unix())
	}
	f.clock.Add(90*24*time.Hour + time.Hour + time.Second) // e1 and e2 are past 90 days
	p, err = f.Activities.ByAccount.Between(c, a1, a1)
	check("LB-22 after 90 days", []lb.EventID{"e5", "e4", "e3"}, p, err)
}

// Bad input is refused before any request (LB-18..LB-21).
func TestActivitiesBadInput_LB18_LB19_LB20_LB21(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	_, err := f.Activities.ByAccount.Between(c, lb.Activity{AccountID: "a1", CreatedAt: t0}, lb.Activity{AccountID: "a1", CreatedAt: t0.Add(-time.Hour)})
	wantInvalid(t, err, "createdAt") // a reversed range
	_, err = f.Activities.ByUser.Between(c, lb.Activity{}, lb.Activity{})
	wantInvalid(t, err, "userId")
	_, err = f.Activities.ByResourceType.Between(c, lb.Activity{AccountID: "a1", ResourceType: "planet"}, lb.Activity{AccountID: "a1", ResourceType: "planet"})
	wantInvalid(t, err, "resourceType")
	_, err = f.Activities.ByEventType.Between(c, lb.Activity{AccountID: "a1", EventType: "Not An Event"}, lb.Activity{AccountID: "a1", EventType: "Not An Event"})
	wantInvalid(t, err, "eventType")
	wantInvalid(t, f.Activities.Record(c, &lb.Activity{AccountID: "a1", EventType: "x.y", ResourceType: lb.ResJob, Action: "dance"}), "action")
	if n := f.requests.Load(); n != 0 {
		t.Errorf("bad input sent %d requests, want 0", n)
	}
}
