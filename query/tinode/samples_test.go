package tinode_test

import (
	"encoding/json"
	"fmt"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// The sample items of tinode.md, one per original table, verbatim.
const (
	sampleUser = `{
  "Access": {"Anon": 0, "Auth": 31},
  "ClearId": 0,
  "CreatedAt": "2017-09-25T09:26:11.469Z",
  "DeletedAt": null,
  "Devices": {},
  "Id": "KKyCVA956m8",
  "LastSeen": "2017-10-04T13:42:29.612Z",
  "Public": {"fn": "tndbomb_4", "photo": {"data": "/9j/4A...B//9k=", "type": "jpg"}},
  "SeqId": 4,
  "State": 0,
  "Tags": ["email:tndbomb_4@example.com"],
  "UpdatedAt": "2017-10-04T13:41:37.221Z",
  "UserAgent": "TinodeWeb/0.13 (MacIntel) tinodejs/0.13"
}`
	sampleAuth = `{
  "authLvl": 20,
  "expires": "0001-01-01T00:00:00Z",
  "secret": "JDJhJDEwJEFOenlnZU1ZOXMwLkZUTFVRUHVYZS56TFFuWEhDb28yMFhEaEFTRHZsMlNDbDJIV0VMbzZh",
  "unique": "basic:tndbomb_5",
  "userid": "9Si0WE3N_0Q"
}`
	sampleTag   = `{"Id": "email:tndbomb_50@example.com", "Source": "vnupzyrripA"}`
	sampleTopic = `{
  "Access": {"Anon": 0, "Auth": 0},
  "ClearId": 0,
  "CreatedAt": "2017-09-26T14:08:26.104Z",
  "DeletedAt": null,
  "Id": "p2pAlPRDF12iirthS2WpDz1eg",
  "Public": null,
  "SeqId": 16,
  "State": 0,
  "UpdatedAt": "2017-09-26T14:08:26.104Z",
  "UseBt": false
}`
	sampleSub = `{
  "ClearId": 0,
  "CreatedAt": "2017-09-26T14:04:16.792Z",
  "DeletedAt": null,
  "Id": "p2pGzLWrkc4ECYv8wKBpOKkkg:L_MCgaTipJI",
  "ModeGiven": 31,
  "ModeWant": 0,
  "Private": null,
  "ReadSeqId": 0,
  "RecvSeqId": 0,
  "State": 0,
  "Topic": "p2pGzLWrkc4ECYv8wKBpOKkkg",
  "UpdatedAt": "2017-09-26T14:04:16.792Z",
  "User": "L_MCgaTipJI"
}`
	sampleMsg = `{
  "Content": "Hello this is message from tinode bombardier! :D",
  "CreatedAt": "2017-09-26T14:05:15.361Z",
  "DeletedAt": null,
  "DeletedFor": [],
  "ExpireTime": 1537970847,
  "From": "FcjMAj2Q8D8",
  "Head": null,
  "Id": "QFzKAEbEyrw",
  "SeqId": 5,
  "Topic": "p2pAlPRDF12iioVyMwCPZDwPw",
  "UpdatedAt": "2017-09-26T14:05:15.361Z"
}`
)

func decode[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decode sample: %v", err)
	}
	return v
}

// sampleEra is a clock inside the samples' lifetime: the message sample
// expires on 2018-09-26 (ExpireTime 1537970847), so reading it back needs
// a clock before that (TN-15 shows the same item hidden after it).
var sampleEra = func(o *table.Options) {
	o.Now = func() time.Time { return time.Date(2017, 10, 5, 0, 0, 0, 0, time.UTC) }
}

