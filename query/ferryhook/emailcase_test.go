package ferryhook_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
)

// Live data holds two users whose emails differ only in case (the running
// service stored emails as typed): the exact spelling of either finds that
// one, whichever holds the email guard; a third spelling that folds to both
// is an *AmbiguousEmailError naming both, never one of them; Login logs the
// right person in or refuses (issue 26 §5; FH-2, FH-11 users.getByEmail).
func TestEmailCaseVariants_FH2(t *testing.T) {
	t.Parallel()
	f := newFixture(t, []table.SchemaOption{table.WithLowercaseKeys()}, ferryhook.ServiceProfile())
	s := f.store
	hashA := "$2b$10$" + strings.Repeat("A", 53)
	hashB := "$2b$10$" + strings.Repeat("B", 53)
	serviceUser := func(id, email, hash string) {
		putRaw(t, f.main, map[string]any{"pk": "USER#" + id, "sk": "PROFILE", "gsi1pk": "EMAIL#" + email, "gsi1sk": "USER",
			"userId": id, "email": email, "name": id, "passwordHash": hash, "plan": "free", "stripeCustomerId": nil, "stripeSubId": nil,
			"githubId": nil, "googleId": nil, "usageThisMonth": 0, "usagePeriodStart": "2026-11-01",
			"createdAt": "2026-11-01T00:00:00.000Z", "updatedAt": "2026-11-01T00:00:00.000Z"})
	}
	const a, b = fh.UserID("usr_caseupper0000001"), fh.UserID("usr_caselower0000001")
	serviceUser(string(a), "Ann@Example.com", hashA)
	serviceUser(string(b), "ann@example.com", hashB)
	// a password check: the hash of the password typed is the stored one
	password := func(hash string) func(string) bool { return func(stored string) bool { return stored == hash } }

	check := func(stage string) {
		t.Helper()
		for typed, want := range map[string]fh.UserID{"Ann@Example.com": a, "ann@example.com": b, " ann@example.com ": b} {
			if got, err := s.Users.GetByEmail(ctx(t), typed); err != nil || got.UserID != want {
				t.Errorf("%s: GetByEmail(%q) = %s, %v; want %s", stage, typed, got.UserID, err, want)
			}
		}
		if got, err := s.Users.Login(ctx(t), "ann@example.com", password(hashB)); err != nil || got.UserID != b {
			t.Errorf("%s: B's login = %s, %v", stage, got.UserID, err)
		}
		if got, err := s.Users.Login(ctx(t), "Ann@Example.com", password(hashA)); err != nil || got.UserID != a {
			t.Errorf("%s: A's login = %s, %v", stage, got.UserID, err)
		}
		// A's password on B's address, and B's on A's: refused, never the other account.
		for typed, pw := range map[string]string{"ann@example.com": hashA, "Ann@Example.com": hashB} {
			if got, err := s.Users.Login(ctx(t), typed, password(pw)); !errors.Is(err, ferryhook.ErrInvalidLogin) {
				t.Errorf("%s: login %q with the other's password = %s, %v; want ErrInvalidLogin", stage, typed, got.UserID, err)
			}
		}
	}
	check("no guard")

	// A is adopted and holds the guard of the folded address; B cannot be
	// (a case-variant duplicate). B's exact address still finds B.
	if err := s.Users.EnsureGuards(ctx(t), a); err != nil {
		t.Fatal(err)
	}
	if err := s.Users.EnsureGuards(ctx(t), b); !errors.Is(err, ferryhook.ErrEmailTaken) {
		t.Fatalf("adopting the second variant: %v, want ErrEmailTaken", err)
	}
	check("A holds the guard")

	// A spelling that is neither: both are found, none exactly.
	for _, typed := range []string{"ANN@EXAMPLE.COM", "aNN@example.com"} {
		got, err := s.Users.GetByEmail(ctx(t), typed)
		var amb *ferryhook.AmbiguousEmailError
		if !errors.As(err, &amb) || !errors.Is(err, ferryhook.ErrAmbiguousEmail) {
			t.Fatalf("GetByEmail(%q) = %s, %v; want an *AmbiguousEmailError", typed, got.UserID, err)
		}
		if len(amb.Candidates) != 2 || amb.Candidates[0] != b || amb.Candidates[1] != a {
			t.Errorf("candidates %v, want [%s %s]", amb.Candidates, b, a)
		}
		for _, pw := range []string{hashA, hashB} {
			if got, err := s.Users.Login(ctx(t), typed, password(pw)); !errors.Is(err, ferryhook.ErrInvalidLogin) || !errors.Is(err, ferryhook.ErrAmbiguousEmail) {
				t.Errorf("login %q = %s, %v; want refused as ambiguous", typed, got.UserID, err)
			}
		}
	}
	// An unknown address, and a user without a password.
	if _, err := s.Users.Login(ctx(t), "nobody@example.com", password(hashA)); !errors.Is(err, ferryhook.ErrInvalidLogin) {
		t.Errorf("unknown address: %v", err)
	}
	serviceUser("usr_oauthonly0000001", "oauth@example.com", "")
	if _, err := s.Users.Login(ctx(t), "oauth@example.com", func(string) bool { return true }); !errors.Is(err, ferryhook.ErrInvalidLogin) {
		t.Errorf("a user without a password logged in: %v", err)
	}
}
