package listbackup

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// RefreshTokens serves LB-34..LB-37: refresh tokens stored by hash,
// families, rotation with reuse detection. The lists are declared
// ([table.Pattern]): their fields.
type RefreshTokens struct {
	// ByUser lists a user's tokens by issue time, newest first (LB-35).
	//
	//	page, err := s.RefreshTokens.ByUser.List(ctx, lb.RefreshToken{UserID: u})
	ByUser *table.Pattern[lb.RefreshToken]
	// Family lists a token family, by issue time (LB-36).
	Family *table.Pattern[lb.RefreshToken]

	getByToken, revokeFamily, issue, rotate table.Op
	e                                       *entities
}

func newRefreshTokens(e *entities) *RefreshTokens {
	return &RefreshTokens{e: e,
		issue:        table.NewOp(e.t, "LB-34", "listbackup.RefreshTokens.Issue"),
		rotate:       table.NewOp(e.t, "LB-37", "listbackup.RefreshTokens.Rotate"),
		getByToken:   table.NewOp(e.t, "LB-34", "listbackup.RefreshTokens.GetByToken"),
		revokeFamily: table.NewOp(e.t, "LB-36", "listbackup.RefreshTokens.RevokeFamily"),
		ByUser: table.NewPattern(e.refreshTokens, table.PatternDef[lb.RefreshToken]{ID: "LB-35", Name: "listbackup.RefreshTokens.ByUser",
			Doc: "A user's refresh tokens, newest first.", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true, Desc: true}),
		Family: table.NewPattern(e.refreshTokens, table.PatternDef[lb.RefreshToken]{ID: "LB-36", Name: "listbackup.RefreshTokens.Family",
			Doc: "A refresh-token family, by issue time.", Reads: table.ReadPage, Index: table.GSI2, WholePartition: true}),
	}
}

// IssueInput describes a new login's refresh token.
type IssueInput struct {
	UserID    lb.UserID
	AccountID lb.AccountID
	UserAgent string
	IPAddress string
}

// Issue starts a new token family and returns the plaintext token (32
// random bytes, shown once) and the stored token, which holds only its
// SHA-256 hash. One transaction creates the token and its family item
// RTFAM#{family} / FAMILY, the fact every rotation checks (see
// [RefreshTokens.Rotate]). Errors: *table.ValidationError.
//
// Pattern: LB-34 (its write side).
func (s *RefreshTokens) Issue(ctx context.Context, in IssueInput) (string, lb.RefreshToken, error) {
	return table.Run2(ctx, s.issue, func(ctx context.Context) (_ string, _ lb.RefreshToken, err error) {
		plain := lb.NewSecret(32)
		now := s.e.now()
		rt := lb.RefreshToken{
			TokenHash: lb.Hash(plain), UserID: in.UserID, AccountID: in.AccountID,
			TokenFamily: lb.TokenFamilyID(lb.NewUUID()), IssuedAt: now, ExpiresAt: now.Add(s.e.refreshTTL),
			UserAgent: in.UserAgent, IPAddress: in.IPAddress,
		}
		fam := lb.TokenFamily{Family: rt.TokenFamily, UserID: in.UserID, CreatedAt: now}
		ops, err := s.e.refreshTokens.CreateOp(&rt)
		if err != nil {
			return "", lb.RefreshToken{}, err
		}
		famOps, err := s.e.families.CreateOp(&fam)
		if err != nil {
			return "", lb.RefreshToken{}, err
		}
		if err := s.e.t.Transact(ctx, append(ops, famOps...)...); err != nil {
			return "", lb.RefreshToken{}, fmt.Errorf("issue refresh token: %w", err)
		}
		return plain, rt, nil
	})
}

// GetByToken returns the stored token of a plaintext token (LB-34): GetItem
// PK = RTOKEN#{sha256(token)}; the plaintext is never stored. Expired
// tokens are not returned. Errors: *table.ValidationError,
// table.ErrNotFound.
func (s *RefreshTokens) GetByToken(ctx context.Context, token string) (lb.RefreshToken, error) {
	return table.Run(ctx, s.getByToken, func(ctx context.Context) (lb.RefreshToken, error) {
		if token == "" {
			return lb.RefreshToken{}, table.Invalid("refreshToken", "empty")
		}
		hash := lb.Hash(token)
		k, err := s.e.refreshTokens.CheckedKey(lb.RefreshToken{TokenHash: hash}, lb.CheckHash("refreshToken", hash))
		if err != nil {
			return lb.RefreshToken{}, err
		}
		return s.e.refreshTokens.Get(ctx, k, table.Consistent())
	})
}

