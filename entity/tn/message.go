package tn

import (
	"slices"
	"time"
)

// MaxSeqId is the largest message SeqId: message sort keys hold 10 digits.
const MaxSeqId = 9_999_999_999

// SeqWidth is the number of digits of a SeqId in a message sort key.
const SeqWidth = 10

// Message is a {data} message of a topic (TinodeMessages).
type Message struct {
	// Id is unused by Tinode but kept.
	Id        string     `dynamo:"Id,omitempty" json:"Id"`
	CreatedAt time.Time  `dynamo:"CreatedAt" json:"CreatedAt"`
	UpdatedAt time.Time  `dynamo:"UpdatedAt" json:"UpdatedAt"`
	DeletedAt *time.Time `dynamo:"DeletedAt,null" json:"DeletedAt"`
	// DeletedFor lists the users who soft-deleted the message, each with
	// the DelId of their deletion: it is hidden from them only.
	DeletedFor DeletedFor `dynamo:"DeletedFor,allowempty" json:"DeletedFor"`
	// DelId is the deletion that deleted the message for everyone (0: none).
	DelId   int       `dynamo:"DelId,omitempty" json:"DelId,omitempty"`
	From    UserID    `dynamo:"From,omitempty" json:"From"`
	Topic   TopicName `dynamo:"Topic" json:"Topic"`
	SeqId   int       `dynamo:"SeqId" json:"SeqId"`
	Head    RawJSON   `dynamo:"Head" json:"Head"`
	Content RawJSON   `dynamo:"Content" json:"Content"`
	// ExpireTime is when the message expires, in Unix seconds; 0 never.
	// It is copied to the table's TTL attribute: an expired message is
	// never returned.
	ExpireTime int64 `dynamo:"ExpireTime,omitempty" json:"ExpireTime"`
	// Version mirrors the item's version attribute (filled on read).
	Version int64 `dynamo:"-" json:"-"`
}

// Expires returns ExpireTime as a time (zero: never).
func (m *Message) Expires() time.Time {
	if m.ExpireTime <= 0 {
		return time.Time{}
	}
	return time.Unix(m.ExpireTime, 0)
}

// DeletedForUser reports whether u soft-deleted the message.
func (m *Message) DeletedForUser(u UserID) bool {
	return slices.ContainsFunc(m.DeletedFor, func(d SoftDelete) bool { return d.User == u })
}

// Validate checks the message before any write.
func (m *Message) Validate() error {
	if err := CheckSeq("SeqId", m.SeqId); err != nil {
		return err
	}
	if !m.Head.Valid() {
		return invalid("Head", "not valid JSON")
	}
	if !m.Content.Valid() {
		return invalid("Content", "not valid JSON")
	}
	if m.ExpireTime < 0 {
		return invalid("ExpireTime", "negative")
	}
	return nil
}