// TestSamplesRoundTrip writes each sample item of tinode.md through the
// library and reads it back unchanged (TN-1, TN-4, TN-6, TN-8, TN-9, TN-13).
func TestSamplesRoundTrip(t *testing.T) {
	t.Parallel()
	s := newStore(t, sampleEra)
	c := ctx(t)

	t.Run("user TN-1", func(t *testing.T) {
		want := decode[tn.User](t, sampleUser)
		in := want
		if err := s.Users.Create(c, &in); err != nil {
			t.Fatal(err)
		}
		got, err := s.Users.ByID.Get(c, tn.User{Id: want.Id})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("user (-want +got):\n%s", d)
		}
		if got.Access.Auth.String() != "JRWPA" {
			t.Errorf("Auth = %s, want JRWPA", got.Access.Auth)
		}
		if string(got.Public) != `{"fn":"tndbomb_4","photo":{"data":"/9j/4A...B//9k=","type":"jpg"}}` {
			t.Errorf("Public = %s", got.Public)
		}
	})
	t.Run("auth TN-6", func(t *testing.T) {
		want := decode[tn.AuthRecord](t, sampleAuth)
		in := want
		if err := s.Auth.Add(c, &in); err != nil {
			t.Fatal(err)
		}
		got, err := s.Auth.ByUnique.Get(c, tn.AuthRecord{Unique: want.Unique})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("auth (-want +got):\n%s", d)
		}
		if string(got.Secret[:7]) != "$2a$10$" {
			t.Errorf("secret = %q, want the bcrypt hash", got.Secret)
		}
	})
	t.Run("tag TN-4", func(t *testing.T) {
		want := decode[tn.UniqueTag](t, sampleTag)
		mustUser(t, s, want.Source)
		if err := s.Users.ImportTag(c, want); err != nil {
			t.Fatal(err)
		}
		got, err := s.Users.LookupTag(c, want.Id)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("tag (-want +got):\n%s", d)
		}
	})
	t.Run("topic TN-8", func(t *testing.T) {
		want := decode[tn.Topic](t, sampleTopic)
		in := want
		if err := s.Topics.Create(c, &in); err != nil {
			t.Fatal(err)
		}
		got, err := s.Topics.ByName.Get(c, tn.Topic{Id: want.Id})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("topic (-want +got):\n%s", d)
		}
	})
	t.Run("subscription TN-9", func(t *testing.T) {
		want := decode[tn.Subscription](t, sampleSub)
		if err := s.Topics.Create(c, &tn.Topic{Id: want.Topic}); err != nil {
			t.Fatal(err)
		}
		in := want
		if err := s.Subs.Create(c, &in); err != nil {
			t.Fatal(err)
		}
		got, err := s.Subs.ByTopicUser.Get(c, tn.Subscription{Topic: want.Topic, User: want.User})
		if err != nil {
			t.Fatal(err)
		}
		want.Version = 1 // the item's version, mirrored on read
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("subscription (-want +got):\n%s", d)
		}
	})
	t.Run("message TN-13", func(t *testing.T) {
		want := decode[tn.Message](t, sampleMsg)
		in := want
		if err := s.Messages.Import(c, &in); err != nil {
			t.Fatal(err)
		}
		got, err := s.Messages.Get(c, want.Topic, want.SeqId)
		if err != nil {
			t.Fatal(err)
		}
		want.Version = 1
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("message (-want +got):\n%s", d)
		}
	})
}

// TestSampleStorageTypes checks the stored attribute types of the sample
// user (TN-1): Public as a map, DeletedAt as NULL, Devices as an empty map,
// Access modes as numbers, Tags as a list, like the original tables.
func TestSampleStorageTypes(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	u := decode[tn.User](t, sampleUser)
	if err := s.Users.Create(c, &u); err != nil {
		t.Fatal(err)
	}
	p, err := s.Table().QueryItems(c, table.Query{PK: "USER#KKyCVA956m8"})
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("%d items, %v", len(p.Items), err)
	}
	it := p.Items[0]
	got := map[string]string{}
	for _, a := range []string{"Public", "DeletedAt", "Devices", "Tags", "CreatedAt", "SeqId"} {
		got[a] = fmt.Sprintf("%T", it[a])
	}
	got["Access.Auth"] = fmt.Sprintf("%T", it["Access"].(*types.AttributeValueMemberM).Value["Auth"])
	want := map[string]string{
		"Public": "*types.AttributeValueMemberM", "DeletedAt": "*types.AttributeValueMemberNULL",
		"Devices": "*types.AttributeValueMemberM", "Tags": "*types.AttributeValueMemberL",
		"CreatedAt": "*types.AttributeValueMemberS", "SeqId": "*types.AttributeValueMemberN",
		"Access.Auth": "*types.AttributeValueMemberN",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("attribute types (-want +got):\n%s", d)
	}
}
