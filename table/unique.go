package table

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Unique is one unique value of an item: Name says what kind ("email",
// "tag", "keyhash"), Value is the value itself (normalize it first, e.g.
// lower-case an email: the table keeps case).
type Unique struct {
	Name  string
	Value string
}

// GuardType is the entity-type attribute of guard items.
const GuardType = "_unique"

// guard item attributes.
const (
	guardOwnerPK = "ownerPK"
	guardOwnerSK = "ownerSK"
	guardName    = "uniqueName"
	guardValue   = "uniqueValue"
)

// GuardKey returns the primary key of the guard item that holds u:
// PK = UNIQUE#{name}#{value}, SK = UNIQUE.
func GuardKey(u Unique) Key {
	return Key{PK: "UNIQUE#" + u.Name + "#" + u.Value, SK: "UNIQUE"}
}

func (t *Table) guardPut(u Unique, owner Key) TxOp {
	s := t.schema
	item := Item{
		s.PK:         &types.AttributeValueMemberS{Value: GuardKey(u).PK},
		s.SK:         &types.AttributeValueMemberS{Value: GuardKey(u).SK},
		guardOwnerPK: &types.AttributeValueMemberS{Value: owner.PK},
		guardOwnerSK: &types.AttributeValueMemberS{Value: owner.SK},
		guardName:    &types.AttributeValueMemberS{Value: u.Name},
		guardValue:   &types.AttributeValueMemberS{Value: u.Value},
	}
	if s.TypeAttr != "" {
		item[s.TypeAttr] = &types.AttributeValueMemberS{Value: GuardType}
	}
	return TxOp{put: &types.Put{
		TableName: aws.String(s.Name),
		Item:      item,
		// A guard may be (re)written by its own owner, never taken over.
		ConditionExpression:      aws.String("attribute_not_exists(#pk) OR (#opk = :opk AND #osk = :osk)"),
		ExpressionAttributeNames: map[string]string{"#pk": s.PK, "#opk": guardOwnerPK, "#osk": guardOwnerSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":opk": &types.AttributeValueMemberS{Value: owner.PK},
			":osk": &types.AttributeValueMemberS{Value: owner.SK},
		},
	}, key: GuardKey(u), what: GuardType, guard: u}
}

func (t *Table) guardDelete(u Unique, owner Key) TxOp {
	s := t.schema
	return TxOp{del: &types.Delete{
		TableName:                aws.String(s.Name),
		Key:                      t.keyItem(GuardKey(u)),
		ConditionExpression:      aws.String("attribute_not_exists(#pk) OR (#opk = :opk AND #osk = :osk)"),
		ExpressionAttributeNames: map[string]string{"#pk": s.PK, "#opk": guardOwnerPK, "#osk": guardOwnerSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":opk": &types.AttributeValueMemberS{Value: owner.PK},
			":osk": &types.AttributeValueMemberS{Value: owner.SK},
		},
	}, key: GuardKey(u), what: GuardType, guard: u}
}

// guardDiff returns the actions that move owner's guards from old to new.
func (t *Table) guardDiff(old, new []Unique, owner Key) []TxOp {
	var ops []TxOp
	keep := map[Unique]bool{}
	for _, u := range new {
		keep[u] = true
	}
	had := map[Unique]bool{}
	for _, u := range old {
		had[u] = true
		if !keep[u] {
			ops = append(ops, t.guardDelete(u, owner))
		}
	}
	for _, u := range new {
		if !had[u] {
			ops = append(ops, t.guardPut(u, owner))
		}
	}
	return ops
}

// Guard is a guard item as stored: the unique value and the key of the
// item that holds it.
type Guard struct {
	Unique
	Owner Key
}

func (t *Table) decodeGuard(raw Item) (Guard, bool) {
	var g Guard
	str := func(k string) string {
		if s, ok := raw[k].(*types.AttributeValueMemberS); ok {
			return s.Value
		}
		return ""
	}
	g.Name, g.Value = str(guardName), str(guardValue)
	g.Owner = Key{PK: str(guardOwnerPK), SK: str(guardOwnerSK)}
	return g, g.Owner.PK != ""
}

// LookupUnique returns the key of the item holding u, or [ErrNotFound].
// One GetItem.
func (t *Table) LookupUnique(ctx context.Context, u Unique) (Key, error) {
	if err := checkUnique(u); err != nil {
		return Key{}, opErr("lookup unique", GuardType, Key{}, err)
	}
	gs, err := t.LookupUniques(ctx, []Unique{u})
	if err != nil {
		return Key{}, err
	}
	if len(gs) == 0 {
		return Key{}, opErr("lookup unique", GuardType, GuardKey(u), ErrNotFound)
	}
	return gs[0].Owner, nil
}

// LookupUniques returns the guards of those values in us that are held, in
// the order of us (BatchGetItem, chunked and retried).
func (t *Table) LookupUniques(ctx context.Context, us []Unique) ([]Guard, error) {
	ks := make([]Key, 0, len(us))
	seen := map[Unique]bool{}
	for _, u := range us {
		if err := checkUnique(u); err != nil {
			return nil, opErr("lookup unique", GuardType, Key{}, err)
		}
		if seen[u] {
			continue
		}
		seen[u] = true
		ks = append(ks, GuardKey(u))
	}
	raws, err := t.batchGet(ctx, GuardType, ks)
	if err != nil {
		return nil, opErr("lookup unique", GuardType, Key{}, err)
	}
	var out []Guard
	for _, raw := range raws {
		if g, ok := t.decodeGuard(raw); ok {
			out = append(out, g)
		}
	}
	return out, nil
}

// GetByUnique returns the item holding unique value u, or [ErrNotFound]:
// one GetItem on the guard, one on the owner.
func (e *Entity[T]) GetByUnique(ctx context.Context, u Unique, opts ...ReadOption) (T, error) {
	var zero T
	k, err := e.t.LookupUnique(ctx, u)
	if err != nil {
		return zero, err
	}
	return e.Get(ctx, k, opts...)
}

func checkUnique(u Unique) error {
	if u.Name == "" || strings.Contains(u.Name, "#") {
		return &ValidationError{Field: "unique name", Reason: fmt.Sprintf("%q is empty or holds '#'", u.Name)}
	}
	if u.Value == "" {
		return &ValidationError{Field: "unique " + u.Name, Reason: "empty value"}
	}
	return checkKeyValue("unique "+u.Name, GuardKey(u).PK, 2048)
}

// EnsureGuards makes sure the item with key k holds the guards of its
// unique values: an item written by another service (no version
// attribute) gets them now, in one transaction with a version-checked
// rewrite of the item; a guard held by another item gives
// [ErrUniqueViolation] (a duplicate already in the data). Items written by
// the library already hold theirs: nothing is written for them.
func (e *Entity[T]) EnsureGuards(ctx context.Context, k Key) error {
	if e.def.Unique == nil {
		return nil
	}
	_, ver, err := e.get(ctx, k, Consistent())
	if err != nil {
		return opErr("ensure guards", e.def.Type, k, err)
	}
	if ver > 0 {
		return nil
	}
	_, err = e.Update(ctx, k, func(*T) error { return nil })
	return err
}
