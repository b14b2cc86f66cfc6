package tinode

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/singletable/singletable/table/tabletest"
	t "github.com/tinode/chat/server/store/types"
)

// TestMessages covers TN-12..TN-14, TN-27, TN-28: Tinode's numbering
// recorded with TopicUpdateOnMessage, the fixture messages saved and read
// in SeqId ranges, hidden from the user who deleted them, deleted by list
// for one user and for all, and the deletion log by DelId.
func TestMessages(t_ *testing.T) {
	t_.Parallel()
	a, td := newAdapter(t_)
	loadUsers(t_, a, td)
	grp, p2p := td.Topics[0], td.Topics[1]
	grp.SeqId = 0
	must(t_, a.TopicCreate(grp))
	must(t_, a.TopicShare(grp.Id, []*t.Subscription{td.Subs[0], td.Subs[1]}))
	must(t_, a.TopicCreateP2P(td.Subs[2], td.Subs[3]))
	for _, m := range td.Msgs {
		must(t_, a.TopicUpdateOnMessage(m.Topic, m))
		must(t_, a.MessageSave(m))
	}
	wantErr(t_, a.MessageSave(td.Msgs[0]), t.ErrDuplicate)
	if tp, _ := a.TopicGet(grp.Id); tp.SeqId != 3 {
		t_.Fatalf("topic SeqId = %d, want 3", tp.SeqId)
	}
	alice, bob := uidOf(td.Users[0]), uidOf(td.Users[1])
	seqs := func(ms []t.Message) []int {
		var out []int
		for _, m := range ms {
			out = append(out, m.SeqId)
		}
		return out
	}
	all, err := a.MessageGetAll(grp.Id, bob, nil)
	if err != nil || !slices.Equal(seqs(all), []int{3, 2, 1}) || all[0].Content != "msg31" {
		t_.Fatalf("MessageGetAll = %v, %v", seqs(all), err)
	}
	// Fixture message 2 is soft-deleted for alice.
	mine, _ := a.MessageGetAll(grp.Id, alice, nil)
	if !slices.Equal(seqs(mine), []int{3, 1}) {
		t_.Fatalf("alice sees %v, want [3 1]", seqs(mine))
	}
	r, _ := a.MessageGetAll(p2p.Id, bob, &t.QueryOpt{Since: 2, Before: 11})
	if !slices.Equal(seqs(r), []int{5}) {
		t_.Fatalf("range [2, 11) = %v, want [5]", seqs(r))
	}
	lim, _ := a.MessageGetAll(p2p.Id, bob, &t.QueryOpt{Limit: 2})
	if !slices.Equal(seqs(lim), []int{11, 5}) {
		t_.Fatalf("limit 2 = %v, want [11 5]", seqs(lim))
	}

	// Delete for bob, then for everyone.
	must(t_, a.MessageDeleteList(grp.Id, &t.DelMessage{Topic: grp.Id, DeletedFor: bob.String(), DelId: 1, SeqIdRanges: []t.Range{{Low: 1}}}))
	if got, _ := a.MessageGetAll(grp.Id, bob, nil); !slices.Equal(seqs(got), []int{3, 2}) {
		t_.Fatalf("bob after his deletion sees %v", seqs(got))
	}
	must(t_, a.MessageDeleteList(grp.Id, &t.DelMessage{Topic: grp.Id, DelId: 2, SeqIdRanges: []t.Range{{Low: 2, Hi: 4}}}))
	if got, _ := a.MessageGetAll(grp.Id, alice, nil); !slices.Equal(seqs(got), []int{1}) {
		t_.Fatalf("alice after the deletion for all sees %v", seqs(got))
	}
	if tp, _ := a.TopicGet(grp.Id); tp.DelId != 2 {
		t_.Fatalf("topic DelId = %d, want 2", tp.DelId)
	}
	dels, err := a.MessageGetDeleted(grp.Id, bob, nil)
	if err != nil || len(dels) != 2 || dels[0].DelId != 1 || dels[1].DelId != 2 || dels[1].SeqIdRanges[0] != (t.Range{Low: 2, Hi: 4}) {
		t_.Fatalf("MessageGetDeleted(bob) = %+v, %v", dels, err)
	}
	if d, _ := a.MessageGetDeleted(grp.Id, alice, nil); len(d) != 1 || d[0].DelId != 2 {
		t_.Fatalf("MessageGetDeleted(alice) = %+v", d)
	}
	if d, _ := a.MessageGetDeleted(grp.Id, bob, &t.QueryOpt{Since: 2}); len(d) != 1 {
		t_.Fatalf("MessageGetDeleted since 2 = %+v", d)
	}
	must(t_, a.MessageDeleteList(p2p.Id, nil))
	if got, _ := a.MessageGetAll(p2p.Id, bob, nil); len(got) != 0 {
		t_.Fatalf("p2p messages after deleting all: %v", seqs(got))
	}
	if u, err := a.UserUnreadCount(alice, bob); err != nil || len(u) != 2 {
		t_.Fatalf("UserUnreadCount = %v, %v", u, err)
	}
}

