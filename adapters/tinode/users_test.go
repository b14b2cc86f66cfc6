package tinode

import (
	"slices"
	"testing"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	t "github.com/tinode/chat/server/store/types"
)

// TestUsers covers TN-1, TN-2, TN-3, TN-17 through the adapter: create,
// get, get many (deleted users left out), update, tags with today's rule
// (namespaced tags unique, plain tags shared), soft and hard delete.
func TestUsers(t_ *testing.T) {
	t_.Parallel()
	// The opt-in rule: every namespaced tag has one holder.
	a := New(tabletest.NewTable(t_, table.NewSchema("tinode")), Config{UniqueTagNamespaces: []string{"*"}})
	td := newFixtures()
	loadUsers(t_, a, td)
	wantErr(t_, a.UserCreate(td.Users[0]), t.ErrDuplicate)

	alice := uidOf(td.Users[0])
	got, err := a.UserGet(alice)
	if err != nil || got == nil || got.UserAgent != "SomeAgent v1.2.3" || !slices.Equal(got.Tags, []string{"alice"}) {
		t_.Fatalf("UserGet = %+v, %v", got, err)
	}
	// The third fixture user is soft-deleted: Tinode sees none.
	if u, err := a.UserGet(uidOf(td.Users[2])); err != nil || u != nil {
		t_.Fatalf("UserGet(deleted) = %+v, %v", u, err)
	}
	if u, err := a.UserGet(t.Uid(12345)); err != nil || u != nil {
		t_.Fatalf("UserGet(missing) = %+v, %v", u, err)
	}
	all, err := a.UserGetAll(uidOf(td.Users[0]), uidOf(td.Users[1]), uidOf(td.Users[2]))
	if err != nil || len(all) != 2 {
		t_.Fatalf("UserGetAll = %d users, %v; want 2", len(all), err)
	}

	must(t_, a.UserUpdate(alice, map[string]any{"UserAgent": "Test Agent v0.11", "Public": map[string]any{"fn": "Alice"}}))
	got, _ = a.UserGet(alice)
	if got.UserAgent != "Test Agent v0.11" || got.Public.(map[string]any)["fn"] != "Alice" {
		t_.Fatalf("after UserUpdate: %+v", got)
	}

	// Tags: the fixture's add, remove and reset.
	tags, err := a.UserUpdateTags(alice, td.Tags[0], nil, nil)
	if err != nil || !slices.Equal(tags, []string{"alice", "tag1"}) {
		t_.Fatalf("add tags = %v, %v", tags, err)
	}
	tags, err = a.UserUpdateTags(alice, nil, td.Tags[1], nil)
	if err != nil || len(tags) != 0 {
		t_.Fatalf("remove tags = %v, %v", tags, err)
	}
	tags, err = a.UserUpdateTags(alice, nil, nil, td.Tags[2])
	if err != nil || !slices.Equal(tags, []string{"alice", "tag111", "tag333"}) {
		t_.Fatalf("reset tags = %v, %v", tags, err)
	}
	// A plain tag is shared; a namespaced one has one holder.
	bob := uidOf(td.Users[1])
	if _, err := a.UserUpdateTags(bob, []string{"tag111", "email:bob@example.com"}, nil, nil); err != nil {
		t_.Fatalf("shared plain tag: %v", err)
	}
	_, err = a.UserUpdateTags(alice, []string{"email:bob@example.com"}, nil, nil)
	wantErr(t_, err, t.ErrDuplicate)
	if id, err := a.FindOne("email:bob@example.com"); err != nil || id != bob.UserId() {
		t_.Fatalf("FindOne = %q, %v", id, err)
	}
	if id, err := a.FindOne("email:none@example.com"); err != nil || id != "" {
		t_.Fatalf("FindOne(free) = %q, %v", id, err)
	}
	found, err := a.Find(alice.UserId(), "", [][]string{{"tag111"}}, []string{"email:bob@example.com"}, true)
	if err != nil || len(found) != 1 || found[0].Topic != bob.UserId() {
		t_.Fatalf("Find = %+v, %v; want bob only (the caller is left out)", found, err)
	}

	// State changes reach the user.
	now := t.TimeNow()
	must(t_, a.UserUpdate(bob, map[string]any{"State": t.StateSuspended, "StateAt": now}))
	if u, _ := a.UserGet(bob); u == nil || u.State != t.StateSuspended {
		t_.Fatalf("suspended bob = %+v", u)
	}

	// Soft delete hides the user; hard delete removes its items.
	must(t_, a.UserDelete(bob, false))
	if u, err := a.UserGet(bob); err != nil || u != nil {
		t_.Fatalf("UserGet after soft delete = %+v, %v", u, err)
	}
	must(t_, a.UserDelete(alice, true))
	c, cancel := a.ctx()
	defer cancel()
	_, err = a.st.Users.ByID.Get(c, tn.User{Id: tn.UserID(alice.String())})
	wantErr(t_, err, table.ErrNotFound)
	// Alice's unique tag is free again.
	if _, err := a.UserUpdateTags(uidOf(td.Users[2]), []string{"email:alice@x.example.com"}, nil, nil); err != nil {
		t_.Fatal(err)
	}
}

