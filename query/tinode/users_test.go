package tinode_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// TestUsersGetMany_TN1 reads users one by one and in a batch.
func TestUsersGetMany_TN1(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	a, b := mustUser(t, s, "alice"), mustUser(t, s, "bob#1")
	got, err := s.Users.GetMany(ctx(t), []tn.UserID{"bob#1", "nobody", "alice", "bob#1"})
	if err != nil {
		t.Fatal(err)
	}
	ids := []tn.UserID{}
	for _, u := range got {
		ids = append(ids, u.Id)
	}
	if d := cmp.Diff([]tn.UserID{b.Id, a.Id}, ids); d != "" {
		t.Errorf("ids (-want +got):\n%s", d)
	}
	_, err = s.Users.ByID.Get(ctx(t), tn.User{Id: "nobody"})
	wantIs(t, err, table.ErrNotFound)
	_, err = s.Users.ByID.Get(ctx(t), tn.User{Id: ""})
	wantInvalid(t, err, "Id")
}

// TestUsersCreateTags_TN2 creates users with unique tags; a taken tag fails
// the whole create (TN-2), and tags with '#' work (escaped keys).
func TestUsersCreateTags_TN2(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	mustUser(t, s, "alice", "email:a@x.org", "tel:#1")
	u := tn.User{Id: "bob", Tags: []string{"email:b@x.org", "tel:#1"}}
	wantIs(t, s.Users.Create(ctx(t), &u), table.ErrUniqueViolation)
	_, err := s.Users.ByID.Get(ctx(t), tn.User{Id: "bob"})
	wantIs(t, err, table.ErrNotFound)
	_, err = s.Users.LookupTag(ctx(t), "email:b@x.org")
	wantIs(t, err, table.ErrNotFound)
	dup := tn.User{Id: "alice"}
	wantIs(t, s.Users.Create(ctx(t), &dup), table.ErrAlreadyExists)
	bad := tn.User{Id: "carol", Tags: []string{"x", "x"}}
	wantInvalid(t, s.Users.Create(ctx(t), &bad), "Tags")
	bad = tn.User{Id: "carol", Tags: []string{""}}
	wantInvalid(t, s.Users.Create(ctx(t), &bad), "Tags")
}

// TestUsersUpdateTags_TN3 adds, removes and resets tags transactionally,
// then finds users by tag (TN-4), lists a user's tags (TN-5) and finds
// users by several tags (TN-19).
func TestUsersUpdateTags_TN3_TN4_TN5_TN19(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustUser(t, s, "alice", "a1")
	mustUser(t, s, "bob", "b1")
	tags, err := s.Users.AddTags(c, "alice", "a2", "a1")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"a1", "a2"}, tags); d != "" {
		t.Errorf("TN-3 add (-want +got):\n%s", d)
	}
	_, err = s.Users.AddTags(c, "alice", "a3", "b1")
	wantIs(t, err, table.ErrUniqueViolation)
	if _, err := s.Users.LookupTag(c, "a3"); !isNotFound(err) {
		t.Errorf("TN-3: a3 guard written by a failed change: %v", err)
	}
	tags, err = s.Users.RemoveTags(c, "alice", "a1")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"a2"}, tags); d != "" {
		t.Errorf("TN-3 remove (-want +got):\n%s", d)
	}
	if _, err := s.Users.AddTags(c, "bob", "a1"); err != nil {
		t.Fatalf("TN-3: freed tag a1 not reusable: %v", err)
	}
	tags, err = s.Users.ResetTags(c, "alice", "r1", "r2")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"r1", "r2"}, tags); d != "" {
		t.Errorf("TN-3 reset (-want +got):\n%s", d)
	}
	_, err = s.Users.ResetTags(c, "alice", "b1")
	wantIs(t, err, table.ErrUniqueViolation)
	_, err = s.Users.AddTags(c, "alice")
	wantInvalid(t, err, "Tags")

	u, err := s.Users.FindByTag(c, "r2")
	if err != nil || u.Id != "alice" {
		t.Fatalf("TN-4 find r2 = %s, %v", u.Id, err)
	}
	_, err = s.Users.FindByTag(c, "a2")
	wantIs(t, err, table.ErrNotFound)

	got, err := s.Users.Tags.Get(c, tn.User{Id: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"r1", "r2"}, got.Tags); d != "" {
		t.Errorf("TN-5 (-want +got):\n%s", d)
	}

	m, err := s.Users.FindByTags(c, "zz", "b1", "r1", "a1", "r2")
	if err != nil {
		t.Fatal(err)
	}
	type match struct {
		ID   tn.UserID
		Tags []string
	}
	var ms []match
	for _, x := range m {
		ms = append(ms, match{x.User.Id, x.Tags})
	}
	if d := cmp.Diff([]match{{"bob", []string{"b1", "a1"}}, {"alice", []string{"r1", "r2"}}}, ms); d != "" {
		t.Errorf("TN-19 (-want +got):\n%s", d)
	}
}

