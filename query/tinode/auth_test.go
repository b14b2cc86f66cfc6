package tinode_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

func errorsIs(err, target error) bool { return errors.Is(err, target) }

// TestAuth_TN6 adds, gets, updates (in place and with a new unique) and
// deletes auth records; unique values are unique across users.
func TestAuth_TN6(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	exp := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	a := tn.AuthRecord{Unique: "basic:alice#1", UserID: "alice", AuthLvl: tn.LevelAuth, Secret: []byte("h1"), Expires: exp}
	if err := s.Auth.Add(c, &a); err != nil {
		t.Fatal(err)
	}
	taken := tn.AuthRecord{Unique: "basic:alice#1", UserID: "mallory", AuthLvl: tn.LevelAuth}
	wantIs(t, s.Auth.Add(c, &taken), table.ErrAlreadyExists)

	a.Secret, a.AuthLvl = []byte("h2"), tn.LevelRoot
	got, err := s.Auth.Update(c, "basic:alice#1", a)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(a, got); d != "" {
		t.Errorf("update in place (-want +got):\n%s", d)
	}
	_, err = s.Auth.Update(c, "basic:alice#1", tn.AuthRecord{Unique: "basic:alice#1", UserID: "mallory", AuthLvl: tn.LevelAuth})
	wantIs(t, err, table.ErrConflict)

	moved := a
	moved.Unique = "basic:alice2"
	if _, err := s.Auth.Update(c, "basic:alice#1", moved); err != nil {
		t.Fatal(err)
	}
	_, err = s.Auth.ByUnique.Get(c, tn.AuthRecord{Unique: "basic:alice#1"})
	wantIs(t, err, table.ErrNotFound)
	got, err = s.Auth.ByUnique.Get(c, tn.AuthRecord{Unique: "basic:alice2"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(moved, got); d != "" {
		t.Errorf("renamed (-want +got):\n%s", d)
	}
	other := tn.AuthRecord{Unique: "basic:bob", UserID: "bob", AuthLvl: tn.LevelAuth}
	if err := s.Auth.Add(c, &other); err != nil {
		t.Fatal(err)
	}
	clash := moved
	clash.Unique = "basic:bob"
	_, err = s.Auth.Update(c, "basic:alice2", clash)
	wantIs(t, err, table.ErrAlreadyExists)
	if _, err := s.Auth.ByUnique.Get(c, tn.AuthRecord{Unique: "basic:alice2"}); err != nil {
		t.Errorf("failed rename lost the old record: %v", err)
	}
	if err := s.Auth.Delete(c, "basic:alice2"); err != nil {
		t.Fatal(err)
	}
	wantIs(t, s.Auth.Delete(c, "basic:alice2"), table.ErrNotFound)

	bad := tn.AuthRecord{Unique: "nocolon", UserID: "alice"}
	wantInvalid(t, s.Auth.Add(c, &bad), "unique")
	bad = tn.AuthRecord{Unique: "basic:x", UserID: ""}
	wantInvalid(t, s.Auth.Add(c, &bad), "userid")
	bad = tn.AuthRecord{Unique: "basic:x", UserID: "alice", AuthLvl: 7}
	wantInvalid(t, s.Auth.Add(c, &bad), "authLvl")
}

// TestAuthByUser_TN7 (TN-7) lists a user's auth records (page and iterator), gets
// one by scheme, and deletes them all.
func TestAuthByUser_TN7(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	var want []tn.AuthUnique
	for _, u := range []tn.AuthUnique{"basic:alice", "email:a@x.org", "token:t1", "token:t2"} {
		if err := s.Auth.Add(c, &tn.AuthRecord{Unique: u, UserID: "alice", AuthLvl: tn.LevelAuth}); err != nil {
			t.Fatal(err)
		}
		want = append(want, u)
	}
	if err := s.Auth.Add(c, &tn.AuthRecord{Unique: "basic:bob", UserID: "bob", AuthLvl: tn.LevelAuth}); err != nil {
		t.Fatal(err)
	}
	p, err := s.Auth.ByUser.List(c, tn.AuthRecord{UserID: "alice"}, table.Limit(3))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 3 || !p.More() {
		t.Fatalf("first page: %d items, more %v", len(p.Items), p.More())
	}
	all, err := table.Collect(s.Auth.ByUser.All(c, tn.AuthRecord{UserID: "alice"}, table.Limit(2)))
	if err != nil {
		t.Fatal(err)
	}
	var got []tn.AuthUnique
	for _, a := range all {
		got = append(got, a.Unique)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("all (-want +got):\n%s", d)
	}
	r, err := s.Auth.GetByScheme(c, "alice", "email")
	if err != nil || r.Unique != "email:a@x.org" {
		t.Fatalf("by scheme: %v %v", r.Unique, err)
	}
	_, err = s.Auth.GetByScheme(c, "alice", "oauth")
	wantIs(t, err, table.ErrNotFound)
	if err := s.Auth.DeleteAllByUser(c, "alice"); err != nil {
		t.Fatal(err)
	}
	p, err = s.Auth.ByUser.List(c, tn.AuthRecord{UserID: "alice"})
	if err != nil || len(p.Items) != 0 {
		t.Fatalf("after delete all: %d items, %v", len(p.Items), err)
	}
	if _, err := s.Auth.ByUnique.Get(c, tn.AuthRecord{Unique: "basic:bob"}); err != nil {
		t.Errorf("other user's record deleted: %v", err)
	}
	_, err = s.Auth.ByUser.List(c, tn.AuthRecord{UserID: ""})
	wantInvalid(t, err, "Id")
	_, err = s.Auth.ByUser.List(c, tn.AuthRecord{UserID: "alice"}, table.After("garbage"))
	wantIs(t, err, table.ErrInvalidCursor)
}
