package ferryhook

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// Write-sharded events (issue 22; FH-7, FH-8, FH-11). All of a source's
// events in SRC#{sourceId}, under sort keys that only increase, take at
// most 1,000 write units per second there: an event of about 1.6 KB costs
// 4 in the ingest transaction, so one source tops out near 250 events per
// second. With Options.EventShards (the scaled profile: 64) a source
// writes its events to N partitions, SRC#{sourceId}#0 .. #{N-1}
// (table.ShardPK), and records its layout (table.Layout, epochs starting
// at a receivedAt in Unix milliseconds) on the source item, in
// eventLayout, with a copy in each of its counter shards:
//
//   - Placement. An ingest picks a uniformly random shard of the N of the
//     epoch its receivedAt falls in, and records it in the event ID's
//     bucket (fh.NewLocatedEventID): the event is read by ID with one
//     GetItem whatever the layout ([Events.GetByID]).
//   - No stale writer, and the source item stays cold. The ingest
//     transaction conditions on the layout through the counter shard it
//     already adds to (its copy of status and eventLayout), not on the
//     source item; a switch writes the item and every shard in one
//     transaction ([Sources.ShardEvents]), so an ingest that read the old
//     layout fails its condition and is retried with the new one. Nothing
//     of it is applied.
//   - Complete lists. [Events.ListBySource] reads the layout (one
//     strongly consistent GetItem of the source's counter shard 0) and
//     every partition it names plus SRC#{sourceId} itself (where the
//     running service, [Events.Create] and the epochs before a switch
//     write), merged newest first with one cursor holding a position per
//     partition (table.ListLayout). Every event is in exactly one of them,
//     so a list never misses an event or returns one twice, before,
//     during or after a switch. A list continued page by page across a
//     switch reads the partitions its first page read: newest first it
//     misses none of the events older than where it stands; oldest first
//     it ends before the new partitions' events.
//   - Switching a live source ([Sources.ShardEvents], [EventReshardJob])
//     appends an epoch from now on; stored events stay where they are.
//   - Faults. An ingest and a switch are one transaction each: a response
//     lost after it applied is resent by the SDK with its idempotency
//     token (applied once), a conflict cancels all of it and is retried,
//     a failed condition applies nothing.
//
// What the document's running service cannot read of a sharded source:
// the events in SRC#{sourceId}#{i} (its listBySource queries
// SRC#{sourceId}, its getById GSI1, which still finds them).

// eventLayoutAttr is the source attribute holding its events' layout.
const eventLayoutAttr = "eventLayout"

// eventSharded reports whether the store write-shards sources' events.
func (s *Store) eventSharded() bool { return s.opts.EventShards > 0 }

// newSourceLayout is the event layout a source created by this store
// starts with ("" for one partition).
func (s *Store) newSourceLayout() string {
	if s.opts.EventShards <= 1 {
		return ""
	}
	l, err := table.NewLayout(s.opts.EventShards)
	if err != nil {
		return ""
	}
	return l.String()
}

// mustLayout parses a layout this store wrote (newSourceLayout).
func mustLayout(text string) table.Layout {
	l, err := table.ParseLayout(text)
	if err != nil {
		panic("ferryhook: " + err.Error()) // written by newSourceLayout: never
	}
	return l
}

// eventLayout returns source's event layout as its counter shard 0 holds
// it (one strongly consistent GetItem, projected on the layout; an ingest writes events only under
// the layout its shard holds). A source without shards yet has ingested
// nothing sharded: the zero layout.
func (s *Store) eventLayout(ctx context.Context, source fh.SourceID) (table.Layout, error) {
	if !s.eventSharded() {
		return table.Layout{}, nil
	}
	raw, err := s.main.GetOwner(ctx, s.srcCounters.ShardKey(string(source), 0), true, eventLayoutAttr)
	if errors.Is(err, table.ErrNotFound) {
		return table.Layout{}, nil
	}
	if err != nil {
		return table.Layout{}, err
	}
	return table.LayoutOf(raw, eventLayoutAttr)
}

