package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// OAuthStates serves LB-30 and LB-31: one-time OAuth states of 15 minutes.
type OAuthStates struct {
	create, consume table.Op
	e               *entities
}

func newOAuthStates(e *entities) *OAuthStates {
	return &OAuthStates{e: e,
		create:  table.NewOp(e.t, "LB-30", "listbackup.OAuthStates.Create"),
		consume: table.NewOp(e.t, "LB-31", "listbackup.OAuthStates.Consume"),
	}
}

// NewOAuthState is the input of [OAuthStates.Create].
type NewOAuthState struct {
	AccountID   lb.AccountID
	UserID      lb.UserID
	Platform    lb.Platform
	RedirectURI string
	Metadata    lb.OAuthStateMetadata
}

// Create stores a new OAuth state (LB-30): 32 random bytes (crypto/rand),
// PK = OAUTHSTATE#{state}, expiresAt and the table TTL = now + 15 minutes.
// Errors: *table.ValidationError.
func (s *OAuthStates) Create(ctx context.Context, in NewOAuthState) (lb.OAuthState, error) {
	return table.Run(ctx, s.create, func(ctx context.Context) (lb.OAuthState, error) {
		now := s.e.now()
		st := lb.OAuthState{
			State: lb.NewSecret(32), AccountID: in.AccountID, UserID: in.UserID, Platform: in.Platform,
			PlatformID: in.Platform, RedirectURI: in.RedirectURI, Metadata: in.Metadata,
			CreatedAt: now, ExpiresAt: lb.Seconds(now.Add(lb.OAuthStateTTL)),
		}
		if err := s.e.states.Create(ctx, &st); err != nil {
			return lb.OAuthState{}, err
		}
		return st, nil
	})
}

// Consume returns the state and deletes it, in one conditional DeleteItem
// (LB-31, table.Entity.Take): valid once; of concurrent consumers exactly
// one gets it; a state past its expiry is refused even before DynamoDB's
// TTL removes it. Errors: *table.ValidationError, table.ErrNotFound
// (unknown, already used or expired).
func (s *OAuthStates) Consume(ctx context.Context, state string) (lb.OAuthState, error) {
	return table.Run(ctx, s.consume, func(ctx context.Context) (lb.OAuthState, error) {
		if len(state) < 16 {
			return lb.OAuthState{}, &table.ValidationError{Field: "state", Reason: "too short to be a state", Key: true}
		}
		k, err := s.e.states.CheckedKey(lb.OAuthState{State: state}, lb.CheckID("state", state))
		if err != nil {
			return lb.OAuthState{}, err
		}
		return s.e.states.Take(ctx, k)
	})
}

// OAuthTokens serves LB-32 and LB-33. Access and refresh tokens are
// encrypted before they reach DynamoDB.
type OAuthTokens struct {
	// BySource reads a source's tokens, decrypted (LB-32).
	//
	//	tok, err := s.OAuthTokens.BySource.Get(ctx, lb.OAuthToken{SourceID: src})
	BySource *table.Pattern[lb.OAuthToken]
	// ByPlatform lists an account's OAuth tokens on one platform (LB-33).
	//
	//	page, err := s.OAuthTokens.ByPlatform.List(ctx, lb.OAuthToken{AccountID: a, Platform: lb.PlatformStripe})
	ByPlatform *table.Pattern[lb.OAuthToken]
	// Save stores (or replaces) a source's tokens (LB-32, its write side).
	// Beyond its form's errors: table.ErrNoCipher.
	Save func(context.Context, *lb.OAuthToken) error

	refresh table.Op
	e       *entities
}

func newOAuthTokens(e *entities) *OAuthTokens {
	return &OAuthTokens{e: e,
		Save: table.Put(e.oauthTokens, table.WriteDef[lb.OAuthToken]{ID: "LB-32", Name: "listbackup.OAuthTokens.Save",
			Doc: "Stores (or replaces) a source's tokens, in the source's partition."}),
		BySource: table.NewPattern(e.oauthTokens, table.PatternDef[lb.OAuthToken]{ID: "LB-32", Name: "listbackup.OAuthTokens.BySource",
			Doc: "A source's OAuth tokens, decrypted.", Reads: table.ReadOne}),
		refresh: table.NewOp(e.t, "LB-32", "listbackup.OAuthTokens.Refresh"),
		ByPlatform: table.NewPattern(e.oauthTokens, table.PatternDef[lb.OAuthToken]{ID: "LB-33", Name: "listbackup.OAuthTokens.ByPlatform",
			Doc: "An account's OAuth tokens on one platform.", Reads: table.ReadPage, Index: table.GSI1, SortPrefix: true,
			Require: []string{"platform"}}),
	}
}

// Refresh replaces a source's token set after a refresh with the platform
// and stamps lastRefreshedAt (LB-32): a consistent read and one
// conditional write (table.Entity.Update), re-encrypting the tokens; the
// read gives the stored token set (a refresh token left empty is kept from
// it) and the version the write is conditioned on, so a concurrent refresh
// is not overwritten unseen. A
// refresh token left empty keeps the stored one. Errors:
// *table.ValidationError, table.ErrNotFound.
func (s *OAuthTokens) Refresh(ctx context.Context, src lb.SourceID, tokens lb.OAuthTokenSet) (lb.OAuthToken, error) {
	return table.Run(ctx, s.refresh, func(ctx context.Context) (lb.OAuthToken, error) {
		k, err := s.e.oauthTokens.CheckedKey(lb.OAuthToken{SourceID: src})
		if err != nil {
			return lb.OAuthToken{}, err
		}
		if tokens.AccessToken == "" {
			return lb.OAuthToken{}, table.Invalid("tokens.accessToken", "required")
		}
		now := s.e.now()
		return s.e.oauthTokens.Update(ctx, k, func(t *lb.OAuthToken) error {
			if tokens.RefreshToken == "" {
				tokens.RefreshToken = t.Tokens.RefreshToken
			}
			t.Tokens, t.LastRefreshedAt = tokens, now
			return nil
		})
	})
}
