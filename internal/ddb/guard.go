package ddb

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/expr"
	"github.com/singletable/singletable/keys"
)

// GuardType is the entity-type attribute of guard items.
const GuardType = "_unique"

// The attributes of a guard item.
const (
	GuardOwnerPK = "ownerPK"
	GuardOwnerSK = "ownerSK"
	GuardName    = "uniqueName"
	GuardValue   = "uniqueValue"
)

// GuardKey returns the primary key of the guard item that holds u:
// PK = UNIQUE#{name}#{value}, SK = UNIQUE, with name and value escaped
// like key segments ([keys.Escape]: '%', '#', control characters and
// invalid UTF-8 become %XX), so that no two (name, value) pairs share a
// guard. Values holding none of those characters are stored as given.
func GuardKey(u Unique) Key {
	return Key{PK: "UNIQUE#" + keys.Escape(u.Name) + "#" + keys.Escape(u.Value), SK: "UNIQUE"}
}

// SharedPartition returns the partition key of a shared value's entries:
// SHARED#{name}#{value}, escaped like [GuardKey].
func SharedPartition(u Unique) string {
	return "SHARED#" + keys.Escape(u.Name) + "#" + keys.Escape(u.Value)
}

// GuardKeyFor returns the key of owner's guard of u: the value's guard,
// or for a shared value owner's own entry (SK HOLDER#{ownerPK}#{ownerSK},
// escaped).
func GuardKeyFor(u Unique, owner Key) Key {
	if !u.Shared {
		return GuardKey(u)
	}
	return Key{PK: SharedPartition(u), SK: "HOLDER#" + keys.Escape(owner.PK) + "#" + keys.Escape(owner.SK)}
}

// GuardPut returns the action that writes guard u for owner. A guard may
// be (re)written by its own owner, never taken over while its owner lives;
// exp (epoch seconds, 0 for none) is the owner's TTL, copied to the guard
// so that it ends with its owner and an expired guard is free.
func (c *Conn) GuardPut(u Unique, owner Key, exp int64) Op {
	s := c.Schema
	gk := GuardKeyFor(u, owner)
	item := Item{
		s.PK:         &types.AttributeValueMemberS{Value: gk.PK},
		s.SK:         &types.AttributeValueMemberS{Value: gk.SK},
		GuardOwnerPK: &types.AttributeValueMemberS{Value: owner.PK},
		GuardOwnerSK: &types.AttributeValueMemberS{Value: owner.SK},
		GuardName:    &types.AttributeValueMemberS{Value: u.Name},
		GuardValue:   &types.AttributeValueMemberS{Value: u.Value},
	}
	if s.TypeAttr != "" {
		item[s.TypeAttr] = &types.AttributeValueMemberS{Value: GuardType}
	}
	if s.TTLAttr != "" && exp > 0 {
		item[s.TTLAttr] = codec.Num(exp)
	}
	x := expr.New()
	x.Names["#pk"], x.Names["#opk"], x.Names["#osk"] = s.PK, GuardOwnerPK, GuardOwnerSK
	x.Values[":opk"] = &types.AttributeValueMemberS{Value: owner.PK}
	x.Values[":osk"] = &types.AttributeValueMemberS{Value: owner.SK}
	cond := "attribute_not_exists(#pk) OR (#opk = :opk AND #osk = :osk)"
	if s.TTLAttr != "" {
		c.BindTTL(x)
		cond += " OR " + expr.ExpiredCond
	}
	return Op{Put: &types.Put{
		TableName:                 aws.String(s.Name),
		Item:                      item,
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Values,
	}, Key: gk, What: GuardType, Guard: u}
}

// GuardTakeover returns the actions that take guard u over from its
// previous owner prev, which is missing or expired: the guard put is
// conditioned on prev still owning it, and a condition check on prev
// makes sure prev is still absent when the transaction commits.
func (c *Conn) GuardTakeover(u Unique, owner, prev Key, exp int64) []Op {
	s := c.Schema
	op := c.GuardPut(u, owner, exp)
	x := expr.Exprs{Names: op.Put.ExpressionAttributeNames, Values: op.Put.ExpressionAttributeValues}
	x.Values[":ppk"] = &types.AttributeValueMemberS{Value: prev.PK}
	x.Values[":psk"] = &types.AttributeValueMemberS{Value: prev.SK}
	op.Put.ConditionExpression = aws.String("#opk = :ppk AND #osk = :psk")
	delete(x.Names, "#pk")
	delete(x.Values, ":opk")
	delete(x.Values, ":osk")
	if s.TTLAttr != "" {
		delete(x.Names, "#ttl")
		delete(x.Values, ":now")
		delete(x.Values, ":tiny")
	}
	cx := expr.New()
	cx.Names["#pk"] = s.PK
	cc := "attribute_not_exists(#pk)"
	if s.TTLAttr != "" {
		c.BindTTL(cx)
		cc += " OR " + expr.ExpiredCond
	}
	check := Op{Check: &types.ConditionCheck{
		TableName:                 aws.String(s.Name),
		Key:                       c.KeyItem(prev),
		ConditionExpression:       aws.String(cc),
		ExpressionAttributeNames:  cx.Names,
		ExpressionAttributeValues: cx.Vals(),
	}, Key: prev, What: "check"}
	return []Op{op, check}
}

// GuardDelete returns the action that deletes owner's guard of u, unless
// another owner holds it.
func (c *Conn) GuardDelete(u Unique, owner Key) Op {
	s := c.Schema
	return Op{Delete: &types.Delete{
		TableName:                aws.String(s.Name),
		Key:                      c.KeyItem(GuardKeyFor(u, owner)),
		ConditionExpression:      aws.String("attribute_not_exists(#pk) OR (#opk = :opk AND #osk = :osk)"),
		ExpressionAttributeNames: map[string]string{"#pk": s.PK, "#opk": GuardOwnerPK, "#osk": GuardOwnerSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":opk": &types.AttributeValueMemberS{Value: owner.PK},
			":osk": &types.AttributeValueMemberS{Value: owner.SK},
		},
	}, Key: GuardKeyFor(u, owner), What: GuardType, Guard: u}
}

// GuardDiff returns the actions that move owner's guards from old to new.
// With rewriteKept, guards kept are rewritten too (so they carry the
// owner's current TTL exp).
func (c *Conn) GuardDiff(old, new []Unique, owner Key, exp int64, rewriteKept bool) []Op {
	var ops []Op
	keep := map[Unique]bool{}
	for _, u := range new {
		keep[u] = true
	}
	had := map[Unique]bool{}
	for _, u := range old {
		had[u] = true
		if !keep[u] {
			ops = append(ops, c.GuardDelete(u, owner))
		}
	}
	for _, u := range new {
		if !had[u] || rewriteKept {
			ops = append(ops, c.GuardPut(u, owner, exp))
		}
	}
	return ops
}
