package table

// KeyOf returns the primary key of a raw item (as returned by
// [Table.QueryItems]).
func (t *Table) KeyOf(raw Item) Key { return t.keyFromItem(raw) }
