package table

import (
	"reflect"
	"time"

	"github.com/singletable/singletable/internal/decl"
	"github.com/singletable/singletable/internal/keytmpl"
)

// declared is an entity's one parsed declaration ([decl.Decl]), with the
// short names pattern.go and keyof.go read it by.
type declared struct {
	*decl.Decl
	pk, sk  keytmpl.Template
	indexes map[Index][2]keytmpl.Template
}

func (d *declared) encode(item any) (Item, error) { return d.Encode(item) }

// declare parses def's declarations against T's attributes on table t's
// schema. It panics on a malformed declaration (a programming error, like
// a missing Def.Type).
func declare[T any](t *Table, def *Def[T]) *declared {
	s := decl.Spec{Type: def.Type, PK: def.Keys.PK, SK: def.Keys.SK, Indexes: map[Index]decl.IndexSpec{},
		ValidWhileIndexed: def.ValidWhileIndexed, UniqueOn: def.UniqueOn, UniqueFold: def.UniqueFold,
		TTLFrom: def.TTL.From, TTLAfter: def.TTL.After, Secrets: def.Secrets, Required: def.Required, Unchecked: def.Unchecked}
	for ix, ks := range def.IndexKeys {
		s.Indexes[ix] = decl.IndexSpec{PK: ks.PK, SK: ks.SK, When: ks.When}
	}
	if c := def.CustomUniques; c != nil {
		s.Custom = true
		if c.Uniques != nil {
			s.CustomFrom = c.From
		}
	}
	d := decl.Parse(reflect.TypeFor[T](), t.schema, s)
	return &declared{Decl: d, pk: d.PK, sk: d.SK, indexes: d.Indexes}
}

// hasUniques reports whether the entity declares unique values.
func (e *Entity[T]) hasUniques() bool {
	return len(e.decl.UniqueOn) > 0 || e.def.CustomUniques != nil
}

// uniques returns item's unique values (UniqueOn, then CustomUniques).
func (e *Entity[T]) uniques(item *T) []Unique {
	var us []Unique
	if len(e.decl.UniqueOn) > 0 {
		av, err := e.decl.Encode(item)
		if err != nil {
			return nil
		}
		us = e.decl.Uniques(av)
	}
	if c := e.def.CustomUniques; c != nil {
		us = append(us, c.Uniques(item)...)
	}
	return us
}

// hasTTL reports whether the entity declares a TTL (Def.TTL.From).
func (e *Entity[T]) hasTTL() bool { return e.decl.TTLFrom != "" }

// expires returns the TTL item's fields give (zero: none).
func (e *Entity[T]) expires(item *T) time.Time {
	av, err := e.decl.Encode(item)
	if err != nil {
		return time.Time{}
	}
	return e.decl.Expiry(av)
}

// indexKeys returns the GSI keys item's fields derive.
func (e *Entity[T]) indexKeys(item *T) (map[Index]IndexKey, error) {
	av, err := e.decl.Encode(item)
	if err != nil {
		return nil, err
	}
	return e.decl.IndexKeys(av)
}