// RevokeFamily revokes a token family (LB-36) and returns how many of its
// tokens it marked revoked. The revocation is one fact: the family item
// RTFAM#{family} is marked revoked first (one UpdateItem, or a create for
// a family issued before family items existed), and every rotation
// conditions on that item in its own transaction, so from then on no
// token of the family rotates, including a token whose rotation committed
// while the revocation ran, one a lagging GSI2 does not list yet, or one a
// failed cleanup chunk left unmarked. Marking the individual tokens
// (Query GSI2 PK = RTFAMILY#{tokenFamily}, then one transaction per 100
// tokens setting revoked, revokedAt, revokedBy and revokedReason) is
// cleanup for readers of single tokens; if it fails the error says so
// and the family stays revoked. Errors: *table.ValidationError.
func (s *RefreshTokens) RevokeFamily(ctx context.Context, family lb.TokenFamilyID, by lb.UserID, reason string) (int, error) {
	return table.Run(ctx, s.revokeFamily, func(ctx context.Context) (int, error) {
		k, err := s.e.families.CheckedKey(lb.TokenFamily{Family: family})
		if err != nil {
			return 0, err
		}
		now := s.e.now()
		set := map[string]any{"revoked": true, "revokedAt": now, "revokedReason": reason}
		if by != "" {
			set["revokedBy"] = string(by)
		}
		if reason == "" {
			delete(set, "revokedReason")
		}
		if err := s.revokeFact(ctx, k, family, set); err != nil {
			return 0, fmt.Errorf("revoke family %s: %w", family, err)
		}
		toks, err := table.Collect(s.Family.All(ctx, lb.RefreshToken{TokenFamily: family}, table.Limit(table.MaxListLimit)))
		if err != nil {
			return 0, fmt.Errorf("revoke family %s: family revoked, its tokens not marked: %w", family, err)
		}
		var ops []table.TxOp
		for _, t := range toks {
			if t.Revoked {
				continue
			}
			k, err := s.e.refreshTokens.CheckedKey(lb.RefreshToken{TokenHash: t.TokenHash}, lb.CheckHash("refreshToken", t.TokenHash))
			if err != nil {
				return 0, err
			}
			op, err := s.e.refreshTokens.PatchOp(k, table.Patch{Set: set})
			if err != nil {
				return 0, err
			}
			ops = append(ops, op)
		}
		for i := 0; i < len(ops); i += table.MaxTxItems {
			if err := s.e.t.Transact(ctx, ops[i:min(i+table.MaxTxItems, len(ops))]...); err != nil {
				return i, fmt.Errorf("revoke family %s: family revoked, %d of %d tokens marked: %w", family, i, len(ops), err)
			}
		}
		return len(ops), nil
	})
}

// revokeFact marks the family item revoked, creating it (revoked) for a
// family that has none.
func (s *RefreshTokens) revokeFact(ctx context.Context, k table.Key, family lb.TokenFamilyID, set map[string]any) error {
	for attempt := 0; ; attempt++ {
		_, err := s.e.families.Patch(ctx, k, table.Patch{Set: set})
		if !errors.Is(err, table.ErrNotFound) || attempt > 2 {
			return err
		}
		// A family from before family items: find its user, create it revoked.
		p, err := s.Family.List(ctx, lb.RefreshToken{TokenFamily: family}, table.Limit(1))
		if err != nil {
			return err
		}
		now := s.e.now()
		fam := lb.TokenFamily{Family: family, CreatedAt: now, Revoked: true, RevokedAt: now}
		fam.UserID = "unknown"
		if len(p.Items) > 0 {
			fam.UserID = p.Items[0].UserID
		}
		if r, ok := set["revokedReason"].(string); ok {
			fam.RevokedReason = r
		}
		if b, ok := set["revokedBy"].(string); ok {
			fam.RevokedBy = lb.UserID(b)
		}
		err = s.e.families.Create(ctx, &fam)
		if !errors.Is(err, table.ErrAlreadyExists) {
			return err
		}
	}
}

