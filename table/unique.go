package table

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/expr"
	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/keys"
)

// Unique is one unique value of an item: Name says what kind ("email",
// "tag", "keyhash"), Value is the value itself (normalize it first, e.g.
// lower-case an email: the table keeps case).
//
// With Shared set the value is not unique but a lookup entry: every item
// holding it has an entry item of its own (PK SHARED#{name}#{value}, SK
// the holder's key), written and removed in the same transaction as the
// holder exactly like a guard, and [Table.LookupShared] lists the holders
// with one Query. Use it for multi-valued attributes that a GSI cannot
// index (a list of tags: a GSI takes one value per item); one item holds
// a value once.
type Unique = ddb.Unique

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

// guardKeyFor returns the key of owner's guard of u: the value's guard,
// or for a shared value owner's own entry (SK HOLDER#{ownerPK}#{ownerSK},
// escaped).
func guardKeyFor(u Unique, owner Key) Key {
	if !u.Shared {
		return GuardKey(u)
	}
	return Key{PK: SharedPartition(u), SK: "HOLDER#" + keys.Escape(owner.PK) + "#" + keys.Escape(owner.SK)}
}

// guardPut returns the action that writes guard u for owner. A guard may
// be (re)written by its own owner, never taken over while its owner lives;
// exp (epoch seconds, 0 for none) is the owner's TTL, copied to the guard
// so that it ends with its owner and an expired guard is free.
func (t *Table) guardPut(u Unique, owner Key, exp int64) TxOp {
	s := t.schema
	gk := guardKeyFor(u, owner)
	item := Item{
		s.PK:         &types.AttributeValueMemberS{Value: gk.PK},
		s.SK:         &types.AttributeValueMemberS{Value: gk.SK},
		guardOwnerPK: &types.AttributeValueMemberS{Value: owner.PK},
		guardOwnerSK: &types.AttributeValueMemberS{Value: owner.SK},
		guardName:    &types.AttributeValueMemberS{Value: u.Name},
		guardValue:   &types.AttributeValueMemberS{Value: u.Value},
	}
	if s.TypeAttr != "" {
		item[s.TypeAttr] = &types.AttributeValueMemberS{Value: GuardType}
	}
	if s.TTLAttr != "" && exp > 0 {
		item[s.TTLAttr] = codec.Num(exp)
	}
	x := expr.New()
	x.Names["#pk"], x.Names["#opk"], x.Names["#osk"] = s.PK, guardOwnerPK, guardOwnerSK
	x.Values[":opk"] = &types.AttributeValueMemberS{Value: owner.PK}
	x.Values[":osk"] = &types.AttributeValueMemberS{Value: owner.SK}
	c := "attribute_not_exists(#pk) OR (#opk = :opk AND #osk = :osk)"
	if s.TTLAttr != "" {
		t.c.BindTTL(x)
		c += " OR " + expr.ExpiredCond
	}
	return TxOp{op: ddb.Op{Put: &types.Put{
		TableName:                 aws.String(s.Name),
		Item:                      item,
		ConditionExpression:       aws.String(c),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Values,
	}, Key: gk, What: GuardType, Guard: u}}
}

// guardTakeover returns the actions that take guard u over from its
// previous owner prev, which is missing or expired: the guard put is
// conditioned on prev still owning it, and a condition check on prev
// makes sure prev is still absent when the transaction commits.
func (t *Table) guardTakeover(u Unique, owner, prev Key, exp int64) []TxOp {
	s := t.schema
	op := t.guardPut(u, owner, exp)
	x := exprs{Names: op.op.Put.ExpressionAttributeNames, Values: op.op.Put.ExpressionAttributeValues}
	x.Values[":ppk"] = &types.AttributeValueMemberS{Value: prev.PK}
	x.Values[":psk"] = &types.AttributeValueMemberS{Value: prev.SK}
	op.op.Put.ConditionExpression = aws.String("#opk = :ppk AND #osk = :psk")
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
		t.c.BindTTL(cx)
		cc += " OR " + expr.ExpiredCond
	}
	check := TxOp{op: ddb.Op{Check: &types.ConditionCheck{
		TableName:                 aws.String(s.Name),
		Key:                       t.c.KeyItem(prev),
		ConditionExpression:       aws.String(cc),
		ExpressionAttributeNames:  cx.Names,
		ExpressionAttributeValues: cx.Vals(),
	}, Key: prev, What: "check"}}
	return []TxOp{op, check}
}

