package ferryhook

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// DefaultCounterShards is the scaled profile's shard count: at 10,000
// ingests per second into one source (the hot-key target of
// docs/performance.md),
// each shard item takes about 625 write units per second (2 per ingest
// transaction), under the 800 target.
const DefaultCounterShards = 32

// DefaultEventShards is the scaled profile's event partitions per new
// source: at 10,000 ingests per second into one source, an event of about
// 1.6 KB (4 write units in the ingest transaction) takes 40,000 write
// units per second, 625 on each of 64 partitions, under the 800 target.
const DefaultEventShards = 64

// ScaledProfile selects sharded counters ([Options.CounterShards] =
// [DefaultCounterShards]) and write-sharded events ([Options.EventShards]
// = [DefaultEventShards] for the sources it creates): no ingest writes the
// source or user item, so neither partition USER#{userId} nor their GSI1
// and GSI3 entries take the events' rate, and a source's events spread
// over 64 partitions. Since issue 44 it also commits the ingests that
// arrive together for one source in one transaction
// ([Options.GroupCommit] = [DefaultGroupCommit], group.go) and leaves the
// events it ingests out of GSI1 ([Options.EventsByKeyOnly]: their located
// IDs are their keys), so an ingest costs 4 + 4/k write units, k events
// per transaction (6 at k = 2; 4.1 to 4.3 at 10,000 ingests a second into
// one source), where it cost 10 (TestIngestWCU_FH12_FH16).
//
// What changes, per group of k ingests ([Store.Ingest],
// [Store.IngestBatch]), one TransactWriteItems of k + 2 actions:
//
//	event (k times)  events  SRC#{sourceId}#{b} / EVT#{receivedAt}#{eventId}   b: a random one of the source's event partitions (in the ID's bucket); byKey, in no GSI
//	source shard     main    _CTR#src#{sourceId}#{i} / SHARD               ADD eventCount k, SET lastEventAt (the latest), if status = active and eventLayout = the layout the events were placed by (the shard's copies)
//	usage shard      main    _CTR#usage#{userId}#{i} / SHARD               ADD usageThisMonth k, if plan = the plan expiresAt came from (the copy)
//
// with i = table.Shard(the first eventId, 32). Every guarantee holds as
// for one event, for the whole group (all stored and counted, or none;
// group.go). The shards are in no GSI. A source
// or user created in this profile ([Sources.Create], [Users.Create]) gets
// its 32 shards in the transaction that creates it; one written otherwise
// (by the running service, or before the profile) gets them at its first
// ingest (one more transaction, with the state copied from the item and
// checked on it). Pausing, resuming or deleting a source ([Sources.Update]
// with a status, [Sources.Delete]) and changing a plan
// ([Users.Update]) or a billing period ([Users.ResetUsage]) write the item
// and its 32 shards in one transaction, so the next ingest is refused (or
// retried with the new plan) by its own transaction.
//
// Reads: eventCount, lastEventAt and usageThisMonth on the items are
// rollups ([Store.RollupJob], run with table.RunJob on the main table): as
// of the last rollup, plus whatever another writer added to the item
// itself. The exact figures are [Sources.Counts] (FH-13) and [Users.Usage]
// (FH-14): one strongly consistent BatchGetItem of the item, its rollup
// item and its 32 shards (34 keys, up to 17 read units), where the
// default profile's is one GetItem.
//
// What the document's running service can no longer read or do correctly
// next to a store in this profile:
//   - the events it ingests by ID: its getById queries GSI1, which no
//     longer holds them (set Options.EventsByKeyOnly back to false, 2
//     write units an event, for a deployment whose service must find
//     them);
//   - the events of a sharded source in SRC#{sourceId}#{b}: its
//     listBySource queries SRC#{sourceId} only; [Events.ListBySource] in
//     this profile reads both;
//   - its sources' eventCount and lastEventAt, and users' usageThisMonth,
//     lag behind by the time since the last rollup, so its plan-limit check
//     at ingest (usageThisMonth >= the plan's events per month) lets a user
//     exceed the limit by what was ingested since;
//   - a source it pauses, or a plan it changes, directly on the item is
//     seen by the library's ingest only after up to [Options.StateCheck]
//     (1 second): an ingesting store reads the items again that often and
//     then copies their state into the shards (the library's own Update,
//     Pause, Delete and ResetUsage do it at once, in the same
//     transaction; the rollup job does it too);
//   - its own ingest and incrementUsage still write the items directly;
//     the rollup keeps those increments (it adds the shards' gain, it never
//     overwrites).
func ScaledProfile() func(*Options) {
	return func(o *Options) {
		o.CounterShards, o.EventShards = DefaultCounterShards, DefaultEventShards
		o.GroupCommit, o.EventsByKeyOnly = DefaultGroupCommit, true
	}
}

