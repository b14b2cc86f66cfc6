package table

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/expr"
	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/internal/secret"
	"github.com/singletable/singletable/keys"
)

// Patch is an in-place change of chosen attributes, sent as one UpdateItem
// (or one transaction action): no read first. It never creates an item (a
// missing item gives [ErrNotFound]), always advances the version, and may
// not touch attributes that the primary key, a unique guard or the TTL
// derives from, nor part of an index key's fields (a patch that sets all
// of them moves the index key), nor the table's own attributes: change
// those with [Entity.Update]. The engine knows these fields from the
// declarations ([Def]).
type Patch struct {
	// Set assigns attributes. Each value is stored exactly as Create
	// stores that field (the one encoder, with the field's tags: a
	// `unixtime` time is epoch seconds, a `set` slice a set), and a GSI key
	// the patch moves is derived from that encoding; a value of another
	// type is read into the field first. A value Create stores nothing for
	// (an empty string, an empty set, nil) removes the attribute.
	Set map[string]any
	// SetIfAbsent assigns attributes only where they are absent
	// (if_not_exists), in the same UpdateItem: a first-time stamp such as
	// processedAt, with no read first.
	SetIfAbsent map[string]any
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
	// NoTouch leaves Def.Timestamps' Updated attribute and the attributes
	// Def.Touch keeps alone; by default a patch sets them like every other
	// write (bookkeeping such as recording a login may opt out).
	NoTouch bool
}

type builtPatch struct {
	update string
	cond   string
	names  map[string]string
	values map[string]types.AttributeValue
	token  string // the write token the patch stamps, if any
	// setPH and touchPH name the value placeholder of each Set field
	// stored (not removed) and of each touched attribute; moves says the
	// patch moves index keys (their values derive from Set values). A
	// PreparedPatch rebinds these.
	setPH, touchPH map[string]string
	moves          bool
}

