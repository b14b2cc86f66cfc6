package table

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/expr"
)

// A guard is an index, never the truth. A lookup by a unique value reads
// the guard to learn the owner's key, then the owner itself (strongly
// consistent), and answers from the owner only: a guard whose owner is
// missing or expired, or whose owner no longer holds the guarded value
// (another writer deleted it, or changed the value without knowing about
// guards), answers nothing. Such an orphan guard is reported to
// Options.Observer (an [Event] with Op [OpOrphanGuard] and an
// [*OrphanGuardError]) and removed by a conditional delete that never
// removes a guard re-claimed concurrently (see [OrphanGuardError]).

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

// Indexed is a read option of [Entity.GetByUnique] and [Entity.Get]: the
// item found must also be stored under
// each named GSI with the key its fields derive, as its stored index
// attributes say (not only the fields they derive from). On a table shared
// with a writer that takes an item out of an index by removing its index
// attributes (a service may revoke an API key so, leaving the item),
// such an item is not found. Its guard is not an orphan (the item still
// holds the value) and is kept.
func Indexed(ix ...Index) ReadOption {
	return func(o *readOpts) { o.indexed = append(o.indexed, ix...) }
}

// confirmOwner reads the owner named by guard g of u (strongly consistent)
// and returns it if it is an item of this entity, live, holds u and is
// indexed as ro asks. An orphan guard is reported and removed; every
// refusal is [ErrNotFound] (a value held by an item of another entity
// too: its guard is not an orphan and is kept).
func (e *Entity[T]) confirmOwner(ctx context.Context, u Unique, g Guard, ro readOpts) (T, error) {
	var zero T
	owner := e.def.Type // the entity the read is observed under
	if !e.matchesKey(g.Owner) {
		owner = e.t.typeOfKey(g.Owner)
	}
	raw, err := e.t.getItem(ctx, owner, g.Owner, true)
	if err != nil {
		return zero, opErr("get by unique", e.def.Type, g.Owner, err)
	}
	// The common case, an owner of this entity that holds u, decodes the
	// owner once: the item checked is the item returned. That it holds u
	// is read from the stored attributes when the declarations allow
	// (uniqueRaw), else from the decoded item encoded again. Anything else
	// (gone, another entity's, no longer holding u, not decoding) takes
	// confirmRaw, which reports and removes an orphan guard.
	if raw != nil && !e.t.c.Expired(raw) && e.fn.unique != nil {
		if h := e.t.holderOf(raw); h != nil && h.Type() == e.def.Type {
			if item, _, err := e.decode(raw); err == nil && (e.fn.uniqueRaw != nil && slices.Contains(e.fn.uniqueRaw(raw), u) || slices.Contains(e.fn.unique(&item), u)) {
				return e.indexedOwner(raw, item, g, ro)
			}
		}
	}
	h, err := e.t.confirmRaw(ctx, u, g, raw, true)
	if errors.Is(err, ErrUnconfirmedGuard) {
		err = ErrNotFound // not an item of this entity
	}
	if err != nil {
		return zero, opErr("get by unique", e.def.Type, g.Owner, err)
	}
	if h.Type() != e.def.Type {
		return zero, opErr("get by unique", e.def.Type, g.Owner, ErrNotFound)
	}
	item, _, err := e.decode(raw)
	if err != nil {
		return zero, opErr("get by unique", e.def.Type, g.Owner, err)
	}
	return e.indexedOwner(raw, item, g, ro)
}

// indexedOwner returns item, the confirmed owner read as raw, when it is
// stored under the GSIs ro requires ([Indexed], [Valid]), else
// [ErrNotFound].
func (e *Entity[T]) indexedOwner(raw Item, item T, g Guard, ro readOpts) (T, error) {
	var zero T
	if ixs := e.checkIndexes(ro, true); len(ixs) > 0 {
		ok, err := e.storedUnder(raw, &item, ixs)
		if err != nil {
			return zero, opErr("get by unique", e.def.Type, g.Owner, err)
		}
		if !ok {
			return zero, opErr("get by unique", e.def.Type, g.Owner, ErrNotFound)
		}
	}
	return item, nil
}

// storedUnder reports whether raw holds, for each index of ixs, the index
// key item's fields derive (an index the item derives no key for fails).
func (e *Entity[T]) storedUnder(raw Item, item *T, ixs []Index) (bool, error) {
	if e.fn.indexes == nil {
		return false, nil
	}
	want, err := e.fn.indexes(item)
	if err != nil {
		return false, err
	}
	for _, ix := range ixs {
		pk, sk, _, err := e.t.schema.KeyAttrs(ix)
		if err != nil {
			return false, err
		}
		w := want[ix]
		if w.PK == "" || !rawStringIs(raw, pk, w.PK) || (w.SK != "" && !rawStringIs(raw, sk, w.SK)) {
			return false, nil
		}
	}
	return true, nil
}

func rawStringIs(raw Item, attr, v string) bool {
	s, ok := raw[attr].(*types.AttributeValueMemberS)
	return ok && s.Value == v
}

// dropOrphan reports the orphan guard g of u (of an item of entity typ)
// to the Observer, after trying to remove it when drop is set (see
// [OrphanGuardError] for the conditions; a dry run reports it kept).
// Its failure is reported, never returned: the lookup already answers
// not found.
func (t *Table) dropOrphan(ctx context.Context, typ string, u Unique, g Guard, missing bool, ver int64, drop bool) {
	g.Unique = u
	if !drop {
		report := &OrphanGuardError{Guard: g, OwnerMissing: missing, Version: ver, DeleteErr: errDryRun}
		t.c.Observe(ctx, Event{Op: OpOrphanGuard, Entity: typ, Err: report})
		return
	}
	s := t.schema
	gx := expr.New()
	gx.Names["#opk"], gx.Names["#osk"] = guardOwnerPK, guardOwnerSK
	gx.Values[":opk"] = &types.AttributeValueMemberS{Value: g.Owner.PK}
	gx.Values[":osk"] = &types.AttributeValueMemberS{Value: g.Owner.SK}
	del := TxOp{op: ddb.Op{Delete: &types.Delete{
		TableName:                 aws.String(s.Name),
		Key:                       t.c.KeyItem(GuardKey(u)),
		ConditionExpression:       aws.String("#opk = :opk AND #osk = :osk"),
		ExpressionAttributeNames:  gx.Names,
		ExpressionAttributeValues: gx.Vals(),
	}, Key: GuardKey(u), What: GuardType}}
	ox := expr.New()
	var c string
	if missing {
		c = t.c.Absent(ox)
	} else {
		c = t.versionCond(ox, ver)
	}
	check := TxOp{op: ddb.Op{Check: &types.ConditionCheck{
		TableName:                 aws.String(s.Name),
		Key:                       t.c.KeyItem(g.Owner),
		ConditionExpression:       aws.String(c),
		ExpressionAttributeNames:  ox.Names,
		ExpressionAttributeValues: ox.Vals(),
	}, Key: g.Owner, What: "check"}}
	start := time.Now()
	err := t.Transact(ctx, del, check)
	report := &OrphanGuardError{Guard: g, OwnerMissing: missing, Version: ver, Removed: err == nil, DeleteErr: err}
	t.c.Observe(ctx, Event{Op: OpOrphanGuard, Entity: typ, Duration: time.Since(start), Err: report})
}

// errDryRun is why a dry run keeps an orphan guard it found.
var errDryRun = errors.New("dry run: not removed")
