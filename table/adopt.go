package table

// Adoption: the job visit that brings items another writer stored up to
// the engine's invariants (guards, index keys, sealed secrets). See
// [AdoptJob] and the job runner's contract in job.go.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/job"
)

// AnyEntity is an [Entity] of any type: what tools see of the entities
// bound to a table ([Table.Entities]): its type and model, and what an
// adoption job needs.
type AnyEntity interface {
	// Type is the entity type.
	Type() string
	// Model is the entity's design as data.
	Model() EntityModel
	// Owns reports whether raw is an item of this entity.
	Owns(raw Item) bool
	// Adopt brings one item in line (see [Entity.Adopt]).
	Adopt(ctx context.Context, raw Item, dryRun bool) (JobOutcome, error)
	// Sample is an item made up from the declarations and field types
	// (see [Entity.Sample]).
	Sample(set map[string]any) (Sample, error)
}

// AdoptJob returns the job that adopts a live table written by other
// services: each item is handed to the first of entities that owns it
// (others are skipped). See [Entity.Adopt].
func AdoptJob(name string, entities ...AnyEntity) Job {
	return Job{Name: name, Visit: func(ctx context.Context, raw Item, dryRun bool) (JobOutcome, error) {
		for _, e := range entities {
			if e.Owns(raw) {
				return e.Adopt(ctx, raw, dryRun)
			}
		}
		return Skipped, nil
	}}
}

// Owns reports whether raw is an item of this entity: its entity-type
// attribute says so, or it has none and Def.Match recognises its key.
func (e *Entity[T]) Owns(raw Item) bool {
	if ta := e.t.schema.TypeAttr; ta != "" {
		if s, ok := raw[ta].(*types.AttributeValueMemberS); ok {
			return s.Value == e.def.Type
		}
	}
	return e.decl.Match(e.t.c.KeyOf(raw))
}

// Adopt brings the item raw (as a Scan returned it) up to the library's
// invariants, for an adoption job: the guards of its unique values are
// claimed (a value held by another item is a conflict, reported, never
// forced), index keys it lacks are backfilled from its fields (index keys
// already stored stay as they are, except one in a partition sharded since
// it was written, under another shard count or none: it moves to its
// shard, see [Shard]), and secrets stored in plaintext are
// sealed. Touch is not called: updatedAt does not move. An item needing
// none of it is Unchanged and costs reads only (one per unique value), so
// a second run changes nothing. The write is the same conditional
// UpdateItem (or transaction) as [Entity.Update]'s, retried on a lost
// race; an item deleted meanwhile is Skipped.
func (e *Entity[T]) Adopt(ctx context.Context, raw Item, dryRun bool) (JobOutcome, error) {
	k := e.t.c.KeyOf(raw)
	if e.t.c.Expired(raw) {
		return Skipped, nil
	}
	for attempt := 0; ; attempt++ {
		orig, ver, err := e.decodeWith(raw, true)
		if err != nil {
			return Conflicted, fmt.Errorf("%w: %s %s/%s cannot be decoded: %v", ErrInvalidInput, e.def.Type, k.PK, k.SK, err)
		}
		need, err := e.needsAdoption(ctx, k, &orig, raw, dryRun)
		if err != nil || !need {
			if err != nil {
				return Conflicted, err
			}
			return Unchanged, nil
		}
		if dryRun {
			return Changed, nil
		}
		cur, _, err := e.decodeWith(raw, true)
		if err != nil {
			return Conflicted, err
		}
		err = e.writeDiff(ctx, k, &orig, raw, ver, &cur, diffWrite{ensureAll: true, noTouch: true})
		switch {
		case err == nil:
			return Changed, nil
		case errors.Is(err, ErrUniqueViolation):
			return Conflicted, err
		case errors.Is(err, ErrNotFound):
			return Skipped, nil
		case errors.Is(err, ErrConflict) && attempt < e.t.opts.ConflictRetries:
			raw, err = e.t.c.GetItem(ctx, e.def.Type, k, true, nil, nil)
			if err != nil {
				return Unchanged, err
			}
			if raw == nil || e.t.c.Expired(raw) {
				return Skipped, nil
			}
			continue
		default:
			return Unchanged, err
		}
	}
}

// needsAdoption reports whether item (decoded from raw) lacks a guard, an
// index key or TTL it derives, or holds a plaintext secret. A guard held by
// another item is an ErrUniqueViolation.
func (e *Entity[T]) needsAdoption(ctx context.Context, k Key, item *T, raw Item, dryRun bool) (bool, error) {
	need := false
	if len(e.needsSeal(raw)) > 0 {
		need = true
	}
	d, err := e.derived(item)
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrInvalidInput, err)
	}
	// An item revoked by Def.ValidWhileIndexed (another writer took it out
	// of one of those indexes) is not put back in them, and its unique
	// values are not guarded: the writer no longer holds it valid.
	revoked, valid := e.revoked(raw), e.validAttrs()
	for attr := range d {
		if _, ok := raw[attr]; !ok && !(revoked && valid[attr]) {
			need = true
		}
	}
	if len(e.relayout(raw, d)) > 0 {
		need = true // an index partition sharded since the item was written
	}
	if e.hasUniques() && !revoked {
		for _, u := range e.uniques(item) {
			owner, err := e.guardOwner(ctx, u, k, dryRun)
			switch {
			case errors.Is(err, ErrNotFound):
				need = true
				if claims := job.ClaimsOf(ctx); claims != nil && dryRun {
					if p, taken, _ := job.ClaimUnique(claims, u, k); taken {
						return false, fmt.Errorf("%w: %s %q is also held by %s/%s", ErrUniqueViolation, u.Name, u.Value, p.PK, p.SK)
					}
				}
			case err != nil:
				return false, err
			case owner != k:
				return false, fmt.Errorf("%w: %s %q is held by %s/%s", ErrUniqueViolation, u.Name, u.Value, owner.PK, owner.SK)
			}
		}
	}
	return need, nil
}

// guardOwner returns the owner of u's guard for adopting item k: k itself
// when the guard names it, otherwise the other owner it names once that
// owner confirms it still holds u ([Table.confirmGuard]: an orphan guard
// gives ErrNotFound, and is removed unless dryRun, so the adoption's
// write can claim it).
func (e *Entity[T]) guardOwner(ctx context.Context, u Unique, k Key, dryRun bool) (Key, error) {
	g, err := e.t.c.ReadGuard(ctx, u)
	if err != nil || g.Owner == k {
		return g.Owner, err
	}
	if _, _, err := e.t.confirmGuard(ctx, u, g, !dryRun); err != nil {
		return Key{}, err
	}
	return g.Owner, nil
}

// bookkeeping reports whether raw is one of the library's own items (a
// unique guard, a job checkpoint, a counter shard or rollup item), which
// jobs do not visit.
func (t *Table) bookkeeping(raw Item) bool {
	if strings.HasPrefix(t.c.KeyOf(raw).PK, job.Prefix) {
		return true
	}
	if ta := t.schema.TypeAttr; ta != "" {
		if s, ok := raw[ta].(*types.AttributeValueMemberS); ok {
			return s.Value == GuardType || s.Value == CounterType
		}
	}
	return false
}
