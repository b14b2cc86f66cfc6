package listbackup_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

func newUser(id, email, username string) *lb.User {
	return &lb.User{UserID: lb.UserID(id), Email: email, Username: username, Name: "Ada Lovelace", Role: lb.UserRoleAdmin,
		Preferences: lb.UserPreferences{Timezone: "Europe/London"}, FirstName: "Ada", LastName: "Lovelace"}
}

// LB-1 get user by ID, LB-2 by email, LB-3 by username, LB-4 update profile.
func TestUsersGetByIDEmailUsernameAndUpdate_LB1_LB2_LB3_LB4(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	u := newUser("u1", "Ada@Example.com", "Ada")
	must(t, f.Users.Create(c, u))

	got, err := f.Users.ByID.Get(c, lb.User{UserID: "u1"}) // LB-1
	must(t, err)
	if diff := cmp.Diff(*u, got); diff != "" {
		t.Errorf("LB-1 get (-want +got):\n%s", diff)
	}
	byEmail, err := f.Users.GetByEmail(c, " ada@EXAMPLE.com") // LB-2, normalized
	must(t, err)
	byName, err := f.Users.GetByUsername(c, "ADA") // LB-3
	must(t, err)
	if byEmail.UserID != "u1" || byName.UserID != "u1" {
		t.Errorf("LB-2/LB-3 found %s and %s, want u1", byEmail.UserID, byName.UserID)
	}
	_, err = f.Users.GetByEmail(c, "nobody@example.com")
	wantIs(t, err, table.ErrNotFound)

	name := "Countess of Lovelace"
	upd, err := f.Users.UpdateProfile(c, "u1", listbackup.ProfileChange{Name: &name}) // LB-4
	must(t, err)
	if upd.Name != name || upd.Email != u.Email {
		t.Errorf("LB-4 update: %+v", upd)
	}
	// Email change moves the guard: the old email is free, the new one found.
	_, err = f.Users.Update(c, "u1", func(u *lb.User) error { u.Email = "ada@lovelace.org"; return nil })
	must(t, err)
	_, err = f.Users.GetByEmail(c, "ada@example.com")
	wantIs(t, err, table.ErrNotFound)
	moved, err := f.Users.GetByEmail(c, "ada@lovelace.org")
	must(t, err)
	if moved.Name != name {
		t.Errorf("after email change: %+v", moved)
	}
}

// LB-2, LB-3: email and username are unique, enforced on create and change.
func TestUsersUniqueEmailAndUsername_LB2_LB3(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	must(t, f.Users.Create(c, newUser("u1", "ada@example.com", "ada")))
	wantIs(t, f.Users.Create(c, newUser("u2", "ADA@example.com", "other")), table.ErrUniqueViolation)
	wantIs(t, f.Users.Create(c, newUser("u3", "x@example.com", "Ada")), table.ErrUniqueViolation)
	must(t, f.Users.Create(c, newUser("u4", "y@example.com", "grace")))
	_, err := f.Users.Update(c, "u4", func(u *lb.User) error { u.Username = "ADA"; return nil })
	wantIs(t, err, table.ErrUniqueViolation)
	_, err = f.Users.ByID.Get(c, lb.User{UserID: "u2"})
	wantIs(t, err, table.ErrNotFound)
}

// Bad input is refused before any request (LB-1..LB-4).
func TestUsersBadInputSendsNothing_LB1_LB2_LB3_LB4(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	_, err := f.Users.ByID.Get(c, lb.User{UserID: "a#b"})
	wantInvalid(t, err, "userId")
	_, err = f.Users.GetByEmail(c, "not-an-email")
	wantInvalid(t, err, "email")
	_, err = f.Users.GetByUsername(c, "x")
	wantInvalid(t, err, "username")
	_, err = f.Users.UpdateProfile(c, "u1", listbackup.ProfileChange{})
	wantInvalid(t, err, "change")
	u := newUser("u1", "ada@example.com", "ada")
	u.Status = "deleted"
	wantInvalid(t, f.Users.Create(c, u), "status")
	u = newUser("u1", "ada@example.com", "ada")
	u.MFAEnabled = true
	wantInvalid(t, f.Users.Create(c, u), "mfaSecret")
	if n := f.requests.Load(); n != 0 {
		t.Errorf("bad input sent %d requests, want 0", n)
	}
}

// NFC and NFD spellings (and case) of one address are one address
// (issue 10 §3; LB-2 and its uniqueness guard).
func TestEmailUnicodeForms_LB2(t *testing.T) {
	f := newFixture(t)
	c := t.Context()
	if err := f.Users.Create(c, newUser("u-nfd", "jose\u0301@example.com", "jose1")); err != nil {
		t.Fatal(err)
	}
	if err := f.Users.Create(c, newUser("u-nfc", "JOS\u00c9@example.com", "jose2")); !errors.Is(err, table.ErrUniqueViolation) {
		t.Fatalf("NFC upper-case twin of an NFD address: %v, want ErrUniqueViolation", err)
	}
	got, err := f.Users.GetByEmail(c, "jos\u00e9@example.com")
	if err != nil || got.UserID != "u-nfd" {
		t.Fatalf("LB-2 in NFC: %v %v", got.UserID, err)
	}
}
