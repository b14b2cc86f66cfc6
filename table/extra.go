package table

import (
	"reflect"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/secret"
)

// Extra holds the attributes of an item that its Go type does not model,
// exactly as DynamoDB stores them (the catch-all). An entity opts in by
// declaring one field of this type tagged `dynamo:"-"`:
//
//	type Preferences struct {
//		Theme string      `dynamo:"theme"`
//		Extra table.Extra `dynamo:"-"` // every other attribute, kept
//	}
//
// The engine then:
//
//   - fills it on every read (Get, List, BatchGet, ReadCollection, Update's read,
//     Patch's result...) with every stored attribute that no field models
//     and that the engine does not write itself (the primary key, the
//     entity-type, version and write-token attributes, the index keys and
//     TTL the entity derives). Values are the raw attribute values: a
//     string set stays a string set, a number keeps its spelling, a NULL
//     stays NULL. A read sets it to nil when there is none.
//   - writes it back on every write of the whole item (Create, Put,
//     Replace, Update, Upsert, BatchPut, transaction ops): an entry is
//     stored as it is; a field of the type with the same name wins, and
//     names the engine writes itself are ignored.
//   - Update, Replace and Upsert diff it like any field: an entry the
//     caller did not change is not written (the stored bytes stay), an
//     entry the caller changed or added is SET, an entry the caller
//     deleted from a non-nil map is REMOVEd. A nil Extra (an item built in
//     code, or read with none) leaves every unmodelled attribute as
//     stored: to remove them all, set it to an empty map.
//   - Patch and Change never touch it (they name the attributes they set).
//
// Without the field, attributes the type does not model are still kept by
// Update, Replace, Upsert and Patch (they write only what changed), but
// are lost by a whole-item write of a value read earlier (Put, BatchPut).
type Extra = codec.Extra

// ownAttrs returns the attribute names the engine writes itself for
// items of this entity, which Extra never holds: the primary key, the
// entity-type, version and write-token attributes, the TTL when the
// entity derives it, and the index keys it declares.
func (e *Entity[T]) ownAttrs() map[string]bool {
	e.ownOnce.Do(func() {
		s := e.t.schema
		own := map[string]bool{s.PK: true, s.SK: true}
		for _, a := range []string{s.TypeAttr, s.VersionAttr, s.TokenAttr} {
			if a != "" {
				own[a] = true
			}
		}
		if e.hasTTL() && s.TTLAttr != "" {
			own[s.TTLAttr] = true
		}
		for i, is := range s.Indexes {
			if _, declared := e.decl.indexes[Index(i+1)]; declared {
				own[is.PK], own[is.SK] = true, true
			}
		}
		e.own = own
	})
	return e.own
}

// fillExtra sets v's Extra field, if it has one, to the attributes of raw
// that no field of T models and the engine does not own.
func (e *Entity[T]) fillExtra(raw Item, v *T) {
	f := codec.ExtraOf(v)
	if !f.IsValid() {
		return
	}
	fields := codec.FieldsOf(reflect.TypeFor[T]())
	own := e.ownAttrs()
	var out Extra
	for name, av := range raw {
		if _, modelled := fields[name]; modelled || own[name] {
			continue
		}
		if out == nil {
			out = Extra{}
		}
		out[name] = av
	}
	f.Set(reflect.ValueOf(out))
}

// addExtra adds item's Extra entries to av, its encoding: a modelled
// attribute present in av and the engine's own attributes win; and the
// members its nested Extra fields keep to the maps they belong to (see
// nested.go).
func (e *Entity[T]) addExtra(av Item, item *T) {
	codec.AddNested(av, reflect.ValueOf(item).Elem())
	f := codec.ExtraOf(item)
	if !f.IsValid() || f.Len() == 0 {
		return
	}
	fields := codec.FieldsOf(reflect.TypeFor[T]())
	own := e.ownAttrs()
	for name, v := range f.Interface().(Extra) {
		if _, modelled := fields[name]; modelled || own[name] || v == nil {
			continue
		}
		av[name] = v
	}
}

// encodePlain encodes item as a write would before keys, secrets and the
// engine's attributes are added: the fields and the Extra entries, which
// Update and Replace diff.
func (e *Entity[T]) encodePlain(item *T) (Item, error) {
	av, err := dynamo.MarshalItem(item)
	if err != nil {
		return nil, err
	}
	codec.KeepEmptyMapStrings(av, reflect.ValueOf(item).Elem())
	e.addExtra(av, item)
	return av, nil
}

// keepStored is the package's keepStored for attribute attr, except for
// attributes holding secrets: those are written as sealed by this write.
func (e *Entity[T]) keepStored(attr string, stored, old, nw types.AttributeValue) types.AttributeValue {
	for _, path := range e.def.Secrets {
		if secret.Top(path) == attr {
			return nw
		}
	}
	return codec.KeepStored(stored, old, nw)
}
