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

// ExpireAfter returns a Def.Expires of base plus d: an item expires d after
// the time base returns (its creation, its event time...). A zero base
// time means no expiry.
//
//	Expires: table.ExpireAfter(func(a *Activity) time.Time { return a.CreatedAt }, 90*24*time.Hour),
func ExpireAfter[T any](base func(*T) time.Time, d time.Duration) func(*T) time.Time {
	return func(item *T) time.Time {
		b := base(item)
		if b.IsZero() {
			return time.Time{}
		}
		return b.Add(d)
	}
}
