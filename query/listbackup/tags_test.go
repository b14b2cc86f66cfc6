package listbackup_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

// LB-38 tags of an account for a resource type, LB-39 with one tag key,
// LB-40 tag by ID, LB-41 attach and detach resources.
func TestTags_LB38_LB39_LB40_LB41(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	seed := []lb.Tag{
		{AccountID: "a1", TagID: "t1", TagKey: "env", TagValue: "production", ResourceType: lb.ResSource, Color: "#ff0000"},
		{AccountID: "a1", TagID: "t2", TagKey: "env", TagValue: "staging", ResourceType: lb.ResSource},
		{AccountID: "a1", TagID: "t3", TagKey: "env#2", TagValue: "odd#value", ResourceType: lb.ResSource},
		{AccountID: "a1", TagID: "t4", TagKey: "team", TagValue: "ops", ResourceType: lb.ResSource},
		{AccountID: "a1", TagID: "t5", TagKey: "env", TagValue: "production", ResourceType: lb.ResJob},
	}
	for i := range seed {
		must(t, f.Tags.Create(c, &seed[i]))
	}
	dup := lb.Tag{AccountID: "a1", TagID: "t6", TagKey: "env", TagValue: "production", ResourceType: lb.ResSource}
	wantIs(t, f.Tags.Create(c, &dup), table.ErrAlreadyExists)
	tid := func(x lb.Tag) lb.TagID { return x.TagID }
	p, err := f.Tags.ByResourceType.List(c, lb.Tag{AccountID: "a1", ResourceType: lb.ResSource}) // LB-38
	if diff := cmp.Diff([]lb.TagID{"t1", "t2", "t3", "t4"}, ids(collect(t, p, err), tid)); diff != "" {
		t.Errorf("LB-38 (-want +got):\n%s", diff)
	}
	p, err = f.Tags.ByKey.List(c, lb.Tag{AccountID: "a1", ResourceType: lb.ResSource, TagKey: "env"}) // LB-39: not env#2
	if diff := cmp.Diff([]lb.TagID{"t1", "t2"}, ids(collect(t, p, err), tid)); diff != "" {
		t.Errorf("LB-39 (-want +got):\n%s", diff)
	}
	p, err = f.Tags.ByKey.List(c, lb.Tag{AccountID: "a1", ResourceType: lb.ResSource, TagKey: "env#2"})
	if diff := cmp.Diff([]lb.TagID{"t3"}, ids(collect(t, p, err), tid)); diff != "" {
		t.Errorf("LB-39 escaped key (-want +got):\n%s", diff)
	}
	tg, err := f.Tags.Get(c, "t3") // LB-40
	must(t, err)
	if tg.TagKey != "env#2" || tg.TagValue != "odd#value" {
		t.Errorf("LB-40: %+v", tg)
	}
	_, err = f.Tags.Get(c, "t9")
	wantIs(t, err, table.ErrNotFound)

	ref := listbackup.TagRef{AccountID: "a1", ResourceType: lb.ResSource, TagKey: "env", TagValue: "production"}
	_, err = f.Tags.Attach(c, ref, "s1", "u1") // LB-41
	must(t, err)
	_, err = f.Tags.Attach(c, ref, "s2", "u1")
	must(t, err)
	tg, err = f.Tags.Attach(c, ref, "s1", "u1") // again: no change
	must(t, err)
	want := []lb.TaggedResource{{ResourceID: "s1", AttachedAt: t0, AttachedBy: "u1"}, {ResourceID: "s2", AttachedAt: t0, AttachedBy: "u1"}}
	if diff := cmp.Diff(want, tg.Resources); diff != "" {
		t.Errorf("LB-41 attach (-want +got):\n%s", diff)
	}
	tg, err = f.Tags.Detach(c, ref, "s1")
	must(t, err)
	if diff := cmp.Diff(want[1:], tg.Resources); diff != "" {
		t.Errorf("LB-41 detach (-want +got):\n%s", diff)
	}
	_, err = f.Tags.Attach(c, listbackup.TagRef{AccountID: "a1", ResourceType: lb.ResSource, TagKey: "nope", TagValue: "x"}, "s1", "")
	wantIs(t, err, table.ErrNotFound)
}

func notifIDs(items []lb.Notification) []lb.NotificationID {
	return ids(items, func(n lb.Notification) lb.NotificationID { return n.NotificationID })
}

