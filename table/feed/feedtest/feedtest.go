// Package feedtest hears a table's stream in tests: every record routed
// strictly to the typed handler of its entity, each change checked for
// the images its event must have, and what was heard counted per entity
// type and per kind of the engine's own items.
//
// A test writes through a store, then:
//
//	h := feedtest.New()
//	r := h.Router(tbl)
//	feedtest.Listen[Note](h, r, nil)
//	h.Route(t, ctx, r)       // every record of the stream, none unknown
//	h.EveryEntity(t, tbl)    // every entity heard, every record accounted for
package feedtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
)

// Hearing is what routers made by [Hearing.Router] heard. It is safe for
// concurrent use (a [feed.Consumer] hands shards' batches concurrently);
// read its maps after routing is done.
type Hearing struct {
	mu sync.Mutex
	// Events holds, per entity type, the events heard in stream order
	// ("created", "modified", "removed", "expired").
	Events map[string][]string
	// Library counts the records of the engine's own items per kind
	// (table.GuardType, table.CounterType, "_job", table.FeedType, ...).
	Library map[string]int
	// Routed is the number of records Route handed to routers.
	Routed int
}

// New returns an empty Hearing.
func New() *Hearing {
	return &Hearing{Events: map[string][]string{}, Library: map[string]int{}}
}

// Router returns a strict router of tbl (a record of an entity without a
// handler is an error; with no Unknown handler, so is a record of no
// declared entity) whose Library handler counts the engine's items.
func (h *Hearing) Router(tbl *table.Table) *feed.Router {
	r := feed.NewRouter(tbl)
	r.Strict()
	r.Library(func(_ context.Context, _ table.Record, kind string) error {
		h.mu.Lock()
		h.Library[kind]++
		h.mu.Unlock()
		return nil
	})
	return r
}

// Listen registers on r, by its Go type ([feed.HandleType]), a handler of
// T's changes that checks the images its event must have (created: the
// new image only; modified: both; removed or expired: the old only), runs
// check when it is not nil, and records the event under the entity's
// type. An error of either fails the routing.
func Listen[T any](h *Hearing, r *feed.Router, check func(table.ItemChange[T]) error) {
	feed.HandleType(r, func(_ context.Context, c table.ItemChange[T]) error {
		typ := r.Table().Classify(c.Record).Entity.Type()
		switch {
		case c.Event == table.Created && (c.New == nil || c.Old != nil),
			c.Event == table.Modified && (c.New == nil || c.Old == nil),
			(c.Event == table.Removed || c.Event == table.Expired) && (c.New != nil || c.Old == nil):
			return fmt.Errorf("%s %s of %v: old image %v, new image %v", typ, c.Event, c.Key, c.Old != nil, c.New != nil)
		}
		if check != nil {
			if err := check(c); err != nil {
				return err
			}
		}
		h.mu.Lock()
		h.Events[typ] = append(h.Events[typ], c.Event.String())
		h.mu.Unlock()
		return nil
	})
}

// Records returns every record of tbl's stream, from the trim horizon
// to its current end ([feed.ReadAll]), failing t on an error.
func Records(t testing.TB, ctx context.Context, tbl *table.Table) []table.Record {
	t.Helper()
	arn, err := feed.StreamARN(ctx, tbl)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := feed.ReadAll(ctx, feed.StreamsClient(tbl.Client()), arn)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// Route reads every record of the stream of r's table ([Records]),
// routes them all through r and returns how many there were. Any error
// fails t: an unknown record, a change without a handler, a check of
// [Listen] that failed.
func (h *Hearing) Route(t testing.TB, ctx context.Context, r *feed.Router) int {
	t.Helper()
	tbl := r.Table()
	recs := Records(t, ctx, tbl)
	if n, err := r.RouteAll(ctx, recs); err != nil || n != len(recs) {
		t.Fatalf("RouteAll on %s: %d of %d records, %v", tbl.Name(), n, len(recs), err)
	}
	h.mu.Lock()
	h.Routed += len(recs)
	h.mu.Unlock()
	return len(recs)
}

// EveryEntity fails t unless every entity bound to the tables was heard
// at least once and, when Route did the routing, every record routed was
// a change of an entity or a record of the engine's items. It returns a
// summary for the test's log: the changes heard per entity type and the
// library's records per kind.
func (h *Hearing) EveryEntity(t testing.TB, tables ...*table.Table) string {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	var counts []string
	total := 0
	for _, tbl := range tables {
		for _, e := range tbl.Entities() {
			evs := h.Events[e.Type()]
			if len(evs) == 0 {
				t.Errorf("no change of %s heard", e.Type())
			}
			counts = append(counts, fmt.Sprintf("%s %d", e.Type(), len(evs)))
			total += len(evs)
		}
	}
	lib := 0
	var kinds []string
	for kind, n := range h.Library {
		lib += n
		kinds = append(kinds, fmt.Sprintf("%s %d", kind, n))
	}
	slices.Sort(kinds)
	if h.Routed > 0 && total+lib != h.Routed {
		t.Errorf("%d entity records + %d library records, want all %d routed", total, lib, h.Routed)
	}
	return fmt.Sprintf("%d records: %s; library: %s", total+lib, strings.Join(counts, ", "), strings.Join(kinds, ", "))
}
