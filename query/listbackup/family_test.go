package listbackup_test

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/lb"

	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// storeWith returns a second store on f's table through a client with the
// given faults.
func storeWith(t *testing.T, f *fixture, faults ...func(*dynamodb.Options)) *listbackup.Store {
	t.Helper()
	return listbackup.New(table.New(tabletest.NewClient(t, faults...), f.tbl.Schema(), func(o *table.Options) {
		o.Now = f.clock.Now
		o.Cipher = tabletest.Cipher()
	}))
}

// wantCannotRotate fails t unless the token is refused as revoked.
func wantCannotRotate(t *testing.T, f *fixture, plain, what string) {
	t.Helper()
	if _, _, err := f.RefreshTokens.Rotate(ctx(t), plain, "", ""); !errors.Is(err, listbackup.ErrTokenRevoked) && !errors.Is(err, listbackup.ErrTokenReused) {
		t.Fatalf("%s: rotate = %v, want ErrTokenRevoked", what, err)
	}
}

// TestFamilyRevocationIsOneFact_LB36_LB37: reuse of a rotated token
// revokes the whole family, and no token of it rotates again, in the
// three ways a per-token revocation let one survive (issue 11, RFC 9700).
func TestFamilyRevocationIsOneFact_LB36_LB37(t *testing.T) {
	t.Run("rotation commits while the revocation is in flight", func(t *testing.T) {
		f := newFixture(t)
		c := ctx(t)
		a, _, err := f.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: "u1"})
		must(t, err)
		b, _, err := f.RefreshTokens.Rotate(c, a, "", "")
		must(t, err)
		// the attacker replays a: the revocation reads the family's tokens
		// (a and b) and is held right after that snapshot
		hold := &tabletest.Hold{Op: "Query", AfterResponse: true}
		attacker := storeWith(t, f, hold.Option())
		done := make(chan error, 1)
		go func() { _, _, err := attacker.RefreshTokens.Rotate(c, a, "", ""); done <- err }()
		<-hold.Arrived()
		// meanwhile the legitimate client rotates b into c
		cTok, _, rotErr := f.RefreshTokens.Rotate(c, b, "", "")
		hold.Release()
		if err := <-done; !errors.Is(err, listbackup.ErrTokenReused) {
			t.Fatalf("replay of a: %v, want ErrTokenReused", err)
		}
		if rotErr == nil {
			wantCannotRotate(t, f, cTok, "c, issued during the revocation")
		} else if !errors.Is(rotErr, listbackup.ErrTokenRevoked) {
			t.Fatalf("rotation during the revocation: %v, want success or ErrTokenRevoked", rotErr)
		}
		wantCannotRotate(t, f, b, "b after the revocation")
	})
	t.Run("rotation held in flight until the revocation ended", func(t *testing.T) {
		f := newFixture(t)
		c := ctx(t)
		a, _, err := f.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: "u1"})
		must(t, err)
		b, _, err := f.RefreshTokens.Rotate(c, a, "", "")
		must(t, err)
		hold := &tabletest.Hold{Op: "TransactWriteItems"}
		slow := storeWith(t, f, hold.Option())
		done := make(chan error, 1)
		go func() { _, _, err := slow.RefreshTokens.Rotate(c, b, "", ""); done <- err }()
		<-hold.Arrived()
		if _, _, err := f.RefreshTokens.Rotate(c, a, "", ""); !errors.Is(err, listbackup.ErrTokenReused) {
			t.Fatalf("replay of a: %v, want ErrTokenReused", err)
		}
		hold.Release()
		if err := <-done; !errors.Is(err, listbackup.ErrTokenRevoked) {
			t.Fatalf("rotation that was in flight: %v, want ErrTokenRevoked", err)
		}
	})
	t.Run("stale GSI misses the newest token", func(t *testing.T) {
		f := newFixture(t)
		c := ctx(t)
		a, rt, err := f.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: "u1"})
		must(t, err)
		stale := &tabletest.StaleQueries{}
		lagging := storeWith(t, f, stale.Option())
		// the lagging index answers with the family as it was: only a
		if p, err := lagging.RefreshTokens.Family.List(c, lb.RefreshToken{TokenFamily: rt.TokenFamily}); err != nil || len(p.Items) != 1 {
			t.Fatalf("prime: %d, %v", len(p.Items), err)
		}
		b, _, err := f.RefreshTokens.Rotate(c, a, "", "")
		must(t, err)
		n, err := lagging.RefreshTokens.RevokeFamily(c, rt.TokenFamily, "admin", "logout")
		must(t, err)
		if n != 1 {
			t.Fatalf("the lagging index listed %d tokens to mark, want 1 (b missing)", n)
		}
		if tok, _ := f.RefreshTokens.GetByToken(c, b); tok.Revoked {
			t.Fatal("b was marked: the fault did not hide it")
		}
		wantCannotRotate(t, f, b, "b, unmarked, of a revoked family")
	})
	t.Run("a cleanup chunk fails", func(t *testing.T) {
		f := newFixture(t)
		c := ctx(t)
		a, rt, err := f.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: "u1"})
		must(t, err)
		b, _, err := f.RefreshTokens.Rotate(c, a, "", "")
		must(t, err)
		fail := &tabletest.Errors{Op: "TransactWriteItems", Code: "ValidationException", Times: 1}
		broken := storeWith(t, f, fail.Option())
		if _, err := broken.RefreshTokens.RevokeFamily(c, rt.TokenFamily, "admin", "logout"); err == nil {
			t.Fatal("the failing chunk was not reported")
		}
		wantCannotRotate(t, f, b, "b after a failed cleanup")
	})
	t.Run("legitimate rotation", func(t *testing.T) {
		f := newFixture(t)
		c := ctx(t)
		tok, _, err := f.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: "u1"})
		must(t, err)
		before := f.requests.Load()
		for range 3 {
			tok, _, err = f.RefreshTokens.Rotate(c, tok, "", "")
			must(t, err)
		}
		if n := f.requests.Load() - before; n != 6 {
			t.Errorf("3 rotations took %d requests, want 6 (a read and a transaction each)", n)
		}
	})
	t.Run("family issued before family items", func(t *testing.T) {
		f := newFixture(t)
		c := ctx(t)
		a, rt, err := f.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: "u1"})
		must(t, err)
		fk := listbackup.Key(lb.TokenFamily{Family: rt.TokenFamily})
		sc := f.tbl.Schema()
		if _, err := f.tbl.Client().DeleteItem(c, &dynamodb.DeleteItemInput{TableName: aws.String(sc.Name), Key: map[string]types.AttributeValue{
			sc.PK: &types.AttributeValueMemberS{Value: fk.PK}, sc.SK: &types.AttributeValueMemberS{Value: fk.SK}}}); err != nil {
			t.Fatal(err)
		}
		b, _, err := f.RefreshTokens.Rotate(c, a, "", "") // creates the family item
		must(t, err)
		if _, _, err := f.RefreshTokens.Rotate(c, a, "", ""); !errors.Is(err, listbackup.ErrTokenReused) {
			t.Fatalf("replay: %v", err)
		}
		wantCannotRotate(t, f, b, "b of a legacy family after reuse")
	})
}
