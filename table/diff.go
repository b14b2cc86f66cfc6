package table

import (
	"context"
	"fmt"
	"time"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
)

// diffWrite is how [Entity.writeDiff] conditions its write and what it
// sends with it.
type diffWrite struct {
	// ensureAll claims the guards of every unique value, not only those
	// the write sets (EnsureGuards, adoption).
	ensureAll bool
	// noTouch leaves the Timestamps and Def.Touch's fields alone (an
	// adoption pass is not an update of the item).
	noTouch bool
	// whole conditions the write on every attribute of the image read, not
	// only those it changes (Replace).
	whole bool
	// scope, when set, conditions the write on the tenant (Scoped).
	scope *ddb.Scope
	// also are actions on other items sent in the same transaction
	// (UpdateRequiring's checks, UpdateAlso's writes).
	also []TxOp
}

// writeDiff writes cur over orig, the item decoded from raw at version
// ver: SET and REMOVE of the attributes whose encoded value differs, the
// index keys and TTL derived from changed fields, the version and write
// tokens, and the guard moves, conditioned as [Entity.Update] says and as
// o asks. An item written by another service (version 0) gets guards only
// for the unique values this write sets, unless o.ensureAll (see
// EnsureGuards): a duplicate already in the data never blocks a write of
// other fields.
func (e *Entity[T]) writeDiff(ctx context.Context, k Key, orig *T, raw Item, ver int64, cur *T, o diffWrite) error {
	ensureAll := o.ensureAll
	if !o.noTouch {
		e.stampWrite(cur, e.t.now(), false)
	}
	codec.KeepExtra(orig, cur)
	w, err := e.prepare(cur, ver+1, false)
	if err != nil {
		return err
	}
	plainOld, err := e.encodePlain(orig)
	if err != nil {
		return fmt.Errorf("%w: encode %s: %v", ErrInvalidInput, e.def.Type, err)
	}
	plainNew, err := e.encodePlain(cur)
	if err != nil {
		return fmt.Errorf("%w: encode %s: %v", ErrInvalidInput, e.def.Type, err)
	}
	for _, a := range e.fixedAttrs() {
		if _, had := plainOld[a]; had && !codec.Equal(plainOld[a], plainNew[a]) {
			return &ValidationError{Entity: e.def.Type, Field: a, Reason: "fixed at creation (Def.Fixed or Def.Scope): an update cannot change it"}
		}
	}
	// Strict writes, tolerant reads: Def.Validate judges what this write
	// changes; a legacy value it carries through unchanged (written by
	// another service, or before a rule existed) never refuses the write.
	if err := codec.ChangeError(e.def.Validate(cur), plainOld, plainNew); err != nil {
		return err
	}
	derivedOld, err := e.derived(orig)
	if err != nil {
		return err
	}
	derivedNew, err := e.derivedOf(w)
	if err != nil {
		return err
	}
	// Def.ValidWhileIndexed: a revoked item is never put back in those
	// indexes nor guarded.
	revoked := e.revoked(raw)
	spec := ddb.DiffSpec{Scope: o.scope, Entity: e.def.Type, Key: k, Raw: raw, Version: ver, Old: plainOld, New: plainNew,
		Write: w.item, DerivedOld: derivedOld, DerivedNew: derivedNew, Moved: e.relayout(raw, derivedNew),
		Keep: e.keepStored, Reseal: e.needsSeal(raw), Valid: e.validAttrs(), Revoked: revoked, Whole: o.whole}
	d := e.t.c.BuildDiff(spec)
	var oldUniques []Unique
	if e.hasUniques() && ver > 0 && !ensureAll {
		oldUniques = e.uniques(orig)
	}
	newUniques := w.uniques
	if revoked {
		oldUniques, newUniques = nil, nil // its guards are neither claimed nor moved
	}
	rewriteKept := e.hasTTL() && w.expires != codec.DerivedTTL(derivedOld, e.t.schema.TTLAttr)
	ops := append(e.t.c.GuardDiff(oldUniques, newUniques, k, w.expires, rewriteKept), txActions(o.also)...)
	// An item written elsewhere (version 0) claims the guards of its
	// unchanged values when it can (see ddb.Conn.WriteDiff); EnsureGuards
	// (ensureAll) claims them all or fails.
	unchanged := map[Unique]bool{}
	if e.hasUniques() && !ensureAll {
		for _, u := range e.uniques(orig) {
			unchanged[u] = true
		}
	}
	err = e.t.c.WriteDiff(ctx, e.def.Type, d, ops, unchanged)
	if err == nil {
		e.setVersion(cur, ver+1)
		e.setRead(cur, ddb.AfterImage(raw, d.Set, d.Removed))
	}
	return err
}

// derived returns the index keys and TTL attribute item derives.
func (e *Entity[T]) derived(item *T) (Item, error) {
	var ix map[Index]IndexKey
	if len(e.decl.Indexes) > 0 {
		var err error
		if ix, err = e.indexKeys(item); err != nil {
			return nil, err
		}
	}
	var exp time.Time
	if e.hasTTL() {
		exp = e.expires(item)
	}
	return e.t.c.Derived(ix, exp)
}
