package ferryhook

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// Events serves the events of the document's interface (FH-7, FH-8,
// FH-11, FH-12).
type Events struct {
	create, getByID, listBySource, updateStatus table.Op
	s                                           *Store
}

func newEvents(s *Store) *Events {
	return &Events{s: s,
		create:       table.NewOp(s.events, "FH-11", "ferryhook.Events.Create"),
		getByID:      table.NewOp(s.events, "FH-8", "ferryhook.Events.GetByID"),
		listBySource: table.NewOp(s.events, "FH-7", "ferryhook.Events.ListBySource"),
		updateStatus: table.NewOp(s.events, "FH-11", "ferryhook.Events.UpdateStatus"),
	}
}

// CreateEventInput is a received webhook request.
type CreateEventInput struct {
	// SourceID and UserID are the receiving source and its owner.
	SourceID fh.SourceID
	UserID   fh.UserID
	// Plan is the owner's plan: it sets expiresAt (FH-12).
	Plan fh.Plan
	// Headers are the request headers as a JSON object.
	Headers fh.JSONText
	// Body is the raw body, at most fh.MaxBodyBytes (256 KB).
	Body string
	// SourceIP, ContentType and Method describe the request.
	SourceIP    string
	ContentType string
	Method      string
	// ReceivedAt defaults to now.
	ReceivedAt time.Time
}

// eventShard is the partition a new event goes to: shard i of n of its
// source's events (n 1: SRC#{sourceId} itself).
type eventShard struct{ i, n int }

// event returns the event of in as received: the fields the request
// set and its owner (newEvent stamps the rest).
func (in CreateEventInput) event() fh.Event {
	return fh.Event{SourceID: in.SourceID, UserID: in.UserID, Headers: in.Headers, Body: in.Body,
		SourceIP: in.SourceIP, ContentType: in.ContentType, Method: in.Method}
}

// newEvent stamps ev, an event as received, without any request: status
// received, receivedAt at (zero: now), expiresAt from plan (a known one),
// and a new ID placed under layout l, its source's event layout: in a
// uniformly random shard of the epoch its receivedAt falls in, which the
// ID's bucket records (fh.NewLocatedEventID), so a read by ID needs no
// layout. The write validates the whole event (eventDef.Validate).
func (e *Events) newEvent(ev fh.Event, plan fh.Plan, at time.Time, l table.Layout) (fh.Event, eventShard) {
	if at.IsZero() {
		at = e.s.now()
	}
	received := fh.Millis(at)
	shard := eventShard{n: l.ShardsAt(int64(received))}
	place := func() fh.EventID {
		if shard.n <= 1 {
			return fh.NewLocatedEventID(ev.SourceID, received, 0)
		}
		shard.i = rand.IntN(shard.n)
		id := fh.NewLocatedEventID(ev.SourceID, received, shard.i+1)
		if _, _, _, ok := id.Location(); !ok {
			shard.n = 1 // an ID without a location: the document's partition
		}
		return id
	}
	id := place()
	for e.s.acceptEventID != nil && !e.s.acceptEventID(id) { // tests only: spread IDs over shards
		shard.n = l.ShardsAt(int64(received))
		id = place()
	}
	ev.EventID, ev.Status, ev.ReceivedAt, ev.ExpiresAt = id, fh.EventReceived, received, plan.ExpiresAt(received)
	return ev, shard
}

// Create stores a received event (FH-11 events.create) with status
// received, a new evt_ ID, and expiresAt = receivedAt + the plan's
// retention (FH-12: 24 h free, 7 d starter, 30 d pro, 90 d team). One
// conditional PutItem; counters are not touched (see [Store.Ingest]). A
// body over 256 KB or other bad input gives a *table.ValidationError and
// writes nothing.
func (e *Events) Create(ctx context.Context, in CreateEventInput) (fh.Event, error) {
	return table.Run(ctx, e.create, func(ctx context.Context) (fh.Event, error) {
		if !fh.Plans.Valid(in.Plan) {
			return fh.Event{}, table.Invalid("plan", "unknown value %q", in.Plan)
		}
		ev, _ := e.newEvent(in.event(), in.Plan, in.ReceivedAt, table.Layout{}) // the document's partition, as the service writes
		if err := e.s.event.Create(ctx, &ev); err != nil {
			return fh.Event{}, err
		}
		return ev, nil
	})
}

// GetByID returns an event by ID alone (FH-8; FH-11 events.getById), in
// one strongly consistent GetItem for an ID the library minted, which
// holds the event's key (fh.NewLocatedEventID: source, receivedAt,
// bucket). Any other ID (the
// running service's evt_ + nanoid(16)), or a located one whose item is not
// at its key, takes the index path: Query GSI1 GSI1PK = EVTID#{eventId},
// GSI1SK = EVENT, then a strongly consistent GetItem of the event found
// (table.Entity.GetByIndex), two requests. Either way the answer is
// strongly consistent: the event's delivery status decides a replay, and a
// lagging index must not return a stale one. A missing or expired event
// gives table.ErrNotFound.
func (e *Events) GetByID(ctx context.Context, id fh.EventID) (fh.Event, error) {
	return table.Run(ctx, e.getByID, func(ctx context.Context) (fh.Event, error) {
		if err := id.Validate(); err != nil {
			return fh.Event{}, err
		}
		if k, ok := e.locatedKey(id); ok {
			ev, err := e.s.event.Get(ctx, k, table.Consistent())
			if !errors.Is(err, table.ErrNotFound) {
				return ev, err
			}
		}
		v, err := e.s.event.GetByIndex(ctx, e.s.event.Partition(table.GSI1, fh.Event{EventID: id}))
		if errors.Is(err, table.ErrNotFound) {
			return fh.Event{}, notFound("event", string(id))
		}
		return v, err
	})
}

