package ddb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/keytmpl"
)

// ReadGuards reads the guards of the values of us that are held (one
// BatchGetItem, chunked and retried, eventually consistent; each value
// checked first with [CheckLookup]) and the owner items they name (one
// more): the guards as read, the owners found by key. The caller confirms
// each guard by its owner.
func (c *Conn) ReadGuards(ctx context.Context, us []Unique) ([]Guard, map[Key]Item, error) {
	ks := make([]Key, 0, len(us))
	seen := map[Unique]bool{}
	for _, u := range us {
		if err := CheckLookup(u); err != nil {
			return nil, nil, err
		}
		if seen[u] {
			continue
		}
		seen[u] = true
		ks = append(ks, GuardKey(u))
	}
	raws, err := c.BatchGet(ctx, GuardType, ks, false, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	var guards []Guard
	var owners []Key
	ownerSeen := map[Key]bool{}
	for _, raw := range raws {
		if g, ok := DecodeGuard(raw); ok {
			guards = append(guards, g)
			if !ownerSeen[g.Owner] {
				ownerSeen[g.Owner] = true
				owners = append(owners, g.Owner)
			}
		}
	}
	if len(owners) == 0 {
		return nil, nil, nil
	}
	ownerRaws, err := c.BatchGet(ctx, GuardType, owners, false, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	byKey := make(map[Key]Item, len(ownerRaws))
	for _, raw := range ownerRaws {
		byKey[c.KeyOf(raw)] = raw
	}
	return guards, byKey, nil
}

// HoldsGuards reports whether the item with key k holds the guards (or
// shared entries) of all of us: strongly consistent reads, one per value.
func (c *Conn) HoldsGuards(ctx context.Context, k Key, us []Unique) bool {
	for _, u := range us {
		if u.Shared {
			raw, err := c.GetItem(ctx, GuardType, GuardKeyFor(u, k), true, nil, nil)
			if err != nil || raw == nil {
				return false
			}
			continue
		}
		g, err := c.ReadGuard(ctx, u)
		if err != nil || g.Owner != k {
			return false
		}
	}
	return true
}

// StoredUnder reports whether raw holds, for each index of ixs, the index
// key of want (an index want has no key for fails).
func (c *Conn) StoredUnder(raw Item, want map[Index]keytmpl.IndexKey, ixs []Index) (bool, error) {
	for _, ix := range ixs {
		pk, sk, _, err := c.Schema.KeyAttrs(ix)
		if err != nil {
			return false, err
		}
		w := want[ix]
		if w.PK == "" || !StringIs(raw, pk, w.PK) || (w.SK != "" && !StringIs(raw, sk, w.SK)) {
			return false, nil
		}
	}
	return true, nil
}

// StringIs reports whether attribute attr of raw is the string v.
func StringIs(raw Item, attr, v string) bool {
	s, ok := raw[attr].(*types.AttributeValueMemberS)
	return ok && s.Value == v
}
