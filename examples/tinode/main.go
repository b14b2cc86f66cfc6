// Command tinode walks through Tinode's storage on one DynamoDB table: it
// loads the sample items of the Tinode document, creates users with unique
// tags, a p2p and a group topic, lets concurrent senders exchange messages,
// lists subscriptions and history, then walks through what today's
// Tinode server adds (unread counts, owned topics, joins, sharing, the
// deletion log, auth schemes, credentials). Each step prints its catalog ID.
//
//	go run ./examples/tinode
//
// It starts a DynamoDB Local unless DYNAMODB_ENDPOINT is set (then the
// table and items are kept).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"sync"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/internal/exampleenv"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
)

func main() {
	if err := run(); err != nil {
		log.Fatal(err)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	client, keep, stop, err := exampleenv.Open(ctx)
	if err != nil {
		return err
	}
	defer stop()
	// The sample message expires in 2018: run the clock in the samples' era.
	now := time.Date(2017, 10, 5, 0, 0, 0, 0, time.UTC)
	t, drop, err := exampleenv.Table(ctx, client, keep, table.NewSchema("tinode-example"),
		func(o *table.Options) { o.Now = func() time.Time { return now } })
	if err != nil {
		return err
	}
	defer drop()
	s := tinode.New(t)

	// The document's samples.
	var user tn.User
	var auth tn.AuthRecord
	var topic tn.Topic
	var msg tn.Message
	for _, x := range []struct {
		js string
		v  any
	}{{sampleUser, &user}, {sampleAuth, &auth}, {sampleTopic, &topic}, {sampleMsg, &msg}} {
		if err := json.Unmarshal([]byte(x.js), x.v); err != nil {
			return err
		}
	}
	check(s.Users.Create(ctx, &user))
	check(s.Auth.Add(ctx, &auth))
	check(s.Topics.Create(ctx, &topic))
	check(s.Topics.Create(ctx, &tn.Topic{Id: msg.Topic, SeqId: msg.SeqId}))
	check(s.Messages.Import(ctx, &msg))
	u, err := s.Users.ByID.Get(ctx, tn.User{Id: user.Id})
	check(err)
	fmt.Printf("TN-1  sample user %s: public %s, access auth=%s anon=%s, tags %v\n", u.Id, u.Public, u.Access.Auth, u.Access.Anon, u.Tags)
	a, err := s.Auth.ByUnique.Get(ctx, tn.AuthRecord{Unique: auth.Unique})
	check(err)
	fmt.Printf("TN-6  sample auth %s: user %s, level %s, secret %q\n", a.Unique, a.UserID, a.AuthLvl, a.Secret)
	m, err := s.Messages.Get(ctx, msg.Topic, msg.SeqId)
	check(err)
	fmt.Printf("TN-13 sample message %s/%d: %s\n", m.Topic, m.SeqId, m.Content)

	// Users with unique tags.
	for _, id := range []tn.UserID{"alice", "bob", "carol"} {
		check(s.Users.Create(ctx, &tn.User{Id: id, Access: tn.DefaultAccess{Auth: tn.ModeCPublic},
			Public: tn.JSON(map[string]string{"fn": string(id)}), Tags: []string{"email:" + string(id) + "@example.com"}}))
	}
	err = s.Users.Create(ctx, &tn.User{Id: "mallory", Tags: []string{"email:alice@example.com"}})
	fmt.Printf("TN-2  mallory with alice's tag: unique violation = %v\n", errors.Is(err, table.ErrUniqueViolation))
	tags, err := s.Users.AddTags(ctx, "alice", "tel:+15550001")
	check(err)
	fmt.Printf("TN-3  alice's tags: %v\n", tags)
	found, err := s.Users.FindByTag(ctx, "tel:+15550001")
	check(err)
	fmt.Printf("TN-4  tel:+15550001 belongs to %s\n", found.Id)
	matches, err := s.Users.FindByTags(ctx, "email:bob@example.com", "email:carol@example.com", "email:nobody@example.com")
	check(err)
	for _, m := range matches {
		fmt.Printf("TN-19 discovered %s by %v\n", m.User.Id, m.Tags)
	}
	_, err = s.Users.UpsertDevice(ctx, "bob", tn.Device{DeviceId: "fcm-bob-1", Platform: tn.PlatformAndroid, LastSeen: now, Lang: "en"})
	check(err)
	devs, err := s.Users.Devices(ctx, "alice", "bob", "carol")
	check(err)
	fmt.Printf("TN-20 devices for fan-out: %d user(s) with devices\n", len(devs))

	// A p2p and a group topic.
	full := tn.ModeCFull
	check(s.Topics.Create(ctx, &tn.Topic{Id: "p2pAliceBob", Access: tn.DefaultAccess{Auth: tn.ModeCPublic}},
		&tn.Subscription{Topic: "p2pAliceBob", User: "alice", ModeWant: tn.ModeCPublic, ModeGiven: tn.ModeCPublic},
		&tn.Subscription{Topic: "p2pAliceBob", User: "bob", ModeWant: tn.ModeCPublic, ModeGiven: tn.ModeCPublic}))
	var members []*tn.Subscription
	for _, id := range []tn.UserID{"alice", "bob", "carol"} {
		members = append(members, &tn.Subscription{Topic: "grpChat", User: id, ModeWant: full, ModeGiven: full})
	}
	check(s.Topics.Create(ctx, &tn.Topic{Id: "grpChat", Owner: "alice", Public: tn.JSON(map[string]string{"fn": "Chat"})}, members...))
	fmt.Println("TN-8  created p2pAliceBob and grpChat with their subscriptions")
	check(s.Messages.Save(ctx, &tn.Message{Topic: "p2pAliceBob", From: "alice", Content: tn.JSON("hi bob")}))
	check(s.Messages.Save(ctx, &tn.Message{Topic: "p2pAliceBob", From: "bob", Content: tn.JSON("hi alice")}))

	// Concurrent senders.
	var wg sync.WaitGroup
	for i := range 20 {
		from := []tn.UserID{"alice", "bob", "carol"}[i%3]
		wg.Go(func() {
			check(s.Messages.Save(ctx, &tn.Message{Topic: "grpChat", From: from, Content: tn.JSON(fmt.Sprintf("hi #%d from %s", i, from))}))
		})
	}
	wg.Wait()
	top, err := s.Topics.ByName.Get(ctx, tn.Topic{Id: "grpChat"})
	check(err)
	fmt.Printf("TN-12 20 concurrent senders: grpChat SeqId = %d\n", top.SeqId)
	page, err := s.Messages.History(ctx, tinode.HistoryFilter{Topic: "grpChat"}, table.Limit(5))
	check(err)
	for _, m := range page.Items {
		fmt.Printf("TN-13   %2d %s\n", m.SeqId, m.Content)
	}
	n, err := s.Messages.DeleteForUser(ctx, "grpChat", "bob", 1, 11)
	check(err)
	fmt.Printf("TN-14 bob hid %d messages for himself\n", n)
	subs, err := s.Subs.ByUser.List(ctx, tn.Subscription{User: "alice"})
	check(err)
	for _, sub := range subs.Items {
		fmt.Printf("TN-10 alice in %s (updated %s, mode %s)\n", sub.Topic, sub.UpdatedAt.Format(time.RFC3339), sub.Mode())
	}
	ts, err := s.Subs.ByTopic.List(ctx, tn.Subscription{Topic: "grpChat"})
	check(err)
	fmt.Printf("TN-11 grpChat has %d subscribers\n", len(ts.Items))
	v, err := s.Topics.Load(ctx, "p2pAliceBob", table.Limit(10))
	check(err)
	fmt.Printf("TN-8  one query loaded %s with %d subs and %d messages\n", v.Topic.Id, len(v.Subs), len(v.Messages))

	// What today's Tinode server adds.
	unread, err := s.Subs.UnreadCount(ctx, "alice")
	check(err)
	fmt.Printf("TN-21 alice has %d unread messages over her subscriptions\n", unread)
	owned, err := s.Topics.Owned.List(ctx, tn.Topic{Owner: "alice"})
	check(err)
	fmt.Printf("TN-22 alice owns %d topic(s)\n", len(owned.Items))
	joined, err := s.Subs.TopicsOfUser(ctx, tn.Subscription{User: "bob"})
	check(err)
	for _, st := range joined.Items {
		fmt.Printf("TN-23 bob in %s: topic SeqId %d, read %d\n", st.Topic.Id, st.Topic.SeqId, st.Sub.ReadSeqId)
	}
	var guests []*tn.Subscription
	for _, id := range []tn.UserID{"carol", "dave", "erin"} {
		guests = append(guests, &tn.Subscription{Topic: "grpChat", User: id, ModeWant: tn.ModeCPublic, ModeGiven: tn.ModeCPublic})
	}
	shared, err := s.Subs.Share(ctx, "grpChat", guests)
	check(err)
	top, err = s.Topics.ByName.Get(ctx, tn.Topic{Id: "grpChat"})
	check(err)
	fmt.Printf("TN-25 shared grpChat: new %v, already there %v; TN-24 SubCnt = %d\n", shared.Created, shared.Existing, top.SubCnt)
	kept, err := s.Topics.CreateP2P(ctx, &tn.Topic{Id: "p2pBobCarol"},
		&tn.Subscription{Topic: "p2pBobCarol", User: "bob", ModeWant: tn.ModeCPublic, ModeGiven: tn.ModeCPublic},
		&tn.Subscription{Topic: "p2pBobCarol", User: "carol", ModeWant: tn.ModeCPublic, ModeGiven: tn.ModeCPublic})
	check(err)
	fmt.Printf("TN-26 p2pBobCarol created (carol's earlier subscription kept: %v)\n", kept)
	delID, err := s.Messages.DeleteList(ctx, "grpChat", "", []tn.Range{{Low: 2, Hi: 4}, {Low: 7}})
	check(err)
	fmt.Printf("TN-27 deleted 2..3 and 7 for everyone: DelId %d\n", delID)
	dels, err := s.Messages.Deletions(ctx, "grpChat", "bob", 0)
	check(err)
	for _, d := range dels.Items {
		fmt.Printf("TN-28 bob's client hides deletion %d: %v\n", d.DelId, d.Ranges)
	}
	check(s.Auth.Add(ctx, &tn.AuthRecord{Unique: "token:alice-1", UserID: "alice", AuthLvl: tn.LevelAuth}))
	nTok, err := s.Auth.DeleteScheme(ctx, "alice", "token")
	check(err)
	fmt.Printf("TN-29 removed alice's %d token record(s) in one transaction\n", nTok)
	_, err = s.Creds.Upsert(ctx, &tn.Credential{User: "alice", Method: "email", Value: "alice@example.com", Resp: "123456"})
	check(err)
	_, err = s.Creds.Confirm(ctx, "alice", "email")
	check(err)
	owner, err := s.Creds.UserByCred(ctx, "email", "alice@example.com")
	check(err)
	fmt.Printf("TN-30 email alice@example.com validated; it identifies %s\n", owner)

	check(s.Topics.Delete(ctx, "grpChat"))
	fmt.Println("TN-18 grpChat deleted with its subscriptions and messages")
	check(s.Users.Delete(ctx, "carol"))
	fmt.Println("TN-17 carol deleted with her auth records, tags and subscriptions")
	if keep {
		fmt.Fprintf(os.Stderr, "table %s kept\n", t.Name())
	}
	return nil
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
