package ddb

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/expr"
	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/keys"
)

// The reads and repairs of guards: a write that met a guard held by a gone
// item takes it over ([Conn.TransactGuarded]); a lookup reads the guard
// ([Conn.ReadGuard]) and, finding it an orphan, removes it
// ([Conn.DropOrphan]).

// TransactGuarded runs ops (an item write and its guard actions). When a
// guard put fails because another item holds the guard, that holder is
// read (strongly consistent): if it is missing or past its TTL, the guard
// is free, and the transaction is sent once more with the guard taken over
// from it (conditioned on it staying absent). A canceled transaction whose
// item action failed against an item carrying write token tok is this
// write, already applied: success.
func (c *Conn) TransactGuarded(ctx context.Context, ops []Op, tok string) error {
	for round := 0; ; round++ {
		err := c.Transact(ctx, "", ops)
		var te *TxError
		if err == nil || !errors.As(err, &te) {
			return err
		}
		if len(te.Reasons) > 0 && te.Reasons[0].Code == "ConditionalCheckFailed" && c.HasToken(te.Reasons[0].Item, tok) {
			return nil
		}
		if round > 0 {
			return err
		}
		next, changed, rerr := c.freeGuards(ctx, ops, te)
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
func (c *Conn) freeGuards(ctx context.Context, ops []Op, te *TxError) ([]Op, bool, error) {
	owner := ops[0].Key
	var exp int64
	if it := ops[0].Put; it != nil && c.Schema.TTLAttr != "" {
		if n, ok := it.Item[c.Schema.TTLAttr].(*types.AttributeValueMemberN); ok {
			exp, _ = strconv.ParseInt(n.Value, 10, 64)
		}
	}
	out := make([]Op, 0, len(ops)+1)
	changed := false
	for i, op := range ops {
		if i >= len(te.Reasons) || op.Put == nil || op.Guard.Name == "" || te.Reasons[i].Code != "ConditionalCheckFailed" {
			out = append(out, op)
			continue
		}
		g, ok := DecodeGuard(te.Reasons[i].Item)
		if !ok || g.Owner == owner {
			out = append(out, op)
			continue
		}
		// Read only to check that the owner is live: its keys, type,
		// version and TTL, not the item (a projection).
		names := map[string]string{}
		proj := aws.String(c.ProjectionExpr([]string{c.Schema.PK}, nil, names))
		raw, err := c.GetItem(ctx, GuardType, g.Owner, true, proj, names)
		if err != nil {
			return nil, false, err
		}
		if raw != nil && !c.Expired(raw) {
			out = append(out, op) // held by a live item: a real violation
			continue
		}
		out = append(out, c.GuardTakeover(op.Guard, owner, g.Owner, exp)...)
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

// DecodeGuard reads a guard item (false when raw is none).
func DecodeGuard(raw Item) (Guard, bool) {
	var g Guard
	str := func(k string) string {
		if s, ok := raw[k].(*types.AttributeValueMemberS); ok {
			return s.Value
		}
		return ""
	}
	g.Name, g.Value = str(GuardName), str(GuardValue)
	g.Owner = Key{PK: str(GuardOwnerPK), SK: str(GuardOwnerSK)}
	return g, g.Owner.PK != ""
}

// CheckLookup checks a value looked up by its guard (never a shared one).
func CheckLookup(u Unique) error {
	if u.Shared {
		return &codec.ValidationError{Field: "unique " + u.Name, Reason: "a shared value has no single holder; use LookupShared"}
	}
	return CheckUnique(u)
}

// CheckUnique checks a unique value: a name without '#', a value, both
// valid UTF-8, and a guard key within the partition key's size.
func CheckUnique(u Unique) error {
	if u.Name == "" || strings.Contains(u.Name, "#") {
		return &codec.ValidationError{Field: "unique name", Reason: fmt.Sprintf("%q is empty or holds '#'", u.Name)}
	}
	if u.Value == "" {
		return &codec.ValidationError{Field: "unique " + u.Name, Reason: "empty value"}
	}
	if !utf8.ValidString(u.Value) || !utf8.ValidString(u.Name) {
		return &codec.ValidationError{Field: "unique " + u.Name, Reason: "not valid UTF-8"}
	}
	return keytmpl.CheckKeyValue("unique "+u.Name, GuardKey(u).PK, keys.MaxPKBytes)
}

// ReadGuard is one GetItem of u's guard; a free value (no guard, or one
// past its TTL) is [ErrNotFound]. Its answer is the guard, not the owner:
// only a confirmation by the owner may turn it into one.
func (c *Conn) ReadGuard(ctx context.Context, u Unique) (Guard, error) {
	raw, err := c.GetItem(ctx, GuardType, GuardKey(u), true, nil, nil)
	if err != nil {
		return Guard{}, err
	}
	g, ok := DecodeGuard(raw)
	if raw == nil || !ok || c.Expired(raw) {
		return Guard{}, ErrNotFound
	}
	g.Unique = u
	return g, nil
}

// OpOrphanGuard is the Op of the [Event] that reports an orphan guard
// found by a read. It is a report, not a DynamoDB request: the delete that
// removes the guard is reported on its own, as a TransactWriteItems.
const OpOrphanGuard = "OrphanGuard"

// ErrOrphanGuard matches every [*OrphanGuardError].
var ErrOrphanGuard = errors.New("orphan unique guard")

// OrphanGuardError describes a guard found holding a value for an item that
// is gone or no longer holds it. The guard is removed by one transaction:
// a delete conditioned on the guard still naming Guard.Owner, and a
// condition check on the owner: still absent (or expired) when it was
// missing, still at Version when it no longer held the value. A concurrent
// re-claim writes the owner (or another owner) in the guard's own
// transaction, so it fails that condition and the re-claimed guard stays.
type OrphanGuardError struct {
	// Guard is the guard as read: the value and the owner it names.
	Guard Guard
	// OwnerMissing is true when the owner was missing or expired, false
	// when it exists but no longer holds the value.
	OwnerMissing bool
	// Version is the owner's version as read (0 when missing or written
	// without a version).
	Version int64
	// Removed reports whether the conditional delete removed the guard.
	Removed bool
	// DeleteErr is why it did not (a re-claim met the condition, or the
	// request failed); nil when Removed.
	DeleteErr error
}

func (e *OrphanGuardError) Error() string {
	why := "no longer holds the value"
	if e.OwnerMissing {
		why = "is missing or expired"
	}
	s := fmt.Sprintf("unique guard %s %q: its owner %s/%s %s", e.Guard.Name, e.Guard.Value, e.Guard.Owner.PK, e.Guard.Owner.SK, why)
	if e.Removed {
		return s + "; guard removed"
	}
	return fmt.Sprintf("%s; guard kept: %v", s, e.DeleteErr)
}

// Is reports whether target is [ErrOrphanGuard].
func (e *OrphanGuardError) Is(target error) bool { return target == ErrOrphanGuard }

// DropOrphan reports the orphan guard g of u (of an item of entity typ)
// to the Observer, after trying to remove it when drop is set (see
// [OrphanGuardError] for the conditions; a dry run reports it kept).
// Its failure is reported, never returned: the lookup already answers
// not found.
func (c *Conn) DropOrphan(ctx context.Context, typ string, u Unique, g Guard, missing bool, ver int64, drop bool) {
	g.Unique = u
	if !drop {
		report := &OrphanGuardError{Guard: g, OwnerMissing: missing, Version: ver, DeleteErr: errDryRun}
		c.Observe(ctx, Event{Op: OpOrphanGuard, Entity: typ, Err: report})
		return
	}
	s := c.Schema
	gx := expr.New()
	gx.Names["#opk"], gx.Names["#osk"] = GuardOwnerPK, GuardOwnerSK
	gx.Values[":opk"] = &types.AttributeValueMemberS{Value: g.Owner.PK}
	gx.Values[":osk"] = &types.AttributeValueMemberS{Value: g.Owner.SK}
	del := Op{Delete: &types.Delete{
		TableName:                 aws.String(s.Name),
		Key:                       c.KeyItem(GuardKey(u)),
		ConditionExpression:       aws.String("#opk = :opk AND #osk = :osk"),
		ExpressionAttributeNames:  gx.Names,
		ExpressionAttributeValues: gx.Vals(),
	}, Key: GuardKey(u), What: GuardType}
	ox := expr.New()
	var cond string
	if missing {
		cond = c.Absent(ox)
	} else {
		cond = c.VersionCond(ox, ver)
	}
	check := Op{Check: &types.ConditionCheck{
		TableName:                 aws.String(s.Name),
		Key:                       c.KeyItem(g.Owner),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  ox.Names,
		ExpressionAttributeValues: ox.Vals(),
	}, Key: g.Owner, What: "check"}
	start := time.Now()
	err := c.Transact(ctx, "", []Op{del, check})
	report := &OrphanGuardError{Guard: g, OwnerMissing: missing, Version: ver, Removed: err == nil, DeleteErr: err}
	c.Observe(ctx, Event{Op: OpOrphanGuard, Entity: typ, Duration: time.Since(start), Err: report})
}

// errDryRun is why a dry run keeps an orphan guard it found.
var errDryRun = errors.New("dry run: not removed")

// VersionCond returns the condition "the stored version is v" (an item
// written without a version attribute counts as version 0).
func (c *Conn) VersionCond(x expr.Exprs, v int64) string {
	x.Names["#v"] = c.Schema.VersionAttr
	x.Values[":v"] = codec.Num(v)
	if v == 0 {
		return "(attribute_not_exists(#v) OR #v = :v)"
	}
	return "#v = :v"
}

// LiveHolder reads the guard at gk and reports its owner if the guard is
// live and so is its owner: a create's guard put fails exactly then (a
// guard whose owner is missing or expired is taken over).
func (c *Conn) LiveHolder(ctx context.Context, gk Key) (Key, bool, error) {
	raw, err := c.GetItem(ctx, GuardType, gk, true, nil, nil)
	if err != nil || raw == nil || c.Expired(raw) {
		return Key{}, false, err
	}
	g, ok := DecodeGuard(raw)
	if !ok {
		return Key{}, true, nil // not a guard the create could take over: it fails
	}
	owner, err := c.GetItem(ctx, "", g.Owner, true, nil, nil)
	if err != nil || owner == nil || c.Expired(owner) {
		return g.Owner, false, err
	}
	return g.Owner, true, nil
}
