package ferryhook

import (
	"context"
	"errors"
	"runtime"
	"sync"

	"github.com/singletable/singletable/entity/fh"
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
// SDK with the transaction's idempotency token and applies once. A caller
// whose context ends while its group is in flight gets the context's
// error, and its event may be stored and counted (as with a lost
// response whose retries ran out); one whose context ended before its
// group was sent is left out of it.

// DefaultGroupCommit is the scaled profile's largest group: 48 events and
// their two counter deltas (a transaction takes 100 actions).
const DefaultGroupCommit = 48

// groupBytes bounds the bytes of one group's events (bodies and headers),
// under DynamoDB's 4 MB per transaction.
const groupBytes = 3_500_000

// groupSize is what an event as received counts against groupBytes: its
// body and headers, and 512 bytes for the rest of the item.
func groupSize(ev fh.Event) int { return len(ev.Body) + len(ev.Headers) + 512 }

// ingestGroup is one source's ingests waiting for a transaction.
type ingestGroup struct {
	mu      sync.Mutex
	waiting []*pendingIngest
	running bool // a committer is sending this source's groups
}

// pendingIngest is one ingest waiting in its source's group.
type pendingIngest struct {
	ctx  context.Context
	recv fh.Event // as received
	ev   fh.Event // as stored
	err  error
	done chan struct{}
}

// ingestGrouped ingests recv through its source's group commit.
func (s *Store) ingestGrouped(ctx context.Context, source fh.SourceID, recv fh.Event) (fh.Event, error) {
	v, _ := s.groups.LoadOrStore(source, &ingestGroup{})
	g := v.(*ingestGroup)
	p := &pendingIngest{ctx: ctx, recv: recv, done: make(chan struct{})}
	g.mu.Lock()
	g.waiting = append(g.waiting, p)
	start := !g.running
	g.running = true
	g.mu.Unlock()
	if start {
		go s.commitGroups(source, g)
	}
	select {
	case <-p.done:
		return p.ev, p.err
	case <-ctx.Done():
		return fh.Event{}, ctx.Err()
	}
}

// commitGroups sends g's waiting ingests, a group per transaction, until
// none is left. Each group's requests go out under the context of its
// first caller, without its cancellation: they belong to that call (its
// span, its values), never to the caller that started the committer,
// whose call may have ended long before.
func (s *Store) commitGroups(source fh.SourceID, g *ingestGroup) {
	limit := s.groupLimit()
	for {
		// Let the ingests already on their way (a burst's other callers)
		// join the queue before it is taken: no wait, a yield.
		runtime.Gosched()
		g.mu.Lock()
		var group []*pendingIngest
		bytes := 0
		for len(g.waiting) > 0 && len(group) < limit {
			p := g.waiting[0]
			n := groupSize(p.recv)
			if len(group) > 0 && bytes+n > groupBytes {
				break
			}
			g.waiting, bytes = g.waiting[1:], bytes+n
			if p.ctx.Err() != nil { // its caller left before it was sent
				p.err = p.ctx.Err()
				close(p.done)
				continue
			}
			group = append(group, p)
		}
		if len(group) == 0 {
			if len(g.waiting) == 0 {
				g.running = false
				g.mu.Unlock()
				return
			}
			g.mu.Unlock()
			continue
		}
		g.mu.Unlock()
		recv := make([]fh.Event, len(group))
		for i, p := range group {
			recv[i] = p.recv
		}
		evs, err := s.ingestEvents(context.WithoutCancel(group[0].ctx), source, recv)
		if errors.Is(err, ErrPlanLimit) && len(group) > 1 {
			// Near the limit: one at a time, so that those that fit are
			// taken.
			for _, p := range group {
				evs, err := s.ingestEvents(context.WithoutCancel(p.ctx), source, []fh.Event{p.recv})
				if err == nil {
					p.ev = evs[0]
				}
				p.err = err
				close(p.done)
			}
			continue
		}
		for i, p := range group {
			if err == nil {
				p.ev = evs[i]
			}
			p.err = err
			close(p.done)
		}
	}
}

// groupLimit is the most events one transaction takes.
func (s *Store) groupLimit() int {
	n := s.opts.GroupCommit
	if n <= 1 {
		n = 1
	}
	return min(n, table.MaxTxItems-2)
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
		limit := s.groupLimit()
		for len(recv) > 0 {
			n, bytes := 0, 0
			for n < len(recv) && n < limit {
				b := groupSize(recv[n])
				if n > 0 && bytes+b > groupBytes {
					break
				}
				n, bytes = n+1, bytes+b
			}
			evs, err := s.ingestEvents(ctx, source, recv[:n])
			if errors.Is(err, ErrPlanLimit) && n > 1 {
				limit = 1 // near the limit: one at a time, so that those that fit are taken
				continue
			}
			if err != nil {
				return out, err
			}
			out, recv = append(out, evs...), recv[n:]
		}
		return out, nil
	})
}