func isNotFound(err error) bool { return err != nil && errorsIs(err, table.ErrNotFound) }

// TestDevices_TN16_TN20 upserts and deletes push devices and reads the
// devices of many users at once.
func TestDevices_TN16_TN20(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustUser(t, s, "alice")
	mustUser(t, s, "bob")
	mustUser(t, s, "carol")
	seen := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	d1 := tn.Device{DeviceId: "fcm:1", Platform: tn.PlatformAndroid, LastSeen: seen, Lang: "en"}
	d2 := tn.Device{DeviceId: "apns#2", Platform: tn.PlatformIOS, LastSeen: seen}
	for _, d := range []tn.Device{d1, d2} {
		if _, err := s.Users.UpsertDevice(c, "alice", d); err != nil {
			t.Fatal(err)
		}
	}
	d1.Lang = "de"
	if _, err := s.Users.UpsertDevice(c, "alice", d1); err != nil {
		t.Fatal(err)
	}
	d3 := tn.Device{DeviceId: "web", Platform: tn.PlatformWeb, LastSeen: seen}
	if _, err := s.Users.UpsertDevice(c, "bob", d3); err != nil {
		t.Fatal(err)
	}
	got, err := s.Users.Devices(c, "alice", "bob", "carol", "nobody")
	if err != nil {
		t.Fatal(err)
	}
	want := map[tn.UserID][]tn.Device{"alice": {d2, d1}, "bob": {d3}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("TN-20 (-want +got):\n%s", d)
	}
	if err := s.Users.DeleteDevice(c, "alice", "apns#2"); err != nil {
		t.Fatal(err)
	}
	wantIs(t, s.Users.DeleteDevice(c, "alice", "apns#2"), table.ErrNotFound)
	u, _ := s.Users.ByID.Get(c, tn.User{Id: "alice"})
	if d := cmp.Diff(map[string]tn.Device{"fcm:1": d1}, u.Devices); d != "" {
		t.Errorf("TN-16 after delete (-want +got):\n%s", d)
	}
	_, err = s.Users.UpsertDevice(c, "alice", tn.Device{DeviceId: "x", Platform: "palm"})
	wantInvalid(t, err, "Platform")
	_, err = s.Users.UpsertDevice(c, "nobody", d1)
	wantIs(t, err, table.ErrNotFound)
}

// TestUserDelete_TN17 (TN-17) soft-deletes a user, then hard-deletes it with its
// auth records, tags and subscriptions.
func TestUserDelete_TN17(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	mustUser(t, s, "alice", "a1", "a2")
	mustUser(t, s, "bob", "b1")
	mustTopic(t, s, "grp1", "alice", "bob")
	mustTopic(t, s, "grp2", "alice")
	for _, a := range []tn.AuthRecord{
		{Unique: "basic:alice", UserID: "alice", AuthLvl: tn.LevelAuth, Secret: []byte("h")},
		{Unique: "token:xyz", UserID: "alice", AuthLvl: tn.LevelAuth},
		{Unique: "basic:bob", UserID: "bob", AuthLvl: tn.LevelAuth},
	} {
		if err := s.Auth.Add(c, &a); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Users.SoftDelete(c, "alice"); err != nil {
		t.Fatal(err)
	}
	u, err := s.Users.ByID.Get(c, tn.User{Id: "alice"})
	if err != nil || u.State != tn.StateDeleted || u.DeletedAt == nil {
		t.Fatalf("soft delete: state %v deletedAt %v err %v", u.State, u.DeletedAt, err)
	}
	if err := s.Users.Delete(c, "alice"); err != nil {
		t.Fatal(err)
	}
	_, err = s.Users.ByID.Get(c, tn.User{Id: "alice"})
	wantIs(t, err, table.ErrNotFound)
	_, err = s.Users.LookupTag(c, "a1")
	wantIs(t, err, table.ErrNotFound)
	_, err = s.Auth.ByUnique.Get(c, tn.AuthRecord{Unique: "basic:alice"})
	wantIs(t, err, table.ErrNotFound)
	_, err = s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: "grp1", User: "alice"})
	wantIs(t, err, table.ErrNotFound)
	if _, err := s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: "grp1", User: "bob"}); err != nil {
		t.Errorf("bob's subscription deleted too: %v", err)
	}
	if _, err := s.Auth.ByUnique.Get(c, tn.AuthRecord{Unique: "basic:bob"}); err != nil {
		t.Errorf("bob's auth deleted too: %v", err)
	}
	mustUser(t, s, "carol", "a1") // the tag is free again
	wantIs(t, s.Users.Delete(c, "alice"), table.ErrNotFound)
}