// counterSets returns the scaled profile's counter sets on main: a
// source's events and a user's usage, n shards each (at most
// table.MaxCounterShards).
func counterSets(main *table.Table, n int) (src, usage *table.Counters) {
	n = min(n, table.MaxCounterShards)
	src, err := main.Counters(table.CounterSpec{Name: "src", Shards: n,
		Sums: []string{"eventCount"}, Latest: []string{"lastEventAt"}, State: []string{"status", eventLayoutAttr}})
	if err != nil {
		panic("ferryhook: " + err.Error()) // fixed declarations: never
	}
	usage, err = main.Counters(table.CounterSpec{Name: "usage", Shards: n,
		Sums: []string{"usageThisMonth"}, State: []string{"plan"}})
	if err != nil {
		panic("ferryhook: " + err.Error())
	}
	return src, usage
}

// scaled reports whether the store shards its counters.
func (s *Store) scaled() bool { return s.srcCounters != nil }

// ingestNext is what Ingest does after a failed transaction.
type ingestNext int

const (
	ingestDone ingestNext = iota
	ingestRereadPlan
	ingestInitShards // the source's or the user's shards do not exist yet
)

// shardedOps returns the scaled profile's counter actions of evs (one
// event, or a group commit's), whose owner is o: one delta on the source
// shard and one on the usage shard the first event's ID picks, adding
// len(evs) and setting lastEventAt to the latest receivedAt.
func (s *Store) shardedOps(evs []fh.Event, o ownerInfo) []table.TxOp {
	id := string(evs[0].EventID)
	n, last := int64(len(evs)), evs[0].ReceivedAt
	for _, ev := range evs[1:] {
		last = max(last, ev.ReceivedAt)
	}
	return []table.TxOp{
		s.srcCounters.AddOp(string(evs[0].SourceID), id, map[string]int64{"eventCount": n},
			map[string]string{"lastEventAt": fh.ISO(last.Time()).String()},
			s.sourceState(o)),
		s.usageCounters.AddOp(string(o.user), id, map[string]int64{"usageThisMonth": n}, nil,
			map[string]string{"plan": string(o.plan)}),
	}
}

// sourceState is the state of an active source an ingest conditions on
// (the source counter shard's copies): its status and, when the store
// write-shards events, the event layout it places the event by.
func (s *Store) sourceState(o ownerInfo) map[string]string {
	st := map[string]string{"status": string(fh.StatusActive)}
	if s.eventSharded() {
		st[eventLayoutAttr] = o.layout.String()
	}
	return st
}

// errStaleState is initShards' failed check of the state its shards copy.
var errStaleState = errors.New("the source or the plan changed")

// initShards creates the source's and the owner's shards when they do
// not exist, each set in one transaction that checks the item still
// holds the state copied (the source active, the plan o.plan). A set
// created meanwhile by another ingest is not an error; stale reports that
// the source or the plan changed meanwhile (read them again).
func (s *Store) initShards(ctx context.Context, source fh.SourceID, o ownerInfo) (stale bool, err error) {
	sk, uk, err := s.ownerKeys(o, source)
	if err != nil {
		return false, err
	}
	for _, ops := range [][]table.TxOp{
		s.srcCounters.InitOps(string(source), sk, s.sourceState(o)),
		s.usageCounters.InitOps(string(o.user), uk, map[string]string{"plan": string(o.plan)}),
	} {
		ops[0] = ops[0].OnFail(errStaleState) // the item's state check
		err := s.main.Transact(ctx, ops...)
		var te *table.TxError
		switch {
		case errors.As(err, &te):
			stale = stale || errors.Is(err, errStaleState)
		case err != nil:
			return false, fmt.Errorf("ingest %s: create counter shards: %w", source, err)
		}
	}
	return stale, nil
}

// RollupJob returns the maintenance job that brings every source's
// eventCount and lastEventAt, and every user's usageThisMonth, up to
// date with their shards in the scaled profile (table.Counters.Rollup,
// per item: one BatchGetItem, and one transaction when something
// changed; it also copies a status or plan another writer changed on the
// item into its shards). Run it on the main table with table.RunJob, as
// often as the documented attributes must be current (every minute, say).
// In the default profile it visits nothing.
func (s *Store) RollupJob() table.Job {
	return table.Job{Name: "ferryhook-counters", Visit: func(ctx context.Context, raw table.Item, dry bool) (table.JobOutcome, error) {
		if !s.scaled() {
			return table.Skipped, nil
		}
		switch {
		case s.source.Owns(raw):
			return s.srcCounters.Visit(ctx, raw, dry, idAttr("sourceId"))
		case s.user.Owns(raw):
			return s.usageCounters.Visit(ctx, raw, dry, idAttr("userId"))
		}
		return table.Skipped, nil
	}}
}

