package tn

import (
	"slices"
	"strings"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// Key templates of the single table (see the package documentation): the
// one statement of each key's shape. The store's Defs declare them
// (query/tinode), the engine writes items by them, and every key helper
// here builds and parses with them. Every variable segment is escaped
// (":esc"), sequence and deletion IDs are 10 digits (":10").
var (
	UserKeys = table.Template{PK: "USER#{Id:esc}", SK: "USER"}
	// AuthKeys: unique is "scheme:value", stored as two escaped segments.
	AuthKeys = table.Template{PK: "AUTH#{unique:split}", SK: "AUTH"}
	// AuthByUserIndex: a user's auth records (GSI1, TN-6).
	AuthByUserIndex = table.Template{PK: "USER#{userid:esc}", SK: "AUTH#{unique:split}"}
	// TopicKeys: the topic item sorts above SUB# and MSG#.
	TopicKeys = table.Template{PK: "TOPIC#{Id:esc}", SK: "TOPIC"}
	// TopicOwnerIndex: a group topic under its owner (GSI1, TN-22); a
	// topic without one (p2p) is not listed (sparse).
	TopicOwnerIndex  = table.Template{PK: "USER#{Owner:esc}", SK: "OWNS#{Id:esc}"}
	SubscriptionKeys = table.Template{PK: "TOPIC#{Topic:esc}", SK: "SUB#{User:esc}"}
	// SubscriptionUpdatedIndex: a user's subscriptions by update time
	// (GSI1, TN-7, TN-21, TN-23).
	SubscriptionUpdatedIndex = table.Template{PK: "USER#{User:esc}", SK: "SUBUPD#{UpdatedAt:ts}#{Topic:esc}"}
	// ChannelReaderIndex: a channel reader with notifications on (GSI2,
	// TN-37), sparse: in it while ChanReader is set.
	ChannelReaderIndex = table.Template{PK: "CHANRD#{User:esc}", SK: "CHAN#{Topic:esc}", When: []string{"ChanReader"}}
	MessageKeys        = table.Template{PK: "TOPIC#{Topic:esc}", SK: "MSG#{SeqId:10}"}
	// DelKeys: a deletion-log entry in its topic's partition (TN-27, TN-28).
	DelKeys = table.Template{PK: "TOPIC#{Topic:esc}", SK: "DEL#{DelId:10}"}
	// CredKeys: a credential in its user's partition (TN-30).
	CredKeys = table.Template{PK: "USER#{User:esc}", SK: "CRED#{Method:esc}#{Value:esc}"}
	// CredUnvalidatedIndex: unvalidated credentials by age (GSI2, TN-30),
	// sparse: confirming or deleting one takes it out in the same write.
	CredUnvalidatedIndex = table.Template{PK: "CREDUNV", SK: "CREDUNV#{UpdatedAt:ts}#{User:esc}#{Method:esc}", When: []string{"!Done", "!DeletedAt"}}
	// FileKeys: an upload record (TN-31).
	FileKeys = table.Template{PK: "FILE#{Id:esc}", SK: "FILE"}
	// FileUnusedIndex: a file nothing links to, by UpdatedAt (GSI2,
	// TN-33), sharded by the file's ID (the profile's count).
	FileUnusedIndex = table.Template{PK: "FILEUNUSED#{Id:shard}", SK: "FILEUNUSED#{UpdatedAt:ts}#{Id:esc}", When: []string{"!UseCount"}}
	// FileLinkKeys: a file link in its owner's partition (TN-32).
	FileLinkKeys = table.Template{PK: "FLINK#{Owner:esc}", SK: "FILE#{File:esc}"}
	// CacheKeys: the persistent cache, one partition ordered by key, so
	// that a key prefix is a begins_with condition (TN-34, TN-35).
	CacheKeys = table.Template{PK: "PCACHE", SK: "KEY#{Key:esc}"}
	// DBVersionKeys: the one item recording the data layout's version.
	DBVersionKeys = table.Template{PK: "META#tinode", SK: "DBVERSION"}
)

// TagUniqueName is the name of the unique value a tag guard holds.
const TagUniqueName = "tag"

// TagUnique returns the unique value a tag's guard holds (the tag, escaped).
func TagUnique(tag string) table.Unique {
	return table.Unique{Name: TagUniqueName, Value: keys.Escape(tag)}
}

// TagRule is the rule a tag's holder (a user or a topic) writes its tags
// by: under tinode.md's rule (the zero TagRule) every tag has one holder
// in the whole table, its unique guard; with Shared, today's Tinode's, a
// tag may be held by many users and topics, each once, through a lookup
// entry (table.Unique.Shared), except the tags of UniqueNamespaces (such
// as "alias" for "alias:bob"; "*": every namespaced tag), which stay
// unique.
type TagRule struct {
	Shared           bool
	UniqueNamespaces []string
}

// Unique returns what tag's holder writes under the rule: the tag's
// unique guard, or, for a shared tag, its lookup entry.
func (r TagRule) Unique(tag string) table.Unique {
	u := TagUnique(tag)
	if r.Shared {
		ns, _, ok := strings.Cut(tag, ":")
		u.Shared = !ok || !(slices.Contains(r.UniqueNamespaces, ns) || slices.Contains(r.UniqueNamespaces, "*"))
	}
	return u
}

// Uniques returns what a holder of tags writes under the rule.
func (r TagRule) Uniques(tags []string) []table.Unique {
	us := make([]table.Unique, len(tags))
	for i, tag := range tags {
		us[i] = r.Unique(tag)
	}
	return us
}

// TagFromUnique reverses [TagUnique].
func TagFromUnique(u table.Unique) (string, error) { return keys.Unescape(u.Value) }

// CredUniqueName is the name of the unique value a validated credential's
// guard holds ("{method}:{value}").
const CredUniqueName = "cred"

// CredUnique returns the unique value a validated credential's guard
// holds: {method}:{value}.
func CredUnique(method, value string) table.Unique {
	return table.Unique{Name: CredUniqueName, Value: keys.Escape(method) + ":" + keys.Escape(value)}
}
