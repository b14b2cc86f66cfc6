package tinode_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
)

// TestFiles_TN31_TN32_TN33 (TN-31, TN-32, TN-33): an upload is started, finished, linked from a
// message and a topic avatar, replaced, and collected once unused.
func TestFiles_TN31_TN32_TN33(t *testing.T) {
	s := newStore(t)
	c := ctx(t)
	for _, id := range []string{"f1", "f2", "f3"} {
		if err := s.Files.Start(c, &tn.File{Id: id, User: "alice", MimeType: "image/png"}); err != nil {
			t.Fatal(err)
		}
	}
	wantIs(t, s.Files.Start(c, &tn.File{Id: "f1"}), table.ErrAlreadyExists)
	f, err := s.Files.Finish(c, "f1", true, 42, "/up/f1", "etag1")
	if err != nil || f.Status != tn.UploadCompleted || f.Size != 42 || f.Location != "/up/f1" {
		t.Fatalf("Finish = %+v, %v", f, err)
	}
	got, err := s.Files.ByID.Get(c, tn.File{Id: "f1"})
	if err != nil || got.Status != tn.UploadCompleted || got.ETag != "etag1" {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	failed, err := s.Files.Finish(c, "f3", false, 0, "", "")
	if err != nil || failed.Status != tn.UploadFailed {
		t.Fatalf("failed Finish = %+v, %v", failed, err)
	}
	_, err = s.Files.ByID.Get(c, tn.File{Id: "f3"})
	wantIs(t, err, table.ErrNotFound)
	_, err = s.Files.ByID.Get(c, tn.File{Id: "nope"})
	wantIs(t, err, table.ErrNotFound)

	// Linked files are kept; a missing file cannot be linked.
	if err := s.Files.Link(c, tn.MessageOwner("m1"), []string{"f1"}, false); err != nil {
		t.Fatal(err)
	}
	if err := s.Files.Link(c, tn.TopicOwner("grpA"), []string{"f2"}, true); err != nil {
		t.Fatal(err)
	}
	wantIs(t, s.Files.Link(c, tn.MessageOwner("m2"), []string{"gone"}, false), table.ErrNotFound)
	// Linking twice counts once.
	if err := s.Files.Link(c, tn.MessageOwner("m1"), []string{"f1"}, false); err != nil {
		t.Fatal(err)
	}
	if f, _ := s.Files.ByID.Get(c, tn.File{Id: "f1"}); f.UseCount != 1 {
		t.Fatalf("f1 UseCount = %d, want 1", f.UseCount)
	}
	locs, err := s.Files.DeleteUnused(c, time.Time{}, 10)
	if err != nil || len(locs) != 0 {
		t.Fatalf("DeleteUnused with everything linked = %v, %v", locs, err)
	}
	// Replacing the topic's avatar releases f2.
	if err := s.Files.Start(c, &tn.File{Id: "f4", User: "alice"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Files.Finish(c, "f4", true, 1, "/up/f4", ""); err != nil {
		t.Fatal(err)
	}
	if err := s.Files.Link(c, tn.TopicOwner("grpA"), []string{"f4"}, true); err != nil {
		t.Fatal(err)
	}
	links, err := s.Files.Links(c, tn.TopicOwner("grpA"))
	if err != nil || len(links) != 1 || links[0].File != "f4" {
		t.Fatalf("topic links = %+v, %v", links, err)
	}
	// f2 was never finished: no location, but its record goes.
	locs, err = s.Files.DeleteUnused(c, time.Now().Add(time.Hour), 10)
	if err != nil || len(locs) != 0 {
		t.Fatalf("DeleteUnused = %v, %v", locs, err)
	}
	_, err = s.Files.ByID.Get(c, tn.File{Id: "f2"})
	wantIs(t, err, table.ErrNotFound)
	// A message deleted for good releases its attachment.
	if n, err := s.Files.Unlink(c, tn.MessageOwner("m1")); err != nil || n != 1 {
		t.Fatalf("Unlink = %d, %v", n, err)
	}
	// olderThan before the file's update keeps it.
	if locs, err := s.Files.DeleteUnused(c, time.Now().Add(-time.Hour), 10); err != nil || len(locs) != 0 {
		t.Fatalf("DeleteUnused of older files = %v, %v", locs, err)
	}
	locs, err = s.Files.DeleteUnused(c, time.Time{}, 10)
	if err != nil || !slices.Equal(locs, []string{"/up/f1"}) {
		t.Fatalf("DeleteUnused = %v, %v, want [/up/f1]", locs, err)
	}
	if f, err := s.Files.ByID.Get(c, tn.File{Id: "f4"}); err != nil || f.UseCount != 1 {
		t.Fatalf("f4 = %+v, %v", f, err)
	}
}

// TestCache_TN34_TN35 (TN-34, TN-35): get, upsert (with and without failOnDuplicate),
// delete, and expiry by prefix and age.
func TestCache_TN34_TN35(t *testing.T) {
	s := newStore(t)
	c := ctx(t)
	_, err := s.Cache.ByKey.Get(c, tn.CacheEntry{Key: "k"})
	wantIs(t, err, table.ErrNotFound)
	if err := s.Cache.Upsert(c, "code_a:1", "v1", true); err != nil {
		t.Fatal(err)
	}
	wantIs(t, s.Cache.Upsert(c, "code_a:1", "v2", true), table.ErrAlreadyExists)
	if err := s.Cache.Upsert(c, "code_a:1", "v3", false); err != nil {
		t.Fatal(err)
	}
	if e, err := s.Cache.ByKey.Get(c, tn.CacheEntry{Key: "code_a:1"}); err != nil || e.Value != "v3" {
		t.Fatalf("Get = %q, %v", e.Value, err)
	}
	for _, k := range []string{"code_b#1", "other_x"} {
		if err := s.Cache.Upsert(c, k, "v", false); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.Cache.Expire(c, "code_", time.Now().Add(-time.Hour)); err != nil || n != 0 {
		t.Fatalf("Expire of nothing old = %d, %v", n, err)
	}
	if n, err := s.Cache.Expire(c, "code_", time.Now().Add(time.Hour)); err != nil || n != 2 {
		t.Fatalf("Expire = %d, %v, want 2", n, err)
	}
	if _, err := s.Cache.ByKey.Get(c, tn.CacheEntry{Key: "other_x"}); err != nil {
		t.Fatalf("another prefix was expired: %v", err)
	}
	_, err = s.Cache.Expire(c, "", time.Now())
	wantInvalid(t, err, "prefix")
	if err := s.Cache.Delete(c, "other_x"); err != nil {
		t.Fatal(err)
	}
	if err := s.Cache.Delete(c, "other_x"); err != nil {
		t.Fatalf("deleting a missing key: %v", err)
	}
	_, err = s.Cache.ByKey.Get(c, tn.CacheEntry{Key: "other_x"})
	wantIs(t, err, table.ErrNotFound)
}

// TestMeta_TN36: the version is recorded once and upgraded from the
// version read only.
func TestMeta_TN36(t *testing.T) {
	s := newStore(t)
	c := ctx(t)
	_, err := s.Meta.Version.Get(c, tn.DBVersion{})
	wantIs(t, err, table.ErrNotFound)
	if err := s.Meta.Init(c, 113); err != nil {
		t.Fatal(err)
	}
	wantIs(t, s.Meta.Init(c, 113), table.ErrAlreadyExists)
	wantIs(t, s.Meta.Upgrade(c, 112, 114), table.ErrConflict)
	if err := s.Meta.Upgrade(c, 113, 114); err != nil {
		t.Fatal(err)
	}
	if v, err := s.Meta.Version.Get(c, tn.DBVersion{}); err != nil || v.Version != 114 {
		t.Fatalf("Version = %d, %v", v.Version, err)
	}
}

// TestChannelsAndOwner_TN37_TN38: channel readers with notifications are
// listed per user; the owner index follows an owner change.
func TestChannelsAndOwner_TN37_TN38(t *testing.T) {
	s := newStore(t)
	c := ctx(t)
	mustUser(t, s, "alice")
	mustUser(t, s, "bob")
	mustTopic(t, s, "grpA", "alice")
	for _, name := range []tn.TopicName{"chnA", "chnB", "chnC"} {
		mustTopic(t, s, name)
	}
	subs := []tn.Subscription{
		{Topic: "chnA", User: "bob", ModeWant: tn.ModeJoin | tn.ModeRead | tn.ModePres, ModeGiven: tn.ModeJoin | tn.ModeRead | tn.ModePres},
		{Topic: "chnB", User: "bob", ModeWant: tn.ModeJoin | tn.ModeRead, ModeGiven: tn.ModeCFull},
		{Topic: "chnC", User: "bob", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull},
		{Topic: "grpA", User: "bob", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull},
	}
	for i := range subs {
		if err := s.Subs.Create(c, &subs[i]); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Subs.Channels(c, "bob")
	if err != nil || !slices.Equal(got, []tn.TopicName{"chnA", "chnC"}) {
		t.Fatalf("Channels = %v, %v, want [chnA chnC]", got, err)
	}
	// Turning P off, P on, and unsubscribing move the index.
	if _, err := s.Subs.Update(c, tinode.SubRef{Topic: "chnA", User: "bob"}, func(s *tn.Subscription) error { s.ModeWant = tn.ModeJoin | tn.ModeRead; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Subs.Update(c, tinode.SubRef{Topic: "chnB", User: "bob"}, func(s *tn.Subscription) error { s.ModeWant |= tn.ModePres; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.Subs.SoftDelete(c, "chnC", "bob"); err != nil {
		t.Fatal(err)
	}
	got, err = s.Subs.Channels(c, "bob")
	if err != nil || !slices.Equal(got, []tn.TopicName{"chnB"}) {
		t.Fatalf("Channels after changes = %v, %v, want [chnB]", got, err)
	}

	// TN-38: the topic moves from alice's owned list to bob's.
	if _, err := s.Topics.Update(c, "grpA", func(tp *tn.Topic) error { tp.Owner = "alice"; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Topics.ChangeOwner(c, "grpA", "bob"); err != nil {
		t.Fatal(err)
	}
	for user, want := range map[tn.UserID]int{"alice": 0, "bob": 1} {
		p, err := s.Topics.Owned.List(c, tn.Topic{Owner: user})
		if err != nil || len(p.Items) != want {
			t.Fatalf("Owned(%s) = %d topics, %v, want %d", user, len(p.Items), err, want)
		}
	}
	_, err = s.Topics.ChangeOwner(c, "grpNone", "bob")
	if !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("ChangeOwner of a missing topic: %v", err)
	}
}
