package table

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/job"
	"github.com/singletable/singletable/internal/stream"
)

// Changes: what the table's stream says happened, typed. A DynamoDB
// stream carries one record per write of an item: its key, its images
// before and after (as the stream's view type keeps them), the operation
// and, for an item DynamoDB's TTL deleted, the service's identity. On one
// table the stream carries every entity and the engine's own items
// (unique guards, counter shards and rollups, job checkpoints, change-feed
// checkpoints). This file turns a [Record] into:
//
//   - the kind of item it is ([Table.Classify]): an item of one declared
//     entity, by its entity-type attribute (or, for an item another
//     service wrote without one, by the entity's key matcher, Def.Match);
//     one of the engine's own items, by its type or key; or none of them
//     ([KindUnknown]), which a consumer reports and never drops silently;
//   - for an entity's item, an [ItemChange] of T ([Entity.DecodeChange]): the
//     event (created, modified, removed, expired by TTL), the key, the old
//     and new images decoded exactly as reads decode them (tolerantly,
//     Extra kept, secrets unsealed with the table's cipher), the tenant
//     (Def.Scope) the item belongs to, and the attributes that changed.
//     A modification that changes nothing but the engine's bookkeeping
//     (version, write token, entity type, derived index keys and TTL) has
//     no changed attributes and is marked [ItemChange.BookkeepingOnly].
//
// Nothing here sends a request: decoding is a function of the record and
// the declarations. Delivery (shards, iterators, checkpoints, retries) is
// package table/feed's; a Lambda event is converted by table/feed/lambdafeed.

// Record is one stream record, as the Streams API, a Lambda event or a
// test built it. Keys always holds the item's primary key; Old and New
// hold the images the stream's view type keeps (nil when it keeps none,
// and Old is nil for an insert, New for a removal). ID is the record's
// event ID (the idempotency key of a handler), Op the stream's event name
// (INSERT, MODIFY or REMOVE), Shard and Sequence where it was read, At its
// approximate creation time, PrincipalType and PrincipalID its
// userIdentity (a TTL deletion is "Service" / [TTLPrincipal]).
type Record = stream.Record

// TTLPrincipal is the userIdentity principal of a removal that DynamoDB's
// TTL made (with type "Service").
const TTLPrincipal = stream.TTLPrincipal

// ChangeEvent is what happened to an item; its String is "created",
// "modified", "removed" or "expired".
type ChangeEvent = stream.ChangeEvent

// The events of an [ItemChange].
const (
	// Created: the item did not exist before the write (INSERT).
	Created = stream.Created
	// Modified: the item existed and was written again (MODIFY).
	Modified = stream.Modified
	// Removed: the item was deleted by a writer (REMOVE).
	Removed = stream.Removed
	// Expired: the item was deleted by DynamoDB's TTL (REMOVE with the
	// service's identity).
	Expired = stream.Expired
)

// Kind says what kind of item a record is about; its String is
// "unknown", "entity" or "library".
type Kind = stream.Kind

// The kinds of [Classification].
const (
	// KindUnknown: no declared entity and none of the engine's items.
	KindUnknown = stream.KindUnknown
	// KindEntity: an item of a declared entity.
	KindEntity = stream.KindEntity
	// KindLibrary: one of the engine's own items (see [Classification.Library]).
	KindLibrary = stream.KindLibrary
)

// Classification is what [Table.Classify] recognised.
type Classification struct {
	Kind Kind
	// Entity is the entity whose item it is (KindEntity).
	Entity AnyEntity
	// Library names the engine's item kind (KindLibrary): [GuardType]
	// ("_unique", guards of unique and shared values), [CounterType]
	// ("_counter", counter shards and rollups), "_job" (job checkpoints and
	// notes) or [FeedType] ("_feed", change-feed checkpoints).
	Library string
}

// FeedType is the entity-type attribute of a change feed's checkpoint
// items (package table/feed): library bookkeeping, never an entity's.
const FeedType = job.FeedType

// FeedPrefix starts the partition key of a change feed's checkpoint
// items: _FEED#{name}.
const FeedPrefix = job.FeedPrefix

// Classify says whose item r is about (by its newest image): the entity
// bound to t whose type the item's entity-type attribute names, or, when
// it has none, the first entity whose Def.Match recognises its key; one of
// the engine's own items; or unknown. It sends no request.
func (t *Table) Classify(r Record) Classification {
	return t.classifyItem(r.Image())
}

func (t *Table) classifyItem(img Item) Classification {
	if ta := t.schema.TypeAttr; ta != "" {
		if s, ok := img[ta].(*types.AttributeValueMemberS); ok {
			t.entMu.Lock()
			e := t.byType[s.Value]
			t.entMu.Unlock()
			if e != nil {
				return Classification{Kind: KindEntity, Entity: e}
			}
			if job.LibraryType(s.Value) {
				return Classification{Kind: KindLibrary, Library: s.Value}
			}
			return Classification{}
		}
	}
	k := t.c.KeyOf(img)
	if lib := job.LibraryKind(k.PK, k.SK); lib != "" {
		return Classification{Kind: KindLibrary, Library: lib}
	}
	for _, e := range t.Entities() {
		if e.Owns(img) {
			return Classification{Kind: KindEntity, Entity: e}
		}
	}
	return Classification{}
}

