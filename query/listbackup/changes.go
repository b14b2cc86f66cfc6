package listbackup

import (
	"context"
	"fmt"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/feed"
)

// Handle registers h on r as the handler of the changes of s's entity of
// Go type T (lb.User, lb.Job, lb.Source, ...): every write of such an
// item, heard from the table's stream as a typed change (LB-85). It is
// feed.Handle with the store's own binding, which a service cannot reach
// otherwise: r must route the stream of s's table. A T the store binds
// no entity of panics, as feed.Handle does on a misuse (a programming
// error, found when the service starts).
//
// Each entity of the store is bound to exactly one Go type, so every
// ListBackup write reaches the handler of its entity; the engine's own
// items (unique guards, counters, job checkpoints) reach r's Library
// handler, never an entity's.
func Handle[T any](s *Store, r *feed.Router, h func(context.Context, table.ItemChange[T]) error) {
	feed.Handle(r, bound[T](s), h)
}

// bound returns s's entity of Go type T; a T the store binds no entity
// of panics (see [Handle]).
func bound[T any](s *Store) *table.Entity[T] {
	for _, e := range s.t.Entities() {
		if te, ok := e.(*table.Entity[T]); ok {
			return te
		}
	}
	var zero T
	panic(fmt.Sprintf("listbackup: the store binds no entity of type %T", zero))
}