// TestDevicesFilesCache covers TN-16, TN-20, TN-31..TN-35 with the
// fixture devices and files.
func TestDevicesFilesCache(t_ *testing.T) {
	t_.Parallel()
	a, td := newAdapter(t_)
	loadUsers(t_, a, td)
	alice, bob := uidOf(td.Users[0]), uidOf(td.Users[1])
	must(t_, a.DeviceUpsert(alice, td.Devs[0]))
	must(t_, a.DeviceUpsert(bob, td.Devs[1]))
	devs, n, err := a.DeviceGetAll(alice, bob)
	if err != nil || n != 2 || devs[alice][0].DeviceId != td.Devs[0].DeviceId || devs[bob][0].Platform != "ios" {
		t_.Fatalf("DeviceGetAll = %+v, %d, %v", devs, n, err)
	}
	must(t_, a.DeviceDelete(alice, td.Devs[0].DeviceId))
	must(t_, a.DeviceDelete(bob, ""))
	if _, n, _ := a.DeviceGetAll(alice, bob); n != 0 {
		t_.Fatalf("devices left: %d", n)
	}

	for _, f := range td.Files {
		must(t_, a.FileStartUpload(f))
	}
	wantErr(t_, a.FileStartUpload(td.Files[0]), t.ErrDuplicate)
	fd, err := a.FileFinishUpload(td.Files[0], true, 100)
	if err != nil || fd.Status != t.UploadCompleted || fd.Size != 100 {
		t_.Fatalf("FileFinishUpload = %+v, %v", fd, err)
	}
	if fd, err := a.FileFinishUpload(td.Files[1], false, 0); err != nil || fd.Status != t.UploadFailed {
		t_.Fatalf("failed upload = %+v, %v", fd, err)
	}
	if fd, err := a.FileGet(td.Files[1].Id); err != nil || fd != nil {
		t_.Fatalf("failed upload still recorded: %+v, %v", fd, err)
	}
	got, err := a.FileGet(td.Files[0].Id)
	if err != nil || got == nil || got.Location != "uploads/qwerty.pdf" {
		t_.Fatalf("FileGet = %+v, %v", got, err)
	}
	wantErr(t_, a.FileLinkAttachments("", t.ZeroUid, t.ZeroUid, []string{got.Id}), t.ErrMalformed)
	must(t_, a.FileLinkAttachments("", t.ZeroUid, t.Uid(77), []string{got.Id}))
	if locs, err := a.FileDeleteUnused(time.Time{}, 10); err != nil || len(locs) != 0 {
		t_.Fatalf("linked file deleted: %v, %v", locs, err)
	}
	must(t_, a.FileStartUpload(&t.FileDef{ObjHeader: t.ObjHeader{Id: t.Uid(1003).String(), CreatedAt: td.Now, UpdatedAt: td.Now}, User: alice.String(), Location: "uploads/avatar.png"}))
	must(t_, a.FileLinkAttachments("", alice, t.ZeroUid, []string{t.Uid(1003).String()}))
	// Replacing the avatar releases the old one.
	must(t_, a.FileLinkAttachments("", alice, t.ZeroUid, []string{got.Id}))
	locs, err := a.FileDeleteUnused(time.Now().Add(time.Hour), 10)
	if err != nil || !slices.Equal(locs, []string{"uploads/avatar.png"}) {
		t_.Fatalf("FileDeleteUnused = %v, %v", locs, err)
	}

	_, err = a.PCacheGet("k")
	wantErr(t_, err, t.ErrNotFound)
	must(t_, a.PCacheUpsert("code_email:a", "1:0:x", true))
	wantErr(t_, a.PCacheUpsert("code_email:a", "2", true), t.ErrDuplicate)
	must(t_, a.PCacheUpsert("code_email:a", "3", false))
	if v, _ := a.PCacheGet("code_email:a"); v != "3" {
		t_.Fatalf("PCacheGet = %q", v)
	}
	wantErr(t_, a.PCacheUpsert("a%b", "x", false), t.ErrMalformed)
	wantErr(t_, a.PCacheExpire("", time.Now()), t.ErrMalformed)
	must(t_, a.PCacheExpire("code_", time.Now().Add(time.Hour)))
	_, err = a.PCacheGet("code_email:a")
	wantErr(t_, err, t.ErrNotFound)
	must(t_, a.PCacheUpsert("x", "y", false))
	must(t_, a.PCacheDelete("x"))
	must(t_, a.PCacheDelete("x"))
}

