package listbackup

import "github.com/singletable/singletable/table"

// Every key a store method reads by is built from the templates entity/lb
// declares, through the entity that writes by them: an item's key with
// [table.Entity.CheckedKey] (the key fields' own checks) or
// [table.Entity.Key], a Query's partition with [table.Entity.Partition],
// a begins_with on the leading sort-key fields with [table.Entity.Prefix].
// No key is concatenated here, and no template is given a map of strings.

// key returns the primary key e's declaration gives the item fields
// names ([table.Entity.Key]), after checks: the application's own rules
// for key fields that have no check of their own (lb.CheckID's 128 bytes
// on a string, a hash's 64 hex digits, a set time, a tag part), the first
// failing one's *table.ValidationError, before the templates' segment
// checks. A key whose fields' own checks are the rules is
// e.CheckedKey's.
func key[T any](e *table.Entity[T], fields T, checks ...error) (table.Key, error) {
	if err := first(checks...); err != nil {
		return table.Key{}, err
	}
	k := e.Key(fields)
	return k, k.Err()
}

// partition returns the query of e's items in one partition of index ix
// ([table.Entity.Partition]) with no sort-key condition: the request
// these reads send, for partitions that hold one entity's items alone.
func partition[T any](e *table.Entity[T], ix table.Index, fields T) table.Query {
	q := e.Partition(ix, fields)
	q.SK = table.SKCond{}
	return q
}
