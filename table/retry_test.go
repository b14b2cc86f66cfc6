package table_test

import (
	"context"
	"errors"
	"testing"

	"github.com/singletable/singletable/table"
)

func TestRetryOnConflict(t *testing.T) {
	t.Parallel()
	calls := 0
	err := table.RetryOnConflict(context.Background(), 5, func(context.Context) error {
		calls++
		if calls < 3 {
			return table.ErrConflict
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Errorf("got %v after %d calls, want nil after 3", err, calls)
	}
	calls = 0
	err = table.RetryOnConflict(context.Background(), 4, func(context.Context) error { calls++; return table.ErrConflict })
	if !errors.Is(err, table.ErrConflict) || calls != 4 {
		t.Errorf("exhausted: %v after %d calls", err, calls)
	}
	calls = 0
	err = table.RetryOnConflict(context.Background(), 4, func(context.Context) error { calls++; return table.ErrNotFound })
	if !errors.Is(err, table.ErrNotFound) || calls != 1 {
		t.Errorf("other error retried: %v after %d calls", err, calls)
	}
	for attempt := range 10 {
		if d := table.Backoff(attempt, 5e6, 2e8); d <= 0 || d > 2e8 {
			t.Errorf("Backoff(%d) = %v", attempt, d)
		}
	}
}