func (t *Table) guardDelete(u Unique, owner Key) TxOp {
	s := t.schema
	return TxOp{op: ddb.Op{Delete: &types.Delete{
		TableName:                aws.String(s.Name),
		Key:                      t.c.KeyItem(guardKeyFor(u, owner)),
		ConditionExpression:      aws.String("attribute_not_exists(#pk) OR (#opk = :opk AND #osk = :osk)"),
		ExpressionAttributeNames: map[string]string{"#pk": s.PK, "#opk": guardOwnerPK, "#osk": guardOwnerSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":opk": &types.AttributeValueMemberS{Value: owner.PK},
			":osk": &types.AttributeValueMemberS{Value: owner.SK},
		},
	}, Key: guardKeyFor(u, owner), What: GuardType, Guard: u}}
}

// guardDiff returns the actions that move owner's guards from old to new.
// With rewriteKept, guards kept are rewritten too (so they carry the
// owner's current TTL exp).
func (t *Table) guardDiff(old, new []Unique, owner Key, exp int64, rewriteKept bool) []TxOp {
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
		if !had[u] || rewriteKept {
			ops = append(ops, t.guardPut(u, owner, exp))
		}
	}
	return ops
}

// transactGuarded runs ops (an item write and its guard actions). When a
// guard put fails because another item holds the guard, that holder is
// read (strongly consistent): if it is missing or past its TTL, the guard
// is free, and the transaction is sent once more with the guard taken over
// from it (conditioned on it staying absent). A canceled transaction whose
// item action failed against an item carrying write token tok is this
// write, already applied: success.
func (t *Table) transactGuarded(ctx context.Context, ops []TxOp, tok string) error {
	for round := 0; ; round++ {
		err := t.Transact(ctx, ops...)
		var te *TxError
		if err == nil || !errors.As(err, &te) {
			return err
		}
		if len(te.Reasons) > 0 && te.Reasons[0].Code == "ConditionalCheckFailed" && t.c.HasToken(te.Reasons[0].Item, tok) {
			return nil
		}
		if round > 0 {
			return err
		}
		next, changed, rerr := t.freeGuards(ctx, ops, te)
		if rerr != nil {
			return errors.Join(err, rerr)
		}
		if !changed {
			return err
		}
		ops = next
	}
}

