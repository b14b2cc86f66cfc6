package table

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/internal/job"
)

// Import writes raw, an item read from another table (a migration's
// source, see [Job.Source]), as a new item of this entity. Its contract:
//
//   - Read as reads are: decoded tolerantly, a secret found in plaintext
//     accepted (and sealed on the way in, as every write seals it).
//   - Written as creates are: the Timestamps (an imported item keeps the
//     times it holds), Def.Touch and Def.Validate run, then the
//     item is created with its keys, index keys, guards and version in
//     one request, never over an existing item.
//   - Idempotent: an item already there (a re-run, or a run resumed after
//     an interruption) is Unchanged and left as it is.
//   - Expired items (Def.Expires in the past) are Skipped: they are absent
//     for every read of the source already.
//   - Honest: a duplicate unique value or an item that fails validation is
//     returned as an error the job runner counts as a conflict (it wraps
//     [ErrUniqueViolation] or [ErrInvalidInput]).
//   - What the source holds is kept: an enum value Def.Validate does not
//     list ([ValidationError.Unknown]) is written as stored, never a
//     reason to leave the item behind, and reported to the context's
//     [WithKeptValues] callback; every other check still applies.
//   - A dry run predicts the real run exactly and writes nothing: the item
//     is decoded, validated and encoded; an item already at its key is
//     Unchanged; a unique value held by another live item (a guard read,
//     strongly consistent) is a conflict; and the keys and unique values
//     of the items it would create are claimed in the dry run's claims
//     (the adoption job's mechanism, carried by ctx: a job's dry run, or
//     one ImportMany call), so a later row with the same key is Unchanged
//     and one with the same unique value a conflict, as in the real run.
//     Reads only: one GetItem for the key and one per unique value.
//
// Adapt raw before (IDs in another form, attributes the source names
// differently): it is read exactly as an item of this entity.
func (e *Entity[T]) Import(ctx context.Context, raw Item, dryRun bool) (JobOutcome, error) {
	item, o, err, ok := e.importable(raw)
	if !ok {
		return o, err
	}
	if dryRun {
		return e.dryImport(job.WithClaims(ctx), &item)
	}
	ops, tok, kept, err := e.importOps(&item)
	var k Key
	if err == nil {
		k, err = e.createWith(ctx, &item, ops, tok, nil)
	}
	switch {
	case err == nil:
		reportKept(ctx, k, kept)
		return Changed, nil
	case errors.Is(err, ErrUniqueViolation), errors.Is(err, ErrInvalidInput):
		// before ErrAlreadyExists: a held guard also fails a condition
		return Conflicted, opErr("import", e.def.Type, k, err)
	case errors.Is(err, ErrAlreadyExists):
		reportKept(ctx, ops0Key(ops), kept) // copied by an earlier run: its copy keeps them
		return Unchanged, nil
	}
	return Conflicted, opErr("import", e.def.Type, k, err)
}

// importable decodes raw as Import reads it; ok is false when the import
// ends there, with outcome o (Skipped past its TTL, Conflicted undecodable).
func (e *Entity[T]) importable(raw Item) (item T, o JobOutcome, err error, ok bool) {
	item, _, err = e.decodeWith(raw, true)
	if err != nil {
		return item, Conflicted, fmt.Errorf("%w: %s cannot be decoded: %v", ErrInvalidInput, e.def.Type, err), false
	}
	if e.Expired(&item) {
		return item, Skipped, nil, false // past its TTL: absent for every read, not worth copying
	}
	return item, Changed, nil, true
}

// Decode decodes raw, an item of this entity read by other means (a raw
// Scan, another table), as reads do: tolerantly, a plaintext secret
// accepted.
func (e *Entity[T]) Decode(raw Item) (T, error) {
	v, _, err := e.decodeWith(raw, true)
	return v, err
}

// Encode returns item's attributes as a write stores them, before its
// secrets are sealed and the engine's own attributes (keys, entity type,
// version, index keys, TTL) are added: the fields, with the encoding
// fixes, and the members the Extra catch-alls keep (the item's own and
// those of its nested structs), secrets in plaintext. A migration's
// verification compares it with the legacy item.
func (e *Entity[T]) Encode(item *T) (Item, error) { return e.encodeItem(item) }

