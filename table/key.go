package table

// Key is the primary key of an item: partition key and sort key values.
// Build it from the entity's declaration with [Entity.Key] rather than by
// hand: the templates are the only place a key's shape is written.
type Key struct {
	PK string
	SK string

	// err is why [Entity.Key] could not build the key: every method that
	// takes the key returns it, before any request.
	err error
}

// String formats the key as {PK SK}.
func (k Key) String() string { return "{" + k.PK + " " + k.SK + "}" }

// Equal reports whether k and o are the same key (and, for keys that
// could not be built, the same error). go-cmp uses it, so cmp.Diff
// compares keys without options.
func (k Key) Equal(o Key) bool { return k == o }

// Err returns why [Entity.Key] could not build k (nil for a key that
// holds values).
func (k Key) Err() error { return k.err }

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