// freeGuards replaces the guard puts that failed against a guard whose
// holder is gone with takeover actions.
func (t *Table) freeGuards(ctx context.Context, ops []TxOp, te *TxError) ([]TxOp, bool, error) {
	owner := ops[0].op.Key
	var exp int64
	if it := ops[0].op.Put; it != nil && t.schema.TTLAttr != "" {
		if n, ok := it.Item[t.schema.TTLAttr].(*types.AttributeValueMemberN); ok {
			exp, _ = strconv.ParseInt(n.Value, 10, 64)
		}
	}
	out := make([]TxOp, 0, len(ops)+1)
	changed := false
	for i, op := range ops {
		if i >= len(te.Reasons) || op.op.Put == nil || op.op.Guard.Name == "" || te.Reasons[i].Code != "ConditionalCheckFailed" {
			out = append(out, op)
			continue
		}
		g, ok := t.decodeGuard(te.Reasons[i].Item)
		if !ok || g.Owner == owner {
			out = append(out, op)
			continue
		}
		// Read only to check that the owner is live: its keys, type,
		// version and TTL, not the item (a projection).
		raw, err := t.getItemAttrs(ctx, GuardType, g.Owner, true, []string{t.schema.PK})
		if err != nil {
			return nil, false, err
		}
		if raw != nil && !t.c.Expired(raw) {
			out = append(out, op) // held by a live item: a real violation
			continue
		}
		out = append(out, t.guardTakeover(op.op.Guard, owner, g.Owner, exp)...)
		changed = true
	}
	return out, changed, nil
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

// LookupUnique returns the key of the item holding u, or [ErrNotFound]:
// a strongly consistent GetItem on its guard, then one on the owner the
// guard names. The owner answers, never the guard: the entity bound to
// the table that owns the item decodes it, and a missing or expired owner,
// or one that no longer holds u (deleted or changed by a writer that does
// not know about guards), gives [ErrNotFound]; its orphan guard is
// reported to the Observer and removed ([OrphanGuardError]). An owner of
// no bound entity gives [ErrUnconfirmedGuard]. Two requests (a third, a
// transaction, only when an orphan is removed). To get the item, use
// [Entity.GetByUnique]: the same two reads.
func (t *Table) LookupUnique(ctx context.Context, u Unique) (Key, error) {
	if err := checkLookup(u); err != nil {
		return Key{}, opErr("lookup unique", GuardType, Key{}, err)
	}
	g, err := t.readGuard(ctx, u)
	if err != nil {
		return Key{}, opErr("lookup unique", GuardType, GuardKey(u), err)
	}
	if _, _, err := t.confirmGuard(ctx, u, g, true); err != nil {
		return Key{}, opErr("lookup unique", GuardType, g.Owner, err)
	}
	return g.Owner, nil
}

// LookupUniques returns the guards of those values in us that are held,
// in the order of us, each confirmed by its owner like [Table.LookupUnique]:
// one BatchGetItem of the guards, one of the owners they name (each
// chunked and retried; eventually consistent: confirm with
// [Entity.GetByUnique] where the answer decides access). A guard whose
// owner is missing or no longer holds the value is left out, reported and
// removed (its removal is conditioned on the owner as read, so a value
// claimed since is kept); an owner of no bound entity gives
// [ErrUnconfirmedGuard].
func (t *Table) LookupUniques(ctx context.Context, us []Unique) ([]Guard, error) {
	ks := make([]Key, 0, len(us))
	seen := map[Unique]bool{}
	for _, u := range us {
		if err := checkLookup(u); err != nil {
			return nil, opErr("lookup unique", GuardType, Key{}, err)
		}
		if seen[u] {
			continue
		}
		seen[u] = true
		ks = append(ks, GuardKey(u))
	}
	raws, err := t.batchGet(ctx, GuardType, ks, false)
	if err != nil {
		return nil, opErr("lookup unique", GuardType, Key{}, err)
	}
	var guards []Guard
	var owners []Key
	ownerSeen := map[Key]bool{}
	for _, raw := range raws {
		if g, ok := t.decodeGuard(raw); ok {
			guards = append(guards, g)
			if !ownerSeen[g.Owner] {
				ownerSeen[g.Owner] = true
				owners = append(owners, g.Owner)
			}
		}
	}
	if len(owners) == 0 {
		return nil, nil
	}
	ownerRaws, err := t.batchGet(ctx, GuardType, owners, false)
	if err != nil {
		return nil, opErr("lookup unique", GuardType, Key{}, err)
	}
	byKey := make(map[Key]Item, len(ownerRaws))
	for _, raw := range ownerRaws {
		byKey[t.c.KeyOf(raw)] = raw
	}
	var out []Guard
	for _, g := range guards {
		_, err := t.confirmRaw(ctx, g.Unique, g, byKey[g.Owner], true)
		switch {
		case err == nil:
			out = append(out, g)
		case !errors.Is(err, ErrNotFound):
			return nil, opErr("lookup unique", GuardType, g.Owner, err)
		}
	}
	return out, nil
}

// GetByUnique returns the item holding unique value u, or [ErrNotFound]:
// a strongly consistent GetItem on the guard, then one on the owner it
// names. The owner answers, never the guard: a missing or expired owner,
// or one that no longer holds u (deleted or changed by a writer that does
// not know about guards), gives [ErrNotFound], and its orphan guard is
// reported to the Observer and removed ([OrphanGuardError]); so does a
// value held by an item of another entity (its guard is kept). A lookup
// racing a change of the value never returns the previous owner. Two
// requests: the guard is the only way from the value to the owner's key
// (a third, a transaction, only when an orphan is removed). Options:
// [Indexed] also requires the owner to be stored under a GSI. An owner
// revoked by its entity's Def.ValidWhileIndexed gives [ErrNotFound] (its
// guard is kept).
func (e *Entity[T]) GetByUnique(ctx context.Context, u Unique, opts ...ReadOption) (T, error) {
	var zero T
	var ro readOpts
	for _, o := range opts {
		o(&ro)
	}
	if err := checkLookup(u); err != nil {
		return zero, opErr("get by unique", e.def.Type, Key{}, err)
	}
	g, err := e.t.readGuard(ctx, u)
	if err != nil {
		return zero, opErr("get by unique", GuardType, GuardKey(u), err)
	}
	return e.confirmOwner(ctx, u, g, ro)
}

// checkLookup checks a value looked up by its guard (never a shared one).
func checkLookup(u Unique) error {
	if u.Shared {
		return &ValidationError{Field: "unique " + u.Name, Reason: "a shared value has no single holder; use LookupShared"}
	}
	return checkUnique(u)
}

// LookupShared lists the holders of shared value u (see [Unique]): one
// Query of SHARED#{name}#{value} per page, ordered by the holders' keys.
// Options: [Limit], [After], [Desc]. Entries of expired holders are left
// out. Like a GSI the answer reflects committed transactions only, but it
// is read strongly consistent: a holder whose write returned is listed.
func (t *Table) LookupShared(ctx context.Context, u Unique, opts ...ListOption) (Page[Guard], error) {
	if !u.Shared {
		return Page[Guard]{}, opErr("lookup shared", GuardType, Key{}, &ValidationError{Field: "unique " + u.Name, Reason: "not a shared value; use LookupUnique"})
	}
	if err := checkUnique(u); err != nil {
		return Page[Guard]{}, opErr("lookup shared", GuardType, Key{}, err)
	}
	o, err := NewListOptions(opts...)
	if err != nil {
		return Page[Guard]{}, err
	}
	q := o.Apply(Query{PK: SharedPartition(u), SK: SKBeginsWith("HOLDER#")})
	q.Consistent = true
	p, err := t.queryItems(ctx, q, GuardType)
	if err != nil {
		return Page[Guard]{}, err
	}
	out := Page[Guard]{Cursor: p.Cursor, Items: make([]Guard, 0, len(p.Items))}
	for _, raw := range p.Items {
		if g, ok := t.decodeGuard(raw); ok && !t.c.Expired(raw) {
			g.Shared = true
			out.Items = append(out.Items, g)
		}
	}
	return out, nil
}

func checkUnique(u Unique) error {
	if u.Name == "" || strings.Contains(u.Name, "#") {
		return &ValidationError{Field: "unique name", Reason: fmt.Sprintf("%q is empty or holds '#'", u.Name)}
	}
	if u.Value == "" {
		return &ValidationError{Field: "unique " + u.Name, Reason: "empty value"}
	}
	if !utf8.ValidString(u.Value) || !utf8.ValidString(u.Name) {
		return &ValidationError{Field: "unique " + u.Name, Reason: "not valid UTF-8"}
	}
	return keytmpl.CheckKeyValue("unique "+u.Name, GuardKey(u).PK, keys.MaxPKBytes)
}

// EnsureGuards makes sure the item with key k holds the guards of its
// unique values: those it lacks (an item written by another service, or
// one whose duplicate value was left unguarded by an update) are claimed
// now, in one transaction with a version-checked write of the item; a
// guard held by another item gives [ErrUniqueViolation] (a duplicate
// already in the data). An item holding all its guards costs one read of
// the item and one of each guard, and nothing is written.
func (e *Entity[T]) EnsureGuards(ctx context.Context, k Key) error {
	if e.fn.unique == nil {
		return nil
	}
	for attempt := 0; ; attempt++ {
		orig, ver, raw, err := e.getRaw(ctx, k, Consistent())
		if err != nil {
			return opErr("ensure guards", e.def.Type, k, err)
		}
		cur, err := e.decodeCopy(raw)
		if err != nil {
			return opErr("ensure guards", e.def.Type, k, err)
		}
		if ver > 0 && e.holdsGuards(ctx, k, e.fn.unique(&orig)) {
			return nil
		}
		err = e.writeDiff(ctx, k, &orig, raw, ver, &cur, diffWrite{ensureAll: true})
		if errors.Is(err, ErrConflict) && !errors.Is(err, ErrUniqueViolation) && attempt < e.t.opts.ConflictRetries {
			continue
		}
		return opErr("ensure guards", e.def.Type, k, err)
	}
}

// holdsGuards reports whether the item with key k holds the guards of all
// of us (strongly consistent reads).
func (e *Entity[T]) holdsGuards(ctx context.Context, k Key, us []Unique) bool {
	for _, u := range us {
		if u.Shared {
			raw, err := e.t.getItem(ctx, GuardType, guardKeyFor(u, k), true)
			if err != nil || raw == nil {
				return false
			}
			continue
		}
		g, err := e.t.readGuard(ctx, u)
		if err != nil || g.Owner != k {
			return false
		}
	}
	return true
}
