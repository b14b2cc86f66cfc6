package ddb

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/expr"
)

// DiffSpec is an update of a whole item (table.Entity.Update, Replace,
// adoption) as the entity layer hands it to the expression builder: the
// item as read and as the write leaves it, both as plaintext encodings
// and as written, and what the entity's declarations say of them.
type DiffSpec struct {
	Entity string
	Key    Key
	// Raw is the stored item as read, at Version.
	Raw     Item
	Version int64
	// Old and New are the plaintext encodings before and after the change
	// (the fields and Extra entries): what differs is written.
	Old, New Item
	// Write is the item as the write encodes it (sealed, with keys).
	Write Item
	// DerivedOld and DerivedNew are the index keys and TTL before and
	// after; Moved the derived attributes a layout switch moves.
	DerivedOld, DerivedNew Item
	Moved                  map[string]bool
	// Keep chooses the value written for a changed attribute (the stored
	// form of an unchanged value is kept, see codec.KeepStored).
	Keep func(attr string, stored, old, new types.AttributeValue) types.AttributeValue
	// Reseal are attributes whose stored secrets every write seals anew.
	Reseal []string
	// Valid are Def.ValidWhileIndexed's index attributes, conditioned as
	// read; Revoked says the item is out of those indexes (they are not
	// put back).
	Valid   map[string]bool
	Revoked bool
	// Whole conditions the write on every attribute of Raw (Replace).
	Whole bool
	// Scope, when set, conditions the write on the tenant.
	Scope *Scope
}

// Diff is a whole-item update's UpdateItem, its write token and the
// attributes it sets and removes (the item's image after it, see
// [AfterImage]).
type Diff struct {
	Key     Key
	Update  *types.Update
	Token   string
	Set     Item
	Removed []string
}

