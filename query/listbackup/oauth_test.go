package listbackup_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
)

func newState(t *testing.T, f *fixture) lb.OAuthState {
	t.Helper()
	st, err := f.OAuthStates.Create(ctx(t), listbackup.NewOAuthState{AccountID: "a1", UserID: "u1", Platform: lb.PlatformKeap,
		RedirectURI: "https://app.example.com/cb", Metadata: lb.OAuthStateMetadata{SourceID: "s1"}})
	must(t, err)
	return st
}

// LB-30 create an OAuth state (15-minute life); LB-31 consume it: of 20
// concurrent consumers exactly one wins, and a second use fails.
func TestOAuthStateConsumedOnce_LB30_LB31(t *testing.T) {
	f := newFixture(t)
	st := newState(t, f) // LB-30
	if !st.ExpiresAt.Equal(lb.Seconds(t0.Add(15 * time.Minute))) {
		t.Errorf("LB-30 expiresAt = %v", st.ExpiresAt)
	}
	k := listbackup.Key(lb.OAuthState{State: st.State})
	if got := numAttr(t, raw(t, f, k), "ttl"); got != st.ExpiresAt.Unix() {
		t.Errorf("LB-30 ttl = %d, want %d", got, st.ExpiresAt.Unix())
	}
	var wins, notFound int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			got, err := f.OAuthStates.Consume(ctx(t), st.State) // LB-31
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
				if diff := cmp.Diff(st, got); diff != "" {
					t.Errorf("LB-31 consumed (-want +got):\n%s", diff)
				}
			case errors.Is(err, table.ErrNotFound):
				notFound++
			default:
				t.Errorf("LB-31: %v", err)
			}
		})
	}
	wg.Wait()
	if wins != 1 || notFound != 19 {
		t.Errorf("LB-31: %d winners, %d not found; want 1 and 19", wins, notFound)
	}
}

// LB-31: an expired state is rejected even before TTL deletes it.
func TestOAuthStateExpired_LB31(t *testing.T) {
	f := newFixture(t)
	st := newState(t, f)
	f.clock.Add(15*time.Minute + time.Second)
	_, err := f.OAuthStates.Consume(ctx(t), st.State)
	wantIs(t, err, table.ErrNotFound)
	k := listbackup.Key(lb.OAuthState{State: st.State})
	raw(t, f, k) // still stored: rejection came from the expiry check
	_, err = f.OAuthStates.Consume(ctx(t), "short")
	wantInvalid(t, err, "state")
}

// LB-32 OAuth tokens of a source (and refresh: see
// TestSecretsEncryptedAtRest_LB32); LB-33 tokens of an account on a platform.
func TestOAuthTokens_LB32_LB33(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	for _, s := range []struct {
		src lb.SourceID
		p   lb.Platform
	}{{"s1", lb.PlatformKeap}, {"s2", lb.PlatformStripe}, {"s3", lb.PlatformKeap}} {
		must(t, f.OAuthTokens.Save(c, &lb.OAuthToken{SourceID: s.src, AccountID: "a1", Platform: s.p, Tokens: lb.OAuthTokenSet{AccessToken: "at-" + string(s.src)}}))
	}
	tok, err := f.OAuthTokens.BySource.Get(c, lb.OAuthToken{SourceID: "s2"}) // LB-32
	must(t, err)
	if tok.Tokens.AccessToken != "at-s2" {
		t.Errorf("LB-32: %+v", tok)
	}
	p, err := f.OAuthTokens.ByPlatform.List(c, lb.OAuthToken{AccountID: "a1", Platform: lb.PlatformKeap}) // LB-33
	if diff := cmp.Diff([]lb.SourceID{"s1", "s3"}, ids(collect(t, p, err), func(o lb.OAuthToken) lb.SourceID { return o.SourceID })); diff != "" {
		t.Errorf("LB-33 (-want +got):\n%s", diff)
	}
	_, err = f.OAuthTokens.Refresh(c, "s9", lb.OAuthTokenSet{AccessToken: "x"})
	wantIs(t, err, table.ErrNotFound)
}

