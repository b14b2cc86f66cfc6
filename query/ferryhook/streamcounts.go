package ferryhook

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
)

// StreamCountedProfile is the cheapest ingest that keeps every guarantee
// as a stated bound (issue 44; catalog FH-16): the scaled profile's keys
// (32 counter shards per source and per user, 64 event partitions per new
// source), with each event written alone and the counts following the
// events table's stream.
//
// Per ingest ([Store.Ingest]): one PutItem of the event, on the create
// condition (2 write units for an event of 1-2 KB), and its GSI1 entry
// (2 more: the running service still finds it by ID), so 4 write units;
// no transaction, no counter write. The counts are added by a consumer of
// the events table's stream running [Store.CountsHandler] (a
// feed.Consumer): per batch of a stream shard, one UpdateItem per source
// and per owner the batch names, each adding the batch's events to one
// counter shard (the one the stream shard's ID picks) and storing the
// stream position in the same write (feed.Applier), so a batch delivered
// again adds nothing; plus the consumer's checkpoint. At 10,000 events a
// second into one source, a consumer reading batches of hundreds adds a
// few hundredths of a unit per event: 4.0x in all. With
// Options.EventsByKeyOnly as well, events skip GSI1 too: 2.0x, and the
// running service no longer finds them by ID.
//
// What each guarantee becomes:
//   - No event lost or counted twice: held, eventually. An ingest that
//     returns success stored its event (a lost PutItem response is
//     resent by the SDK and recognised by its write token); the stream
//     holds one INSERT per event, and the counts take each record once
//     whatever the consumer's faults (lost responses, retries, throttles,
//     restarts from an older checkpoint). The counts equal the events
//     stored once the consumer has read to the stream's end: they lag by
//     the stream's lag (about a second on AWS; the consumer's poll).
//   - A paused or deleted source takes no events: bounded. The ingest
//     trusts the state it remembers for Options.StateCheck (1 s), then
//     reads the source again (one eventually consistent BatchGetItem): a
//     source paused or deleted elsewhere takes events for at most
//     StateCheck after the change (plus the read's replication lag, under
//     a second). The store that pauses or deletes it forgets the state at
//     once. Those events are stored and counted (the counts equal the
//     events stored).
//   - The plan: an event's retention (expiresAt) comes from the plan the
//     ingest remembers, so a plan change reaches ingests within
//     StateCheck; the owner's usageThisMonth lags by the stream's lag, so
//     a check of usage against the plan's monthly limit (the running
//     service's, at ingest) can let a user pass the limit by at most the
//     events of that lag: the rate times the lag (10,000 a second for one
//     second: 10,000 events). A new billing period ([Users.ResetUsage])
//     counts in the new period the events ingested before it whose
//     records the consumer had not yet read.
//   - lastEventAt is the latest receivedAt of the batches applied: a
//     counter shard two stream shards write may hold the earlier of two
//     close batches' times, and [Sources.Counts] takes the latest over
//     the shards.
//
// Only events the library creates (located IDs: [Store.Ingest],
// [Store.IngestBatch], [Events.Create]) are counted from the stream;
// events the running service writes (evt_ + nanoid(16)) are counted by
// its own incrementUsage on the user item, which the rollup keeps.
func StreamCountedProfile() func(*Options) {
	return func(o *Options) {
		o.CounterShards, o.EventShards, o.StreamCounts = DefaultCounterShards, DefaultEventShards, true
	}
}

// ingestAlone stores ev (as received) with one PutItem (the stream-counted
// profile): the source's state and the owner's plan as remembered (read
// again every Options.StateCheck).
func (s *Store) ingestAlone(ctx context.Context, source fh.SourceID, ev fh.Event) (fh.Event, error) {
	o, err := s.sourceOwner(ctx, source)
	if err != nil {
		return fh.Event{}, err
	}
	ev, shard := s.ownedEvent(ev, o)
	release, err := s.admit(ctx, o.user, o.plan, 1)
	if err != nil {
		return fh.Event{}, fmt.Errorf("ingest %s: %w", source, err)
	}
	if shard.n > 1 {
		err = s.event.CreateIn(ctx, &ev, table.ShardPK(s.eventPartition(ev.SourceID), shard.i, shard.n))
	} else {
		err = s.event.Create(ctx, &ev)
	}
	release(err == nil || kept(err))
	if err != nil {
		return fh.Event{}, fmt.Errorf("ingest %s: %w", source, err)
	}
	return ev, nil
}

