package ferryhook

import (
	"context"
	"errors"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/internal/group"
	"github.com/singletable/singletable/table"
)

// Group commit (issue 44). An ingest transaction costs DynamoDB twice the
// units of each item it writes: the event (4 write units for 1-2 KB) and
// the two counter shards (2 each), so one event per transaction costs 8
// units beyond its index entry. Events that arrive together for one
// source share one transaction instead: every event still costs 4, and
// the two counter deltas, which add the group's size, cost 4 for all of
// them. With k events a transaction costs 4 + 4/k units per event (6 at
// k = 2, 4.1 at k = 40), and as many requests as groups.
//
//   - [Store.Ingest] groups by itself: an ingest into a source that has a
//     transaction in flight waits for it and goes out with the others
//     that arrived meanwhile, up to Options.GroupCommit events (and 3.5
//     MB) per transaction. At low rates every group is one event (no wait
//     is added: a lone ingest is sent at once); at 10,000 ingests a second
//     into one source a transaction in flight for 10 ms gathers up to a
//     hundred per process.
//   - [Store.IngestBatch] sends events that arrived together (a queue's
//     batch) in as few transactions as the limits allow.
//
// What holds is what holds for one event, for the whole group: a
// transaction is all or nothing, so every event of a group is stored and
// counted, or none (a paused, deleted or re-planned source refuses all of
// them, and each caller gets the error); a lost response is resent by the
// SDK with the transaction's idempotency token and applies once. The
// callers' contexts count as package internal/group states.

// DefaultGroupCommit is the scaled profile's largest group: 48 events and
// their two counter deltas (a transaction takes 100 actions).
const DefaultGroupCommit = 48

// groupBytes bounds the bytes of one group's events (bodies and headers),
// under DynamoDB's 4 MB per transaction.
const groupBytes = 3_500_000

// groupSize is what an event as received counts against groupBytes: its
// body and headers, and 512 bytes for the rest of the item.
func groupSize(ev fh.Event) int { return len(ev.Body) + len(ev.Headers) + 512 }

// newGrouper returns the store's group commit of ingests (package
// internal/group: the contract above), one source a key.
func (s *Store) newGrouper() *group.Grouper[fh.SourceID, fh.Event, fh.Event] {
	return &group.Grouper[fh.SourceID, fh.Event, fh.Event]{
		Max:      min(max(s.opts.GroupCommit, 1), table.MaxTxItems-2),
		MaxBytes: groupBytes,
		Size:     groupSize,
		Commit:   s.ingestEvents,
		// Near the plan's limit: one at a time, so that those that fit
		// are taken.
		Split: func(err error) bool { return errors.Is(err, ErrPlanLimit) },
	}
}

// IngestBatch receives webhooks that arrived together for one source
// (FH-12, issue 44): the events of reqs in as few transactions as the
// limits allow (Options.GroupCommit events and 3.5 MB each; one event each
// without group commit), each storing its events and adding their number
// to the source's and the owner's counts with one delta each, on the
// conditions Ingest states. It returns the events stored, in the order of
// reqs: on an error, those of the transactions sent before it (the rest
// were not stored). Bad input in any request gives a *table.ValidationError
// before any request. In the stream-counted profile each event is its own
// PutItem, as in Ingest.
func (s *Store) IngestBatch(ctx context.Context, source fh.SourceID, reqs []IngestRequest) ([]fh.Event, error) {
	return table.Run(ctx, s.ingestBatch, func(ctx context.Context) ([]fh.Event, error) {
		recv := make([]fh.Event, len(reqs))
		var err error
		for i, r := range reqs {
			if recv[i], err = received(source, r); err != nil {
				return nil, err
			}
		}
		var out []fh.Event
		if s.opts.StreamCounts {
			for _, r := range recv {
				ev, err := s.ingestAlone(ctx, source, r)
				if err != nil {
					return out, err
				}
				out = append(out, ev)
			}
			return out, nil
		}
		return s.grouper.All(ctx, source, recv)
	})
}
