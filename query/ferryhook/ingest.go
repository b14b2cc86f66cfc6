package ferryhook

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/entity/fh"

	"github.com/singletable/singletable/table"
)

// IngestRequest is a webhook request as the ingest handler receives it.
type IngestRequest struct {
	// Headers are the request headers as a JSON object.
	Headers fh.JSONText
	// Body is the raw body, at most fh.MaxBodyBytes (256 KB).
	Body string
	// SourceIP, ContentType and Method describe the request.
	SourceIP    string
	ContentType string
	Method      string
}

// Ingest receives a webhook for a source, the ingest handler's whole path,
// in one request in the steady state: one TransactWriteItems spanning both
// tables stores the event, adds 1 to the source's eventCount and sets its
// lastEventAt on condition that the source is still active (a
// condition in the transaction, not a read before it), and adds 1 to the
// owner's usageThisMonth on condition that the owner's plan is still the
// one the event's expiresAt was computed from (FH-12): either all happen
// or none.
//
// A source's owner never changes, so the store remembers it (and the
// owner's plan) after the first ingest: FH-4 finds the source by ID and
// FH-1 reads the owner only on the first ingest of a source, and again
// when the transaction says the plan changed (then the ingest is retried
// once with the new plan). A missing or deleted source gives
// table.ErrNotFound; a paused one [ErrSourcePaused]; an owner whose
// events this month reached the plan's limit ([Options.PlanLimit]: 5,000
// on free, as the running service refuses with PLAN_LIMIT_REACHED) a
// [*PlanLimitError] matching [ErrPlanLimit], with nothing sent (FH-12,
// issue 44; the usage is read at most every Options.StateCheck, and the
// bound across stores is planlimit.go's). Bad input, a body over
// 256 KB among it, gives a *table.ValidationError before any request.
//
// In the scaled profile ([ScaledProfile]) the transaction adds to one of
// the source's counter shards (on condition that its copy of the status
// is active) and one of the owner's usage shards (on condition that its
// copy of the plan is the remembered one) instead of the items, picked by
// the event ID, and writes the event to one of the source's event
// partitions (write-sharded events, see eventshards.go), on condition
// that the source shard's copy of the event layout is the one the event
// was placed by: still one request, all or nothing; an ingest that read
// the layout before a switch is refused and retried under the new one. The first ingest of a
// source or user without shards creates them (one transaction per set,
// checking the item's state) and retries.
//
// With group commit (Options.GroupCommit, the scaled profile's default
// since issue 44) an ingest into a source with a transaction in flight
// goes out with the others that arrived meanwhile, in one transaction
// with one count delta (group.go): the same conditions and faults, for
// the whole group. In the stream-counted profile ([StreamCountedProfile],
// FH-16) it is one PutItem of the event, counted later from the stream,
// and its conditions become the bounds that profile states.
//
// Under faults: a transaction whose response is lost after it committed
// is resent by the SDK with the same idempotency token and reports success
// once, the event stored and counted once; one canceled only by
// TransactionConflict is retried (table.Table.Transact); an error means
// nothing was stored or counted, except when the SDK's retries of a lost
// response run out (then the event may be stored and counted: a caller's
// retry stores a second event under a new ID, as with any webhook
// delivered twice).
func (s *Store) Ingest(ctx context.Context, source fh.SourceID, req IngestRequest) (fh.Event, error) {
	return table.Run(ctx, s.ingest, func(ctx context.Context) (fh.Event, error) {
		ev, err := received(source, req)
		if err != nil {
			return fh.Event{}, err
		}
		switch {
		case s.opts.StreamCounts:
			return s.ingestAlone(ctx, source, ev)
		case s.opts.GroupCommit > 1:
			return s.grouper.Do(ctx, source, ev)
		}
		evs, err := s.ingestEvents(ctx, source, []fh.Event{ev})
		if err != nil {
			return fh.Event{}, err
		}
		return evs[0], nil
	})
}

// received returns the event of req into source as received: the fields
// the request sets, validated before any request. The owner, the ID and
// the times are stamped when the transaction is built (Events.newEvent).
func received(source fh.SourceID, req IngestRequest) (fh.Event, error) {
	ev := fh.Event{SourceID: source, Headers: req.Headers, Body: req.Body,
		SourceIP: req.SourceIP, ContentType: req.ContentType, Method: req.Method}
	return ev, ev.ValidateReceived()
}

