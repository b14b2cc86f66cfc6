package table

import "github.com/singletable/singletable/internal/keytmpl"

// Template declares a key as data: templates of literal segments and
// attribute references joined by the key delimiter '#', such as
// "USER#{userId}" and "POST#{at:ts}#{id}". An attribute reference names
// an attribute of the entity (its `dynamo` name), checked by [NewEntity];
// its value is the attribute's string or number, or, after a colon, what
// a named transform makes of it:
//
//   - ":ts": a time (RFC 3339 string, or epoch seconds of a `unixtime`
//     attribute) as [keys.Timestamp] (UTC, fixed-width nanoseconds, so
//     byte order is time order);
//   - ":ms": a time (RFC 3339 string, or a number of Unix milliseconds) as
//     [keys.UnixMilli], 13 digits;
//   - ":esc": a string passed through [keys.Escape], for values that may
//     hold the delimiter (tags, free text); [Entity.Patch] reads it back
//     with [keys.Unescape];
//   - ":N" (digits, such as ":10"): a non-negative integer, zero-padded to
//     N digits so byte order is number order ("MSG#{seqId:10}");
//   - ":split": a "scheme:value" string as two segments, each escaped;
//   - ":root": the first segment of a slash-separated path, escaped;
//   - ":shardN" (such as ":shard8"): the shard of the value among N,
//     [Shard](value, N), for the last segment of a partition-key template
//     ("USERS#{userId:shard8}" gives USERS#0 .. USERS#7): a partition
//     every item joins is split in N (see [Query.Shards] for reading it
//     whole). ":shard1" leaves the segment out: the key is the unsharded
//     one byte for byte, so a profile picks N without another template.
//     Declared as ":shard" (no count), the count is the profile's:
//     [Template.WithShards] gives it.
//
// [Transforms] lists them with their docs: the engine, the model, the
// pattern documents and NoSQL Workbench exports all read that one
// registry, and a computation a key needs is added there, never kept in a
// closure beside the template.
//
// A field stored only in the key (`dynamo:"-"`, such as an id the item
// repeats nowhere else) is referenced by the name in its `key` tag:
// `UserID UserID `dynamo:"-" key:"userId"“, then "USER#{userId}".
//
// Values are key segments: one holding '#' or control characters (after
// the transform) is refused with a *[ValidationError], so no value can
// reach into another key.
//
// From declared keys the engine derives, never by hand: the primary key
// and index keys of every write, which fields [Entity.Patch] may change
// (an index key whose fields a patch sets in full moves in the same
// UpdateItem; one it sets in part is refused), which fields move which
// index entry and guard for Update, Change and the adoption job, the item
// matcher for items written without a type attribute, samples, and the
// model tools export ([Entity.Model]).
type Template struct {
	PK, SK string
	// When makes an index key conditional (index templates only): the
	// item is in the index only while every condition holds. A condition
	// names an attribute that must be set ("isActive": present, not
	// false, not zero, not empty) or, after '!', must not be
	// ("!deletedAt": absent or empty). Soft-deleted, inactive or read
	// items so leave a sparse index in the same write that changes them.
	When []string
}

// Transforms returns the doc line of every named transform a template may
// apply, by name (":N" for the fixed-width numbers): what documents and
// tools show beside the templates.
func Transforms() map[string]string { return keytmpl.Transforms() }
