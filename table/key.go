package table

import "github.com/singletable/singletable/internal/keytmpl"

// Key is the primary key of an item: partition key and sort key values.
// Build it from the entity's declaration with [Entity.Key] rather than by
// hand: the templates are the only place a key's shape is written.
// [Key.Err] returns why [Entity.Key] could not build it.
type Key = keytmpl.Key

// IndexKey is an item's key in one GSI. An empty PK leaves the item out of
// the index (a sparse index).
type IndexKey = keytmpl.IndexKey

// Keys are all key values of an item: its primary key and, per GSI, its
// index key (Indexes[GSI1] is GSI1's).
type Keys struct {
	Key
	Indexes map[Index]IndexKey
}

// KeyOf returns the primary key of a raw item (as returned by
// [Table.QueryItems]).
func (t *Table) KeyOf(raw Item) Key { return t.c.KeyOf(raw) }