// CountsHandler returns the handler of the events table's stream that
// counts ingested events in the stream-counted profile
// ([StreamCountedProfile], FH-16): run it in a feed.Consumer on the
// events table (its Table; checkpoints are kept there too). For each
// batch of a stream shard it adds, per source, the batch's new events to
// eventCount and its latest receivedAt to lastEventAt of one of the
// source's counter shards, and per owner the events to usageThisMonth of
// one of the owner's usage shards (both shards picked by the stream
// shard's ID), each in one UpdateItem that stores the stream position
// with it (feed.Applier): a batch delivered again, whole or in part, adds
// nothing twice. Only INSERTs of events with located IDs count (see the
// profile). Under faults: a write that fails leaves the batch to be
// delivered again (the handler reports no record handled); a lost
// response is resent by the SDK and recognised by its position.
func (s *Store) CountsHandler() feed.BatchHandler {
	a := &feed.Applier{Table: s.main}
	return feed.BatchFunc(func(ctx context.Context, b feed.Batch) (int, error) {
		if s.srcCounters == nil {
			return 0, fmt.Errorf("ferryhook: CountsHandler needs the stream-counted profile (Options.CounterShards)")
		}
		if _, err := a.Apply(ctx, b, func(rec table.Record) ([]feed.Effect, error) { return s.countEffects(b.Shard, rec) }); err != nil {
			return 0, err
		}
		return len(b.Records), nil
	})
}

// countEffects returns what one stream record of the events table adds
// to the counters: for a new event with a located ID, 1 to its source's
// eventCount (and its receivedAt as lastEventAt) and 1 to its owner's
// usageThisMonth, on the shards shard's ID picks.
func (s *Store) countEffects(shard string, rec table.Record) ([]feed.Effect, error) {
	if rec.Op != "INSERT" {
		return nil, nil
	}
	if c := s.events.Classify(rec); c.Kind != table.KindEntity || c.Entity.Type() != eventDef.Type {
		return nil, nil
	}
	ch, err := s.event.DecodeChange(rec)
	if err != nil {
		return nil, err
	}
	ev := ch.New
	if ev == nil {
		return nil, nil
	}
	if _, _, _, ok := ev.EventID.Location(); !ok {
		return nil, nil // the running service's event: it counts it itself
	}
	i := table.Shard(shard, s.srcCounters.Spec().Shards)
	set := map[string]types.AttributeValue{}
	if ta := s.main.Schema().TypeAttr; ta != "" {
		set[ta] = &types.AttributeValueMemberS{Value: table.CounterType}
	}
	srcSet := map[string]types.AttributeValue{"lastEventAt": &types.AttributeValueMemberS{Value: fh.ISO(ev.ReceivedAt.Time()).String()}}
	for k, v := range set {
		srcSet[k] = v
	}
	return []feed.Effect{
		{Key: s.srcCounters.ShardKey(string(ev.SourceID), i), Add: map[string]int64{"eventCount": 1}, Set: srcSet},
		{Key: s.usageCounters.ShardKey(string(ev.UserID), i), Add: map[string]int64{"usageThisMonth": 1}, Set: set},
	}, nil
}

// forgetSource makes this store's next ingest into source read its state
// again, in the stream-counted profile, whose ingest checks no state in
// DynamoDB (a status change by this store is then seen at once; by
// another, within Options.StateCheck). The other profiles' ingests are
// refused by their own transactions and keep what they remember.
func (s *Store) forgetSource(source fh.SourceID) {
	if s.opts.StreamCounts {
		s.owners.Delete(source)
	}
}

// forgetOwner is forgetSource for every source of user this store
// remembers (a plan change).
func (s *Store) forgetOwner(user fh.UserID) {
	if !s.opts.StreamCounts {
		return
	}
	s.owners.Range(func(k, v any) bool {
		if v.(ownerInfo).user == user {
			s.owners.Delete(k)
		}
		return true
	})
}