// TestOpenAndVersion covers the configuration and TN-36 as Tinode and
// tinode-db call them: Open from store_config JSON, CheckDbVersion on a
// missing table ("Database not initialized"), CreateDb creating the
// table, a second CreateDb refused, UpgradeDb, a reset, and key rotation.
func TestOpenAndVersion(t_ *testing.T) {
	t_.Setenv("AWS_ACCESS_KEY_ID", "local")
	t_.Setenv("AWS_SECRET_ACCESS_KEY", "local")
	t_.Setenv("TINODE_KEY_1", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	t_.Setenv("TINODE_KEY_2", "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100")
	name := tabletest.TableName("tinode", t_.Name())
	cfg, _ := json.Marshal(map[string]any{
		"table": name, "endpoint": tabletest.Endpoint(t_), "region": "us-east-1", "create_table": true,
		"keys": map[string]any{"current": "k2", "env": map[string]string{"k1": "TINODE_KEY_1", "k2": "TINODE_KEY_2"}},
	})
	a := &Adapter{}
	if a.GetName() != "dynamodb" || a.IsOpen() {
		t_.Fatal("a new adapter is open or misnamed")
	}
	must(t_, a.SetMaxResults(10))
	must(t_, a.Open(cfg))
	tbl := a.tbl
	t_.Cleanup(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = tbl.Delete(c)
	})
	if !a.IsOpen() || a.Open(cfg) == nil {
		t_.Fatal("Open twice succeeded or left the adapter closed")
	}
	if err := a.CheckDbVersion(); err == nil || err.Error() != "Database not initialized" {
		t_.Fatalf("CheckDbVersion before CreateDb = %v", err)
	}
	must(t_, a.CreateDb(false))
	must(t_, a.CheckDbVersion())
	if v, err := a.GetDbVersion(); err != nil || v != DataVersion || a.Version() != DataVersion {
		t_.Fatalf("GetDbVersion = %d, %v", v, err)
	}
	if err := a.CreateDb(false); err == nil || err.Error() != "Database already initialized" {
		t_.Fatalf("second CreateDb = %v", err)
	}
	must(t_, a.UpgradeDb())
	td := newFixtures()
	must(t_, a.UserCreate(td.Users[0]))
	must(t_, a.CreateDb(true))
	if u, _ := a.UserGet(uidOf(td.Users[0])); u != nil {
		t_.Fatal("reset kept the user")
	}
	must(t_, a.CheckDbVersion())
	if s, ok := a.Stats().(map[string]any); !ok || s["table"] != name {
		t_.Fatalf("Stats = %v", a.Stats())
	}
	if a.GetTestDB() == nil {
		t_.Fatal("GetTestDB = nil")
	}
	must(t_, a.Close())
	if a.IsOpen() {
		t_.Fatal("open after Close")
	}
	bad, _ := json.Marshal(map[string]any{"table": name, "keys": map[string]any{"current": "k3", "env": map[string]string{"k1": "TINODE_KEY_1"}}})
	if err := (&Adapter{}).Open(bad); err == nil {
		t_.Fatal("Open with a current key that is not configured succeeded")
	}
}
