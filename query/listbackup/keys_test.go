package listbackup_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

// Every key the store reads by is its entity's declaration's
// (table.Entity.Key), byte for byte the mapping's; parsed back, a key
// gives the typed fields (table.Entity.FromKey).
func TestEntityKeysDocumentFormat(t *testing.T) {
	t.Parallel()
	at := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	const ts, sec = "2025-01-02T03:04:05.000000006Z", "2025-01-02T03:04:05.000000000Z"
	hash := lb.Hash("token")
	for _, c := range []struct {
		got, want table.Key
	}{
		{listbackup.Key(lb.User{UserID: "u1"}), table.Key{PK: "USER#u1", SK: "PROFILE"}},
		{listbackup.Key(lb.Membership{UserID: "u1", AccountID: "a1"}), table.Key{PK: "USER#u1", SK: "MEMBER#a1"}},
		{listbackup.Key(lb.Account{AccountID: "a1"}), table.Key{PK: "ACCOUNT#a1", SK: "PROFILE"}},
		{listbackup.Key(lb.Team{TeamID: "t1"}), table.Key{PK: "TEAM#t1", SK: "TEAM"}},
		{listbackup.Key(lb.Source{SourceID: "s1"}), table.Key{PK: "SOURCE#s1", SK: "SOURCE"}},
		{listbackup.Key(lb.OAuthToken{SourceID: "s1"}), table.Key{PK: "SOURCE#s1", SK: "OAUTH"}},
		{listbackup.Key(lb.SyncSchedule{SourceID: "s1", ScheduleID: "sc1"}), table.Key{PK: "SOURCE#s1", SK: "SCHED#sc1"}},
		// startedAt is stored in epoch seconds: its key too.
		{listbackup.Key(lb.SyncRun{SourceID: "s1", StartedAt: at, SyncID: "r1"}), table.Key{PK: "SOURCE#s1", SK: "RUN#" + sec + "#r1"}},
		{listbackup.Key(lb.Activity{AccountID: "a1", CreatedAt: at, EventID: "e1"}), table.Key{PK: "ACTIVITY#a1", SK: "EVT#" + ts + "#e1"}},
		{listbackup.Key(lb.Job{JobID: "j1"}), table.Key{PK: "JOB#j1", SK: "JOB"}},
		{listbackup.Key(lb.Connection{ConnectionID: "c1"}), table.Key{PK: "CONN#c1", SK: "CONN"}},
		{listbackup.Key(lb.OAuthState{State: "st1"}), table.Key{PK: "OAUTHSTATE#st1", SK: "STATE"}},
		{listbackup.Key(lb.RefreshToken{TokenHash: hash}), table.Key{PK: "RTOKEN#" + hash, SK: "RTOKEN"}},
		{listbackup.Key(lb.TokenFamily{Family: "f1"}), table.Key{PK: "RTFAM#f1", SK: "FAMILY"}},
		{listbackup.Key(lb.Tag{AccountID: "a1", ResourceType: lb.ResSource, TagKey: "env#x", TagValue: "100%"}), table.Key{PK: "TAGS#a1#source", SK: "TAG#env%23x#100%25"}},
		{listbackup.Key(lb.Notification{UserID: "u1", CreatedAt: at, NotificationID: "n1"}), table.Key{PK: "NOTIF#u1", SK: "N#" + ts + "#n1"}},
		{listbackup.Key(lb.APIKey{APIKeyID: "k1"}), table.Key{PK: "APIKEY#k1", SK: "APIKEY"}},
		{listbackup.Key(lb.Webhook{WebhookID: "w1"}), table.Key{PK: "WEBHOOK#w1", SK: "WEBHOOK"}},
	} {
		if c.got.Err() != nil || c.got != c.want {
			t.Errorf("got %v, %v; want %v", c.got, c.got.Err(), c.want)
		}
	}

	tag, err := listbackup.FromKey[lb.Tag](table.Key{PK: "TAGS#a1#source", SK: "TAG#env%23x#100%25"})
	if diff := cmp.Diff(lb.Tag{AccountID: "a1", ResourceType: lb.ResSource, TagKey: "env#x", TagValue: "100%"}, tag); diff != "" || err != nil {
		t.Errorf("tag key round trip (-want +got):\n%s %v", diff, err)
	}
	// FromKey reads the IDs back; a ":ts" segment it does not (the engine's
	// Reverse has no time form yet).
	ev, err := listbackup.FromKey[lb.Activity](listbackup.Key(lb.Activity{AccountID: "a1", CreatedAt: at, EventID: "e1"}))
	if ev.AccountID != "a1" || ev.EventID != "e1" || err != nil {
		t.Errorf("activity key read back as %+v, %v", ev, err)
	}
	if err := listbackup.Key(lb.User{UserID: "a#b"}).Err(); !errors.Is(err, table.ErrInvalidKey) {
		t.Errorf("the key of user a#b: %v, want ErrInvalidKey", err)
	}
}
