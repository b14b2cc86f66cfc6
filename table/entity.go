package table

import (
	"reflect"
	"sync"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/decl"
	"github.com/singletable/singletable/internal/keytmpl"
)

// Entity reads and writes items of type T in a [Table]. Create one per
// entity type with [NewEntity]; it is safe for concurrent use.
type Entity[T any] struct {
	t    *Table
	def  Def[T]    // the declaration as written
	decl *declared // the declaration, parsed

	touchOnce sync.Once
	touches   []ddb.Touched // what Def.Touch writes (see touchPlan)
	stamps    *codec.Stamps // Def.Timestamps, bound (nil: none)

	ownOnce sync.Once
	own     map[string]bool // the attributes Extra never holds (see ownAttrs)

	readIdx []int // T's ReadState field, if any (see ReadState)
}

// NewEntity binds def to table t. It panics if def has no Type or Keys,
// or declares something that references an attribute the type does not
// have: those are programming errors, found at start-up.
func NewEntity[T any](t *Table, def Def[T]) *Entity[T] {
	if def.Type == "" {
		panic("table.NewEntity: Def.Type is required")
	}
	d := declare(t, &def)
	def.Validate = decl.ItemCheck(d.FieldChecks, decl.ItemValidator(def.Validate)) // what every write checks
	e := &Entity[T]{t: t, def: def, decl: d, readIdx: codec.UnstoredField(reflect.TypeFor[T](), readStateType, "table.ReadState"),
		stamps: codec.BindStamps(def.Type, reflect.TypeFor[T](), codec.Timestamps(def.Timestamps))}
	codec.ExtraIndex(reflect.TypeFor[T]()) // a misdeclared Extra field panics here
	t.entMu.Lock()
	t.entities = append(t.entities, e)
	if _, taken := t.byType[def.Type]; !taken {
		if t.byType == nil {
			t.byType = map[string]AnyEntity{}
		}
		t.byType[def.Type] = e // the first entity of a type is the one a record routes to
	}
	t.entMu.Unlock()
	return e
}

// Validate runs the check every write runs ([Def.Validate]) on item, for
// an operation of several requests that must refuse it before the first.
func (e *Entity[T]) Validate(item *T) error { return e.def.Validate(item) }

// Type returns the entity-type name.
func (e *Entity[T]) Type() string { return e.def.Type }

// Table returns the table the entity lives in.
func (e *Entity[T]) Table() *Table { return e.t }

// KeyOf returns the primary key derived from item's fields.
func (e *Entity[T]) KeyOf(item *T) (Key, error) {
	av, err := e.decl.Encode(item)
	if err != nil {
		return Key{}, err
	}
	k, err := e.decl.Primary(av)
	if err != nil {
		return Key{}, err
	}
	return k, keytmpl.CheckKey(k)
}

// IndexKeysOf returns the GSI keys derived from item's fields, as a write
// would set them (an index the item is not in is absent).
func (e *Entity[T]) IndexKeysOf(item *T) (map[Index]IndexKey, error) {
	if len(e.decl.Indexes) == 0 {
		return map[Index]IndexKey{}, nil
	}
	return e.indexKeys(item)
}

// fixedAttrs returns the attributes no write may change after creation.
func (e *Entity[T]) fixedAttrs() []string {
	if e.def.Scope == "" {
		return e.def.Fixed
	}
	return append(e.def.Fixed[:len(e.def.Fixed):len(e.def.Fixed)], e.def.Scope)
}