// locatedKey returns the key a located event ID names (its source's
// events partition SRC#{sourceId}, or for bucket b > 0 the partition
// SRC#{sourceId}#{b-1} of a write-sharded source), ok false for an ID
// without a location.
func (e *Events) locatedKey(id fh.EventID) (table.Key, bool) {
	src, at, bucket, ok := id.Location()
	if !ok {
		return table.Key{}, false
	}
	k := e.s.event.Key(fh.Event{SourceID: src, ReceivedAt: at, EventID: id})
	if k.Err() != nil {
		return table.Key{}, false
	}
	if bucket > 0 {
		k.PK = table.ShardPK(k.PK, bucket-1, table.MaxShards)
	}
	return k, true
}

// ListBySource returns one page of a source's events, newest first (FH-7;
// FH-11 events.listBySource): Query PK = SRC#{sourceId}, SK begins_with
// EVT#, ScanIndexForward = false. Options: table.Limit for the page size,
// table.After with the previous page's cursor, table.Asc for oldest first.
// Expired events are left out. A bad limit or cursor gives a
// *table.ValidationError or table.ErrInvalidCursor.
//
// In the scaled profile (Options.EventShards) it fans out: a first page
// reads the source's event layout (one strongly consistent GetItem of its
// counter shard 0), then one Query per partition, SRC#{sourceId} and
// SRC#{sourceId}#0 .. #{N-1} (65 for a source of 64 shards), sent at once
// and merged newest first; a later page, the partitions its cursor names.
// A list continued across a switch reads the partitions it started with:
// newest first it misses nothing; oldest first it ends before the events
// of the new partitions.
func (e *Events) ListBySource(ctx context.Context, source fh.SourceID, opts ...table.ListOption) (table.Page[fh.Event], error) {
	return table.Run(ctx, e.listBySource, func(ctx context.Context) (table.Page[fh.Event], error) {
		if err := fh.SourceIDs.Check(source); err != nil {
			return table.Page[fh.Event]{}, err
		}
		q := e.s.event.Partition(table.Primary, fh.Event{SourceID: source})
		q.Desc = true
		if !e.s.eventSharded() {
			return e.s.event.List(ctx, q, opts...)
		}
		o, err := table.NewListOptions(opts...)
		if err != nil {
			return table.Page[fh.Event]{}, err
		}
		return table.ListLayout(ctx, e.s.event, o.Apply(q), true, func(ctx context.Context) (table.Layout, error) {
			return e.s.eventLayout(ctx, source)
		})
	})
}

// UpdateStatus sets an event's status (FH-11 events.updateStatus) and
// returns the event as stored: for an ID the library minted (which holds
// the event's key, see GetByID) one UpdateItem; for another, two requests:
// the GSI1 Query of FH-8 finds its key (an index may lag, but an event's
// key never changes), then the UpdateItem. The UpdateItem never creates an
// item; it sets status, processedAt if it
// is absent (when processing starts, the event is filtered or delivered)
// and deliveredAt (when delivered) to now.
// A missing or expired event gives table.ErrNotFound; an unknown status a
// *table.ValidationError.
func (e *Events) UpdateStatus(ctx context.Context, id fh.EventID, status fh.EventStatus) (fh.Event, error) {
	return table.Run(ctx, e.updateStatus, func(ctx context.Context) (fh.Event, error) {
		if !fh.EventStatuses.Valid(status) {
			return fh.Event{}, table.Invalid("status", "unknown value %q", status)
		}
		if err := id.Validate(); err != nil {
			return fh.Event{}, err
		}
		p := table.Patch{Set: map[string]any{"status": string(status)}}
		now := int64(fh.Millis(e.s.now()))
		switch status {
		case fh.EventProcessing, fh.EventFiltered:
			p.SetIfAbsent = map[string]any{"processedAt": now}
		case fh.EventDelivered:
			p.Set["deliveredAt"] = now
			p.SetIfAbsent = map[string]any{"processedAt": now}
		}
		// A located ID names the event's key: the patch alone. The patch's own
		// condition (the item exists and has not expired) decides, with no
		// read before it.
		if k, ok := e.locatedKey(id); ok {
			out, err := e.s.event.Patch(ctx, k, p)
			if !errors.Is(err, table.ErrNotFound) {
				return out, err
			}
		}
		// Otherwise the index gives the event's key, which never changes, so
		// a lagging entry still names the right item.
		ev, err := e.s.event.FindOne(ctx, e.s.event.Partition(table.GSI1, fh.Event{EventID: id}))
		if errors.Is(err, table.ErrNotFound) {
			return fh.Event{}, notFound("event", string(id))
		}
		if err != nil {
			return fh.Event{}, err
		}
		k := e.s.event.Key(ev)
		if err := k.Err(); err != nil {
			return fh.Event{}, fmt.Errorf("update event status: %w", err)
		}
		out, err := e.s.event.Patch(ctx, k, p)
		if errors.Is(err, table.ErrNotFound) {
			return fh.Event{}, notFound("event", string(id))
		}
		return out, err
	})
}
