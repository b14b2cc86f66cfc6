package table

import (
	"context"
	"sync"
)

// Dry-run claims. A dry run writes no guard and no item, so on its own it
// would miss the conflicts among the items it visits: two items with one
// unique value, two imported rows with one key. Every dry run (the
// adoption job's, Import's and ImportMany's) records instead, in one map
// carried by its context, what the writes it did not make would hold:
// unique values (Unique -> the owner's Key) and, for imports, primary
// keys (Key -> true). The real run meets the same values as held guards
// and items, so a dry run predicts its conflicts.

// claimsKey holds a dry run's claims (a *sync.Map, see above).
type claimsKey struct{}

// withClaims returns ctx carrying a claims map: its own if it has one (a
// job's dry run passes it to every item), else a new one.
func withClaims(ctx context.Context) context.Context {
	if claimsOf(ctx) != nil {
		return ctx
	}
	return context.WithValue(ctx, claimsKey{}, &sync.Map{})
}

// claimsOf returns the claims map of ctx (nil outside a dry run).
func claimsOf(ctx context.Context) *sync.Map {
	m, _ := ctx.Value(claimsKey{}).(*sync.Map)
	return m
}

// claimUnique records that owner would hold u. If another owner claimed it
// first, nothing is recorded and that owner is returned with taken true.
// fresh is true when this call recorded the claim.
func claimUnique(claims *sync.Map, u Unique, owner Key) (prev Key, taken, fresh bool) {
	p, loaded := claims.LoadOrStore(u, owner)
	if loaded && p.(Key) != owner {
		return p.(Key), true, false
	}
	return Key{}, false, !loaded
}
