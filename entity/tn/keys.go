package tn

import (
	"slices"
	"strconv"
	"strings"
	"time"

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

// UserIDFromKey parses the user id back from a user item's key.
func UserIDFromKey(k table.Key) (UserID, error) {
	v, err := UserKeys.Parse(table.Key{PK: k.PK, SK: UserKeys.SK})
	return UserID(v["Id"]), err
}

// SubscriptionsUpdatedSince returns the GSI1 sort-key bounds of subscriptions
// updated at or after since (zero: all): SUBUPD#{Timestamp(since)} to
// SUBUPD$ ('$' follows '#', so it bounds every SUBUPD# key).
func SubscriptionsUpdatedSince(since time.Time) (lo, hi string, err error) {
	prefix := must(SubscriptionUpdatedIndex.SortPrefix(nil))
	lo = prefix
	if !since.IsZero() {
		p, err := SubscriptionUpdatedIndex.SortPrefix(map[string]string{"UpdatedAt": since.Format(time.RFC3339Nano)})
		if err != nil {
			return "", "", err
		}
		lo = strings.TrimSuffix(p, keys.Delimiter)
	}
	return lo, strings.TrimSuffix(prefix, keys.Delimiter) + "$", nil
}

// MessagePrefix is the sort-key prefix of a topic's messages: MSG#.
func MessagePrefix() string { return must(MessageKeys.SortPrefix(nil)) }

// MessageSK returns the sort key of message seq: MSG#{seq, 10 digits}.
func MessageSK(seq int) (string, error) {
	if seq < 1 || seq > MaxSeqId {
		return "", invalidKey("SeqId", "%d is outside 1..%d", seq, MaxSeqId)
	}
	return MessageKeys.SortKey(map[string]string{"SeqId": strconv.Itoa(seq)})
}

// AuthByUserPrefix returns the GSI1 sort-key prefix of a user's auth
// records: AUTH# for all, AUTH#{scheme}# for one scheme.
func AuthByUserPrefix(scheme string) (string, error) {
	p, err := AuthByUserIndex.SortPrefix(nil)
	if err != nil || scheme == "" {
		return p, err
	}
	// {unique:split} writes the scheme as the first of its two segments:
	// the prefix of one scheme ends after it.
	if scheme = keys.Escape(scheme); strings.ContainsFunc(scheme, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "", invalidKey("scheme", "%q holds a control character", scheme)
	}
	return p + scheme + keys.Delimiter, nil
}

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

func must(k string, err error) string {
	if err != nil {
		panic(err)
	}
	return k
}

// MustSeq returns seq as the 10 digits of a message sort key; it panics
// outside 1..MaxSeqId (use MessageSK for input).
func MustSeq(seq int) string { return keys.MustUint(uint64(seq), SeqWidth) }

// CredUniqueName is the name of the unique value a validated credential's
// guard holds ("{method}:{value}").
const CredUniqueName = "cred"

// DelLogSK returns the sort key of deletion delID: DEL#{delId, 10 digits}.
func DelLogSK(delID int) (string, error) {
	if delID < 1 || delID > MaxSeqId {
		return "", invalidKey("DelId", "%d is outside 1..%d", delID, MaxSeqId)
	}
	return DelKeys.SortKey(map[string]string{"DelId": strconv.Itoa(delID)})
}

// CredPrefix returns the sort-key prefix of a user's credentials: CRED#
// for all, CRED#{method}# for one method.
func CredPrefix(method string) (string, error) {
	if method == "" {
		return CredKeys.SortPrefix(nil)
	}
	return CredKeys.SortPrefix(map[string]string{"Method": method})
}

// CredUnique returns the unique value a validated credential's guard
// holds: {method}:{value}.
func CredUnique(method, value string) table.Unique {
	return table.Unique{Name: CredUniqueName, Value: keys.Escape(method) + ":" + keys.Escape(value)}
}

// CredUnvalidatedBefore returns the GSI2 sort-key bounds of credentials
// last updated before t: CREDUNV# up to CREDUNV#{Timestamp(t)} (exclusive
// in effect: a timestamp key sorts below its own extensions).
func CredUnvalidatedBefore(t time.Time) (lo, hi string, err error) {
	p := must(CredUnvalidatedIndex.SortPrefix(nil))
	hi, err = CredUnvalidatedIndex.SortPrefix(map[string]string{"UpdatedAt": t.Format(time.RFC3339Nano)})
	if err != nil {
		return "", "", err
	}
	return p, strings.TrimSuffix(hi, keys.Delimiter), nil
}

// FileUnusedBefore returns the GSI2 sort-key bounds of unused files last
// updated before t: FILEUNUSED# up to FILEUNUSED#{Timestamp(t)} (exclusive
// in effect, as [CredUnvalidatedBefore]).
func FileUnusedBefore(t time.Time) (lo, hi string, err error) {
	p := must(FileUnusedIndex.SortPrefix(nil))
	hi, err = FileUnusedIndex.SortPrefix(map[string]string{"UpdatedAt": t.Format(time.RFC3339Nano)})
	if err != nil {
		return "", "", err
	}
	return p, strings.TrimSuffix(hi, keys.Delimiter), nil
}

// TopicNameFromKey parses the topic name back from a topic item's key,
// and false if k is not a topic item's key.
func TopicNameFromKey(k table.Key) (TopicName, bool) {
	v, err := TopicKeys.Parse(k)
	return TopicName(v["Id"]), err == nil
}