func (e *Entity[T]) buildPatch(k Key, p Patch, withToken bool) (builtPatch, error) {
	s := e.t.schema
	reserved := []string{s.PK, s.SK, s.TypeAttr, s.VersionAttr, s.TokenAttr}
	for _, ix := range s.Indexes {
		reserved = append(reserved, ix.PK, ix.SK)
	}
	x := expr.New()
	x.Names["#v"] = s.VersionAttr
	x.Values[":one"] = codec.Num(1)
	b := builtPatch{names: x.Names, values: x.Values, setPH: map[string]string{}, touchPH: map[string]string{}}
	n := 0
	var sets, adds, removes, conds []string
	// Values are encoded as Create stores them (one encoder: fieldenc.go).
	enc, err := e.patchAttrs(p.Set)
	if err != nil {
		return b, err
	}
	// Index keys declared as templates move with a patch that sets all
	// their fields, derived from those encoded values.
	moves, movable, err := e.decl.movableIndexes(p.Set, enc, k)
	if err != nil {
		return b, &ValidationError{Entity: e.def.Type, Field: "Set", Reason: err.Error()}
	}
	for _, f := range e.def.UniqueOn {
		delete(movable, f)
	}
	b.moves = len(moves) > 0
	for _, ix := range sortedIndexes(moves) {
		is, _ := s.GSI(ix)
		ik := moves[ix]
		n++
		pp, sp := "#x"+strconv.Itoa(n), "#y"+strconv.Itoa(n)
		b.names[pp], b.names[sp] = is.PK, is.SK
		if ik.PK == "" {
			removes = append(removes, pp, sp)
			continue
		}
		if err := keytmpl.CheckKeyValue(is.PK, ik.PK, keys.MaxPKBytes); err != nil {
			return b, err
		}
		if err := keytmpl.CheckKeyValue(is.SK, ik.SK, keys.MaxSKBytes); err != nil {
			return b, err
		}
		b.values[":x"+strconv.Itoa(n)] = &types.AttributeValueMemberS{Value: ik.PK}
		b.values[":y"+strconv.Itoa(n)] = &types.AttributeValueMemberS{Value: ik.SK}
		sets = append(sets, pp+" = :x"+strconv.Itoa(n), sp+" = :y"+strconv.Itoa(n))
	}
	name := func(field string) (string, error) {
		if field == "" || strings.ContainsAny(field, ".[]") {
			return "", &ValidationError{Entity: e.def.Type, Field: field, Reason: "not a top-level attribute name"}
		}
		if slices.Contains(reserved, field) {
			return "", &ValidationError{Entity: e.def.Type, Field: field, Reason: "a key or table attribute; use Update"}
		}
		for _, path := range e.def.Secrets {
			if path == field || secret.Top(path) == field {
				return "", &ValidationError{Entity: e.def.Type, Field: field, Reason: fmt.Sprintf("holds the secret %s; use Update so it is encrypted", path)}
			}
		}
		if slices.Contains(e.fixedAttrs(), field) {
			return "", &ValidationError{Entity: e.def.Type, Field: field, Reason: "fixed at creation (Def.Fixed or Def.Scope)"}
		}
		if slices.Contains(e.fn.indexed, field) && !movable[field] {
			return "", &ValidationError{Entity: e.def.Type, Field: field, Reason: "an index or unique value derives from it; use Update so keys and guards move with it"}
		}
		if err := e.checkAttr("Patch", field); err != nil {
			return "", err
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
		if r := codec.Check(av); r != "" {
			return "", errors.New(r)
		}
		b.values[ph] = av
		return ph, nil
	}
	for _, f := range sortedKeys(p.Set) {
		nm, err := name(f)
		if err != nil {
			return b, err
		}
		if err := checkFieldValue[T](e.def.Type, f, p.Set[f]); err != nil {
			return b, err
		}
		av, ok := enc[f]
		if !ok {
			removes = append(removes, nm) // Create stores nothing for this value (empty, an empty set)
			continue
		}
		if r := codec.Check(av); r != "" {
			return b, &ValidationError{Entity: e.def.Type, Field: f, Reason: "cannot set: " + r}
		}
		n++
		vp := ":v" + strconv.Itoa(n)
		b.values[vp] = av
		b.setPH[f] = vp
		sets = append(sets, nm+" = "+vp)
	}
	encIf, err := e.patchAttrs(p.SetIfAbsent)
	if err != nil {
		return b, err
	}
	for _, f := range sortedKeys(p.SetIfAbsent) {
		if _, dup := p.Set[f]; dup {
			return b, &ValidationError{Entity: e.def.Type, Field: f, Reason: "both set and set if absent"}
		}
		nm, err := name(f)
		if err != nil {
			return b, err
		}
		if err := checkFieldValue[T](e.def.Type, f, p.SetIfAbsent[f]); err != nil {
			return b, err
		}
		av, ok := encIf[f]
		if !ok {
			err = errors.New("empty value")
		}
		if err == nil {
			if r := codec.Check(av); r != "" {
				err = errors.New(r)
			}
		}
		if err != nil {
			return b, &ValidationError{Entity: e.def.Type, Field: f, Reason: "cannot set: " + err.Error()}
		}
		n++
		vp := ":v" + strconv.Itoa(n)
		b.values[vp] = av
		sets = append(sets, nm+" = if_not_exists("+nm+", "+vp+")")
	}
	for _, f := range e.touched(p) {
		nm, err := name(f.name)
		if err != nil {
			continue // a touched field that keys derive from is left to Update
		}
		n++
		vp := ":v" + strconv.Itoa(n)
		b.values[vp] = f.value
		b.touchPH[f.name] = vp
		if f.onlyNew {
			sets = append(sets, nm+" = if_not_exists("+nm+", "+vp+")")
		} else {
			sets = append(sets, nm+" = "+vp)
		}
	}
	for _, f := range sortedKeys(p.Add) {
		if _, dup := p.Set[f]; dup {
			return b, &ValidationError{Entity: e.def.Type, Field: f, Reason: "both set and added"}
		}
		nm, err := name(f)
		if err != nil {
			return b, err
		}
		d := p.Add[f]
		vp, _ := value(d)
		adds = append(adds, nm+" "+vp)
		// A counter never overflows int64: the condition refuses the add
		// before it writes (a stored value out of range could not be read).
		n++
		lim := ":l" + strconv.Itoa(n)
		if d > 0 {
			b.values[lim] = codec.Num(math.MaxInt64 - d)
			conds = append(conds, "NOT "+nm+" > "+lim) // true on a missing attribute
		} else if d < 0 {
			b.values[lim] = codec.Num(math.MinInt64 - d)
			conds = append(conds, "NOT "+nm+" < "+lim)
		}
	}
	for _, f := range p.Remove {
		nm, err := name(f)
		if err != nil {
			return b, err
		}
		removes = append(removes, nm)
	}
	adds = append(adds, "#v :one")
	if withToken && s.TokenAttr != "" {
		b.token = e.t.c.NewToken()
		b.names["#wt"] = s.TokenAttr
		b.values[":wt"] = &types.AttributeValueMemberSS{Value: []string{b.token}}
		b.values[":wtok"] = &types.AttributeValueMemberS{Value: b.token}
		adds = append(adds, "#wt :wt")
		conds = append(conds, "NOT contains(#wt, :wtok)")
	}
	for _, c := range []struct {
		m  map[string]any
		eq bool
	}{{p.IfEqual, true}, {p.IfNotEqual, false}} {
		for _, f := range sortedKeys(c.m) {
			if err := e.checkAttr("Patch condition", f); err != nil {
				return b, err
			}
			n++
			ph := "#c" + strconv.Itoa(n)
			b.names[ph] = f
			// compared with the value as Create stores it (its tags applied)
			cv, err := e.patchAttrs(map[string]any{f: c.m[f]})
			if err != nil {
				return b, err
			}
			if cv[f] == nil {
				return b, &ValidationError{Entity: e.def.Type, Field: f, Reason: "bad condition value: empty value"}
			}
			if r := codec.Check(cv[f]); r != "" {
				return b, &ValidationError{Entity: e.def.Type, Field: f, Reason: "bad condition value: " + r}
			}
			n++
			vp := ":v" + strconv.Itoa(n)
			b.values[vp] = cv[f]
			if c.eq {
				conds = append(conds, ph+" = "+vp)
			} else {
				conds = append(conds, "(attribute_not_exists("+ph+") OR "+ph+" <> "+vp+")")
			}
		}
	}
	for _, f := range p.IfAbsent {
		if err := e.checkAttr("Patch condition", f); err != nil {
			return b, err
		}
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
	// The item exists, is live (one past its TTL that DynamoDB has not
	// deleted yet counts as missing) and is of this entity type.
	// An IfEqual condition is false on a missing item (an equality with an
	// attribute that is not there), so it implies attribute_exists.
	c := e.t.c.LiveOf(x, e.def.Type, len(p.IfEqual) > 0)
	if p.IfVersion != nil {
		c += " AND " + e.t.c.VersionCond(x, *p.IfVersion)
	}
	if len(conds) > 0 {
		c += " AND " + strings.Join(conds, " AND ")
	}
	b.cond = c
	return b, nil
}

func sortedIndexes(m map[Index]IndexKey) []Index {
	out := make([]Index, 0, len(m))
	for ix := range m {
		out = append(out, ix)
	}
	slices.Sort(out)
	return out
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
	return e.patch(ctx, "patch", k, p, nil)
}

// patch is Patch, its errors naming op, the method the caller called, on
// scope's tenant when scope is set.
func (e *Entity[T]) patch(ctx context.Context, op string, k Key, p Patch, scope *scopeCond) (T, error) {
	var zero T
	raw, err := e.update(ctx, k, p, types.ReturnValueAllNew, scope)
	if err != nil {
		return zero, opErr(op, e.def.Type, k, err)
	}
	v, _, err := e.decode(raw)
	if err != nil {
		return zero, opErr(op, e.def.Type, k, err)
	}
	return v, nil
}

// update sends p as one UpdateItem and returns the attributes ret asks for.
// A failed condition on a missing or expired item is ErrNotFound, on a
// stale IfVersion ErrConflict, otherwise ErrConditionFailed. scope, when
// set, is the tenant p's condition names (a failed condition on another
// tenant's item is ErrNotFound).
func (e *Entity[T]) update(ctx context.Context, k Key, p Patch, ret types.ReturnValue, scope *scopeCond) (Item, error) {
	if err := keytmpl.CheckKey(k); err != nil {
		return nil, err
	}
	b, err := e.buildPatch(k, p, true)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	out, err := e.t.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                           aws.String(e.t.schema.Name),
		Key:                                 e.t.c.KeyItem(k),
		UpdateExpression:                    aws.String(b.update),
		ConditionExpression:                 aws.String(b.cond),
		ExpressionAttributeNames:            b.names,
		ExpressionAttributeValues:           b.values,
		ReturnValues:                        ret,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		ReturnConsumedCapacity:              e.t.c.WantCapacity(),
	})
	if err != nil {
		err = ddb.MapErr(err)
		var ccf *types.ConditionalCheckFailedException
		if errors.As(err, &ccf) {
			switch {
			case e.t.c.HasToken(ccf.Item, b.token):
				// An earlier attempt of this very request was applied and
				// its response lost: the item DynamoDB returns is the result.
				e.t.c.Observe(ctx, Event{Op: "UpdateItem", Entity: e.def.Type, Duration: time.Since(start)})
				return ccf.Item, nil
			case ccf.Item == nil || e.t.c.Expired(ccf.Item) || !e.t.c.IsType(ccf.Item, e.def.Type) || !scope.holds(ccf.Item):
				err = ErrNotFound
			case p.IfVersion != nil && e.t.versionOfItem(ccf.Item) != *p.IfVersion:
				err = fmt.Errorf("%w: %w", ErrConflict, err)
			}
		}
	}
	var c float64
	if out != nil {
		c = ddb.CapacityOf(out.ConsumedCapacity)
	}
	e.t.c.Observe(ctx, Event{Op: "UpdateItem", Entity: e.def.Type, Duration: time.Since(start), Err: err, Capacity: c})
	if err != nil {
		return nil, err
	}
	e.t.pruneTokens(ctx, e.def.Type, k, out.Attributes)
	return out.Attributes, nil
}

