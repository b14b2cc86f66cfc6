// Package stream is the engine's layer of change records: a DynamoDB
// stream record (table.Record) and what it says happened to an item
// ([ChangeEvent]), the kinds of item a record may be about, the error
// naming a record, and the comparison of its images. Nothing here sends a
// request; decoding an image into an entity's type is package table's.
//
// It imports the codec layer, nothing of table.
package stream

import (
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
)

// Item is a raw DynamoDB item (table.Item).
type Item = map[string]types.AttributeValue

// Key is an item's primary key (table.Key).
type Key = keytmpl.Key

// Record is one stream record, as the Streams API, a Lambda event or a
// test built it. Keys always holds the item's primary key; Old and New
// hold the images the stream's view type keeps (nil when it keeps none,
// and Old is nil for an insert, New for a removal).
type Record struct {
	// ID is the record's event ID: the same on every delivery of the
	// record, and unique per record: the idempotency key of a handler.
	ID string
	// Op is the stream's event name: "INSERT", "MODIFY" or "REMOVE".
	Op string
	// Shard is the stream shard the record was read from ("" when the
	// source does not say: a Lambda event names its stream only).
	Shard string
	// Sequence is the record's sequence number: increasing within a shard,
	// and so within an item's key.
	Sequence string
	// At is the record's approximate creation time.
	At time.Time
	// Keys, Old and New are the key attributes and the images.
	Keys, Old, New Item
	// PrincipalType and PrincipalID are the record's userIdentity: a TTL
	// deletion is "Service" / "dynamodb.amazonaws.com"; empty otherwise.
	PrincipalType, PrincipalID string
}

// TTLPrincipal is the userIdentity principal of a removal that DynamoDB's
// TTL made (with type "Service").
const TTLPrincipal = "dynamodb.amazonaws.com"

// ChangeEvent is what happened to an item.
type ChangeEvent int

// The events of an [ItemChange].
const (
	// Created: the item did not exist before the write (INSERT).
	Created ChangeEvent = iota + 1
	// Modified: the item existed and was written again (MODIFY).
	Modified
	// Removed: the item was deleted by a writer (REMOVE).
	Removed
	// Expired: the item was deleted by DynamoDB's TTL (REMOVE with the
	// service's identity).
	Expired
)

// String returns the event's name: "created", "modified", "removed",
// "expired".
func (e ChangeEvent) String() string {
	switch e {
	case Created:
		return "created"
	case Modified:
		return "modified"
	case Removed:
		return "removed"
	case Expired:
		return "expired"
	}
	return fmt.Sprintf("ChangeEvent(%d)", int(e))
}

// Event returns what the record says happened; an operation the stream
// does not define is an error.
func (r Record) Event() (ChangeEvent, error) {
	switch r.Op {
	case "INSERT":
		return Created, nil
	case "MODIFY":
		return Modified, nil
	case "REMOVE":
		if r.PrincipalType == "Service" && r.PrincipalID == TTLPrincipal {
			return Expired, nil
		}
		return Removed, nil
	}
	return 0, fmt.Errorf("%w: stream operation %q", codec.ErrInvalidInput, r.Op)
}

// Image returns the newest image the record holds: New, else Old, else
// Keys.
func (r Record) Image() Item {
	switch {
	case r.New != nil:
		return r.New
	case r.Old != nil:
		return r.Old
	}
	return r.Keys
}

// Kind says what kind of item a record is about.
type Kind int

// The kinds of [Classification].
const (
	// KindUnknown: no declared entity and none of the engine's items.
	KindUnknown Kind = iota
	// KindEntity: an item of a declared entity.
	KindEntity
	// KindLibrary: one of the engine's own items (see [Classification.Library]).
	KindLibrary
)

// String returns "unknown", "entity" or "library".
func (k Kind) String() string {
	switch k {
	case KindEntity:
		return "entity"
	case KindLibrary:
		return "library"
	}
	return "unknown"
}

// RecordError names the stream record a decode or a handler failed on.
type RecordError struct {
	// Sequence and ID are the record's sequence number and event ID.
	Sequence, ID string
	// Key is the item's primary key.
	Key Key
	// Entity is the entity type the record was routed to ("" if none).
	Entity string
	// Err is what failed.
	Err error
}

// Error names the record, then the failure.
func (e *RecordError) Error() string {
	ent := e.Entity
	if ent == "" {
		ent = "unrouted"
	}
	return fmt.Sprintf("stream record %s (event %s, %s %s): %v", e.Sequence, e.ID, ent, e.Key, e.Err)
}

// Unwrap returns the failure.
func (e *RecordError) Unwrap() error { return e.Err }

// SameExceptOwn reports whether a and b hold the same attributes with the
// same values, leaving out the engine's own; it stops at the first
// difference.
func SameExceptOwn(own map[string]bool, a, b Item) bool {
	na, nb := 0, 0
	for name, av := range a {
		if own[name] {
			continue
		}
		na++
		if !codec.Equal(av, b[name]) {
			return false
		}
	}
	for name := range b {
		if !own[name] {
			nb++
		}
	}
	return na == nb
}

// ChangedAttrs returns the attributes, other than the engine's own, whose
// values differ between a and b (either may be nil), sorted.
func ChangedAttrs(own map[string]bool, a, b Item) []string {
	var out []string
	for name, av := range a {
		if !own[name] && !codec.Equal(av, b[name]) {
			out = append(out, name)
		}
	}
	for name, bv := range b {
		if _, inA := a[name]; !inA && !own[name] && bv != nil {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// StrAttr returns the string attribute name of img ("" if none).
func StrAttr(img Item, name string) string {
	if s, ok := img[name].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// Changed returns the attributes, other than the engine's own, a change
// ev from image old to image new changed, sorted: those whose values
// differ (an empty list, never nil, when both images are there); every
// attribute of the image of a creation or a removal; nil when the record
// keeps only one image of a modification.
func Changed(own map[string]bool, old, new Item, ev ChangeEvent) []string {
	switch {
	case old != nil && new != nil:
		out := ChangedAttrs(own, old, new)
		if out == nil {
			out = []string{}
		}
		return out
	case new != nil && ev == Created:
		return ChangedAttrs(own, nil, new)
	case old != nil && (ev == Removed || ev == Expired):
		return ChangedAttrs(own, old, nil)
	}
	return nil
}