// LB-34 refresh token by its hash (plaintext never stored), LB-35 tokens
// of a user, LB-36 tokens of a family, LB-37 rotation; reuse of a rotated
// token revokes the whole family.
func TestRefreshTokenRotationAndReuse_LB34_LB35_LB36_LB37(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	plain, rt, err := f.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: "u1", AccountID: "a1", UserAgent: "test"})
	must(t, err)
	k := listbackup.Key(lb.RefreshToken{TokenHash: rt.TokenHash})
	item := raw(t, f, k)
	if got := str(t, item, "refreshToken"); got != lb.Hash(plain) || got == plain {
		t.Errorf("LB-34 stored refreshToken %q, want only the hash", got)
	}
	got, err := f.RefreshTokens.GetByToken(c, plain) // LB-34
	must(t, err)
	if got.TokenFamily != rt.TokenFamily || got.UserID != "u1" {
		t.Errorf("LB-34: %+v", got)
	}
	f.clock.Add(time.Minute)
	plain2, rt2, err := f.RefreshTokens.Rotate(c, plain, "test", "10.0.0.1") // LB-37
	must(t, err)
	if rt2.TokenFamily != rt.TokenFamily || plain2 == plain {
		t.Errorf("LB-37 rotated: %+v", rt2)
	}
	f.clock.Add(time.Minute)
	_, _, err = f.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: "u1"}) // another login
	must(t, err)
	p, err := f.RefreshTokens.ByUser.List(c, lb.RefreshToken{UserID: "u1"}) // LB-35, newest first
	must(t, err)
	if len(p.Items) != 3 || p.Items[1].TokenHash != rt2.TokenHash || p.Items[2].TokenHash != rt.TokenHash {
		t.Errorf("LB-35: %v", ids(p.Items, func(r lb.RefreshToken) string { return r.TokenHash[:8] }))
	}
	fam, err := f.RefreshTokens.Family.List(c, lb.RefreshToken{TokenFamily: rt.TokenFamily}) // LB-36
	must(t, err)
	if diff := cmp.Diff([]string{rt.TokenHash, rt2.TokenHash}, ids(fam.Items, func(r lb.RefreshToken) string { return r.TokenHash })); diff != "" {
		t.Errorf("LB-36 family (-want +got):\n%s", diff)
	}
	// Reuse of the rotated token: typed error, whole family revoked.
	_, _, err = f.RefreshTokens.Rotate(c, plain, "attacker", "6.6.6.6")
	wantIs(t, err, listbackup.ErrTokenReused)
	wantIs(t, err, table.ErrConflict)
	fam, err = f.RefreshTokens.Family.List(c, lb.RefreshToken{TokenFamily: rt.TokenFamily})
	must(t, err)
	for _, r := range fam.Items {
		if !r.Revoked || r.RevokedReason == "" {
			t.Errorf("LB-37 after reuse: token %s not revoked: %+v", r.TokenHash[:8], r)
		}
	}
	_, _, err = f.RefreshTokens.Rotate(c, plain2, "test", "")
	wantIs(t, err, listbackup.ErrTokenRevoked)
	// The other login's family is untouched.
	p, err = f.RefreshTokens.ByUser.List(c, lb.RefreshToken{UserID: "u1"})
	must(t, err)
	if p.Items[0].Revoked {
		t.Errorf("another family was revoked")
	}
}

// LB-36 revoke a family explicitly; LB-37 concurrent rotations of one
// token: exactly one succeeds, the others count as reuse.
func TestRefreshTokenRevokeFamilyAndConcurrentRotate_LB36_LB37(t *testing.T) {
	f := newFixture(t)
	c := ctx(t)
	plain, rt, err := f.RefreshTokens.Issue(c, listbackup.IssueInput{UserID: "u1"})
	must(t, err)
	var mu sync.Mutex
	var ok, reused int
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			_, _, err := f.RefreshTokens.Rotate(ctx(t), plain, "", "")
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				ok++
			case errors.Is(err, listbackup.ErrTokenReused), errors.Is(err, listbackup.ErrTokenRevoked):
				reused++
			default:
				t.Errorf("rotate: %v", err)
			}
		})
	}
	wg.Wait()
	if ok != 1 || reused != 4 {
		t.Errorf("LB-37 concurrent: %d succeeded, %d refused; want 1 and 4", ok, reused)
	}
	n, err := f.RefreshTokens.RevokeFamily(c, rt.TokenFamily, "admin", "logout") // LB-36
	must(t, err)
	fam, err := f.RefreshTokens.Family.List(c, lb.RefreshToken{TokenFamily: rt.TokenFamily})
	must(t, err)
	for _, r := range fam.Items {
		if !r.Revoked {
			t.Errorf("LB-36: %s not revoked after RevokeFamily (%d revoked)", r.TokenHash[:8], n)
		}
	}
	_, err = f.RefreshTokens.GetByToken(c, "")
	wantInvalid(t, err, "refreshToken")
	f.clock.Add(31 * 24 * time.Hour)
	_, err = f.RefreshTokens.GetByToken(c, plain)
	wantIs(t, err, table.ErrNotFound) // expired
}
