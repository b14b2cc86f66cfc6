// Package group holds the group commit two application stores share
// (Ferryhook's ingest, Tinode's message saves): what concurrent callers
// give for one key (a source, a topic) goes out together, in one request,
// instead of a request (and a lost race) each. Like package retry it is
// internal: the engine's public API is its data operations.
//
// The contract of [Grouper.Do]:
//
//   - A lone call is sent at once: no wait is added. A call for a key
//     with a group in flight waits for it and goes out in the next group
//     with the others that arrived meanwhile, in arrival order, up to Max
//     inputs and MaxBytes.
//   - One committer per key at a time, in its own goroutine, while the
//     key has callers waiting; an idle key holds no memory.
//   - Each group goes out under the context of its first caller, without
//     its cancellation: its requests belong to that call (its span, its
//     values), never to a caller that left.
//   - A caller whose context ends before its group is sent is left out
//     of it and gets the context's error; one whose context ends while
//     its group is in flight gets the context's error too, and its input
//     may be committed (as with any request whose response is lost).
//   - Commit's outcome is each member's: an output each, or one error for
//     all (a transaction is all or nothing). A group refused as a whole
//     for a reason Split accepts (a limit the group exceeds, its members
//     alone might not) is sent again one member at a time, each with its
//     own outcome.
package group

import (
	"context"
	"runtime"
	"sync"
)

// A Grouper commits, per key, the inputs of concurrent callers together
// (see the package doc). Set its fields before the first call; the zero
// Grouper is not usable (Commit is required).
type Grouper[K comparable, In, Out any] struct {
	// Max is the most inputs of one group (below 1: 1).
	Max int
	// MaxBytes bounds the sum of Size over a group's inputs (0: none); an
	// input alone may exceed it.
	MaxBytes int
	// Size is what an input counts against MaxBytes.
	Size func(In) int
	// Commit sends one group: an output per input, in order, or an error
	// for all of them.
	Commit func(ctx context.Context, key K, group []In) ([]Out, error)
	// Split, if set, reports whether a group Commit refused as a whole is
	// sent again one input at a time.
	Split func(error) bool

	queues sync.Map // K -> *queue[In, Out]
}

// queue is one key's callers waiting for a group.
type queue[In, Out any] struct {
	mu      sync.Mutex
	waiting []*call[In, Out]
	running bool // a committer is sending this key's groups
	dead    bool // removed from the map: a caller takes a new queue
}

// call is one caller waiting in its key's queue.
type call[In, Out any] struct {
	ctx  context.Context
	in   In
	out  Out
	err  error
	done chan struct{}
}

// Do commits in with the other inputs given for key meanwhile and
// returns its output.
func (g *Grouper[K, In, Out]) Do(ctx context.Context, key K, in In) (Out, error) {
	c := &call[In, Out]{ctx: ctx, in: in, done: make(chan struct{})}
	for {
		v, _ := g.queues.LoadOrStore(key, &queue[In, Out]{})
		q := v.(*queue[In, Out])
		q.mu.Lock()
		if q.dead {
			q.mu.Unlock()
			continue
		}
		q.waiting = append(q.waiting, c)
		start := !q.running
		q.running = true
		q.mu.Unlock()
		if start {
			go g.run(key, q)
		}
		break
	}
	select {
	case <-c.done:
		return c.out, c.err
	case <-ctx.Done():
		var zero Out
		return zero, ctx.Err()
	}
}

// run sends q's waiting calls, a group per Commit, until none is left.
func (g *Grouper[K, In, Out]) run(key K, q *queue[In, Out]) {
	for {
		// Let the calls already on their way (a burst's other callers)
		// join the queue before it is taken: no wait, a yield.
		runtime.Gosched()
		q.mu.Lock()
		var members []*call[In, Out]
		bytes := 0
		for len(q.waiting) > 0 {
			c := q.waiting[0]
			n := g.size(c.in)
			if g.full(len(members), g.Max, bytes, n) {
				break
			}
			q.waiting, bytes = q.waiting[1:], bytes+n
			if c.ctx.Err() != nil { // its caller left before it was sent
				c.err = c.ctx.Err()
				close(c.done)
				continue
			}
			members = append(members, c)
		}
		if len(members) == 0 {
			if len(q.waiting) == 0 {
				q.running, q.dead = false, true
				g.queues.CompareAndDelete(key, q)
				q.mu.Unlock()
				return
			}
			q.mu.Unlock()
			continue
		}
		q.mu.Unlock()
		ins := make([]In, len(members))
		for i, c := range members {
			ins[i] = c.in
		}
		outs, err := g.Commit(context.WithoutCancel(members[0].ctx), key, ins)
		if err != nil && len(members) > 1 && g.Split != nil && g.Split(err) {
			for _, c := range members {
				c.out, c.err = g.one(context.WithoutCancel(c.ctx), key, c.in)
				close(c.done)
			}
			continue
		}
		for i, c := range members {
			if err == nil {
				c.out = outs[i]
			}
			c.err = err
			close(c.done)
		}
	}
}

// All commits ins, given together by one caller, in as few groups as Max
// and MaxBytes allow, one after another under ctx; after a group refused
// for a reason Split accepts, one input at a time. It returns the outputs
// of the groups committed before the first error, and that error.
func (g *Grouper[K, In, Out]) All(ctx context.Context, key K, ins []In) ([]Out, error) {
	var out []Out
	limit := g.Max
	for len(ins) > 0 {
		n, bytes := 0, 0
		for n < len(ins) {
			b := g.size(ins[n])
			if g.full(n, limit, bytes, b) {
				break
			}
			n, bytes = n+1, bytes+b
		}
		outs, err := g.Commit(ctx, key, ins[:n])
		if err != nil && n > 1 && g.Split != nil && g.Split(err) {
			limit = 1
			continue
		}
		if err != nil {
			return out, err
		}
		out, ins = append(out, outs...), ins[n:]
	}
	return out, nil
}

// full reports whether a group of n inputs weighing bytes takes no
// input of size more: it holds limit inputs (at least 1), or MaxBytes
// would be passed (a group's first input is taken whatever its size).
func (g *Grouper[K, In, Out]) full(n, limit, bytes, size int) bool {
	return n >= max(limit, 1) || n > 0 && g.MaxBytes > 0 && bytes+size > g.MaxBytes
}

// one commits in alone.
func (g *Grouper[K, In, Out]) one(ctx context.Context, key K, in In) (Out, error) {
	outs, err := g.Commit(ctx, key, []In{in})
	if err != nil {
		var zero Out
		return zero, err
	}
	return outs[0], nil
}

func (g *Grouper[K, In, Out]) size(in In) int {
	if g.Size == nil {
		return 0
	}
	return g.Size(in)
}