// ingestEvents stores and counts the events recv (as received, all into
// source) in one transaction (see Ingest; several events only with group
// commit).
func (s *Store) ingestEvents(ctx context.Context, source fh.SourceID, recv []fh.Event) ([]fh.Event, error) {
	for attempt := 0; ; attempt++ {
		o, err := s.sourceOwner(ctx, source)
		if err != nil {
			return nil, err
		}
		release, err := s.admit(ctx, o.user, o.plan, len(recv))
		if err != nil {
			return nil, fmt.Errorf("ingest %s: %w", source, err)
		}
		evs, next, err := s.ingestOnce(ctx, source, recv, o)
		release(err == nil || kept(err))
		switch {
		case next == ingestRereadPlan && attempt < 3:
			s.owners.Delete(source)
			continue
		case next == ingestInitShards && attempt < 3:
			stale, err := s.initShards(ctx, source, o)
			if err != nil {
				return nil, err
			}
			if stale {
				s.owners.Delete(source) // the source or the plan changed: read them again
			}
			continue
		}
		if err != nil && !errors.Is(err, table.ErrThrottled) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			// The owner, its plan or the source may have changed: read
			// them again. A throttle or a canceled call says nothing about
			// them, and re-reading under throttling would add reads to the
			// partitions already refusing.
			s.owners.Delete(source)
		}
		return evs, err
	}
}

// ownerInfo is what ingestion remembers of a source: its owner (fixed for
// the source's life) and the owner's plan (checked in every transaction).
type ownerInfo struct {
	user fh.UserID
	plan fh.Plan // as stored, possibly a value the enum does not know
	// layout is the source's event layout (write-sharded events; zero:
	// the document's SRC#{sourceId}), checked in every transaction in the
	// scaled profile through the source's counter shards.
	layout table.Layout
	// read is when the source and its owner were last read.
	read time.Time
	// counters are the default profile's counter patches, prepared when
	// the owner is read (nil in the scaled profile).
	counters *counterPatches
}

// sourceOwner returns the remembered owner of source, or reads it: FH-4
// (GSI3 confirmed by a consistent read) and FH-1.
func (s *Store) sourceOwner(ctx context.Context, source fh.SourceID) (ownerInfo, error) {
	if v, ok := s.owners.Load(source); ok {
		o := v.(ownerInfo)
		if !s.scaled() || s.opts.StateCheck < 0 || s.now().Sub(o.read) < s.stateCheck() {
			return o, nil
		}
		same, err := s.recheck(ctx, source, o)
		if err != nil || !same {
			s.owners.Delete(source)
		}
		if err != nil {
			return ownerInfo{}, err
		}
		if same {
			o.read = s.now()
			s.owners.Store(source, o)
			return o, nil
		}
	}
	src, err := s.Sources.GetByID(ctx, source)
	if err != nil {
		return ownerInfo{}, err
	}
	if src.Status != fh.StatusActive {
		return ownerInfo{}, fmt.Errorf("ingest %s: %w", source, ErrSourcePaused)
	}
	owner, err := s.Users.ByID.Get(ctx, fh.User{UserID: src.UserID})
	if err != nil {
		return ownerInfo{}, err
	}
	o := ownerInfo{user: owner.UserID, plan: owner.Plan, read: s.now()}
	s.seedUsage(owner.UserID, owner.Plan, owner.UsageThisMonth)
	if s.eventSharded() {
		if o.layout, err = table.ParseLayout(src.EventLayout); err != nil {
			return ownerInfo{}, fmt.Errorf("ingest %s: %w", source, err)
		}
	}
	if !s.scaled() {
		if o.counters, err = s.prepareCounters(source, o); err != nil {
			return ownerInfo{}, err
		}
	}
	s.owners.Store(source, o)
	return o, nil
}

// ingestOnce sends the ingest transaction of recv; next says what to do
// when it failed only because the owner's plan is no longer the
// remembered one (read it again) or, in the scaled profile, because the
// source's or the owner's counter shards do not exist yet (create them).
func (s *Store) ingestOnce(ctx context.Context, source fh.SourceID, recv []fh.Event, o ownerInfo) ([]fh.Event, ingestNext, error) {
	evs, ops, evOps, err := s.ingestOps(recv, o)
	if err != nil {
		return nil, ingestDone, err
	}
	if err = s.events.Transact(ctx, ops...); err == nil {
		return evs, ingestDone, nil
	}
	var te *table.TxError // declared here: errors.As moves it to the heap
	if !errors.As(err, &te) {
		return nil, ingestDone, err
	}
	src, user := evOps, evOps+1
	if !s.scaled() {
		// The counter actions do not ask for the item they fail on
		// (hot, and a failure is rare): read the two items to say why.
		if err := s.explainCounters(ctx, te, source, o, src, user); err != nil {
			return nil, ingestDone, err
		}
	}
	next := ingestDone
	for _, r := range te.Failed() {
		if r.Code != "ConditionalCheckFailed" {
			continue
		}
		switch r.Index {
		case src: // the source's state, from the item (or shard) returned with the failure
			st, _ := r.Item["status"].(*types.AttributeValueMemberS)
			switch {
			case r.Item == nil && s.scaled():
				next = ingestInitShards
				continue
			case st != nil && st.Value == string(fh.StatusActive) && s.eventSharded():
				// Active, so the event layout changed (a switch): read
				// the source again and write under the new layout.
				next = ingestRereadPlan
				continue
			case st != nil && st.Value != string(fh.StatusDeleted):
				return nil, ingestDone, fmt.Errorf("ingest %s: %w: %w", source, ErrSourcePaused, err)
			}
			return nil, ingestDone, fmt.Errorf("ingest %s: %w: %w", source, table.ErrNotFound, err)
		case user:
			switch {
			case r.Item == nil && s.scaled():
				next = ingestInitShards
			case r.Item == nil:
				return nil, ingestDone, fmt.Errorf("ingest user %s: %w: %w", o.user, table.ErrNotFound, err)
			case next == ingestDone:
				next = ingestRereadPlan // the plan changed: read it again
			}
		}
	}
	return nil, next, err
}

