package table_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/singletable/singletable/table"
)

// Actions of one prepared patch, built and sent from many goroutines at
// once, some without the old item and some with it, are each their own
// (run under -race: they share only what no send changes) and each
// counts once.
func TestPreparedPatchConcurrentOps(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := f.create(t, member{ID: "pc", Email: "pc@x.io", Status: "on"})
	pp, err := f.members.PreparePatch(k, table.Patch{Set: map[string]any{"note": "n"}, Add: map[string]int64{"logins": 1}, IfEqual: map[string]any{"status": "on"}})
	if err != nil {
		t.Fatal(err)
	}
	const workers, sends = 4, 5
	var wg sync.WaitGroup
	errs := make(chan error, workers*sends)
	for w := range workers {
		wg.Go(func() {
			for i := range sends {
				op, err := pp.Op(map[string]any{"note": fmt.Sprintf("w%d-%d", w, i)})
				if err != nil {
					errs <- err
					return
				}
				if w%2 == 0 {
					op = op.WithoutOldItem()
				}
				if err := f.t.Transact(c, op); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, err := f.members.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	if got.Logins != workers*sends || got.Note == "" || got.Note == "n" {
		t.Fatalf("logins %d, note %q; want %d and one worker's note", got.Logins, got.Note, workers*sends)
	}
}