// Expired reports whether item's expiry (Def.TTL) has passed, judged as a
// create would store it: on a copy that Def.Timestamps and Def.Touch have stamped (an entity
// whose Touch fills the attribute its TTL derives from, such as a default
// retention, expires by what the create would write). The copy is
// shallow: a Touch that writes into a map, into a slice's elements or
// through a pointer of the item (rather than assigning fields) changes
// the caller's item too; item itself is otherwise left as given.
func (e *Entity[T]) Expired(item *T) bool {
	if !e.hasTTL() {
		return false
	}
	if e.stamps != nil || e.def.Touch != nil {
		cp := *item
		e.stampCreate(&cp, e.t.now())
		item = &cp
	}
	exp := e.expires(item)
	return !exp.IsZero() && !exp.After(e.t.now())
}

// Touch applies the entity's Def.Timestamps and Def.Touch to item as a
// create does (first-write stamps, derived fields), without writing: how a
// verification brings a source item to the form its imported copy was
// written in.
func (e *Entity[T]) Touch(item *T) { e.stampCreate(item, e.t.now()) }

// ImportMany is [Entity.Import] for a page of items, with fewer requests:
// the creates (each item's conditional put and its guard puts) are sent
// together in transactions of up to MaxTxItems actions, all-or-nothing.
// A transaction that is refused (an item already there, a unique value
// held, a conflict) is not retried as a whole: each of its items then
// goes through Import alone, which sorts out what exists, what conflicts
// and what to write, so every item's outcome is Import's.
func (e *Entity[T]) ImportMany(ctx context.Context, raws []Item, dryRun bool) ([]JobOutcome, []error) {
	outs, errs := make([]JobOutcome, len(raws)), make([]error, len(raws))
	if dryRun {
		ctx = job.WithClaims(ctx) // the rows of one call see each other's claims
		for i, raw := range raws {
			outs[i], errs[i] = e.Import(ctx, raw, true)
		}
		return outs, errs
	}
	type prepared struct {
		i    int
		ops  []TxOp
		kept []KeptValue
	}
	var ready []prepared
	for i, raw := range raws {
		item, o, err, ok := e.importable(raw)
		if !ok {
			outs[i], errs[i] = o, err
			continue
		}
		ops, _, kept, err := e.importOps(&item)
		if err != nil {
			outs[i], errs[i] = Conflicted, opErr("import", e.def.Type, ops0Key(ops), err)
			continue
		}
		ready = append(ready, prepared{i, ops, kept})
	}
	flush := func(batch []prepared) {
		if len(batch) == 0 {
			return
		}
		var ops []TxOp
		for _, p := range batch {
			ops = append(ops, p.ops...)
		}
		if err := e.t.Transact(ctx, ops...); err == nil {
			for _, p := range batch {
				outs[p.i] = Changed
				reportKept(ctx, p.ops[0].op.Key, p.kept)
			}
			return
		}
		for _, p := range batch {
			outs[p.i], errs[p.i] = e.Import(ctx, raws[p.i], false)
		}
	}
	var batch []prepared
	n := 0
	for _, p := range ready {
		if n+len(p.ops) > MaxTxItems {
			flush(batch)
			batch, n = nil, 0
		}
		batch, n = append(batch, p), n+len(p.ops)
	}
	flush(batch)
	return outs, errs
}

// dryImport predicts what Import's create of item would do, writing
// nothing (see Import): the key and unique values are checked against the
// table, strongly consistent, and against the dry run's claims, and
// claimed when the create would succeed.
func (e *Entity[T]) dryImport(ctx context.Context, item *T) (JobOutcome, error) {
	ops, _, kept, err := e.importOps(item)
	if err != nil {
		return Conflicted, opErr("import", e.def.Type, ops0Key(ops), err)
	}
	k := ops[0].op.Key
	claims := job.ClaimsOf(ctx)
	if _, dup := claims.Load(k); dup {
		return Unchanged, nil // an earlier row creates it (and reports its kept values): this create meets it
	}
	raw, err := e.t.c.GetItem(ctx, e.def.Type, k, true, nil, nil)
	if err != nil {
		return Conflicted, opErr("import", e.def.Type, k, err)
	}
	if raw != nil && !e.t.c.Expired(raw) {
		reportKept(ctx, k, kept) // copied by an earlier run: its copy keeps them
		return Unchanged, nil
	}
	if err := job.ClaimGuards(ctx, e.t.c, claims, k, txActions(ops[1:])); err != nil {
		return Conflicted, opErr("import", e.def.Type, k, err)
	}
	claims.Store(k, true)
	reportKept(ctx, k, kept)
	return Changed, nil
}
