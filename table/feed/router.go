package feed

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/singletable/singletable/table"
)

// ErrUnknownRecord is the error of a record of no declared entity and
// none of the engine's items, when the router has no [Router.Unknown]
// handler: reported, never dropped silently.
var ErrUnknownRecord = errors.New("feed: record of no declared entity")

// ErrNoHandler is the error of a record of a declared entity the router
// has no handler for, when [Router.Strict] is set.
var ErrNoHandler = errors.New("feed: no handler for the record's entity")

// Router routes each record of one table's stream to the typed handler of
// its entity, the way http.ServeMux routes a request to the handler of its
// path: [Handle] registers a handler per entity; [Router.Route] classifies
// a record ([table.Table.Classify]), decodes it into the entity's
// [table.ItemChange] and calls the handler.
//
//   - The engine's own items (guards, counter shards, job and feed
//     checkpoints) never reach an entity's handler; they go to the
//     [Router.Library] handler if one is set, else they are skipped.
//   - A record of no declared entity goes to the [Router.Unknown] handler
//     if set, else Route returns [ErrUnknownRecord] (wrapped in a
//     *table.RecordError naming it): reported, never dropped silently.
//   - A record of a declared entity with no handler is skipped, or, with
//     [Router.Strict], an [ErrNoHandler] error.
//   - A record that does not decode, or a handler's error, is returned
//     as a *table.RecordError naming the record (sequence number, event
//     ID, key, entity).
//
// A Router is safe for concurrent use once its handlers are registered.
type Router struct {
	t       *table.Table
	mu      sync.RWMutex
	routes  map[string]func(context.Context, table.Record) error
	unknown func(context.Context, table.Record) error
	library func(context.Context, table.Record, string) error
	strict  bool
}

// NewRouter returns a router for the stream of t: the entities it knows
// are those bound to t.
func NewRouter(t *table.Table) *Router {
	return &Router{t: t, routes: map[string]func(context.Context, table.Record) error{}}
}

// Table returns the table whose records the router routes.
func (r *Router) Table() *table.Table { return r.t }

// Handle registers h as the handler of e's changes on r. e must be bound
// to r's table; registering a second handler for one entity panics (a
// programming error, as with http.ServeMux).
func Handle[T any](r *Router, e *table.Entity[T], h func(context.Context, table.ItemChange[T]) error) {
	if e.Table() != r.t {
		panic("feed.Handle: entity " + e.Type() + " is bound to another table")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.routes[e.Type()]; dup {
		panic("feed.Handle: a second handler for " + e.Type())
	}
	r.routes[e.Type()] = func(ctx context.Context, rec table.Record) error {
		c, err := e.DecodeChange(rec)
		if err != nil {
			return err // a *table.RecordError already
		}
		if err := h(ctx, c); err != nil {
			return r.t.NewRecordError(rec, e.Type(), err)
		}
		return nil
	}
}

// HandleType registers h as the handler of the changes of the entity of
// Go type T bound to r's table: for an application store that binds its
// entities itself (ferryhook, podcastflow, tinode, listbackup), so a
// service routes by the item type it reads, with no handle on the entity:
//
//	r := feed.NewRouter(store.Table())
//	feed.HandleType(r, func(ctx context.Context, c table.ItemChange[lb.Job]) error { ... })
//
// When the table binds several entities of T under different entity
// types, h handles each of them; of several under one type, the first
// bound (the one [table.Table.Classify] routes the type to). It panics
// when the table binds none, or on a second handler for an entity
// (programming errors, found when the service starts).
func HandleType[T any](r *Router, h func(context.Context, table.ItemChange[T]) error) {
	done := map[string]bool{}
	for _, e := range r.t.Entities() {
		if te, ok := e.(*table.Entity[T]); ok && !done[te.Type()] {
			Handle(r, te, h)
			done[te.Type()] = true
		}
	}
	if len(done) > 0 {
		return
	}
	var zero T
	panic(fmt.Sprintf("feed.HandleType: table %s binds no entity of Go type %T", r.t.Name(), zero))
}

// Unknown sets the handler of records of no declared entity and none of
// the engine's items (another service's items in the same table). Without
// one, such a record is an [ErrUnknownRecord] error.
func (r *Router) Unknown(h func(context.Context, table.Record) error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unknown = h
}

// Library sets the handler of the engine's own items (kind is
// table.Classification.Library: "_unique", "_counter", "_job", "_feed").
// Without one they are skipped: they are the engine's bookkeeping.
func (r *Router) Library(h func(ctx context.Context, rec table.Record, kind string) error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.library = h
}

// Strict makes a record of a declared entity without a handler an
// [ErrNoHandler] error instead of skipping it.
func (r *Router) Strict() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.strict = true
}

// Route routes one record (see [Router]).
func (r *Router) Route(ctx context.Context, rec table.Record) error {
	cl := r.t.Classify(rec)
	r.mu.RLock()
	defer r.mu.RUnlock()
	switch cl.Kind {
	case table.KindEntity:
		h := r.routes[cl.Entity.Type()]
		if h == nil {
			if r.strict {
				return r.t.NewRecordError(rec, cl.Entity.Type(), ErrNoHandler)
			}
			return nil
		}
		return h(ctx, rec)
	case table.KindLibrary:
		if r.library == nil {
			return nil
		}
		if err := r.library(ctx, rec, cl.Library); err != nil {
			return r.t.NewRecordError(rec, cl.Library, err)
		}
		return nil
	}
	if r.unknown == nil {
		return r.t.NewRecordError(rec, "", ErrUnknownRecord)
	}
	if err := r.unknown(ctx, rec); err != nil {
		return r.t.NewRecordError(rec, "", err)
	}
	return nil
}

// RouteAll routes recs in order and stops at the first error, returning
// it with the number of records routed before it: a caller retries from
// there, so a record is never skipped.
func (r *Router) RouteAll(ctx context.Context, recs []table.Record) (int, error) {
	for i, rec := range recs {
		if err := r.Route(ctx, rec); err != nil {
			return i, err
		}
	}
	return len(recs), nil
}

// HandleBatch makes r a [BatchHandler]: RouteAll over the batch.
func (r *Router) HandleBatch(ctx context.Context, b Batch) (int, error) {
	return r.RouteAll(ctx, b.Records)
}

// Batch is the records of one shard handed to a [BatchHandler] at once,
// in the shard's order.
type Batch struct {
	// Shard is the shard the records were read from.
	Shard string
	// Records are the records, in sequence order.
	Records []table.Record
}

// BatchHandler handles a batch: it returns how many records, from the
// first, it handled; with an error, the rest are delivered again.
type BatchHandler interface {
	HandleBatch(ctx context.Context, b Batch) (int, error)
}

// BatchFunc is a function that is a [BatchHandler].
type BatchFunc func(ctx context.Context, b Batch) (int, error)

// HandleBatch calls f.
func (f BatchFunc) HandleBatch(ctx context.Context, b Batch) (int, error) { return f(ctx, b) }

// errorf is fmt.Errorf with the package's prefix.
func errorf(format string, args ...any) error {
	return fmt.Errorf("feed: "+format, args...)
}
