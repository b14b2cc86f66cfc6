package tn

import (
	"fmt"
	"strings"

	"github.com/singletable/singletable/table"
)

// MaxIDBytes bounds user ids, topic names, tags and auth values, so every
// key built from them stays far below DynamoDB's key limits even escaped.
const MaxIDBytes = 255

// UserID is a Tinode user id, such as "KKyCVA956m8".
type UserID string

// TopicName is a Tinode topic name, such as "p2pAlPRDF12iirthS2WpDz1eg" or
// "grpX3fa2".
type TopicName string

// The ID types, declared once (table.NewIDs): a value is refused if it is
// empty, too long, or not printable UTF-8, by the engine on every write
// and in keys (naming the attribute) and by UserIDs.CheckField(field, id).
var (
	UserIDs    = table.NewIDs[UserID]("Id", table.IDFormat{Segment: idSegment})
	TopicNames = table.NewIDs[TopicName]("Topic", table.IDFormat{Segment: idSegment})
)

// IsP2P reports whether the topic is a peer-to-peer topic ("p2p" prefix).
func (n TopicName) IsP2P() bool { return strings.HasPrefix(string(n), "p2p") }

// IsGroup reports whether the topic is a group topic ("grp" prefix).
func (n TopicName) IsGroup() bool { return strings.HasPrefix(string(n), "grp") }

// SubscriptionID returns Tinode's subscription id "{topic}:{user}".
func SubscriptionID(topic TopicName, user UserID) string {
	return string(topic) + ":" + string(user)
}

// CheckKeyValue returns a *table.ValidationError naming field if v cannot
// be a key segment's value (an id, a credential's method or value):
// empty, too long, or not printable UTF-8.
func CheckKeyValue(field, v string) error { return idSegment.Check(field, v) }

// CheckSeq returns a *table.ValidationError naming field if n is not a
// SeqId or DelId a key's 10 digits hold (1..MaxSeqId).
func CheckSeq(field string, n int) error {
	if n < 1 || n > MaxSeqId {
		return invalidKey(field, "%d is outside 1..%d", n, MaxSeqId)
	}
	return nil
}

// idSegment is the rule of ids, topic names, tags and auth values; '#' is
// not refused here (the templates escape tags).
var idSegment = table.Segment{MaxBytes: MaxIDBytes, Escaped: true}

// invalidKey returns a *table.ValidationError for a field keys derive from.
func invalidKey(field, format string, args ...any) error {
	return &table.ValidationError{Field: field, Reason: fmt.Sprintf(format, args...), Key: true}
}
