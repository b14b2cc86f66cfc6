package ferryhook_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
)

// FH-1 and FH-11 users.create / users.getById.
func TestUsersCreateGetByID_FH1(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u, err := s.Users.Create(ctx(t), ferryhook.CreateUserInput{Email: "  Ada@Example.COM ", Name: "Ada", PasswordHash: bcryptHash})
	if err != nil {
		t.Fatal(err)
	}
	if u.Email != "ada@example.com" || u.Plan != fh.PlanFree || u.CreatedAt.IsZero() || u.UsagePeriodStart.IsZero() {
		t.Fatalf("created user = %+v: want normalized email, free plan, timestamps", u)
	}
	if err := fh.UserIDs.Check(u.UserID); err != nil {
		t.Fatal(err)
	}
	got, err := s.Users.ByID.Get(ctx(t), fh.User{UserID: u.UserID})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(u, got); diff != "" {
		t.Errorf("GetByID (-want +got):\n%s", diff)
	}
	_, err = s.Users.ByID.Get(ctx(t), fh.User{UserID: fh.UserIDs.New()})
	wantIs(t, err, table.ErrNotFound)
}

// FH-2 and FH-11 users.getByEmail: found through GSI1 whatever the case.
func TestUsersGetByEmail_FH2(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "grace@example.com")
	got, err := s.Users.GetByEmail(ctx(t), " GRACE@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(u, got); diff != "" {
		t.Errorf("GetByEmail (-want +got):\n%s", diff)
	}
	_, err = s.Users.GetByEmail(ctx(t), "nobody@example.com")
	wantIs(t, err, table.ErrNotFound)
}

// FH-2: email is unique on sign-up and on email change.
func TestUsersEmailUnique_FH2(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	a := mustUser(t, s, "a@example.com")
	b := mustUser(t, s, "b@example.com")

	_, err := s.Users.Create(ctx(t), ferryhook.CreateUserInput{Email: "A@example.com", Name: "Dup", PasswordHash: bcryptHash})
	wantIs(t, err, ferryhook.ErrEmailTaken)
	wantIs(t, err, table.ErrUniqueViolation)

	taken := "A@EXAMPLE.com"
	_, err = s.Users.Update(ctx(t), b.UserID, ferryhook.UserUpdate{Email: &taken})
	wantIs(t, err, ferryhook.ErrEmailTaken)

	// a moves to a new address: the old one is free again, GSI1 follows.
	fresh := "a2@example.com"
	moved, err := s.Users.Update(ctx(t), a.UserID, ferryhook.UserUpdate{Email: &fresh})
	if err != nil {
		t.Fatal(err)
	}
	if moved.Email != fresh {
		t.Fatalf("email = %q, want %q", moved.Email, fresh)
	}
	if got, err := s.Users.GetByEmail(ctx(t), fresh); err != nil || got.UserID != a.UserID {
		t.Fatalf("GetByEmail(new) = %v, %v; want user %s", got.UserID, err, a.UserID)
	}
	if _, err := s.Users.GetByEmail(ctx(t), "a@example.com"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("GetByEmail(old) err = %v, want ErrNotFound", err)
	}
	old := "a@example.com"
	if _, err := s.Users.Update(ctx(t), b.UserID, ferryhook.UserUpdate{Email: &old}); err != nil {
		t.Fatalf("taking the freed address: %v", err)
	}
}

// FH-2: 50 simultaneous sign-ups with one email give exactly one user and
// one email guard.
func TestUsersConcurrentSignUp_FH2(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	const n = 50
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = f.store.Users.Create(ctx(t), ferryhook.CreateUserInput{
				Email: "race@example.com", Name: fmt.Sprintf("racer %d", i), PasswordHash: bcryptHash})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, ferryhook.ErrEmailTaken):
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d sign-ups succeeded, want exactly 1", ok)
	}
	// Test-only count of the whole table (not a request path).
	out, err := f.main.Client().Scan(ctx(t), &dynamodb.ScanInput{TableName: aws.String(f.main.Name())})
	if err != nil {
		t.Fatal(err)
	}
	users, guards := 0, 0
	for _, it := range out.Items {
		switch it["_type"].(*types.AttributeValueMemberS).Value {
		case "User":
			users++
		case table.GuardType:
			guards++
		}
	}
	if diff := cmp.Diff([2]int{1, 1}, [2]int{users, guards}); diff != "" {
		t.Errorf("[users guards] (-want +got):\n%s", diff)
	}
	owner, err := f.main.LookupUnique(ctx(t), table.Unique{Name: "email", Value: "race@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	u, err := f.store.Users.GetByEmail(ctx(t), "race@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := ferryhook.UserKey(u.UserID); owner != want {
		t.Errorf("guard owner = %v, want %v", owner, want)
	}
}

// FH-11 users.update: partial update, untouched fields kept.
func TestUsersUpdate_FH11(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "u@example.com")
	name, plan, cus := "Ada L.", fh.PlanPro, "cus_123"
	got, err := s.Users.Update(ctx(t), u.UserID, ferryhook.UserUpdate{Name: &name, Plan: &plan, StripeCustomerID: &cus})
	if err != nil {
		t.Fatal(err)
	}
	want := u
	want.Name, want.Plan, want.StripeCustomerID, want.UpdatedAt = name, plan, cus, got.UpdatedAt
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Update (-want +got):\n%s", diff)
	}
	stored, err := s.Users.ByID.Get(ctx(t), fh.User{UserID: u.UserID})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, stored); diff != "" {
		t.Errorf("stored (-want +got):\n%s", diff)
	}
	_, err = s.Users.Update(ctx(t), fh.UserIDs.New(), ferryhook.UserUpdate{Name: &name})
	wantIs(t, err, table.ErrNotFound)
}