// ShardEvents switches user's source to n event partitions from now on
// (1: back to SRC#{sourceId} alone), while the source is live (issue 22,
// FH-7): one transaction sets the source's eventLayout, on condition that
// it still holds the layout and the status read, and writes the new
// layout and the status into every counter shard of the source (creating
// missing ones), so the next ingest that read the old layout is refused
// by its own transaction and retried under the new one. Events already
// stored stay where they are and stay listed. It needs the scaled
// profile (Options.EventShards), else a *table.ValidationError; another
// user's, a missing or a deleted source gives table.ErrNotFound. It
// returns the new layout.
//
// Requests: a strongly consistent GetItem of the source (projected on
// its status and event layout: sourceShardFields) and one
// TransactWriteItems of N+1 actions (the item and its counter shards),
// repeated when a status change or another switch wins the race.
func (s *Sources) ShardEvents(ctx context.Context, user fh.UserID, id fh.SourceID, n int) (table.Layout, error) {
	return table.Run(ctx, s.shardEvents, func(ctx context.Context) (table.Layout, error) {
		if !s.s.eventSharded() {
			return table.Layout{}, table.Invalid("EventShards", "the store runs the document's layout (Options.EventShards 0): its lists would not read sharded events")
		}
		if n < 1 || n > table.MaxShards {
			return table.Layout{}, table.Invalid("shards", "%d is outside 1..%d", n, table.MaxShards)
		}
		k, err := s.s.source.CheckedKey(fh.Source{UserID: user, SourceID: id})
		if err != nil {
			return table.Layout{}, err
		}
		for attempt := 0; ; attempt++ {
			src, err := s.s.source.Peek(ctx, k, sourceShardFields)
			if err != nil {
				return table.Layout{}, err
			}
			status := table.FieldValue(src, sourceStatus)
			if status == fh.StatusDeleted {
				return table.Layout{}, notFound("source", string(id))
			}
			l, err := table.ParseLayout(table.FieldValue(src, sourceEventLayout))
			if err != nil {
				return table.Layout{}, fmt.Errorf("source %s: %w", id, err)
			}
			if l.Shards() == n {
				return l, nil
			}
			from := int64(fh.Millis(s.s.now()))
			if e := l.Epochs(); len(e) > 0 {
				from = max(from, e[len(e)-1].From+1)
			}
			next, err := l.Switch(from, n)
			if err != nil {
				return l, err
			}
			was := &types.AttributeValueMemberS{Value: string(status)}
			ops := append([]table.TxOp{s.s.main.SwitchLayoutOp(k, eventLayoutAttr, l, next, map[string]types.AttributeValue{"status": was})},
				s.s.srcCounters.StateOps(string(id), map[string]string{"status": string(status), eventLayoutAttr: next.String()})...)
			err = s.s.main.Transact(ctx, ops...)
			if err == nil {
				return next, nil
			}
			var te *table.TxError
			if !errors.As(err, &te) || attempt >= 4 {
				return l, fmt.Errorf("shard events of source %s: %w", id, err)
			}
			// The source changed since it was read (its status, another
			// switch): read it again.
		}
	})
}

// sourceShardFields is what ShardEvents reads of a source: its status and
// event layout, typed fields checked when the package loads.
var (
	sourceStatus      = table.MustField[fh.Source, fh.Status]("status")
	sourceEventLayout = table.MustField[fh.Source, string](eventLayoutAttr)
	sourceShardFields = table.Project(sourceStatus, sourceEventLayout)
)

// EventReshardJob returns the job that switches live sources to the
// event partition count shards returns for each (0: leave it), with
// [Sources.ShardEvents]: run it on the main table with table.RunJob
// (parallel, resumable, capacity-bounded) when the profile or a source's
// load changes. A source already at its count is Unchanged, so a second
// run changes nothing; deleted sources and other items are Skipped.
func EventReshardJob(name string, s *Store, shards func(fh.Source) int) table.Job {
	return table.ReshardJob(name, s.source, func(src fh.Source) string { return src.EventLayout },
		func(src fh.Source) int {
			if src.Status == fh.StatusDeleted {
				return 0
			}
			return shards(src)
		},
		func(ctx context.Context, src fh.Source, n int) error {
			_, err := s.Sources.ShardEvents(ctx, src.UserID, src.SourceID, n)
			return err
		})
}
