package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// Patch is an in-place change of chosen attributes, sent as one UpdateItem
// (or one transaction action): no read first. It never creates an item (a
// missing item gives [ErrNotFound]), always advances the version, and may
// not touch attributes that keys or guards derive from (Def.IndexedFields)
// or the table's own attributes: change those with [Entity.Update].
type Patch struct {
	// Set assigns attributes (values encoded like struct fields).
	Set map[string]any
	// Add adds to numeric attributes atomically (counters); a missing
	// attribute counts as 0.
	Add map[string]int64
	// Remove deletes attributes.
	Remove []string
	// IfEqual makes the patch conditional: each attribute must hold the
	// value (a failed condition gives [ErrConditionFailed]).
	IfEqual map[string]any
	// IfNotEqual makes the patch conditional: each attribute must be
	// absent or hold another value (e.g. status <> "deleted").
	IfNotEqual map[string]any
	// IfAbsent makes the patch conditional: each attribute must not exist
	// (e.g. "not rotated yet").
	IfAbsent []string
	// IfVersion, when non-nil, requires the stored version to equal it
	// (a stale version gives [ErrConflict]).
	IfVersion *int64
}

type builtPatch struct {
	update string
	cond   string
	names  map[string]string
	values map[string]types.AttributeValue
}

func (e *Entity[T]) buildPatch(p Patch) (builtPatch, error) {
	s := e.t.schema
	reserved := []string{s.PK, s.SK, s.TypeAttr, s.VersionAttr}
	for _, ix := range s.Indexes {
		reserved = append(reserved, ix.PK, ix.SK)
	}
	b := builtPatch{names: map[string]string{"#pk": s.PK, "#v": s.VersionAttr}, values: map[string]types.AttributeValue{":one": numAV(1)}}
	n := 0
	name := func(field string) (string, error) {
		if field == "" || strings.ContainsAny(field, ".[]") {
			return "", &ValidationError{Entity: e.def.Type, Field: field, Reason: "not a top-level attribute name"}
		}
		if slices.Contains(reserved, field) {
			return "", &ValidationError{Entity: e.def.Type, Field: field, Reason: "a key or table attribute; use Update"}
		}
		if _, secret := e.def.Secrets[field]; secret {
			return "", &ValidationError{Entity: e.def.Type, Field: field, Reason: "a secret field; use Update so it is encrypted"}
		}
		if slices.Contains(e.def.IndexedFields, field) {
			return "", &ValidationError{Entity: e.def.Type, Field: field, Reason: "an index or unique value derives from it; use Update so keys and guards move with it"}
		}
		n++
		ph := "#f" + strconv.Itoa(n)
		b.names[ph] = field
		return ph, nil
	}
	value := func(v any) (string, error) {
		av, err := dynamo.Marshal(v)
		if err != nil {
			return "", err
		}
		n++
		ph := ":v" + strconv.Itoa(n)
		if av == nil {
			return "", fmt.Errorf("empty value")
		}
		b.values[ph] = av
		return ph, nil
	}
	var sets, adds, removes, conds []string
	for _, f := range sortedKeys(p.Set) {
		nm, err := name(f)
		if err != nil {
			return b, err
		}
		vp, err := value(p.Set[f])
		if err != nil {
			return b, &ValidationError{Entity: e.def.Type, Field: f, Reason: "cannot set: " + err.Error() + " (use Remove)"}
		}
		sets = append(sets, nm+" = "+vp)
	}
	for _, f := range sortedKeys(p.Add) {
		if _, dup := p.Set[f]; dup {
			return b, &ValidationError{Entity: e.def.Type, Field: f, Reason: "both set and added"}
		}
		nm, err := name(f)
		if err != nil {
			return b, err
		}
		vp, _ := value(p.Add[f])
		adds = append(adds, nm+" "+vp)
	}
	for _, f := range p.Remove {
		nm, err := name(f)
		if err != nil {
			return b, err
		}
		removes = append(removes, nm)
	}
	adds = append(adds, "#v :one")
	for _, c := range []struct {
		m  map[string]any
		eq bool
	}{{p.IfEqual, true}, {p.IfNotEqual, false}} {
		for _, f := range sortedKeys(c.m) {
			n++
			ph := "#c" + strconv.Itoa(n)
			b.names[ph] = f
			vp, err := value(c.m[f])
			if err != nil {
				return b, &ValidationError{Entity: e.def.Type, Field: f, Reason: "bad condition value: " + err.Error()}
			}
			if c.eq {
				conds = append(conds, ph+" = "+vp)
			} else {
				conds = append(conds, "(attribute_not_exists("+ph+") OR "+ph+" <> "+vp+")")
			}
		}
	}
	for _, f := range p.IfAbsent {
		n++
		ph := "#c" + strconv.Itoa(n)
		b.names[ph] = f
		conds = append(conds, "attribute_not_exists("+ph+")")
	}
	var ex []string
	if len(sets) > 0 {
		ex = append(ex, "SET "+strings.Join(sets, ", "))
	}
	ex = append(ex, "ADD "+strings.Join(adds, ", "))
	if len(removes) > 0 {
		ex = append(ex, "REMOVE "+strings.Join(removes, ", "))
	}
	b.update = strings.Join(ex, " ")
	c := "attribute_exists(#pk)"
	if p.IfVersion != nil {
		c = versionCond(*p.IfVersion)
		b.values[":v"] = numAV(*p.IfVersion)
	}
	if s.TTLAttr != "" {
		// An item past its TTL that DynamoDB has not yet deleted counts as missing.
		b.names["#ttl"] = s.TTLAttr
		b.values[":now"] = numAV(e.t.now().Unix())
		b.values[":zero"] = numAV(0)
		c += " AND " + notExpiredCond
	}
	if len(conds) > 0 {
		c += " AND " + strings.Join(conds, " AND ")
	}
	b.cond = c
	return b, nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Patch applies p to the item with key k in one UpdateItem and returns the
// item as stored afterwards. See [Patch] for the rules.
func (e *Entity[T]) Patch(ctx context.Context, k Key, p Patch) (T, error) {
	var zero T
	raw, err := e.update(ctx, k, p, types.ReturnValueAllNew)
	if err != nil {
		return zero, opErr("patch", e.def.Type, k, err)
	}
	v, _, err := e.decode(raw)
	if err != nil {
		return zero, opErr("patch", e.def.Type, k, err)
	}
	return v, nil
}

// update sends p as one UpdateItem and returns the attributes ret asks for.
// A failed condition on a missing or expired item is ErrNotFound, on a
// stale IfVersion ErrConflict, otherwise ErrConditionFailed.
func (e *Entity[T]) update(ctx context.Context, k Key, p Patch, ret types.ReturnValue) (Item, error) {
	if err := checkKey(k); err != nil {
		return nil, err
	}
	b, err := e.buildPatch(p)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	out, err := e.t.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                           aws.String(e.t.schema.Name),
		Key:                                 e.t.keyItem(k),
		UpdateExpression:                    aws.String(b.update),
		ConditionExpression:                 aws.String(b.cond),
		ExpressionAttributeNames:            b.names,
		ExpressionAttributeValues:           b.values,
		ReturnValues:                        ret,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		ReturnConsumedCapacity:              e.t.wantCapacity(),
	})
	if err != nil {
		err = mapErr(err)
		var ccf *types.ConditionalCheckFailedException
		if errors.As(err, &ccf) {
			switch {
			case ccf.Item == nil || e.t.expired(ccf.Item):
				err = ErrNotFound
			case p.IfVersion != nil && e.t.versionOfItem(ccf.Item) != *p.IfVersion:
				err = fmt.Errorf("%w: %w", ErrConflict, err)
			}
		}
	}
	var c float64
	if out != nil {
		c = capPtr(out.ConsumedCapacity)
	}
	e.t.observe(ctx, Event{Op: "UpdateItem", Entity: e.def.Type, Duration: time.Since(start), Err: err, Capacity: c})
	if err != nil {
		return nil, err
	}
	return out.Attributes, nil
}