// FH-11 users.incrementUsage: atomic under concurrency; ResetUsage.
func TestUsersIncrementUsage_FH11(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "usage@example.com")
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.Users.IncrementUsage(ctx(t), u.UserID, 2); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := s.Users.ByID.Get(ctx(t), fh.User{UserID: u.UserID})
	if err != nil {
		t.Fatal(err)
	}
	if got.UsageThisMonth != 40 {
		t.Fatalf("usageThisMonth = %d, want 40", got.UsageThisMonth)
	}
	start := time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)
	reset, err := s.Users.ResetUsage(ctx(t), u.UserID, start)
	if err != nil {
		t.Fatal(err)
	}
	if reset.UsageThisMonth != 0 || !reset.UsagePeriodStart.Equal(start) {
		t.Fatalf("after reset: usage %d, period %v", reset.UsageThisMonth, reset.UsagePeriodStart)
	}
	_, err = s.Users.IncrementUsage(ctx(t), fh.UserIDs.New(), 1)
	wantIs(t, err, table.ErrNotFound)
}

// FH-11 users.*: bad input is refused before any request.
func TestUsersBadInput_FH11(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "bad@example.com")
	cases := []struct {
		name  string
		in    ferryhook.CreateUserInput
		field string
	}{
		{"no email", ferryhook.CreateUserInput{Name: "x", PasswordHash: bcryptHash}, "email"},
		{"bad email", ferryhook.CreateUserInput{Email: "not-an-email", Name: "x", PasswordHash: bcryptHash}, "email"},
		{"hash in email", ferryhook.CreateUserInput{Email: "a#b@example.com", Name: "x", PasswordHash: bcryptHash}, "email"},
		{"no name", ferryhook.CreateUserInput{Email: "n@example.com", PasswordHash: bcryptHash}, "name"},
		{"no login", ferryhook.CreateUserInput{Email: "n@example.com", Name: "x"}, "passwordHash"},
		{"not bcrypt", ferryhook.CreateUserInput{Email: "n@example.com", Name: "x", PasswordHash: "plain"}, "passwordHash"},
		{"unknown plan", ferryhook.CreateUserInput{Email: "n@example.com", Name: "x", GitHubID: "42", Plan: "enterprise"}, "plan"},
	}
	for _, c := range cases {
		_, err := s.Users.Create(ctx(t), c.in)
		wantInvalid(t, err, c.field)
	}
	bad := "nope"
	_, err := s.Users.Update(ctx(t), u.UserID, ferryhook.UserUpdate{Email: &bad})
	wantInvalid(t, err, "email")
	plan := fh.Plan("gold")
	_, err = s.Users.Update(ctx(t), u.UserID, ferryhook.UserUpdate{Plan: &plan})
	wantInvalid(t, err, "plan")
	_, err = s.Users.Update(ctx(t), u.UserID, ferryhook.UserUpdate{})
	wantInvalid(t, err, "update")
	_, err = s.Users.Update(ctx(t), "usr_short", ferryhook.UserUpdate{Email: &bad})
	wantInvalid(t, err, "userId")
	_, err = s.Users.IncrementUsage(ctx(t), u.UserID, 0)
	wantInvalid(t, err, "count")
	_, err = s.Users.ByID.Get(ctx(t), fh.User{UserID: "bogus"})
	wantInvalid(t, err, "userId")
	// Nothing changed.
	got, err := s.Users.ByID.Get(ctx(t), fh.User{UserID: u.UserID})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(u, got); diff != "" {
		t.Errorf("user changed by bad input (-want +got):\n%s", diff)
	}
}