// pruneTokens removes old write tokens from the item once its token set
// has grown past maxTokens (Patch and Add add one each and cannot remove
// any in the same request): one extra UpdateItem every few writes of a hot
// item. Its failure changes nothing that matters and is only observed.
func (t *Table) pruneTokens(ctx context.Context, entity string, k Key, after Item) {
	stale := t.c.StaleTokens(after)
	if len(stale) == 0 {
		return
	}
	start := time.Now()
	_, err := t.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(t.schema.Name),
		Key:                       t.c.KeyItem(k),
		UpdateExpression:          aws.String("DELETE #wt :old"),
		ConditionExpression:       aws.String("attribute_exists(#pk)"),
		ExpressionAttributeNames:  map[string]string{"#wt": t.schema.TokenAttr, "#pk": t.schema.PK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":old": &types.AttributeValueMemberSS{Value: stale}},
	})
	t.c.Observe(ctx, Event{Op: "UpdateItem", Entity: entity, Duration: time.Since(start), Err: err})
}

// PatchOp returns p as a transaction action on the item with key k.
func (e *Entity[T]) PatchOp(k Key, p Patch) (TxOp, error) {
	if err := keytmpl.CheckKey(k); err != nil {
		return TxOp{}, opErr("patch", e.def.Type, k, err)
	}
	// No write token: the SDK resends a transaction with its idempotency
	// token, so a retried transaction is never applied twice.
	b, err := e.buildPatch(k, p, false)
	if err != nil {
		return TxOp{}, opErr("patch", e.def.Type, k, err)
	}
	return e.patchTxOp(k, b), nil
}