// BuildDiff builds the UpdateItem of d: SET and REMOVE of the attributes
// whose encoded value differs, the index keys and TTL derived from
// changed fields, the version and write token, conditioned on the item
// being live, of d.Entity's type, at d.Version, each changed attribute
// still as read, and as d asks.
func (c *Conn) BuildDiff(d DiffSpec) Diff {
	s := c.Schema
	raw := d.Raw
	x := expr.New()
	cond := []string{c.Live(x, d.Entity), c.VersionCond(x, d.Version)}
	if d.Scope != nil {
		cond = append(cond, d.Scope.Cond(x))
	}
	var sets, removes []string
	out := Diff{Key: d.Key, Set: Item{}} // by attribute name: the image after the write
	n := 0
	ph := func(attr string) string {
		n++
		p := "#a" + strconv.Itoa(n)
		x.Names[p] = attr
		return p
	}
	val := func(v types.AttributeValue) string {
		n++
		p := ":a" + strconv.Itoa(n)
		x.Values[p] = v
		return p
	}
	// expect conditions attribute a on its stored value.
	conditioned := map[string]bool{}
	expect := func(np, attr string) {
		conditioned[attr] = true
		switch old := raw[attr].(type) {
		case nil:
			cond = append(cond, "attribute_not_exists("+np+")")
		case *types.AttributeValueMemberNULL:
			cond = append(cond, "attribute_type("+np+", "+val(&types.AttributeValueMemberS{Value: "NULL"})+")")
		default:
			cond = append(cond, np+" = "+val(old))
		}
	}
	set := func(np, attr string, v types.AttributeValue) {
		sets = append(sets, np+" = "+val(v))
		out.Set[attr] = v
	}
	remove := func(np, attr string) {
		removes = append(removes, np)
		out.Removed = append(out.Removed, attr)
	}
	managed := map[string]bool{s.PK: true, s.SK: true, s.TypeAttr: true, s.VersionAttr: true, s.TTLAttr: true, s.TokenAttr: true}
	for _, ix := range s.Indexes {
		managed[ix.PK], managed[ix.SK] = true, true
	}
	// Fields: what change changed, compared on the plaintext encodings.
	for _, attr := range slices.Sorted(maps.Keys(UnionKeys(d.Old, d.New))) {
		if managed[attr] || codec.Equal(d.Old[attr], d.New[attr]) {
			continue
		}
		np := ph(attr)
		expect(np, attr)
		if nv, ok := d.Write[attr]; ok {
			set(np, attr, d.Keep(attr, raw[attr], d.Old[attr], nv))
		} else {
			remove(np, attr)
		}
	}
	// Secrets stored in plaintext (written by another service), in the
	// previous format or under a stale key are sealed anew by every write
	// (the whole top-level attribute that holds them is rewritten).
	for _, attr := range d.Reseal {
		if d.Write[attr] != nil && codec.Equal(d.Old[attr], d.New[attr]) {
			np := ph(attr)
			expect(np, attr)
			set(np, attr, d.Write[attr])
		}
	}
	// Def.ValidWhileIndexed: the write is conditioned on those index
	// attributes as read (a revocation since the read fails it), and a
	// revoked item is never put back in those indexes.
	for _, attr := range slices.Sorted(maps.Keys(d.Valid)) {
		if !conditioned[attr] {
			expect(ph(attr), attr)
		}
	}
	// Index keys and TTL: moved when the fields they derive from changed,
	// or added when the stored item has none.
	for _, attr := range slices.Sorted(maps.Keys(UnionKeys(d.DerivedOld, d.DerivedNew))) {
		if d.Revoked && d.Valid[attr] {
			continue
		}
		nv, has := d.Write[attr]
		_, stored := raw[attr]
		changed := !codec.Equal(d.DerivedOld[attr], d.DerivedNew[attr]) || d.Moved[attr]
		switch {
		case !changed && (stored || !has):
			continue
		case has:
			set(ph(attr), attr, nv)
		case stored:
			remove(ph(attr), attr)
		}
	}
	if s.TypeAttr != "" {
		set(ph(s.TypeAttr), s.TypeAttr, d.Write[s.TypeAttr])
	}
	sets = append(sets, "#v = "+val(codec.Num(d.Version+1)))
	out.Set[s.VersionAttr] = codec.Num(d.Version + 1)
	if s.TokenAttr != "" {
		out.Token = c.NewToken()
		set(ph(s.TokenAttr), s.TokenAttr, c.CarryTokens(raw, out.Token))
	}
	// Replace: the stored item must still be the image the caller read,
	// every attribute of it, not only those this write changes.
	if d.Whole {
		for _, attr := range c.ImageAttrs(raw) {
			if !conditioned[attr] {
				expect(ph(attr), attr)
			}
		}
	}
	ex := "SET " + strings.Join(sets, ", ")
	if len(removes) > 0 {
		ex += " REMOVE " + strings.Join(removes, ", ")
	}
	out.Update = &types.Update{
		TableName:                 aws.String(s.Name),
		Key:                       c.KeyItem(d.Key),
		UpdateExpression:          aws.String(ex),
		ConditionExpression:       aws.String(strings.Join(cond, " AND ")),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Vals(),
	}
	return out
}

// WriteDiff sends d's update: alone as an UpdateItem, or with ops (its
// guard moves, then other actions) in one transaction. Guards of values
// the write does not set never block it: when a guard release fails (the
// item does not hold it: another item does) or a claim of a value in
// unchanged fails (an item written elsewhere claiming the guards of its
// unchanged values, one held by another item: a duplicate already in the
// data), the write is sent again without them, at most twice.
func (c *Conn) WriteDiff(ctx context.Context, entity string, d Diff, ops []Op, unchanged map[Unique]bool) error {
	ops = append([]Op{{Update: d.Update, Key: d.Key, What: entity}}, ops...)
	for round := 0; ; round++ {
		var err error
		if len(ops) == 1 {
			err = c.UpdateItem(ctx, entity, d.Update, d.Token)
		} else {
			err = TxToUpdateErr(c.TransactGuarded(ctx, ops, d.Token))
		}
		var te *TxError
		if round > 1 || !errors.Is(err, ErrUniqueViolation) || !errors.As(err, &te) {
			return err
		}
		next := ops[:1:1]
		dropped := false
		for i, op := range ops[1:] {
			if i+1 < len(te.Reasons) && te.Reasons[i+1].Code == "ConditionalCheckFailed" && op.Guard.Name != "" &&
				(op.Delete != nil || unchanged[op.Guard]) {
				dropped = true
				continue
			}
			next = append(next, op)
		}
		if !dropped {
			return err
		}
		ops = next
	}
}
