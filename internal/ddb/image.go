package ddb

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
)

// An item's images: what a write leaves, what a whole-image condition
// names, and how two stored images compare.

// AfterImage returns raw as a write leaves it: sets applied, removes
// removed (raw itself is not modified).
func AfterImage(raw Item, sets Item, removes []string) Item {
	out := maps.Clone(raw)
	if out == nil {
		out = Item{}
	}
	maps.Copy(out, sets)
	for _, a := range removes {
		delete(out, a)
	}
	return out
}

// MaxImageConds is how many attributes a write conditions on one by one:
// DynamoDB limits an expression to 4 KB, and each condition takes about 20
// bytes ("#a123 = :a124 AND "). An image with more attributes is compared
// by a read instead (see Replace).
const MaxImageConds = 150

// ImageAttrs returns the attributes of image a whole-image condition
// names: all but the key (the request's own), the entity type and version
// (conditioned by liveCond and [Conn.VersionCond]) and the write tokens (every
// library write changes them, and the version with them).
func (c *Conn) ImageAttrs(image Item) []string {
	s := c.Schema
	var out []string
	for _, a := range slices.Sorted(maps.Keys(image)) {
		switch a {
		case s.PK, s.SK, s.TypeAttr, s.VersionAttr, s.TokenAttr:
			continue
		}
		out = append(out, a)
	}
	return out
}

// SameImage reports whether two stored images are equal, write tokens
// left out.
func (c *Conn) SameImage(a, b Item) bool {
	tok := c.Schema.TokenAttr
	for k := range UnionKeys(a, b) {
		if k == tok && tok != "" {
			continue
		}
		if !codec.Equal(a[k], b[k]) {
			return false
		}
	}
	return true
}

func UnionKeys(a, b Item) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// TakenTTLAttr keeps the TTL a taken item had before Take ended it.
const TakenTTLAttr = "_ttl0"

// Untaken returns raw, an item as Take left it, as it was before: its own
// TTL restored and Take's bookkeeping removed.
func (c *Conn) Untaken(raw Item) Item {
	out := make(Item, len(raw))
	for k, v := range raw {
		out[k] = v
	}
	delete(out, TakenTTLAttr)
	delete(out, c.Schema.TokenAttr)
	if n, ok := raw[TakenTTLAttr].(*types.AttributeValueMemberN); ok && n.Value != "0" {
		out[c.Schema.TTLAttr] = n
	} else {
		delete(out, c.Schema.TTLAttr)
	}
	return out
}

// CheckImage reads entity's item k (strongly consistent) and returns it
// if it is still image, the item as read before: a missing, expired or
// foreign-typed item is [ErrNotFound], a changed one [ErrConflict].
func (c *Conn) CheckImage(ctx context.Context, entity string, k Key, image Item) (Item, error) {
	cur, err := c.GetItem(ctx, entity, k, true, nil, nil)
	switch {
	case err != nil:
		return nil, err
	case cur == nil || c.Expired(cur) || !c.IsType(cur, entity):
		return nil, ErrNotFound
	case !c.SameImage(cur, image):
		return nil, fmt.Errorf("%w: the stored item changed since it was read", ErrConflict)
	}
	return cur, nil
}
