package table

import "time"

// Timestamps returns a Def.Touch that keeps an entity's createdAt and
// updatedAt: fields returns pointers to them. createdAt is set once, on
// create (unless already set, e.g. by an import); updatedAt on every
// write. Times are stored in UTC.
//
//	Touch: table.Timestamps(func(n *Note) (*time.Time, *time.Time) { return &n.CreatedAt, &n.UpdatedAt }),
func Timestamps[T any](fields func(*T) (created, updated *time.Time)) func(*T, time.Time, bool) {
	return func(item *T, now time.Time, create bool) {
		c, u := fields(item)
		now = now.UTC()
		if create && c != nil && c.IsZero() {
			*c = now
		}
		if u != nil {
			*u = now
		}
	}
}
