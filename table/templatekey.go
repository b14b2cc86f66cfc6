package table

import (
	"fmt"
	"strings"

	"github.com/singletable/singletable/internal/decl"
)

// The key builder: a [Template] is the one statement of a key's shape,
// and the keys a caller needs (one item's key for a Get, a partition for
// a Query, a sort-key prefix for begins_with) are built from it, and keys
// read from the table parsed back with it, by the same grammar the engine
// writes items with. No second pattern restates the template.
//
//	var UserKeys = table.Template{PK: "USER#{userId}", SK: "PROFILE"}
//	k, err := UserKeys.Key(map[string]string{"userId": "u1"}) // USER#u1 / PROFILE
//	v, err := UserKeys.Parse(k)                                // {"userId": "u1"}
//
// Values are the attributes' values as strings, before any transform: a
// time for ":ts" as RFC 3339, or, written in digits only, epoch seconds
// (":ts") or Unix milliseconds (":ms") as the number attribute would hold
// them; an integer for ":N" in decimal; a raw string for ":esc" (the
// builder escapes it).

// Key returns the primary key the template gives the attribute values v
// (by attribute name). A value the templates need and v lacks, or a value
// that would not make a valid segment, gives a *[ValidationError] naming
// the attribute; a name no template references gives one too (a typo
// never builds a key silently).
func (t Template) Key(v map[string]string) (Key, error) {
	return decl.MapKey(t.PK, t.SK, v)
}

// Partition returns the partition key alone (the PK of a Query), built
// from v. A trailing shard segment, with its count or without (":shard",
// not yet given one by [Template.WithShards]), is left out: the result is
// then the partition [Query.Shards] reads whole.
func (t Template) Partition(v map[string]string) (string, error) {
	return decl.MapSide(t.WithShards(2).PK, v, "partition key", true) // the count is left out with the segment
}

// SortKey returns the sort key alone (a bound of a range), built from v.
func (t Template) SortKey(v map[string]string) (string, error) {
	return decl.MapSide(t.SK, v, "sort key", false)
}

// SortPrefix returns a begins_with prefix of the template's sort keys: its
// leading literal segments and the leading references v sets, ending with
// the key delimiter, so that "SUB#" never matches "SUBUPD#..." and
// "TOPIC#1#" never matches "TOPIC#10#...". A sort key that begins with a
// reference v leaves unset ("{createdAt:ts}#{eventId}" and nil) has no
// prefix: "", which every key begins with. It refuses a constant sort key
// and a v that sets every reference (that is a whole key: [Template.Key]).
func (t Template) SortPrefix(v map[string]string) (string, error) {
	return decl.MapSortPrefix(t.SK, v)
}

// Parse returns the attribute values the key k holds, by attribute name:
// the inverse of [Template.Key] (Key(Parse(k)) is k). A key of another
// shape gives a *[ValidationError]. A reference whose transform keeps
// only part of the value (":root", ":shardN") is not read back; an ":opt"
// segment holding "-" gives no value; a time comes back as RFC 3339
// (":ts") or as Unix milliseconds in digits (":ms").
func (t Template) Parse(k Key) (map[string]string, error) {
	return decl.MapParse(t.PK, t.SK, k)
}

// Matches reports whether k has the template's shape (as many segments,
// the same literals, every segment valid): whether [Template.Parse]
// succeeds.
func (t Template) Matches(k Key) bool {
	_, err := t.Parse(k)
	return err == nil
}

// WithShards returns the template with every ":shard" reference (a shard
// segment without its count, "USERS#{userId:shard}") given the count n:
// ":shardN", the count a deployment's profile picks (1 leaves the segment
// out: the unsharded key byte for byte). A template is declared once with
// ":shard"; the store that knows the profile calls WithShards.
func (t Template) WithShards(n int) Template {
	r := strings.NewReplacer(":shard}", fmt.Sprintf(":shard%d}", n))
	t.PK, t.SK = r.Replace(t.PK), r.Replace(t.SK)
	return t
}

// References returns the attributes the templates reference, in order,
// each once.
func (t Template) References() ([]string, error) {
	return decl.MapReferences(t.PK, t.SK)
}
