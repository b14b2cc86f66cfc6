package table

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
	"github.com/singletable/singletable/keys"
)

// Range returns [Entity.Partition]'s query of index ix narrowed to the
// sort keys from the start of the keys from's sort-key fields begin up to,
// not including, the keys to's begin: each bound is the sort key's leading
// fields set (a field at its zero value is unset), as [Entity.Prefix]
// builds them. A bound that sets no sort-key field is open: from starts
// at the template's literal prefix, to ends after every key beginning
// with it. So a time range over "SUBUPD#{UpdatedAt:ts}#{Topic}" is
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
	fail := func(err error) Query { q.err = opErr("range", e.def.Type, Key{}, err); return q }
	if qt := e.Partition(ix, to); qt.err != nil {
		return qt
	} else if qt.PK != q.PK {
		return fail(&ValidationError{Entity: e.def.Type, Field: "partition", Reason: fmt.Sprintf("from and to are in different partitions (%s, %s)", q.PK, qt.PK), Key: true})
	}
	sk := e.decl.sk
	if ix != Primary {
		sk = e.decl.indexes[ix][1]
	}
	var b [2]string
	for i, f := range []*T{&from, &to} {
		p, whole, set, err := e.sortBound(sk, f)
		if err != nil {
			return fail(err)
		}
		switch {
		case whole:
		case set:
			p = strings.TrimSuffix(p, keys.Delimiter) // below every key it begins
		case i == 1 && strings.HasSuffix(p, keys.Delimiter):
			p = strings.TrimSuffix(p, keys.Delimiter) + string(rune(keys.Delimiter[0]+1)) // after every key it begins
		case i == 1 && p != "":
			p += top
		}
		b[i] = p
	}
	switch {
	case b[1] != "" && b[1] < b[0]:
		return fail(&ValidationError{Entity: e.def.Type, Field: keytmpl.JoinAttrs(sk.Attrs()), Reason: fmt.Sprintf("reversed range: to %s is before from %s", b[1], b[0]), Key: true})
	case b[0] == "" && b[1] == "":
		q.SK = SKCond{}
	case b[1] == "":
		q.SK = SKGreaterEq(b[0])
	case b[0] == "":
		q.SK = SKLessEq(b[1])
	default:
		q.SK = SKBetween(b[0], b[1])
	}
	return q
}

// SortPrefix returns the start of index ix's sort keys that the leading
// sort-key fields set in fields build, as [Entity.Prefix] narrows to
// (a field at its zero value is unset): "MSG#" for a message template
// MSG#{SeqId}, when a query's bound, not a begins_with, needs it. All of
// them set, it is the whole sort key. A bad value gives a
// *[ValidationError], a key that cannot be built.
func (e *Entity[T]) SortPrefix(ix Index, fields T) (string, error) {
	sk := e.decl.sk
	if ix != Primary {
		pair, ok := e.decl.indexes[ix]
		if !ok {
			return "", opErr("sortprefix", e.def.Type, Key{}, &ValidationError{Entity: e.def.Type, Field: fmt.Sprintf("GSI%d", ix), Reason: "no template for this index in the entity's Def.IndexKeys"})
		}
		sk = pair[1]
	}
	p, _, _, err := e.sortBound(sk, &fields)
	if err != nil {
		return "", opErr("sortprefix", e.def.Type, Key{}, err)
	}
	return p, nil
}

// sortBound returns the prefix of sort-key template sk that fields' set
// sort-key fields build, whether it is a whole key, and whether any
// sort-key field is set.
func (e *Entity[T]) sortBound(sk keytmpl.Template, fields *T) (p string, whole, set bool, err error) {
	av, err := e.decl.encode(fields)
	if err != nil {
		return "", false, false, err
	}
	v := reflect.ValueOf(fields).Elem()
	info := codec.FieldsOf(v.Type())
	for _, a := range sk.Attrs() {
		if fi, ok := info[a]; ok {
			if f, ferr := v.FieldByIndexErr(fi.Index); ferr == nil && f.IsZero() {
				delete(av, a)
			}
		}
	}
	lit, _, _ := sk.Prefix(nil)
	p, whole, err = sk.Prefix(av)
	return p, whole, p != lit, err
}
