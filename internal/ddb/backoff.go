package ddb

import (
	"context"
	"math/rand/v2"
	"time"
)

// Sleep waits d, or until ctx ends (then it returns ctx's error).
func Sleep(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}

// Backoff returns a jittered exponential delay for attempt (0-based).
func Backoff(attempt int, base, max time.Duration) time.Duration {
	d := base << min(attempt, 20)
	if d > max || d <= 0 {
		d = max
	}
	return d/2 + rand.N(d/2+1)
}
