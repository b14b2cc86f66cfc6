package tn

import (
	"strings"
	"time"
)

// Subscription is a user's relationship to a topic (TinodeSubscriptions).
// The document lists ClearedId but its sample, like Tinode itself, writes
// ClearId; ClearId is used.
type Subscription struct {
	// Id is "{topic}:{user}"; it is filled in on write.
	Id        string     `dynamo:"Id" json:"Id"`
	CreatedAt time.Time  `dynamo:"CreatedAt" json:"CreatedAt"`
	UpdatedAt time.Time  `dynamo:"UpdatedAt" json:"UpdatedAt"`
	DeletedAt *time.Time `dynamo:"DeletedAt,null" json:"DeletedAt"`
	// ReadSeqId is the last message the user read, RecvSeqId the last one
	// a device of the user received.
	ReadSeqId int `dynamo:"ReadSeqId" json:"ReadSeqId"`
	RecvSeqId int `dynamo:"RecvSeqId" json:"RecvSeqId"`
	// ClearId: the user soft-deleted messages up to and including it.
	ClearId int `dynamo:"ClearId" json:"ClearId"`
	// DelId is the id of the last deletion that concerned this user (a
	// deletion for them alone or for everyone) (TN-27).
	DelId     int        `dynamo:"DelId,omitempty" json:"DelId,omitempty"`
	State     ObjState   `dynamo:"State" json:"State"`
	Topic     TopicName  `dynamo:"Topic" json:"Topic"`
	User      UserID     `dynamo:"User" json:"User"`
	ModeWant  AccessMode `dynamo:"ModeWant" json:"ModeWant"`
	ModeGiven AccessMode `dynamo:"ModeGiven" json:"ModeGiven"`
	Private   RawJSON    `dynamo:"Private" json:"Private"`
	// ChanReader is set while the subscription is a channel reader's
	// ("chn" topic) with notifications (P) wanted and given: such
	// subscriptions are listed per user for push (TN-37). The store keeps
	// it on every write.
	ChanReader bool `dynamo:"ChanReader,omitempty" json:"ChanReader,omitempty"`
	// Version mirrors the item's version attribute (filled on read).
	Version int64 `dynamo:"-" json:"-"`
}

// IsChannelReader reports whether the subscription is a channel reader's
// with notifications (P) wanted and given (Tinode's ChannelsForUser).
func (s *Subscription) IsChannelReader() bool {
	return strings.HasPrefix(string(s.Topic), "chn") && s.ModeWant.Has(ModePres) && s.ModeGiven.Has(ModePres)
}

// Mode is the access the user has: what it wants and was given.
func (s *Subscription) Mode() AccessMode { return s.ModeWant & s.ModeGiven }

// Validate checks the subscription before any write (the store fills in
// Id and the timestamps first).
func (s *Subscription) Validate() error {
	if id := SubscriptionID(s.Topic, s.User); s.Id != id {
		return invalidKey("Id", "%q is not {Topic}:{User} (%q)", s.Id, id)
	}
	if !s.ModeWant.Valid() || !s.ModeGiven.Valid() {
		return invalid("ModeWant", "undefined access bits")
	}
	if !s.State.Valid() {
		return invalid("State", "unknown state %d", int(s.State))
	}
	if !s.Private.Valid() {
		return invalid("Private", "not valid JSON")
	}
	if s.ReadSeqId < 0 || s.RecvSeqId < 0 || s.ClearId < 0 || s.DelId < 0 {
		return invalid("ReadSeqId", "negative message id")
	}
	if s.UpdatedAt.IsZero() {
		return invalidKey("UpdatedAt", "zero (GSI1 orders subscriptions by it)")
	}
	return nil
}