// ingestOps builds the ingest transaction of recv for the owner o: the
// events' creates (evOps actions) followed by the counter actions, which
// count them all. It sends nothing.
func (s *Store) ingestOps(recv []fh.Event, o ownerInfo) (evs []fh.Event, ops []table.TxOp, evOps int, err error) {
	evs, ops = make([]fh.Event, 0, len(recv)), make([]table.TxOp, 0, len(recv)+2) // each event's create, the two counters
	for _, r := range recv {
		ev, evOp, err := s.ingestEventOp(r, o)
		if err != nil {
			return nil, nil, 0, err
		}
		evs, ops = append(evs, ev), append(ops, evOp...)
	}
	evOps = len(ops)
	if s.scaled() {
		ops = append(ops, s.shardedOps(evs, o)...)
	} else if ops, err = s.itemCounterOps(ops, evs[0], o); err != nil { // one event: the default profile has no group commit
		return nil, nil, 0, err
	}
	return evs, ops, evOps, nil
}

// ingestEventOp stamps ev (as received) for the owner o and builds its
// create action, in its event partition when the source is write-sharded.
func (s *Store) ingestEventOp(ev fh.Event, o ownerInfo) (fh.Event, []table.TxOp, error) {
	ev, shard := s.ownedEvent(ev, o)
	ops, err := s.event.CreateOp(&ev)
	if err != nil {
		return fh.Event{}, nil, err
	}
	if shard.n > 1 { // a write-sharded source: the event's partition
		ops[0] = s.events.InPartition(ops[0], table.ShardPK(s.eventPartition(ev.SourceID), shard.i, shard.n))
	}
	return ev, ops, nil
}

// ownedEvent stamps ev (as received) for the owner o: its user, its ID
// under o's layout and its expiry from o's plan (free when the stored plan
// is one the enum does not know).
func (s *Store) ownedEvent(ev fh.Event, o ownerInfo) (fh.Event, eventShard) {
	plan := o.plan
	if !fh.Plans.Valid(plan) {
		plan = fh.PlanFree
	}
	ev.UserID = o.user
	ev, shard := s.Events.newEvent(ev, plan, time.Time{}, o.layout)
	if s.opts.EventsByKeyOnly {
		_, _, _, ev.ByKey = ev.EventID.Location() // found by key alone: no GSI1 entry
	}
	return ev, shard
}

// itemCounterOps appends to ops the default profile's counter actions of
// ev: the source's eventCount and lastEventAt, if it is active, and the
// owner's usageThisMonth, if its plan is still o.plan, on the items
// themselves: o's prepared patches with this event's lastEventAt.
func (s *Store) itemCounterOps(ops []table.TxOp, ev fh.Event, o ownerInfo) ([]table.TxOp, error) {
	if o.counters == nil {
		c, err := s.prepareCounters(ev.SourceID, o)
		if err != nil {
			return nil, err
		}
		o.counters = c
	}
	srcOp, err := o.counters.src.Op(map[string]any{"lastEventAt": fh.ISO(ev.ReceivedAt.Time())}) // a field value: encoded as is
	if err != nil {
		return nil, err
	}
	userOp, err := o.counters.user.Op(nil)
	if err != nil {
		return nil, err
	}
	// A failed condition is explained by explainCounters' read, so the
	// actions do not ask for the items (a success costs DynamoDB less).
	return append(ops, srcOp.WithoutOldItem(), userOp.WithoutOldItem()), nil
}

