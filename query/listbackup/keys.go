package listbackup

import "github.com/singletable/singletable/table"

// Every key a store method reads by is built from the templates entity/lb
// declares, through the entity that writes by them: an item's key with
// [table.Entity.CheckedKey] (the key fields' own checks) or
// [table.Entity.Key], a Query's partition with [table.Entity.Partition],
// a begins_with on the leading sort-key fields with [table.Entity.Prefix].
// No key is concatenated here, and no template is given a map of strings.

// partition returns the query of e's items in one partition of index ix
// ([table.Entity.Partition]) with no sort-key condition: the request
// these reads send, for partitions that hold one entity's items alone.
func partition[T any](e *table.Entity[T], ix table.Index, fields T) table.Query {
	q := e.Partition(ix, fields)
	q.SK = table.SKCond{}
	return q
}
