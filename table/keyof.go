package table

import (
	"fmt"
	"reflect"

	"github.com/singletable/singletable/internal/decl"
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

// CheckedKey is [Entity.Key] for key fields that come from a caller (an
// ID in a request or a path): first each primary-key field whose type
// checks itself (a typed ID of [NewIDs], an enumeration of [NewEnum]; with the
// attribute's name), even when zero, in template order (PK, then SK);
// then the templates' segment checks:
//
//	k, err := notes.CheckedKey(Note{ID: id}) // a bad or empty id: *ValidationError, no request
//
// checks are the caller's rules beyond the fields' own (a plain string's
// length, a field named otherwise in its API): the first non-nil one is
// returned as it is, before the fields' checks. Use Key for the fields of
// an item read back, which must stay tolerant of forms other writers
// stored. Errors: the first *[ValidationError] (a field's own, naming the
// attribute), before any request; the key returned with it is refused by
// every method.
func (e *Entity[T]) CheckedKey(fields T, checks ...error) (Key, error) {
	for _, err := range checks {
		if err != nil {
			return keytmpl.BadKey(err), err
		}
	}
	if err := decl.RunSelfChecks(reflect.ValueOf(&fields).Elem(), e.decl.KeyChecks); err != nil {
		err = opErr("key", e.def.Type, Key{}, err)
		return keytmpl.BadKey(err), err
	}
	k := e.Key(fields)
	return k, k.Err()
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
	return e.narrow("partition", ix, fields, false)
}

// Prefix is [Entity.Partition] narrowed further by the sort key's fields
// set in fields: the sort key begins with the template's leading parts up
// to the first field fields leaves empty, each built as a write builds it
// and followed by the delimiter ("SUB#" never matches "SUBUPD#..."); all
// of them set, the sort key equals the whole key. With no sort-key field
// set (a field at its zero value is unset) it is [Entity.Partition]'s query. So a query by a partition and the
// leading part of a sort key is written with typed fields, never a string:
//
//	page, err := jobs.List(ctx, jobs.Prefix(table.GSI2, Job{AccountID: a, Status: "running"}))
//
// A field set after an empty one is not read. Errors as [Entity.Partition].
func (e *Entity[T]) Prefix(ix Index, fields T) Query { return e.narrow("prefix", ix, fields, true) }

// narrow is Partition and Prefix: the partition of ix built from fields,
// the sort key narrowed to its literal start or, bySort, to the start the
// fields set build.
func (e *Entity[T]) narrow(op string, ix Index, fields T, bySort bool) Query {
	pk, sk, err := e.decl.Narrow(e.def.Type, ix, reflect.ValueOf(&fields).Elem(), bySort)
	if err != nil {
		return Query{Index: ix, err: opErr(op, e.def.Type, Key{}, err)}
	}
	return Query{Index: ix, PK: pk, SK: sk}
}

// Range returns [Entity.Partition]'s query of index ix narrowed to the
// sort keys from the start of the keys from's sort-key fields begin up to,
// not including, the keys to's begin: each bound is the sort key's leading
// fields set, as [Entity.Prefix] builds them. A bound that sets no
// sort-key field is open: from starts at the template's literal prefix,
// to ends after every key beginning with it. So a time range over
// "SUBUPD#{UpdatedAt:ts}#{Topic}" is
//
//	subs.Range(table.GSI1, Sub{User: u, UpdatedAt: since}, Sub{User: u})
//
// sent as SK BETWEEN SUBUPD#{since} AND SUBUPD$ ('$' follows the
// delimiter '#'), and one before t, from Sub{} to Sub{UpdatedAt: t}, as
// SK BETWEEN SUBUPD# AND SUBUPD#{t}. A to that sets every sort-key field
// is a whole key, included. from and to must build the same partition.
// Errors as [Entity.Partition], and a reversed range, before any request.
func (e *Entity[T]) Range(ix Index, from, to T) Query {
	q := e.Partition(ix, from)
	if q.err != nil {
		return q
	}
	var err error
	if qt := e.Partition(ix, to); qt.err != nil {
		return qt
	} else if qt.PK != q.PK {
		err = &ValidationError{Entity: e.def.Type, Field: "partition", Reason: fmt.Sprintf("from and to are in different partitions (%s, %s)", q.PK, qt.PK), Key: true}
	} else {
		q.SK, err = e.decl.Range(e.def.Type, ix, reflect.ValueOf(&from).Elem(), reflect.ValueOf(&to).Elem())
	}
	q.err = opErr("range", e.def.Type, Key{}, err)
	return q
}

// SortPrefix returns the start of index ix's sort keys that the leading
// sort-key fields set in fields build, as [Entity.Prefix] narrows to:
// "MSG#" for a message template MSG#{SeqId}, when a query's bound, not a
// begins_with, needs it. All of them set, it is the whole sort key. A bad
// value gives a *[ValidationError], a key that cannot be built.
func (e *Entity[T]) SortPrefix(ix Index, fields T) (string, error) {
	_, sk, err := e.decl.Templates(e.def.Type, ix)
	var p string
	if err == nil {
		p, _, _, err = e.decl.SortPrefix(sk, reflect.ValueOf(&fields).Elem())
	}
	if err != nil {
		return "", opErr("sortprefix", e.def.Type, Key{}, err)
	}
	return p, nil
}

// FromKey returns the item named by primary key k with only its key
// fields set: the fields the key templates reference, read back as a
// write builds them (a reference whose transform keeps part of a value,
// such as ":shardN", is not read back). It parses a key met elsewhere (a
// unique guard's owner, a stream record's key) into typed fields:
//
//	u, err := users.FromKey(guard.Owner) // u.ID set
//
// A key of another shape gives a *[ValidationError], before any request.
func (e *Entity[T]) FromKey(k Key) (T, error) {
	var v T
	return v, opErr("fromkey", e.def.Type, k, e.decl.FromKey(e.def.Type, k, reflect.ValueOf(&v).Elem()))
}

// Fields read from the key. A field tagged `key:"name"` is named by the
// key templates: stored only in the key (`dynamo:"-" key:"name"`), or
// stored too. A read sets it from the item's primary key, which wins over
// a stored value: the key is what names the item, so an item another
// writer stored without the attribute reads whole. Untagged fields are
// read only from their attributes.

// readKeyFields sets item's key-tagged fields from raw's primary key
// (the decoders' last step).
func (e *Entity[T]) readKeyFields(raw Item, item *T) {
	if len(e.decl.KeyTagged) > 0 {
		e.decl.FillFromKey(reflect.ValueOf(item).Elem(), e.decl.KeyValues(e.t.c.KeyOf(raw)))
	}
}