// TestCredentialsAndAuth covers TN-6, TN-7, TN-29, TN-30 with the
// fixture credentials and auth records.
func TestCredentialsAndAuth(t_ *testing.T) {
	t_.Parallel()
	a, td := newAdapter(t_)
	loadUsers(t_, a, td)
	for i, c := range td.Creds {
		_, err := a.CredUpsert(c)
		if i == 2 {
			// Bob's address is validated already (fixture 1).
			wantErr(t_, err, t.ErrDuplicate)
			continue
		}
		must(t_, err)
	}
	alice, bob, carol := uidOf(td.Users[0]), uidOf(td.Users[1]), uidOf(td.Users[2])
	if id, err := a.UserGetByCred("email", "alice@test.example.com"); err != nil || id != alice {
		t_.Fatalf("UserGetByCred = %v, %v", id, err)
	}
	if id, err := a.UserGetByCred("email", "nobody@example.com"); err != nil || !id.IsZero() {
		t_.Fatalf("UserGetByCred(none) = %v, %v", id, err)
	}
	c, err := a.CredGetActive(carol, "tel")
	if err != nil || c == nil || c.Value != "+998991112233" {
		t_.Fatalf("CredGetActive = %+v, %v", c, err)
	}
	if c, err := a.CredGetActive(alice, "email"); err != nil || c != nil {
		t_.Fatalf("CredGetActive(none) = %+v, %v", c, err)
	}
	all, err := a.CredGetAll(carol, "", false)
	if err != nil || len(all) != 3 {
		t_.Fatalf("CredGetAll = %d, %v; want 3", len(all), err)
	}
	valid, err := a.CredGetAll(carol, "tel", true)
	if err != nil || len(valid) != 1 || !valid[0].Done {
		t_.Fatalf("CredGetAll validated = %+v, %v", valid, err)
	}
	must(t_, a.CredFail(carol, "tel"))
	if c, _ := a.CredGetActive(carol, "tel"); c.Retries != 1 {
		t_.Fatalf("retries = %d, want 1", c.Retries)
	}
	must(t_, a.CredConfirm(carol, "email"))
	if id, _ := a.UserGetByCred("email", "asdf@example.com"); id != carol {
		t_.Fatalf("confirmed credential's user = %v", id)
	}
	wantErr(t_, a.CredConfirm(carol, "email"), t.ErrNotFound)
	must(t_, a.CredDel(carol, "tel", ""))
	if cs, _ := a.CredGetAll(carol, "tel", false); len(cs) != 0 {
		t_.Fatalf("tel credentials after CredDel = %+v", cs)
	}
	wantErr(t_, a.CredDel(bob, "email", "missing@example.com"), t.ErrNotFound)
	must(t_, a.CredDel(bob, "", ""))
	unv, err := a.UserGetUnvalidated(time.Now().Add(time.Hour), 10)
	if err != nil {
		t_.Fatal(err)
	}
	if slices.Contains(unv, bob) || slices.Contains(unv, alice) {
		t_.Fatalf("UserGetUnvalidated = %v: bob has none left, alice none", unv)
	}

	// Auth records.
	for _, r := range td.Recs {
		must(t_, a.AuthAddRecord(t.ParseUid(r.UserId), r.Scheme, r.Unique, r.AuthLvl, r.Secret, r.Expires))
	}
	r := td.Recs[0]
	wantErr(t_, a.AuthAddRecord(bob, "basic", r.Unique, r.AuthLvl, r.Secret, r.Expires), t.ErrDuplicate)
	id, lvl, secret, exp, err := a.AuthGetUniqueRecord("basic:alice")
	if err != nil || id != alice || lvl != r.AuthLvl || string(secret) != "alice" || !exp.Equal(r.Expires) {
		t_.Fatalf("AuthGetUniqueRecord = %v %v %q %v %v", id, lvl, secret, exp, err)
	}
	if id, _, _, _, err := a.AuthGetUniqueRecord("basic:nobody"); err != nil || !id.IsZero() {
		t_.Fatalf("AuthGetUniqueRecord(none) = %v, %v", id, err)
	}
	unique, _, _, _, err := a.AuthGetRecord(alice, "basic")
	if err != nil || unique != "basic:alice" {
		t_.Fatalf("AuthGetRecord = %q, %v", unique, err)
	}
	_, _, _, _, err = a.AuthGetRecord(alice, "token")
	wantErr(t_, err, t.ErrNotFound)
	// Same unique: in place, the secret kept when none is given.
	must(t_, a.AuthUpdRecord(alice, "basic", "basic:alice", 30, nil, time.Time{}))
	if _, lvl, secret, _, _ := a.AuthGetUniqueRecord("basic:alice"); lvl != 30 || string(secret) != "alice" {
		t_.Fatalf("after update in place: %v %q", lvl, secret)
	}
	// New unique: the old one is gone.
	must(t_, a.AuthUpdRecord(alice, "basic", "basic:alice2", 20, []byte("new"), time.Time{}))
	if id, _, _, _, _ := a.AuthGetUniqueRecord("basic:alice"); !id.IsZero() {
		t_.Fatal("old unique still there")
	}
	wantErr(t_, a.AuthUpdRecord(alice, "basic", "basic:bob", 20, nil, time.Time{}), t.ErrDuplicate)
	must(t_, a.AuthDelScheme(alice, "basic"))
	if id, _, _, _, _ := a.AuthGetUniqueRecord("basic:alice2"); !id.IsZero() {
		t_.Fatal("AuthDelScheme left the record")
	}
	must(t_, a.AuthAddRecord(bob, "token", "token:bob", 20, nil, time.Time{}))
	if n, err := a.AuthDelAllRecords(bob); err != nil || n != 2 {
		t_.Fatalf("AuthDelAllRecords = %d, %v; want 2", n, err)
	}
}