// PatchOp returns p as a transaction action on the item with key k.
func (e *Entity[T]) PatchOp(k Key, p Patch) (TxOp, error) {
	if err := checkKey(k); err != nil {
		return TxOp{}, opErr("patch", e.def.Type, k, err)
	}
	b, err := e.buildPatch(p)
	if err != nil {
		return TxOp{}, opErr("patch", e.def.Type, k, err)
	}
	return TxOp{update: &types.Update{
		TableName:                 aws.String(e.t.schema.Name),
		Key:                       e.t.keyItem(k),
		UpdateExpression:          aws.String(b.update),
		ConditionExpression:       aws.String(b.cond),
		ExpressionAttributeNames:  b.names,
		ExpressionAttributeValues: b.values,
	}, key: k, what: e.def.Type}, nil
}

// Add adds delta to the numeric attribute field of the item with key k,
// atomically, and returns the new value. A missing item gives
// [ErrNotFound]; concurrent increments are never lost.
func (e *Entity[T]) Add(ctx context.Context, k Key, field string, delta int64) (int64, error) {
	raw, err := e.update(ctx, k, Patch{Add: map[string]int64{field: delta}}, types.ReturnValueUpdatedNew)
	if err != nil {
		return 0, opErr("add", e.def.Type, k, err)
	}
	n, ok := raw[field].(*types.AttributeValueMemberN)
	if !ok {
		return 0, opErr("add", e.def.Type, k, fmt.Errorf("attribute %s is not a number", field))
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	return v, opErr("add", e.def.Type, k, err)
}
