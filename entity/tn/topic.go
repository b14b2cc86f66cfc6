package tn

import (
	"time"

	"github.com/singletable/singletable/table"
)

// Topic is a Tinode topic (TinodeTopics): its metadata and the SeqId of its
// last message.
type Topic struct {
	Id        TopicName     `dynamo:"Id" json:"Id"`
	CreatedAt time.Time     `dynamo:"CreatedAt" json:"CreatedAt"`
	UpdatedAt time.Time     `dynamo:"UpdatedAt" json:"UpdatedAt"`
	DeletedAt *time.Time    `dynamo:"DeletedAt,null" json:"DeletedAt"`
	Access    DefaultAccess `dynamo:"Access" json:"Access"`
	Public    RawJSON       `dynamo:"Public" json:"Public"`
	State     ObjState      `dynamo:"State" json:"State"`
	// SeqId is the id of the topic's last message; saving a message
	// advances it atomically.
	SeqId   int  `dynamo:"SeqId" json:"SeqId"`
	ClearId int  `dynamo:"ClearId" json:"ClearId"`
	UseBt   bool `dynamo:"UseBt" json:"UseBt"`
	// DelId is the id of the topic's last deletion (the deletion log's
	// newest entry); deleting messages advances it atomically (TN-27).
	DelId int `dynamo:"DelId,omitempty" json:"DelId,omitempty"`
	// SubCnt is the number of live (not soft-deleted) subscriptions, kept
	// exact in the transactions that subscribe and unsubscribe (TN-24).
	SubCnt int `dynamo:"SubCnt,omitempty" json:"SubCnt,omitempty"`
	// StateAt is when State last changed.
	StateAt *time.Time `dynamo:"StateAt,omitempty" json:"StateAt,omitempty"`
	// Trusted is the server-assigned trust markers.
	Trusted RawJSON `dynamo:"Trusted,omitempty" json:"Trusted,omitempty"`
	// Aux is auxiliary data (pinned messages, ...), any JSON.
	Aux RawJSON `dynamo:"Aux,omitempty" json:"Aux,omitempty"`
	// Tags are the topic's search tags; like user tags they are unique
	// (see the store's TagPolicy) and found by Users.Find.
	Tags []string `dynamo:"Tags,omitempty" json:"Tags,omitempty"`
	// Owner is the owner of a group topic (Tinode keeps it; the document
	// does not list it). Empty for p2p topics.
	Owner UserID `dynamo:"Owner,omitempty" json:"Owner,omitempty"`
	// TouchedAt is when the last message was saved.
	TouchedAt *time.Time `dynamo:"TouchedAt,omitempty" json:"TouchedAt,omitempty"`
	// MsgLayout is the shard layout of the topic's messages, as
	// table.Layout stores it ("0:1,5001:8"): empty (tinode.md's layout)
	// keeps every message in TOPIC#{name}; a sharded epoch puts message
	// seq in TOPIC#{name}#{seq mod N}. Only the store writes it (a topic
	// created in a sharded profile, Messages.Reshard).
	MsgLayout string `dynamo:"MsgLayout,omitempty" json:"MsgLayout,omitempty"`
}

// Validate checks the topic before any write.
func (t *Topic) Validate() error {
	if err := validateHeader(t.State, t.Public, t.Trusted); err != nil {
		return err
	}
	if !t.Aux.Valid() {
		return invalid("Aux", "not valid JSON")
	}
	if t.DelId < 0 || t.SubCnt < 0 {
		return invalid("DelId", "negative DelId or SubCnt")
	}
	if err := ValidateTags(t.Tags); err != nil {
		return err
	}
	if t.SeqId < 0 || t.SeqId > MaxSeqId {
		return invalid("SeqId", "%d is outside 0..%d", t.SeqId, MaxSeqId)
	}
	if t.ClearId < 0 || t.ClearId > t.SeqId {
		return invalid("ClearId", "%d is outside 0..SeqId (%d)", t.ClearId, t.SeqId)
	}
	if _, err := table.ParseLayout(t.MsgLayout); err != nil {
		return invalid("MsgLayout", "%v", err)
	}
	return nil
}
