package listbackup

import (
	"strings"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// Every key a store method reads by is built from the templates entity/lb
// declares (the ones the Defs write items by): a Query's partition with
// [table.Template.Partition], a begins_with prefix or a range bound with
// [table.Template.SortPrefix], an item's key with the lb key helpers. No
// key is concatenated here.

// vals are template values by attribute name: vals{"userId": "u1"}.
type vals = map[string]string

// inPartition returns the Query of index ix ([table.Primary] for the
// table) in the partition template t gives the values v, with no sort-key
// condition.
func inPartition(ix table.Index, t table.Template, v vals) (table.Query, error) {
	pk, err := t.Partition(v)
	if err != nil {
		return table.Query{}, err
	}
	return table.Query{Index: ix, PK: pk}, nil
}

// inPrefix is [inPartition] narrowed to the sort keys of template t that
// begin with the values sk (nil: its leading literals), each segment
// whole ([table.Template.SortPrefix]).
func inPrefix(ix table.Index, t table.Template, pk, sk vals) (table.Query, error) {
	q, err := inPartition(ix, t, pk)
	if err != nil {
		return table.Query{}, err
	}
	p, err := t.SortPrefix(sk)
	if err != nil {
		return table.Query{}, err
	}
	if p != "" { // a sort key that begins with a reference v leaves unset
		q.SK = table.SKBeginsWith(p)
	}
	return q, nil
}

// sortBound returns the sort key of template t up to and including the
// values v, without the delimiter that would follow: a bound of a range
// ("EVT#{createdAt}" is at or below every key of that instant).
func sortBound(t table.Template, v vals) (string, error) {
	p, err := t.SortPrefix(v)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(p, keys.Delimiter), nil
}