// patchTxOp is the transaction action of the built patch b on k.
func (e *Entity[T]) patchTxOp(k Key, b builtPatch) TxOp {
	return TxOp{op: ddb.Op{Update: &types.Update{
		TableName:                 aws.String(e.t.schema.Name),
		Key:                       e.t.c.KeyItem(k),
		UpdateExpression:          aws.String(b.update),
		ConditionExpression:       aws.String(b.cond),
		ExpressionAttributeNames:  b.names,
		ExpressionAttributeValues: b.values,
	}, Key: k, What: e.def.Type}}
}

// Add adds delta to the numeric attribute field of the item with key k,
// atomically, and returns the new value. A missing or expired item, or one
// of another entity type, gives [ErrNotFound]; concurrent increments are
// never lost; an add that would overflow int64 fails its condition
// ([ErrConditionFailed]) and writes nothing. If the response is lost after
// DynamoDB applied it, the SDK's retry is recognised by its write token:
// the counter moves once.
func (e *Entity[T]) Add(ctx context.Context, k Key, field string, delta int64) (int64, error) {
	raw, err := e.update(ctx, k, Patch{Add: map[string]int64{field: delta}}, types.ReturnValueUpdatedNew, nil)
	if err != nil {
		return 0, opErr("add", e.def.Type, k, err)
	}
	return addResult(raw, field, e.def.Type, k)
}

// holds reports whether raw belongs to the tenant sc (any item when sc is
// nil: no tenant).
func (sc *scopeCond) holds(raw Item) bool {
	if sc == nil {
		return true
	}
	v, isS := raw[sc.attr].(*types.AttributeValueMemberS)
	return isS && v.Value == sc.value
}

// addResult reads the counter an Add returned.
func addResult(raw Item, field, entity string, k Key) (int64, error) {
	n, ok := raw[field].(*types.AttributeValueMemberN)
	if !ok {
		return 0, opErr("add", entity, k, fmt.Errorf("attribute %s is not a number", field))
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	return v, opErr("add", entity, k, err)
}

// checkFieldValue holds a value a patch sets to what its field's type
// accepts: an enum type's Valid() bool, an ID type's Validate(field)
// error. A patch writes without Def.Validate, so this is where a value
// the type refuses (and an index key would be built from) is stopped.
func checkFieldValue[T any](entity, name string, v any) error {
	fi, ok := codec.FieldsOf(reflect.TypeFor[T]())[name]
	if !ok || fi.Typ == nil || v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != fi.Typ.Kind() || !rv.Type().ConvertibleTo(fi.Typ) {
		return nil
	}
	cv := rv.Convert(fi.Typ).Interface()
	if x, ok := cv.(interface{ Valid() bool }); ok && !x.Valid() {
		return &ValidationError{Entity: entity, Field: name, Reason: fmt.Sprintf("%v is not a valid %s", v, fi.Typ.Name())}
	}
	if x, ok := cv.(interface{ Validate(string) error }); ok {
		if err := x.Validate(name); err != nil {
			var ve *ValidationError
			if errors.As(err, &ve) {
				return err
			}
			return &ValidationError{Entity: entity, Field: name, Reason: err.Error()}
		}
	}
	return nil
}
