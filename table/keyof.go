package table

import (
	"fmt"

	"github.com/singletable/singletable/internal/keytmpl"
)

// Keys and queries from the declaration. A caller never writes a key's
// shape: the entity's templates ([Def.Keys], [Def.IndexKeys]) build it
// from the fields that name the item, so a key cannot drift from what the
// writes store.

// Key returns the primary key of the item whose key fields are set in
// fields (the other fields are ignored):
//
//	note, err := notes.Get(ctx, notes.Key(Note{ID: "n1"}))
//
// A key field left empty, or a value a key segment cannot hold, makes a
// key that every method refuses with a *[ValidationError] naming the
// field, before any request ([Key.Err] tells it too).
func (e *Entity[T]) Key(fields T) Key {
	k, err := e.KeyOf(&fields)
	if err != nil {
		return keytmpl.BadKey(opErr("key", e.def.Type, Key{}, err))
	}
	return k
}

// Partition returns the query of this entity's items in one partition of
// index ix ([Primary] for the table): the partition key built from ix's
// template with the fields set in fields, and the sort key narrowed to
// the literal prefix the template starts with (the whole sort key when it
// has no field), so the query reads only this entity's items:
//
//	page, err := notes.List(ctx, notes.Partition(table.GSI1, Note{Author: "ann"}), table.Desc(), table.Limit(20))
//
// Like [Entity.Key], a missing field or an index the entity does not
// declare makes a query every method refuses before any request.
func (e *Entity[T]) Partition(ix Index, fields T) Query {
	pk, sk := e.decl.pk, e.decl.sk
	if ix != Primary {
		pair, ok := e.decl.indexes[ix]
		if !ok {
			return Query{Index: ix, err: opErr("partition", e.def.Type, Key{}, &ValidationError{Entity: e.def.Type, Field: fmt.Sprintf("GSI%d", ix), Reason: "no template for this index in the entity's Def.IndexKeys"})}
		}
		pk, sk = pair[0], pair[1]
	}
	av, err := e.decl.encode(&fields)
	if err != nil {
		return Query{Index: ix, err: opErr("partition", e.def.Type, Key{}, err)}
	}
	v, ok, err := pk.WithoutShard().Build(av)
	if err == nil && !ok {
		err = &ValidationError{Entity: e.def.Type, Field: keytmpl.JoinAttrs(pk.Attrs()), Reason: "empty: the partition key derives from it", Key: true}
	}
	if err != nil {
		return Query{Index: ix, err: opErr("partition", e.def.Type, Key{}, err)}
	}
	q := Query{Index: ix, PK: v}
	p, whole, err := sk.Prefix(nil)
	if err != nil {
		return Query{Index: ix, err: opErr("partition", e.def.Type, Key{}, err)}
	}
	if whole {
		q.SK = SKEquals(p)
	} else if p != "" {
		q.SK = SKBeginsWith(p)
	}
	return q
}