// LB-42 notifications of a user newest first, LB-43 of an account in a time
// range, LB-44 of a user in one status / unread, LB-45 mark read, LB-46
// retention 30 days.
func TestNotifications_LB42_LB43_LB44_LB45_LB46(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	var sent []lb.Notification
	for i, id := range []lb.NotificationID{"n1", "n2", "n3"} {
		n := lb.Notification{UserID: "u1", NotificationID: id, AccountID: "a1", Type: lb.NotifyInApp, Category: lb.CategoryJob,
			Subject: "Job done", Message: "Your backup finished", Title: "Done"}
		if i == 2 {
			n.UserID = "u2"
		}
		must(t, f.Notifications.Send(c, &n))
		sent = append(sent, n)
		f.clock.Add(time.Hour)
	}
	check := func(name string, want []lb.NotificationID, p table.Page[lb.Notification], err error) {
		t.Helper()
		if diff := cmp.Diff(want, notifIDs(collect(t, p, err))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	p, err := f.Notifications.ByUser.List(c, lb.Notification{UserID: "u1"})
	check("LB-42", []lb.NotificationID{"n2", "n1"}, p, err)
	p, err = f.Notifications.ByAccount.Between(c, lb.Notification{AccountID: "a1", CreatedAt: t0.Add(time.Hour)}, lb.Notification{AccountID: "a1", CreatedAt: t0.Add(2 * time.Hour)})
	check("LB-43", []lb.NotificationID{"n3", "n2"}, p, err)
	p, err = f.Notifications.Unread.List(c, lb.Notification{UserID: "u1"})
	check("LB-44 unread", []lb.NotificationID{"n2", "n1"}, p, err)

	n, err := f.Notifications.MarkRead(c, listbackup.NotificationRef{UserID: "u1", CreatedAt: sent[0].CreatedAt, NotificationID: "n1"}) // LB-45
	must(t, err)
	if !n.IsRead || n.Status != lb.NotificationRead || n.ReadAt.IsZero() {
		t.Errorf("LB-45: %+v", n)
	}
	p, err = f.Notifications.Unread.List(c, lb.Notification{UserID: "u1"})
	check("LB-44 unread after LB-45", []lb.NotificationID{"n2"}, p, err)
	p, err = f.Notifications.ByStatus.List(c, lb.Notification{UserID: "u1", Status: lb.NotificationRead})
	check("LB-44 status read", []lb.NotificationID{"n1"}, p, err)
	p, err = f.Notifications.ByStatus.List(c, lb.Notification{UserID: "u1", Status: lb.NotificationPending})
	check("LB-44 status pending", []lb.NotificationID{"n2"}, p, err)

	// LB-46: expiresAt and the TTL attribute are createdAt + 30 days.
	k := listbackup.Key(lb.Notification{UserID: "u1", CreatedAt: sent[1].CreatedAt, NotificationID: "n2"})
	item := raw(t, f, k)
	want := sent[1].CreatedAt.Add(30 * 24 * time.Hour).Unix()
	if numAttr(t, item, "ttl") != want || numAttr(t, item, "expiresAt") != want {
		t.Errorf("LB-46: ttl %d, expiresAt %d, want %d", numAttr(t, item, "ttl"), numAttr(t, item, "expiresAt"), want)
	}
	f.clock.Add(30*24*time.Hour - 2*time.Hour) // n1 (t0) and n2 (t0+1h) expired
	p, err = f.Notifications.ByUser.List(c, lb.Notification{UserID: "u1"})
	check("LB-46 after 30 days", []lb.NotificationID{}, p, err)
	_, err = f.Notifications.MarkRead(c, listbackup.NotificationRef{UserID: "u1", CreatedAt: sent[1].CreatedAt, NotificationID: "n2"})
	wantIs(t, err, table.ErrNotFound)
}

// Bad input is refused before any request (LB-38..LB-45).
func TestTagsNotificationsBadInput_LB38_LB39_LB40_LB41_LB42_LB43_LB44_LB45(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	_, err := f.Tags.ByResourceType.List(c, lb.Tag{AccountID: "a1"})
	wantInvalid(t, err, "resourceType")
	_, err = f.Tags.ByKey.List(c, lb.Tag{AccountID: "a1", ResourceType: lb.ResSource})
	wantInvalid(t, err, "tagKey")
	_, err = f.Tags.Get(c, "")
	wantInvalid(t, err, "tagId")
	_, err = f.Tags.Attach(c, listbackup.TagRef{AccountID: "a1", ResourceType: lb.ResSource, TagKey: "k", TagValue: "v"}, "", "")
	wantInvalid(t, err, "resourceId")
	_, err = f.Notifications.ByUser.List(c, lb.Notification{UserID: ""})
	wantInvalid(t, err, "userId")
	_, err = f.Notifications.ByAccount.Between(c, lb.Notification{AccountID: "a1", CreatedAt: t0}, lb.Notification{AccountID: "a1", CreatedAt: t0.Add(-1)})
	wantInvalid(t, err, "createdAt") // a reversed range
	_, err = f.Notifications.ByStatus.List(c, lb.Notification{UserID: "u1", Status: "unknown"})
	wantInvalid(t, err, "status")
	_, err = f.Notifications.MarkRead(c, listbackup.NotificationRef{UserID: "u1", NotificationID: "n1"})
	wantInvalid(t, err, "createdAt")
	wantInvalid(t, f.Tags.Create(c, &lb.Tag{AccountID: "a1", TagKey: "k", TagValue: "v", ResourceType: lb.ResJob, Color: "red"}), "color")
	if n := f.requests.Load(); n != 0 {
		t.Errorf("bad input sent %d requests, want 0", n)
	}
}
