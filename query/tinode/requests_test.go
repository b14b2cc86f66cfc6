package tinode_test

import (
	"context"
	"fmt"
	"iter"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/internal/patterncost"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

func drainSeq[T any](seq iter.Seq2[T, error]) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestRequestCosts measures one call of every Tinode method that serves a
// catalog pattern (TN-1..TN-38) and holds each to the requests recorded in
// docs/patterns/tinode.requests.json (see patterncost.Costs): a method that
// starts to send one more request fails. Messages.Save is measured with
// one sender (its group commit shares a transaction among concurrent
// senders: BenchmarkSaveSenders).
func TestRequestCosts_TN1_to_TN38(t *testing.T) {
	rc := &tabletest.RequestCounter{Capacity: true}
	meter := capacity.NewMeter(tabletest.Client(t))
	tb := tabletest.NewTable(t, table.NewSchema("tinode"))
	metered := table.New(tabletest.NewClient(t, rc.Option(), meter.Option()), tb.Schema())
	s := tinode.New(metered)
	meter.Learn(metered)
	costs := &patterncost.Costs{App: "tinode", Root: "../..", Counter: rc, Meter: meter, Tables: []*table.Table{metered}}
	// A long deadline: the meter reads every item it charges, and a busy machine is slow.
	c, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	m := func(method, note string, fn func() error) { t.Helper(); costs.Measure(t, method, note, fn) }
	get := func(fn func() (any, error)) func() error { return func() error { _, err := fn(); return err } }

	// Users and tags (TN-1, TN-2, TN-16, TN-17).
	m("Users.Create", "2 unique tags", func() error {
		u := tn.User{Id: "alice", Access: tn.DefaultAccess{Auth: tn.ModeCPublic}, Tags: []string{"email:alice@example.com", "tel:+15550100"}}
		return s.Users.Create(c, &u)
	})
	mustUser(t, s, "bob", "email:bob@example.com")
	mustUser(t, s, "carol")
	m("Users.ByID.Get", "", get(func() (any, error) { return s.Users.ByID.Get(c, tn.User{Id: "alice"}) }))
	m("Users.GetMany", "3 users", get(func() (any, error) { return s.Users.GetMany(c, []tn.UserID{"alice", "bob", "carol"}) }))
	m("Users.Touch", "", func() error {
		return s.Users.Touch(c, "alice", time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC), "TinodeWeb/0.24")
	})
	m("Users.Update", "", get(func() (any, error) {
		return s.Users.Update(c, "carol", func(u *tn.User) error { u.Public = tn.JSON(map[string]string{"fn": "Carol"}); return nil })
	}))
	m("Users.AddTags", "1 unique tag", get(func() (any, error) { return s.Users.AddTags(c, "carol", "email:carol@example.com") }))
	m("Users.RemoveTags", "1 unique tag", get(func() (any, error) { return s.Users.RemoveTags(c, "carol", "email:carol@example.com") }))
	m("Users.ResetTags", "1 unique tag for none", get(func() (any, error) { return s.Users.ResetTags(c, "carol", "email:carol2@example.com") }))
	m("Users.LookupTag", "", get(func() (any, error) { return s.Users.LookupTag(c, "email:alice@example.com") }))
	m("Users.FindByTag", "", get(func() (any, error) { return s.Users.FindByTag(c, "email:alice@example.com") }))
	m("Users.Tags.Get", "2 tags", get(func() (any, error) { return s.Users.Tags.Get(c, tn.User{Id: "alice"}) }))
	m("Users.FindByTags", "2 tags", get(func() (any, error) { return s.Users.FindByTags(c, "email:alice@example.com", "email:bob@example.com") }))
	m("Users.ImportTag", "", func() error {
		return s.Users.ImportTag(c, tn.UniqueTag{Id: "email:imported@example.com", Source: "carol"})
	})
	seen := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	m("Users.UpsertDevice", "", get(func() (any, error) {
		return s.Users.UpsertDevice(c, "alice", tn.Device{DeviceId: "fcm:1", Platform: tn.PlatformAndroid, LastSeen: seen, Lang: "en"})
	}))
	m("Users.Devices", "2 users", get(func() (any, error) { return s.Users.Devices(c, "alice", "bob") }))
	m("Users.DeleteDevice", "", func() error { return s.Users.DeleteDevice(c, "alice", "fcm:1") })

	// Auth records (TN-3, TN-4, TN-29).
	exp := seen.Add(24 * time.Hour)
	m("Auth.Add", "", func() error {
		return s.Auth.Add(c, &tn.AuthRecord{Unique: "basic:alice", UserID: "alice", AuthLvl: tn.LevelAuth, Secret: []byte("h1"), Expires: exp})
	})
	if err := s.Auth.Add(c, &tn.AuthRecord{Unique: "token:alice1", UserID: "alice", AuthLvl: tn.LevelAuth, Secret: []byte("t1"), Expires: exp}); err != nil {
		t.Fatal(err)
	}
	m("Auth.ByUnique.Get", "", get(func() (any, error) { return s.Auth.ByUnique.Get(c, tn.AuthRecord{Unique: "basic:alice"}) }))
	m("Auth.ByUser.List", "a page of 2", get(func() (any, error) { return s.Auth.ByUser.List(c, tn.AuthRecord{UserID: "alice"}) }))
	m("Auth.ByUser.All", "2 records, 1 page", func() error { return drainSeq(s.Auth.ByUser.All(c, tn.AuthRecord{UserID: "alice"})) })
	m("Auth.GetByScheme", "", get(func() (any, error) { return s.Auth.GetByScheme(c, "alice", "basic") }))
	m("Auth.Update", "a new unique value", get(func() (any, error) {
		return s.Auth.Update(c, "basic:alice", tn.AuthRecord{Unique: "basic:alice2", UserID: "alice", AuthLvl: tn.LevelAuth, Secret: []byte("h2"), Expires: exp})
	}))
	m("Auth.DeleteScheme", "1 record", get(func() (any, error) { return s.Auth.DeleteScheme(c, "alice", "token") }))
	m("Auth.Delete", "", func() error { return s.Auth.Delete(c, "basic:alice2") })
	for _, u := range []string{"basic:carol", "token:carol1"} {
		if err := s.Auth.Add(c, &tn.AuthRecord{Unique: tn.AuthUnique(u), UserID: "carol", AuthLvl: tn.LevelAuth, Expires: exp}); err != nil {
			t.Fatal(err)
		}
	}
	m("Auth.DeleteAllByUser", "2 records", func() error { return s.Auth.DeleteAllByUser(c, "carol") })

	// Topics and subscriptions (TN-5..TN-11, TN-21..TN-26).
	m("Topics.Create", "with 2 subscriptions", func() error {
		top := tn.Topic{Id: "grpA", Owner: "alice", Access: tn.DefaultAccess{Auth: tn.ModeCPublic}, Tags: []string{"topic:a"}}
		return s.Topics.Create(c, &top,
			&tn.Subscription{Topic: "grpA", User: "alice", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull},
			&tn.Subscription{Topic: "grpA", User: "bob", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull})
	})
	m("Topics.ByName.Get", "", get(func() (any, error) { return s.Topics.ByName.Get(c, tn.Topic{Id: "grpA"}) }))
	m("Topics.Update", "", get(func() (any, error) {
		return s.Topics.Update(c, "grpA", func(tp *tn.Topic) error { tp.Public = tn.JSON("A"); return nil })
	}))
	m("Topics.Owned.List", "a page of 1", get(func() (any, error) { return s.Topics.Owned.List(c, tn.Topic{Owner: "alice"}) }))
	m("Topics.Owned.All", "1 topic, 1 page", func() error { return drainSeq(s.Topics.Owned.All(c, tn.Topic{Owner: "alice"})) })
	m("Topics.FindByTags", "1 tag", get(func() (any, error) { return s.Topics.FindByTags(c, "topic:a") }))
	m("Subscriptions.Create", "", func() error {
		return s.Subs.Create(c, &tn.Subscription{Topic: "grpA", User: "carol", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull})
	})
	m("Subscriptions.ByTopicUser.Get", "", get(func() (any, error) { return s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: "grpA", User: "bob"}) }))
	m("Subscriptions.Update", "the private note", get(func() (any, error) {
		return s.Subs.Update(c, tinode.SubRef{Topic: "grpA", User: "carol"}, func(sub *tn.Subscription) error { sub.Private = tn.JSON("work"); return nil })
	}))
	m("Subscriptions.ByTopic.List", "a page of 3", get(func() (any, error) { return s.Subs.ByTopic.List(c, tn.Subscription{Topic: "grpA"}) }))
	m("Subscriptions.ByTopic.All", "3 subscriptions, 1 page", func() error { return drainSeq(s.Subs.ByTopic.All(c, tn.Subscription{Topic: "grpA"})) })
	m("Subscriptions.ByUser.List", "a page of 1", get(func() (any, error) { return s.Subs.ByUser.List(c, tn.Subscription{User: "bob"}) }))
	m("Subscriptions.ByUser.All", "1 subscription, 1 page", func() error { return drainSeq(s.Subs.ByUser.All(c, tn.Subscription{User: "bob"})) })
	m("Subscriptions.TopicsOfUser", "a page of 1", get(func() (any, error) { return s.Subs.TopicsOfUser(c, tn.Subscription{User: "bob"}) }))
	m("Subscriptions.UsersOfTopic", "a page of 3", get(func() (any, error) { return s.Subs.UsersOfTopic(c, tn.Subscription{Topic: "grpA"}) }))
	m("Subscriptions.UnreadCount", "1 subscription", get(func() (any, error) { return s.Subs.UnreadCount(c, "bob") }))
	mustUser(t, s, "dave")
	mustUser(t, s, "erin")
	m("Subscriptions.Share", "2 new subscriptions", get(func() (any, error) {
		return s.Subs.Share(c, "grpA", []*tn.Subscription{
			{Topic: "grpA", User: "dave", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull},
			{Topic: "grpA", User: "erin", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull}})
	}))
	m("Subscriptions.SoftDelete", "", func() error { return s.Subs.SoftDelete(c, "grpA", "dave") })
	m("Subscriptions.Restore", "a soft-deleted one, its topic counted", func() error {
		return s.Subs.Restore(c, &tn.Subscription{Topic: "grpA", User: "dave", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull}, true)
	})
	if err := s.Subs.SoftDelete(c, "grpA", "dave"); err != nil { // as before the Restore
		t.Fatal(err)
	}
	m("Subscriptions.Delete", "", func() error { return s.Subs.Delete(c, "grpA", "erin") })
	m("Topics.RecountSubs", "3 live subscriptions, no channel readers", func() error {
		n, err := s.Topics.RecountSubs(c, "grpA", "")
		if err == nil && n != 3 {
			err = fmt.Errorf("counted %d subscriptions, want 3", n)
		}
		return err
	})
	m("Topics.CreateP2P", "both subscriptions new", get(func() (any, error) {
		return s.Topics.CreateP2P(c, &tn.Topic{Id: "p2pAB"},
			&tn.Subscription{Topic: "p2pAB", User: "alice", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull},
			&tn.Subscription{Topic: "p2pAB", User: "bob", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull})
	}))
	m("Topics.GetMany", "2 topics", func() error {
		got, err := s.Topics.GetMany(c, []tn.TopicName{"grpA", "p2pAB"})
		if err == nil && len(got) != 2 {
			err = fmt.Errorf("%d topics, want 2", len(got))
		}
		return err
	})
	m("Subscriptions.CreateUncounted", "carol's 'me' topic (no topic item)", func() error {
		return s.Subs.CreateUncounted(c, &tn.Subscription{Topic: "usrcarol", User: "carol", ModeWant: tn.ModeCFull, ModeGiven: tn.ModeCFull})
	})

	// Messages and deletions (TN-12..TN-15, TN-27, TN-28).
	m("Messages.Save", "one sender", func() error {
		return s.Messages.Save(c, &tn.Message{Topic: "grpA", From: "alice", Content: tn.JSON("hello")})
	})
	for range 4 {
		if err := s.Messages.Save(c, &tn.Message{Topic: "grpA", From: "bob", Content: tn.JSON("hi")}); err != nil {
			t.Fatal(err)
		}
	}
	m("Messages.Get", "", get(func() (any, error) { return s.Messages.Get(c, "grpA", 1) }))
	m("Messages.History", "a page of 5", get(func() (any, error) { return s.Messages.History(c, tinode.HistoryFilter{Topic: "grpA"}) }))
	m("Topics.Load", "the topic, 3 subscriptions, 5 messages", get(func() (any, error) { return s.Topics.Load(c, "grpA") }))
	m("Messages.DeleteForUser", "1 message", get(func() (any, error) { return s.Messages.DeleteForUser(c, "grpA", "bob", 1, 2) }))
	m("Messages.DeleteForAll", "1 message", get(func() (any, error) { return s.Messages.DeleteForAll(c, "grpA", 2, 3) }))
	m("Messages.DeleteList", "1 range of 1 message, for everyone", get(func() (any, error) {
		return s.Messages.DeleteList(c, "grpA", "", []tn.Range{{Low: 3}})
	}))
	m("Messages.FinishDeletes", "none pending", get(func() (any, error) { return s.Messages.FinishDeletes(c, "grpA") }))
	m("Messages.Deletions", "a page of the log", get(func() (any, error) { return s.Messages.Deletions(c, "grpA", "", 0) }))

	// A server that numbers a topic's messages itself (adapters/tinode):
	// the topic records the SeqId, the message is imported with it, and
	// the newest is read back after a restart.
	mustTopic(t, s, "grpImp")
	sent := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	m("Topics.RecordMessage", "", get(func() (any, error) { return s.Topics.RecordMessage(c, "grpImp", 1, sent) }))
	m("Messages.Import", "default profile", func() error {
		return s.Messages.Import(c, &tn.Message{Topic: "grpImp", SeqId: 1, From: "bob", CreatedAt: sent, Content: tn.JSON("imported")})
	})
	m("Messages.ImportAt", "the zero layout (1 partition)", func() error {
		return s.Messages.ImportAt(c, &tn.Message{Topic: "grpImp", SeqId: 2, From: "bob", CreatedAt: sent, Content: tn.JSON("imported")}, table.Layout{})
	})
	m("Messages.Newest", "the zero layout (1 partition)", func() error {
		got, err := s.Messages.Newest(c, "grpImp", table.Layout{})
		if err == nil && got.SeqId != 2 {
			err = fmt.Errorf("newest message %d, want 2", got.SeqId)
		}
		return err
	})
	// The sharded profile's switch of a live topic (a store on the same
	// metered client).
	sharded := tinode.New(metered, func(o *tinode.Options) { o.MessageShards = 1 })
	mustTopic(t, sharded, "grpShard")
	m("Messages.Reshard", "sharded profile: 1 partition to 4", func() error {
		l, err := sharded.Messages.Reshard(c, "grpShard", 4)
		if err == nil && l.Shards() != 4 {
			err = fmt.Errorf("%d shards after Reshard, want 4", l.Shards())
		}
		return err
	})

	// Credentials (TN-30).
	m("Credentials.Upsert", "a new credential", get(func() (any, error) {
		return s.Creds.Upsert(c, &tn.Credential{User: "bob", Method: "email", Value: "bob@example.com"})
	}))
	m("Credentials.GetActive", "", get(func() (any, error) { return s.Creds.GetActive(c, "bob", "email") }))
	m("Credentials.List", "1 credential", get(func() (any, error) { return s.Creds.List(c, "bob", "", false) }))
	m("Credentials.Unvalidated", "1 user", get(func() (any, error) { return s.Creds.Unvalidated(c, time.Now().Add(time.Hour), 10) }))
	m("Credentials.Fail", "", get(func() (any, error) { return s.Creds.Fail(c, "bob", "email") }))
	m("Credentials.Confirm", "", get(func() (any, error) { return s.Creds.Confirm(c, "bob", "email") }))
	m("Credentials.UserByCred", "", get(func() (any, error) { return s.Creds.UserByCred(c, "email", "bob@example.com") }))
	m("Credentials.Delete", "a validated credential", func() error { return s.Creds.Delete(c, "bob", "email", "bob@example.com") })

	// Files, the persistent cache, the version, channels, owners (TN-31..TN-38).
	m("Files.Start", "", func() error {
		return s.Files.Start(c, &tn.File{Id: "f1", User: "bob", MimeType: "image/png"})
	})
	m("Files.ByID.Get", "", get(func() (any, error) { return s.Files.ByID.Get(c, tn.File{Id: "f1"}) }))
	m("Files.Finish", "success", get(func() (any, error) { return s.Files.Finish(c, "f1", true, 100, "/up/f1", "e1") }))
	m("Files.Link", "1 new link, no replace", func() error { return s.Files.Link(c, tn.MessageOwner("m1"), []string{"f1"}, false) })
	m("Files.Links", "1 link", get(func() (any, error) { return s.Files.Links(c, tn.MessageOwner("m1")) }))
	m("Files.Unlink", "1 link", get(func() (any, error) { return s.Files.Unlink(c, tn.MessageOwner("m1")) }))
	m("Files.DeleteUnused", "1 unused file", get(func() (any, error) { return s.Files.DeleteUnused(c, time.Time{}, 10) }))
	m("Cache.Upsert", "", func() error { return s.Cache.Upsert(c, "code_email:bob", "123456:0:bob", false) })
	m("Cache.ByKey.Get", "", get(func() (any, error) { return s.Cache.ByKey.Get(c, tn.CacheEntry{Key: "code_email:bob"}) }))
	m("Cache.Expire", "1 entry", get(func() (any, error) { return s.Cache.Expire(c, "code_", time.Now().Add(time.Hour)) }))
	m("Cache.Delete", "", func() error { return s.Cache.Delete(c, "code_email:bob") })
	m("Meta.Init", "", func() error { return s.Meta.Init(c, 113) })
	m("Meta.Version.Get", "", get(func() (any, error) { return s.Meta.Version.Get(c, tn.DBVersion{}) }))
	m("Meta.Upgrade", "", func() error { return s.Meta.Upgrade(c, 113, 114) })
	m("Subscriptions.Channels", "none", get(func() (any, error) { return s.Subs.Channels(c, "bob") }))
	m("Topics.ChangeOwner", "", get(func() (any, error) { return s.Topics.ChangeOwner(c, "grpA", "bob") }))

	// Deletes last (TN-18..TN-20).
	m("Topics.SoftDelete", "", get(func() (any, error) { return s.Topics.SoftDelete(c, "p2pAB") }))
	m("Topics.Delete", "3 subscriptions, 5 messages, the log", func() error { return s.Topics.Delete(c, "grpA") })
	m("Users.SoftDelete", "", get(func() (any, error) { return s.Users.SoftDelete(c, "dave") }))
	m("Users.Delete", "2 tags", func() error { return s.Users.Delete(c, "alice") })
	costs.Check(t)
}
