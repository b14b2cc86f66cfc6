// Package retry holds the jittered backoff the application stores use
// around their own read-then-conditional-write loops. It is internal: a
// data layer's public API is its data operations, and the engine retries
// its own operations (Update, Transact, batches) by itself.
package retry

import (
	"context"
	"math/rand/v2"
	"time"
)

// Backoff returns a jittered exponential delay for retry number attempt
// (0-based): between half and all of base*2^attempt, capped at max.
func Backoff(attempt int, base, max time.Duration) time.Duration {
	d := base << min(attempt, 20)
	if d > max || d <= 0 {
		d = max
	}
	return d/2 + rand.N(d/2+1)
}

// Wait sleeps Backoff(attempt, base, max), or until ctx ends (then it
// returns ctx's error).
func Wait(ctx context.Context, attempt int, base, max time.Duration) error {
	t := time.NewTimer(Backoff(attempt, base, max))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
