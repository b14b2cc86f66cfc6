package table

import "slices"

// Validity: an item another writer revokes by taking it out of an index
// (Def.ValidWhileIndexed). The declaration is read in three places, and
// nowhere else: the lookups ([Entity.GetByUnique], [Entity.GetByIndex],
// [Entity.Get] with [Valid]) answer only for a valid item, the write of
// an existing item (writeDiffOpts: Update, Replace, Upsert, adoption)
// never puts a revoked item back nor claims its guards, and the adoption
// job's plan (needsAdoption) neither backfills nor guards one.

// Valid is a read option of [Entity.Get]: the item must be valid by its
// entity's declaration (Def.ValidWhileIndexed: stored under each named
// index with the key its fields derive), else [ErrNotFound]. Lookups by
// a unique value or an index ([Entity.GetByUnique], [Entity.GetByIndex])
// always apply it. Without a declaration it requires nothing.
func Valid() ReadOption { return func(o *readOpts) { o.valid = true } }

// checkIndexes returns the indexes a read with ro requires the item to be
// stored under: those ro names with [Indexed], and the entity's
// Def.ValidWhileIndexed when valid (or ro asks for [Valid]).
func (e *Entity[T]) checkIndexes(ro readOpts, valid bool) []Index {
	ixs := slices.Clone(ro.indexed)
	if valid || ro.valid {
		ixs = append(ixs, e.def.ValidWhileIndexed...)
	}
	return ixs
}

// validAttrs returns the stored attribute names of the keys of the
// indexes of Def.ValidWhileIndexed (nil without any).
func (e *Entity[T]) validAttrs() map[string]bool {
	if len(e.def.ValidWhileIndexed) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, ix := range e.def.ValidWhileIndexed {
		pk, sk, _, err := e.t.schema.KeyAttrs(ix)
		if err != nil {
			continue // NewEntity checked the declaration
		}
		out[pk], out[sk] = true, true
	}
	return out
}

// revoked reports whether the stored item raw is revoked by
// Def.ValidWhileIndexed: it lacks the partition or sort key attribute of
// one of those indexes.
func (e *Entity[T]) revoked(raw Item) bool {
	for attr := range e.validAttrs() {
		if _, ok := raw[attr]; !ok {
			return true
		}
	}
	return false
}
