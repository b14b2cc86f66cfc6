package table

import (
	"context"
	"errors"
	"time"
)

// Backoff returns a jittered exponential delay for retry number attempt
// (0-based): between half and all of base*2^attempt, capped at max.
func Backoff(attempt int, base, max time.Duration) time.Duration {
	return backoff(attempt, base, max)
}

// Wait sleeps [Backoff](attempt, base, max), or until ctx ends (then it
// returns ctx's error).
func Wait(ctx context.Context, attempt int, base, max time.Duration) error {
	return sleepCtx(ctx, backoff(attempt, base, max))
}

// RetryOnConflict runs fn until it returns an error that does not match
// [ErrConflict] (nil included), at most attempts times, sleeping a
// jittered [Backoff] (5ms doubling to 200ms) between tries. Use it around
// read-then-conditional-write sequences, such as taking the next sequence
// number of a counter item.
func RetryOnConflict(ctx context.Context, attempts int, fn func(ctx context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			if serr := sleepCtx(ctx, backoff(i-1, 5*time.Millisecond, 200*time.Millisecond)); serr != nil {
				return errors.Join(err, serr)
			}
		}
		if err = fn(ctx); !errors.Is(err, ErrConflict) {
			return err
		}
	}
	return err
}

// KeyOf returns the primary key of a raw item (as returned by
// [Table.QueryItems]).
func (t *Table) KeyOf(raw Item) Key { return t.keyFromItem(raw) }
