package listbackup_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

// clock is a movable clock shared by the table and the store.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fixture is a store on a fresh table of its own, with a movable clock and
// a request counter.
type fixture struct {
	*listbackup.Store
	tbl      *table.Table
	clock    *clock
	requests atomic.Int64
}

var t0 = time.Date(2025, 3, 14, 9, 26, 53, 589793238, time.UTC)

func newFixture(t *testing.T) *fixture {
	t.Helper()
	t.Parallel()
	f := &fixture{clock: &clock{t: t0}}
	f.tbl = tabletest.NewTable(t, listbackup.Schema("listbackup"), func(o *table.Options) {
		o.Now = f.clock.Now
		o.Observer = func(context.Context, table.Event) { f.requests.Add(1) }
	})
	f.Store = listbackup.New(f.tbl)
	return f
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// wantInvalid fails t unless err is a *table.ValidationError naming field.
func wantInvalid(t *testing.T, err error, field string) {
	t.Helper()
	var ve *table.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want a *table.ValidationError for %s", err, field)
	}
	if ve.Field != field {
		t.Fatalf("validation error names %q (%v), want %q", ve.Field, err, field)
	}
}

func wantIs(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("err = %v, want %v", err, target)
	}
}

func ids[T any, K comparable](items []T, id func(T) K) []K {
	out := make([]K, 0, len(items))
	for _, it := range items {
		out = append(out, id(it))
	}
	return out
}

func collect[T any](t *testing.T, p table.Page[T], err error) []T {
	t.Helper()
	must(t, err)
	return p.Items
}
