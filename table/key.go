package table

// Key is the primary key of an item: partition key and sort key values.
type Key struct {
	PK string
	SK string
}

// IndexKey is an item's key in one GSI. An empty PK leaves the item out of
// the index (a sparse index).
type IndexKey struct {
	PK string
	SK string
}

// Keys are all key values of an item: its primary key and, per GSI, its
// index key (Indexes[GSI1] is GSI1's).
type Keys struct {
	Key
	Indexes map[Index]IndexKey
}

// KeyOf returns the primary key of a raw item (as returned by
// [Table.QueryItems]).
func (t *Table) KeyOf(raw Item) Key { return t.keyFromItem(raw) }