// explainCounters fills in the source's and the owner's items (the
// attributes recheck reads, strongly consistent, in one BatchGetItem) on
// the reasons of te whose counter action, at index src or user, failed its
// condition without returning the item: a missing or expired item stays
// nil. The ingest then tells a paused, deleted or re-planned source from
// the item as it does from a returned one; a state that changed again
// between the cancellation and the read is met by the next attempt.
func (s *Store) explainCounters(ctx context.Context, te *table.TxError, source fh.SourceID, o ownerInfo, src, user int) error {
	var need []int
	for i, r := range te.Reasons {
		if (i == src || i == user) && r.Code == "ConditionalCheckFailed" && r.Item == nil {
			need = append(need, i)
		}
	}
	if len(need) == 0 {
		return nil
	}
	sk, uk, err := s.ownerKeys(o, source)
	if err != nil {
		return err
	}
	items, err := s.main.GetOwners(ctx, []table.Key{sk, uk}, true, recheckAttrs...)
	if err != nil {
		return fmt.Errorf("ingest %s: %w", source, err)
	}
	for _, i := range need {
		if i == src {
			te.Reasons[i].Item = items[sk]
		} else {
			te.Reasons[i].Item = items[uk]
		}
	}
	return nil
}

// counterPatches are the two patches every ingest of one source sends
// (built once per remembered owner: [table.PreparedPatch]).
type counterPatches struct {
	src  *table.PreparedPatch[fh.Source]
	user *table.PreparedPatch[fh.User]
}

// prepareCounters prepares the counter patches of source for the owner o.
func (s *Store) prepareCounters(source fh.SourceID, o ownerInfo) (*counterPatches, error) {
	sk, uk, err := s.ownerKeys(o, source)
	if err != nil {
		return nil, err
	}
	src, err := s.source.PreparePatch(sk, table.Patch{
		Add:     map[string]int64{"eventCount": 1},
		Set:     map[string]any{"lastEventAt": fh.ISO(s.now())},
		IfEqual: map[string]any{"status": string(fh.StatusActive)},
	})
	if err != nil {
		return nil, err
	}
	// Counting usage is not a change of the profile: like the service's
	// incrementUsage ("SET usageThisMonth = usageThisMonth + :inc"), it
	// leaves updatedAt as it was (one attribute less on every ingest).
	up := table.Patch{Add: map[string]int64{"usageThisMonth": 1}, IfEqual: map[string]any{"plan": string(o.plan)}, NoTouch: true}
	if o.plan == "" { // a user written without a plan
		up.IfEqual, up.IfAbsent = nil, []string{"plan"}
	}
	user, err := s.user.PreparePatch(uk, up)
	if err != nil {
		return nil, err
	}
	return &counterPatches{src: src, user: user}, nil
}

// stateCheck is Options.StateCheck with its default.
func (s *Store) stateCheck() time.Duration {
	if s.opts.StateCheck == 0 {
		return time.Second
	}
	return s.opts.StateCheck
}

// recheck reads source's item and its owner's (one eventually consistent
// BatchGetItem: a change shows within StateCheck and the replication lag,
// and the reads cost half; projected on recheckAttrs) and reports whether they still hold the state o remembers
// (the source active under o.layout, the owner on o.plan). When one does
// not, it rolls that item up first, which copies the item's state into
// its counter shards (a change another writer made on the item alone),
// so that every store's next ingest is refused or re-planned by its own
// transaction. A missing item gives table.ErrNotFound.
func (s *Store) recheck(ctx context.Context, source fh.SourceID, o ownerInfo) (bool, error) {
	sk, uk, err := s.ownerKeys(o, source)
	if err != nil {
		return false, err
	}
	items, err := s.main.GetOwners(ctx, []table.Key{sk, uk}, false, recheckAttrs...)
	if err != nil {
		return false, err
	}
	raw, user := items[sk], items[uk]
	if raw == nil || user == nil {
		return false, fmt.Errorf("ingest %s: source or owner: %w", source, table.ErrNotFound)
	}
	same := true
	status, _ := raw["status"].(*types.AttributeValueMemberS)
	layout, _ := raw[eventLayoutAttr].(*types.AttributeValueMemberS)
	moved := s.eventSharded() && (layout != nil && layout.Value != o.layout.String() || layout == nil && !o.layout.IsZero())
	if status == nil || status.Value != string(fh.StatusActive) || moved {
		same = false
		if _, _, err := s.srcCounters.Rollup(ctx, string(source), sk); err != nil {
			return false, err
		}
	}
	plan, _ := user["plan"].(*types.AttributeValueMemberS)
	if (plan == nil) != (o.plan == "") || plan != nil && plan.Value != string(o.plan) {
		same = false
		if _, _, err := s.usageCounters.Rollup(ctx, string(o.user), uk); err != nil {
			return false, err
		}
	}
	return same, nil
}

// recheckAttrs are the attributes recheck reads of a source and its owner
// (a projection: the rest of the items is never fetched).
var recheckAttrs = []string{"status", eventLayoutAttr, "plan"}
