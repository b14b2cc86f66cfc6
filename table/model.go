package table

import (
	"reflect"
	"slices"
	"sort"

	"github.com/singletable/singletable/internal/codec"
)

// EntityModel is an entity's design as data, for tools (documentation,
// NoSQL Workbench, reviews): its type, key templates, index templates,
// unique values, TTL, and the fields of its Go type.
type EntityModel struct {
	Type    string
	Keys    Template
	Indexes map[string]Template // by index name
	// Unique lists the UniqueOn declarations ("email", or "keyhash=keyHash"
	// for a guard named apart from its attribute).
	Unique []string
	TTL    TTL
	// CustomUniques names the attributes the entity's custom unique values
	// derive from (Def.CustomUniques), empty without them.
	CustomUniques []string
	// ValidWhileIndexed names the indexes an item is valid only while it
	// is stored under (Def.ValidWhileIndexed), empty without any.
	ValidWhileIndexed []string
	// Fields are the attribute names of the Go type, sorted (fields stored
	// only in the key by their `key` tag).
	Fields []string
}

// Model returns the entity's design as data.
func (e *Entity[T]) Model() EntityModel {
	m := EntityModel{Type: e.def.Type, Keys: e.def.Keys, Unique: slices.Clone(e.def.UniqueOn), TTL: e.def.TTL}
	if len(e.def.IndexKeys) > 0 {
		m.Indexes = map[string]Template{}
		for ix, ks := range e.def.IndexKeys {
			is, _ := e.t.schema.GSI(ix)
			m.Indexes[is.Name] = ks
		}
	}
	m.CustomUniques = slices.Clone(e.decl.Custom)
	for _, ix := range e.def.ValidWhileIndexed {
		is, _ := e.t.schema.GSI(ix)
		m.ValidWhileIndexed = append(m.ValidWhileIndexed, is.Name)
	}
	for f := range codec.FieldsOf(reflect.TypeFor[T]()) {
		m.Fields = append(m.Fields, f)
	}
	for f := range e.decl.KeyOnly {
		m.Fields = append(m.Fields, f)
	}
	sort.Strings(m.Fields)
	return m
}