// Rotate exchanges a refresh token for the next one of its family (LB-37)
// and returns the new plaintext and stored token. It reads the presented
// token (one consistent GetItem: only the token item knows its family, its
// user and whether it was rotated, and its version conditions the write)
// and writes one transaction: the old token gets rotatedAt, lastUsedAt and replacedBy
// on condition that its version is the one read (neither rotated nor
// revoked since), the new token is created with the same family and life
// and the family item counts the rotation on condition that it is not
// revoked (a family from before family items gets its item here, after
// one more read). Steady state: 2 requests. Presenting a
// token that was already rotated is reuse: its family is revoked (LB-36)
// and ErrTokenReused (matching table.ErrConflict) is returned; a token of
// a revoked family gives ErrTokenRevoked, even if the token itself was
// never marked. Errors: *table.ValidationError, table.ErrNotFound
// (unknown or expired), ErrTokenRevoked, ErrTokenReused.
func (s *RefreshTokens) Rotate(ctx context.Context, token, userAgent, ipAddress string) (string, lb.RefreshToken, error) {
	return table.Run2(ctx, s.rotate, func(ctx context.Context) (_ string, _ lb.RefreshToken, err error) {
		if token == "" {
			return "", lb.RefreshToken{}, table.Invalid("refreshToken", "empty")
		}
		hash := lb.Hash(token)
		k, err := s.e.refreshTokens.CheckedKey(lb.RefreshToken{TokenHash: hash}, lb.CheckHash("refreshToken", hash))
		if err != nil {
			return "", lb.RefreshToken{}, err
		}
		legacy := false // the family has no item yet
		for attempt := 0; ; attempt++ {
			old, err := s.e.refreshTokens.Get(ctx, k, table.Consistent())
			if err != nil {
				return "", lb.RefreshToken{}, err
			}
			switch {
			case !old.RotatedAt.IsZero():
				if _, err := s.RevokeFamily(ctx, old.TokenFamily, "", "refresh token reuse detected"); err != nil {
					return "", lb.RefreshToken{}, errors.Join(ErrTokenReused, err)
				}
				return "", lb.RefreshToken{}, fmt.Errorf("rotate refresh token of family %s: %w", old.TokenFamily, ErrTokenReused)
			case old.Revoked:
				return "", lb.RefreshToken{}, fmt.Errorf("rotate refresh token of family %s: %w", old.TokenFamily, ErrTokenRevoked)
			}
			plain, next, err := s.rotateOnce(ctx, old, legacy, userAgent, ipAddress)
			if errors.Is(err, errFamilyChanged) && attempt < 3 {
				// Revoked, or no item yet.
				fk, _ := s.e.families.CheckedKey(lb.TokenFamily{Family: old.TokenFamily})
				fam, ferr := s.e.families.Get(ctx, fk, table.Consistent())
				switch {
				case ferr == nil && fam.Revoked:
					return "", lb.RefreshToken{}, fmt.Errorf("rotate refresh token of family %s: family revoked: %w", old.TokenFamily, ErrTokenRevoked)
				case errors.Is(ferr, table.ErrNotFound):
					legacy = true
				case ferr != nil:
					return "", lb.RefreshToken{}, ferr
				default:
					legacy = false
				}
				continue
			}
			if errors.Is(err, table.ErrTransactionCanceled) && attempt < 3 {
				continue // the old token changed since it was read: look again
			}
			return plain, next, err
		}
	})
}

// errFamilyChanged is a rotation's failed family condition: the family
// was revoked, or its item is not what the rotation expected (none yet,
// or one created meanwhile).
var errFamilyChanged = errors.New("the token family changed")

func (s *RefreshTokens) rotateOnce(ctx context.Context, old lb.RefreshToken, legacy bool, userAgent, ipAddress string) (string, lb.RefreshToken, error) {
	now := s.e.now()
	plain := lb.NewSecret(32)
	life := old.ExpiresAt.Sub(old.IssuedAt)
	if life <= 0 {
		life = s.e.refreshTTL
	}
	next := lb.RefreshToken{
		TokenHash: lb.Hash(plain), UserID: old.UserID, AccountID: old.AccountID, TokenFamily: old.TokenFamily,
		IssuedAt: now, ExpiresAt: now.Add(life), UserAgent: userAgent, IPAddress: ipAddress,
	}
	var famOps []table.TxOp
	if !legacy {
		fk, err := s.e.families.CheckedKey(lb.TokenFamily{Family: old.TokenFamily})
		if err != nil {
			return "", lb.RefreshToken{}, err
		}
		op, err := s.e.families.PatchOp(fk, table.Patch{Add: map[string]int64{"rotations": 1}, IfEqual: map[string]any{"revoked": false}})
		if err != nil {
			return "", lb.RefreshToken{}, err
		}
		famOps = []table.TxOp{op}
	} else {
		// A family issued before family items: its item starts now, and a
		// concurrent revocation that creates it first wins.
		f := lb.TokenFamily{Family: old.TokenFamily, UserID: old.UserID, CreatedAt: now, Rotations: 1}
		ops, err := s.e.families.CreateOp(&f)
		if err != nil {
			return "", lb.RefreshToken{}, err
		}
		famOps = ops
	}
	ops, err := s.e.refreshTokens.CreateOp(&next)
	if err != nil {
		return "", lb.RefreshToken{}, err
	}
	k, err := s.e.refreshTokens.CheckedKey(lb.RefreshToken{TokenHash: old.TokenHash}, lb.CheckHash("refreshToken", old.TokenHash))
	if err != nil {
		return "", lb.RefreshToken{}, err
	}
	ver := old.Version
	mark, err := s.e.refreshTokens.PatchOp(k, table.Patch{
		Set:       map[string]any{"rotatedAt": now, "lastUsedAt": now, "replacedBy": next.TokenHash},
		IfEqual:   map[string]any{"revoked": false},
		IfAbsent:  []string{"rotatedAt"}, // never rotated before
		IfVersion: &ver,
	})
	if err != nil {
		return "", lb.RefreshToken{}, err
	}
	famOps[0] = famOps[0].OnFail(errFamilyChanged)
	ops = append(append([]table.TxOp{mark}, ops...), famOps...)
	if err := s.e.t.Transact(ctx, ops...); err != nil {
		return "", lb.RefreshToken{}, fmt.Errorf("rotate refresh token of family %s: %w", old.TokenFamily, err)
	}
	return plain, next, nil
}
