package table

import (
	"reflect"
	"time"
)

// SortPrefixAt returns the begins_with prefix of index ix's sort keys
// ([Primary] for the table's) that the fields set in fields and the time
// t of the sort key's attribute at build, as [Entity.Prefix] narrows them:
// the template's leading parts up to the first attribute left empty, each
// followed by the delimiter (all of them set: the whole sort key). The time's segment is built from t to the
// nanosecond, even when the field is stored as epoch seconds (`unixtime`),
// whose typed value would drop them: the bound of a time range ("due at
// or before now"), an instant no write need store. Trim the delimiter for
// a bound at the instant itself:
//
//	p, err := runs.SortPrefixAt(table.GSI1, Run{}, "startedAt", from) // "2024-01-31T09:30:00.500000000Z#"
//
// A zero t leaves the time unset: the prefix of the fields before it, "STATUS#{status}#" of STATUS#{status}#{createdAt:ts}#{id}.
// An attribute the sort key does not reference or an index the entity
// does not declare gives a *[ValidationError], as a missing field does
// ([Entity.Partition]).
func (e *Entity[T]) SortPrefixAt(ix Index, fields T, at string, t time.Time) (string, error) {
	p, err := e.decl.SortPrefixAt(e.def.Type, ix, reflect.ValueOf(&fields).Elem(), at, t)
	return p, opErr("prefix", e.def.Type, Key{}, err)
}
