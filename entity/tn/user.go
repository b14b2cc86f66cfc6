package tn

import (
	"time"
)

// MaxTags is the most tags one user holds. Each tag is a guard item written
// in the user's transaction, so the limit keeps a tag reset (old tags out,
// new tags in) within DynamoDB's 100 actions.
const MaxTags = 32

// MaxTagBytes is the longest tag.
const MaxTagBytes = 96

// User is a Tinode user account (TinodeUsers), with its push devices.
type User struct {
	Id        UserID        `dynamo:"Id" json:"Id"`
	CreatedAt time.Time     `dynamo:"CreatedAt" json:"CreatedAt"`
	UpdatedAt time.Time     `dynamo:"UpdatedAt" json:"UpdatedAt"`
	DeletedAt *time.Time    `dynamo:"DeletedAt,null" json:"DeletedAt"`
	Access    DefaultAccess `dynamo:"Access" json:"Access"`
	Public    RawJSON       `dynamo:"Public" json:"Public"`
	State     ObjState      `dynamo:"State" json:"State"`
	// StateAt is when State last changed (today's Tinode keeps it).
	StateAt *time.Time `dynamo:"StateAt,omitempty" json:"StateAt,omitempty"`
	// Trusted is the server-assigned trust markers (verified, staff, ...).
	Trusted   RawJSON    `dynamo:"Trusted,omitempty" json:"Trusted,omitempty"`
	LastSeen  *time.Time `dynamo:"LastSeen,omitempty" json:"LastSeen,omitempty"`
	UserAgent string     `dynamo:"UserAgent,omitempty" json:"UserAgent,omitempty"`
	SeqId     int        `dynamo:"SeqId" json:"SeqId"`
	ClearId   int        `dynamo:"ClearId" json:"ClearId"`
	// Tags are unique across users: a tag held by another user fails the
	// write with table.ErrUniqueViolation.
	Tags []string `dynamo:"Tags,omitempty" json:"Tags,omitempty"`
	// Devices are the push devices, keyed by DeviceId.
	Devices map[string]Device `dynamo:"Devices,allowempty" json:"Devices"`
}

// Device is a client device registered for push notifications.
type Device struct {
	DeviceId string    `dynamo:"DeviceId" json:"DeviceId"`
	Platform Platform  `dynamo:"Platform" json:"Platform"`
	LastSeen time.Time `dynamo:"LastSeen" json:"LastSeen"`
	Lang     string    `dynamo:"Lang,omitempty" json:"Lang,omitempty"`
}

// Validate checks a device before it is stored.
func (d Device) Validate() error {
	if r := idSegment.Reason(d.DeviceId); r != "" {
		return invalid("DeviceId", "%s", r)
	}
	if !Platforms.Valid(d.Platform) {
		return invalid("Platform", "unknown platform %q (ios, android, web)", d.Platform)
	}
	if len(d.Lang) > 16 {
		return invalid("Lang", "longer than 16 bytes")
	}
	return nil
}

// Validate checks the user before any write.
func (u *User) Validate() error {
	if err := validateHeader(u.State, u.Public, u.Trusted); err != nil {
		return err
	}
	if u.SeqId < 0 || u.ClearId < 0 {
		return invalid("SeqId", "negative")
	}
	if err := ValidateTags(u.Tags); err != nil {
		return err
	}
	for k, d := range u.Devices {
		if k != d.DeviceId {
			return invalid("Devices", "key %q holds device %q", k, d.DeviceId)
		}
		if err := d.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// validateHeader checks what a user and a topic both hold: the state and
// the public and trusted JSON (the default access checks itself).
func validateHeader(state ObjState, public, trusted RawJSON) error {
	if !state.Valid() {
		return invalid("State", "unknown state %d", int(state))
	}
	if !public.Valid() {
		return invalid("Public", "not valid JSON")
	}
	if !trusted.Valid() {
		return invalid("Trusted", "not valid JSON")
	}
	return nil
}

// ValidateTags checks a user's tag list: at most [MaxTags] tags, each
// non-empty, at most [MaxTagBytes] bytes, printable UTF-8, none repeated.
func ValidateTags(tags []string) error {
	if len(tags) > MaxTags {
		return invalid("Tags", "%d tags, the limit is %d", len(tags), MaxTags)
	}
	seen := make(map[string]bool, len(tags))
	for _, t := range tags {
		if err := ValidateTag(t); err != nil {
			return err
		}
		if seen[t] {
			return invalid("Tags", "tag %q listed twice", t)
		}
		seen[t] = true
	}
	return nil
}

// ValidateTag checks one tag.
func ValidateTag(tag string) error {
	if err := idSegment.Check("Tags", tag); err != nil {
		return err
	}
	if len(tag) > MaxTagBytes {
		return invalid("Tags", "tag %q is longer than %d bytes", tag, MaxTagBytes)
	}
	return nil
}

// UniqueTag is one row of Tinode's TinodeTagUnique table: a tag (Id) and
// the user who holds it (Source). In the single table it is the core's
// unique guard of the tag, written in the same transaction as the user.
type UniqueTag struct {
	Id     string `dynamo:"Id" json:"Id"`
	Source UserID `dynamo:"Source" json:"Source"`
}