// ItemChange is one write of an item of T, as the stream reported it.
type ItemChange[T any] struct {
	// Record is the stream record (its ID is the idempotency key).
	Record Record
	// Event is what happened.
	Event ChangeEvent
	// Key is the item's primary key.
	Key Key
	// Old and New are the images decoded as reads decode them; nil when
	// the record holds none (an insert has no Old, a removal no New, a
	// KEYS_ONLY or NEW_IMAGE stream keeps fewer).
	Old, New *T
	// Scope is the tenant the item belongs to (its Def.Scope attribute;
	// "" when the entity has none).
	Scope string
	// BookkeepingOnly marks a modification that changed nothing but the
	// engine's own attributes (version, write token, entity type, index
	// keys, TTL): a rollup copying a layout, a version bump, an index
	// move. Handlers that react to what a service wrote skip it.
	BookkeepingOnly bool

	own              map[string]bool // the engine's own attributes
	openOld, openNew Item            // the images, secrets opened
}

// Changed returns the attributes whose values differ between Old and New,
// sorted: the fields and the members Extra keeps, compared as stored
// (secrets unsealed first); never the engine's own attributes. A creation
// or removal names every attribute its image holds; nil when the stream
// keeps only one image of a modification. It is computed when called (a
// handler that does not ask pays nothing).
func (c ItemChange[T]) Changed() []string {
	return stream.Changed(c.own, c.openOld, c.openNew, c.Event)
}

// RecordError names the stream record a decode or a handler failed on:
// its Sequence and ID, the item's Key, the Entity it was routed to ("" if
// none) and Err, what failed.
type RecordError = stream.RecordError

// NewRecordError returns the error naming r (its sequence number, event
// ID and key), routed to entity, for err.
func (t *Table) NewRecordError(r Record, entity string, err error) *RecordError {
	return &RecordError{Sequence: r.Sequence, ID: r.ID, Key: t.c.KeyOf(r.Keys), Entity: entity, Err: err}
}

// DecodeChange decodes r, a stream record of an item of this entity, into
// a typed change (see [ItemChange]). A record of another entity or of the
// engine's own items, an image that does not decode, a secret that does
// not open, or a modification that moved the item to another tenant
// (Def.Scope changed: the library's writes never do that) is a
// *[RecordError] naming the record; it wraps [ErrInvalidInput] when r is
// not this entity's. It sends no request.
func (e *Entity[T]) DecodeChange(r Record) (ItemChange[T], error) {
	c := ItemChange[T]{Record: r}
	fail := func(err error) (ItemChange[T], error) {
		return ItemChange[T]{}, e.t.NewRecordError(r, e.def.Type, err)
	}
	ev, err := r.Event()
	if err != nil {
		return fail(err)
	}
	c.Event = ev
	if !e.ownsRecord(r) {
		return fail(fmt.Errorf("%w: the record is about %s, not a %s", ErrInvalidInput, describeClass(e.t.Classify(r)), e.def.Type))
	}
	c.Key = e.t.c.KeyOf(recordKeys(r))
	var openOld, openNew Item
	if r.Old != nil {
		v, opened, err := e.decodeImage(r.Old, c.Key)
		if err != nil {
			return fail(fmt.Errorf("old image: %w", err))
		}
		c.Old, openOld = &v, opened
	}
	if r.New != nil {
		v, opened, err := e.decodeImage(r.New, c.Key)
		if err != nil {
			return fail(fmt.Errorf("new image: %w", err))
		}
		c.New, openNew = &v, opened
	}
	if sc := e.def.Scope; sc != "" {
		oldScope, newScope := stream.StrAttr(r.Old, sc), stream.StrAttr(r.New, sc)
		if r.Old != nil && r.New != nil && oldScope != newScope {
			return fail(fmt.Errorf("%w: %s moved from tenant %q to %q", ErrInvalidInput, sc, oldScope, newScope))
		}
		c.Scope = newScope
		if r.New == nil {
			c.Scope = oldScope
		}
	}
	c.own, c.openOld, c.openNew = e.ownAttrs(), openOld, openNew
	c.BookkeepingOnly = ev == Modified && openOld != nil && openNew != nil && stream.SameExceptOwn(c.own, openOld, openNew)
	return c, nil
}

// ownsRecord reports whether r is about an item of this entity type: its
// entity-type attribute names the type (the common case, one lookup), or
// the table classifies it so.
func (e *Entity[T]) ownsRecord(r Record) bool {
	if ta := e.t.schema.TypeAttr; ta != "" {
		if s, ok := r.Image()[ta].(*types.AttributeValueMemberS); ok && s.Value == e.def.Type {
			return true
		}
	}
	cl := e.t.Classify(r)
	return cl.Kind == KindEntity && cl.Entity.Type() == e.def.Type
}

// decodeImage decodes one image as reads do and returns it with its
// secrets opened (for comparison).
func (e *Entity[T]) decodeImage(raw Item, k Key) (T, Item, error) {
	v, _, err := e.decodeWith(raw, true)
	if err != nil {
		return v, nil, err
	}
	opened := raw
	if len(e.def.Secrets) > 0 {
		if opened, err = e.openItem(raw, k, true); err != nil {
			return v, nil, err
		}
	}
	return v, opened, nil
}

func describeClass(c Classification) string {
	switch c.Kind {
	case KindEntity:
		return "a " + c.Entity.Type()
	case KindLibrary:
		return "the engine's " + c.Library + " item"
	}
	return "no declared entity"
}
