package table

import (
	"maps"
	"reflect"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
)

// PreparedPatch is a [Patch] of one item built once and sent many times
// with new Set values ([PreparedPatch.Op]): the hot-path form of
// [Entity.PatchOp], for a writer that applies the same patch to the same
// item on every call (an ingest that counts every event on its source
// and on its owner).
//
// Op returns the action PatchOp would build at that moment: it encodes
// the new Set values as PatchOp does (checked the same way), stamps the
// attributes Def.Timestamps and Def.Touch keep with the current time, and
// binds the current time into the TTL condition; everything else (the
// expressions, names, key, conditions and their values) is the prepared
// copy, never changed by a send. A patch that moves index keys (their
// values derive from Set values), or Set values whose encoding changes
// the patch's shape (a value Create stores nothing for, which the patch
// then removes), are built by PatchOp in full. TestPreparedPatchIsPatchOp
// compares the two. A PreparedPatch is read-only once built: Op may be
// called from many goroutines at once.
type PreparedPatch[T any] struct {
	e *Entity[T]
	k Key
	p Patch
	b builtPatch
	// op is the action as built, whose table name, key, expressions and
	// names every Op shares (read-only; each Op copies the action and
	// binds its own values).
	op ddb.Op
}

// PreparePatch builds p on the item with key k once, checked as
// [Entity.PatchOp] checks it (a bad patch fails here, before any request).
func (e *Entity[T]) PreparePatch(k Key, p Patch) (*PreparedPatch[T], error) {
	if err := keytmpl.CheckKey(k); err != nil {
		return nil, opErr("patch", e.def.Type, k, err)
	}
	b, err := e.buildPatch(k, p, false)
	if err != nil {
		return nil, opErr("patch", e.def.Type, k, err)
	}
	return &PreparedPatch[T]{e: e, k: k, p: p, b: b, op: e.t.c.PatchOp(e.def.Type, k, b)}, nil
}

// Key returns the key of the item the patch writes.
func (pp *PreparedPatch[T]) Key() Key { return pp.k }

// Op returns the patch's transaction action with set as its Set values:
// set must name exactly the prepared Patch's Set fields (nil when it has
// none); a value is checked and encoded as PatchOp would.
func (pp *PreparedPatch[T]) Op(set map[string]any) (TxOp, error) {
	e := pp.e
	if len(set) != len(pp.p.Set) {
		return TxOp{}, opErr("patch", e.def.Type, pp.k, &ValidationError{Entity: e.def.Type, Field: "Set", Reason: "not the fields the patch was prepared with"})
	}
	for f := range set {
		if _, ok := pp.p.Set[f]; !ok {
			return TxOp{}, opErr("patch", e.def.Type, pp.k, &ValidationError{Entity: e.def.Type, Field: f, Reason: "not a field the patch was prepared with"})
		}
	}
	vals := maps.Clone(pp.b.Values)
	full := pp.b.Moves // index keys derive from the Set values
	if len(set) > 0 && !full {
		enc, err := e.patchAttrs(set)
		if err != nil {
			return TxOp{}, opErr("patch", e.def.Type, pp.k, err)
		}
		for f, v := range set {
			if err := codec.CheckFieldValue(reflect.TypeFor[T](), e.def.Type, f, v); err != nil {
				return TxOp{}, opErr("patch", e.def.Type, pp.k, err)
			}
			av, stored := enc[f]
			ph, prepared := pp.b.SetPH[f]
			if !stored || !prepared { // a removal now or when prepared: another shape
				full = true
				break
			}
			if r := codec.Check(av); r != "" {
				return TxOp{}, opErr("patch", e.def.Type, pp.k, &ValidationError{Entity: e.def.Type, Field: f, Reason: "cannot set: " + r})
			}
			codec.Rebind(vals, ph, av)
		}
	}
	if full {
		p := pp.p
		p.Set = set
		return e.PatchOp(pp.k, p)
	}
	for _, ta := range e.touched(pp.p) {
		if ph, ok := pp.b.TouchPH[ta.Name]; ok {
			codec.Rebind(vals, ph, ta.Value)
		}
	}
	if _, ok := vals[":now"]; ok {
		codec.Rebind(vals, ":now", codec.Num(e.t.now().Unix()))
	}
	return TxOp{op: pp.op.WithValues(vals)}, nil
}
