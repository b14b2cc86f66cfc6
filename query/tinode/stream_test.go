package tinode_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed/feedtest"
	"github.com/singletable/singletable/table/tabletest"
)

// TN-39: every write of the Tinode store, on a table with a
// NEW_AND_OLD_IMAGES stream (tinode.md declares none; the test adds it),
// heard as a typed change of its entity: users (tags held by guards,
// devices, touch, soft delete, delete), auth records, topics and their
// subscriptions, messages in the sharded profile (4 partitions, then
// resharded to 2), deletion log entries, credentials, files and their
// links, the persistent cache and the layout version. Every record is
// routed to its entity or to the library's items, none unknown, and every
// image decodes.
func TestEveryWriteHeard_TN39(t *testing.T) {
	t.Parallel()
	tbl := tabletest.NewTable(t, table.NewSchema("tinode", table.WithStream(types.StreamViewTypeNewAndOldImages)))
	s := tinode.New(tbl, func(o *tinode.Options) { o.MessageShards = 4 })
	c := ctx(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must2 := func(_ any, err error) { t.Helper(); must(err) }

	// Users: tags (unique guards), a device, a touch, one soft-deleted
	// and one deleted.
	mustUser(t, s, "usrAda", "email:ada@example.com", "ada")
	mustUser(t, s, "usrBob", "email:bob@example.com")
	mustUser(t, s, "usrCyd")
	must2(s.Users.AddTags(c, "usrAda", "alias:lovelace"))
	must2(s.Users.RemoveTags(c, "usrAda", "ada"))
	must2(s.Users.UpsertDevice(c, "usrAda", tn.Device{DeviceId: "dev1", Platform: tn.PlatformAndroid, LastSeen: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}))
	must(s.Users.Touch(c, "usrBob", time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), "tinode-test/1.0"))
	// Auth records: added, updated, deleted.
	must(s.Auth.Add(c, &tn.AuthRecord{Unique: "basic:ada", UserID: "usrAda", AuthLvl: tn.LevelAuth, Secret: []byte("hash-1")}))
	must(s.Auth.Add(c, &tn.AuthRecord{Unique: "basic:bob", UserID: "usrBob", AuthLvl: tn.LevelAuth}))
	must2(s.Auth.Update(c, "basic:ada", tn.AuthRecord{Unique: "basic:ada", UserID: "usrAda", AuthLvl: tn.LevelAuth, Secret: []byte("hash-2")}))
	must(s.Auth.Delete(c, "basic:bob"))
	// Topics and subscriptions, messages in 4 partitions, then 2.
	mustTopic(t, s, "grpChat", "usrAda", "usrBob")
	mustTopic(t, s, "grpOld", "usrAda")
	must(s.Subs.Create(c, &tn.Subscription{Topic: "grpChat", User: "usrCyd", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull}))
	must2(s.Subs.Update(c, tinode.SubRef{Topic: "grpChat", User: "usrBob"}, func(sub *tn.Subscription) error { sub.Private = tn.JSON("starred"); return nil }))
	for i := range 6 {
		must(s.Messages.Save(c, &tn.Message{Topic: "grpChat", From: "usrAda", Content: tn.JSON(fmt.Sprintf("hello %d", i))}))
	}
	must2(s.Messages.Reshard(c, "grpChat", 2))
	for i := range 2 {
		must(s.Messages.Save(c, &tn.Message{Topic: "grpChat", From: "usrBob", Content: tn.JSON(fmt.Sprintf("after %d", i))}))
	}
	// Deletions: two messages for everyone (a log entry, tombstones), one
	// for one user.
	must2(s.Messages.DeleteList(c, "grpChat", "", []tn.Range{{Low: 1, Hi: 3}}))
	must2(s.Messages.DeleteList(c, "grpChat", "usrBob", []tn.Range{{Low: 4}}))
	must2(s.Topics.Update(c, "grpChat", func(top *tn.Topic) error { top.Public = tn.JSON(map[string]string{"fn": "Chat"}); return nil }))
	must(s.Subs.Delete(c, "grpChat", "usrCyd"))
	must(s.Topics.Delete(c, "grpOld"))
	// Credentials: validated, failed, deleted.
	must2(s.Creds.Upsert(c, &tn.Credential{User: "usrBob", Method: "email", Value: "bob@example.com", Resp: "123456"}))
	must2(s.Creds.Fail(c, "usrBob", "email"))
	must2(s.Creds.Confirm(c, "usrBob", "email"))
	must2(s.Creds.Upsert(c, &tn.Credential{User: "usrCyd", Method: "tel", Value: "+15550100", Resp: "1"}))
	must(s.Creds.Delete(c, "usrCyd", "tel", "+15550100"))
	// Files: started, finished, linked to a message, unlinked.
	must(s.Files.Start(c, &tn.File{Id: "f1", User: "usrAda", MimeType: "image/png"}))
	must2(s.Files.Finish(c, "f1", true, 42, "/up/f1", "etag1"))
	must(s.Files.Link(c, tn.MessageOwner("grpChat:1"), []string{"f1"}, false))
	must2(s.Files.Unlink(c, tn.MessageOwner("grpChat:1")))
	// The persistent cache and the layout version.
	must(s.Cache.Upsert(c, "sess:1", "v1", false))
	must(s.Cache.Upsert(c, "sess:1", "v2", false))
	must(s.Cache.Delete(c, "sess:1"))
	must(s.Meta.Init(c, 112))
	must(s.Meta.Upgrade(c, 112, 113))
	// Users last: one soft-deleted, one deleted.
	must2(s.Users.SoftDelete(c, "usrCyd"))
	must(s.Users.Delete(c, "usrBob"))

	h := feedtest.New()
	r := h.Router(tbl)
	var tags [][]string
	feedtest.Listen(h, r, func(c table.ItemChange[tn.User]) error {
		if c.New != nil && (c.Old == nil || !slices.Equal(c.Old.Tags, c.New.Tags)) {
			tags = append(tags, c.New.Tags)
		}
		return nil
	})
	var secrets []string
	feedtest.Listen(h, r, func(c table.ItemChange[tn.AuthRecord]) error {
		if c.New != nil && c.New.UserID == "usrAda" {
			secrets = append(secrets, string(c.New.Secret))
		}
		return nil
	})
	feedtest.Listen[tn.Topic](h, r, nil)
	feedtest.Listen[tn.Subscription](h, r, nil)
	partitions := map[string]bool{}
	var contents []string
	feedtest.Listen(h, r, func(c table.ItemChange[tn.Message]) error {
		partitions[c.Key.PK] = true
		if c.Event == table.Created {
			contents = append(contents, strings.Trim(string(c.New.Content), `"`))
		}
		return nil
	})
	feedtest.Listen[tn.DelMessage](h, r, nil)
	feedtest.Listen[tn.Credential](h, r, nil)
	feedtest.Listen[tn.File](h, r, nil)
	feedtest.Listen[tn.FileLink](h, r, nil)
	feedtest.Listen[tn.CacheEntry](h, r, nil)
	feedtest.Listen[tn.DBVersion](h, r, nil)
	h.Route(t, c, r)

	// Every entity the store binds was written and heard.
	t.Logf("TN-39: %s", h.EveryEntity(t, tbl))
	if h.Library[table.GuardType] == 0 {
		t.Errorf("no guard record heard: library %v", h.Library)
	}
	if want := []string{"hello 0", "hello 1", "hello 2", "hello 3", "hello 4", "hello 5", "after 0", "after 1"}; !slices.Equal(contents, want) {
		t.Errorf("messages heard %q, want %q", contents, want)
	}
	var pks []string
	for pk := range partitions {
		pks = append(pks, pk)
	}
	slices.Sort(pks)
	if len(pks) < 4 || !strings.HasPrefix(pks[0], "TOPIC#grpChat#") {
		t.Errorf("message partitions %v, want the sharded topic's", pks)
	}
	if want := []string{"hash-1", "hash-2"}; !slices.Equal(secrets, want) {
		t.Errorf("auth secrets heard %q, want %q", secrets, want)
	}
	if len(tags) < 3 {
		t.Errorf("user tag changes heard %v", tags)
	}
	for typ, want := range map[string][]string{
		"TinodeAuth":      {"created", "created", "modified", "removed"},
		"TinodeCache":     {"created", "modified", "removed"},
		"TinodeMessage":   {"created", "created", "created", "created", "created", "created", "created", "created", "modified", "modified", "modified"},
		"TinodeDBVersion": {"created", "modified"},
	} {
		if got := h.Events[typ]; !slices.Equal(got, want) {
			t.Errorf("%s events %v, want %v", typ, got, want)
		}
	}
}
