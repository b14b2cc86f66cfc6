package retry_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/singletable/singletable/internal/retry"
)

func TestBackoffAndWait(t *testing.T) {
	for attempt := range 30 {
		d := retry.Backoff(attempt, 5*time.Millisecond, 200*time.Millisecond)
		lo := min(5*time.Millisecond<<min(attempt, 20), 200*time.Millisecond) / 2
		if d < lo || d > 200*time.Millisecond {
			t.Errorf("Backoff(%d) = %v, want in [%v, 200ms]", attempt, d, lo)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := retry.Wait(ctx, 10, time.Second, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait on a cancelled context: %v", err)
	}
	if err := retry.Wait(context.Background(), 0, time.Millisecond, time.Millisecond); err != nil {
		t.Fatal(err)
	}
}