// idAttr returns the string attribute attr of an item, if it has one.
func idAttr(attr string) func(table.Item) (string, bool) {
	return func(raw table.Item) (string, bool) {
		v, ok := raw[attr].(*types.AttributeValueMemberS)
		if !ok || v.Value == "" {
			return "", false
		}
		return v.Value, true
	}
}

// SourceCounts are a source's exact counters.
type SourceCounts struct {
	// EventCount is the number of events ingested.
	EventCount int64
	// LastEventAt is when the last one was received (zero: none).
	LastEventAt fh.ISOTime
}

// Counts returns user's source's exact eventCount and lastEventAt (FH-13):
// in the default profile one strongly consistent GetItem of the source
// (projected on status, eventCount, lastEventAt); in
// the scaled profile ([ScaledProfile]) one strongly consistent
// BatchGetItem of the source, its rollup item and its shards (N + 2 keys),
// where the item's own attributes are only as current as the last rollup.
// Another user's, a missing or a deleted source gives table.ErrNotFound.
func (s *Sources) Counts(ctx context.Context, user fh.UserID, id fh.SourceID) (SourceCounts, error) {
	return table.Run(ctx, s.counts, func(ctx context.Context) (SourceCounts, error) {
		k, err := s.s.source.CheckedKey(fh.Source{UserID: user, SourceID: id})
		if err != nil {
			return SourceCounts{}, err
		}
		if !s.s.scaled() {
			src, err := s.s.source.Peek(ctx, k, sourceCountFields)
			if err != nil {
				return SourceCounts{}, err
			}
			if table.FieldValue(src, sourceStatus) == fh.StatusDeleted {
				return SourceCounts{}, notFound("source", string(id))
			}
			return SourceCounts{EventCount: table.FieldValue(src, sourceEventCount), LastEventAt: table.FieldValue(src, sourceLastEventAt)}, nil
		}
		tot, err := s.s.srcCounters.Read(ctx, string(id), k)
		if err != nil {
			return SourceCounts{}, err
		}
		if tot.State["status"] == string(fh.StatusDeleted) {
			return SourceCounts{}, notFound("source", string(id))
		}
		out := SourceCounts{EventCount: tot.Values["eventCount"]}
		if l := tot.Latest["lastEventAt"]; l != "" {
			if out.LastEventAt, err = fh.ParseISO(l); err != nil {
				return SourceCounts{}, fmt.Errorf("source %s: lastEventAt: %w", id, err)
			}
		}
		return out, nil
	})
}

// sourceCountFields is what Counts reads of a source in the default
// profile; userUsageFields what Usage reads of a user (typed fields,
// checked when the package loads).
var (
	sourceEventCount   = table.MustField[fh.Source, int64]("eventCount")
	sourceLastEventAt  = table.MustField[fh.Source, fh.ISOTime]("lastEventAt")
	sourceCountFields  = table.Project(sourceStatus, sourceEventCount, sourceLastEventAt)
	userUsageThisMonth = table.MustField[fh.User, int64]("usageThisMonth")
	userUsageFields    = table.Project(userUsageThisMonth)
)

// Usage returns the user's exact usageThisMonth (FH-14): in the default
// profile one strongly consistent GetItem of the user (projected on
// usageThisMonth); in the scaled
// profile one strongly consistent BatchGetItem of the user, its rollup
// item and its shards (N + 2 keys). A missing user gives
// table.ErrNotFound.
func (u *Users) Usage(ctx context.Context, id fh.UserID) (int64, error) {
	return table.Run(ctx, u.usage, func(ctx context.Context) (int64, error) {
		return u.s.usage(ctx, id)
	})
}

// usage is Users.Usage's read, without opening a call of its own (an
// ingest reads it for the plan limit).
func (s *Store) usage(ctx context.Context, id fh.UserID) (int64, error) {
	k, err := s.user.CheckedKey(fh.User{UserID: id})
	if err != nil {
		return 0, err
	}
	if !s.scaled() {
		user, err := s.user.Peek(ctx, k, userUsageFields)
		if err != nil {
			return 0, err
		}
		return table.FieldValue(user, userUsageThisMonth), nil
	}
	tot, err := s.usageCounters.Read(ctx, string(id), k)
	if err != nil {
		return 0, err
	}
	return tot.Values["usageThisMonth"], nil
}
