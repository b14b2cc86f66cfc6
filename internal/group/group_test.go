package group

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// recorder is a Commit that records each group it is given; while gate is
// set, a group of the key "hold" waits for it.
type recorder struct {
	mu     sync.Mutex
	groups [][]int
	gate   chan struct{}
	fail   func([]int) error
	ctxs   []context.Context
}

func (r *recorder) commit(ctx context.Context, key string, in []int) ([]string, error) {
	r.mu.Lock()
	r.groups = append(r.groups, slices.Clone(in))
	r.ctxs = append(r.ctxs, ctx)
	gate, fail := r.gate, r.fail
	r.mu.Unlock()
	if gate != nil && key == "hold" {
		<-gate
	}
	if fail != nil {
		if err := fail(in); err != nil {
			return nil, err
		}
	}
	out := make([]string, len(in))
	for i, v := range in {
		out[i] = fmt.Sprintf("%s:%d", key, v)
	}
	return out, nil
}

func (r *recorder) seen() [][]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.groups)
}

// waitGroups waits until r has recorded n groups.
func waitGroups(t *testing.T, r *recorder, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); len(r.seen()) < n; {
		if time.Now().After(deadline) {
			t.Fatalf("groups = %v, want %d of them", r.seen(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitQueued waits until n calls wait in key's queue behind its group in
// flight.
func waitQueued(t *testing.T, g *Grouper[string, int, string], key string, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; {
		v, _ := g.queues.Load(key)
		q := v.(*queue[int, string])
		q.mu.Lock()
		got := len(q.waiting)
		q.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d calls waiting for %s, want %d", got, key, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestLoneCallSentAtOnceAndIdleKeyForgotten(t *testing.T) {
	r := &recorder{}
	g := &Grouper[string, int, string]{Max: 10, Commit: r.commit}
	out, err := g.Do(context.Background(), "a", 7)
	if err != nil || out != "a:7" {
		t.Fatalf("Do = %q, %v; want a:7", out, err)
	}
	if got := r.seen(); len(got) != 1 || !slices.Equal(got[0], []int{7}) {
		t.Fatalf("groups = %v, want [[7]]", got)
	}
	// The committer removes the key's queue when nothing waits: no memory
	// per idle key.
	for deadline := time.Now().Add(5 * time.Second); ; {
		n := 0
		g.queues.Range(func(any, any) bool { n++; return true })
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d queues left after the key went idle", n)
		}
		time.Sleep(time.Millisecond)
	}
}

// Calls that arrive while a group is in flight go out together, bounded
// by Max and MaxBytes, each getting its own output; another key is not
// held up.
func TestCallsInFlightGoOutTogether(t *testing.T) {
	r := &recorder{gate: make(chan struct{})}
	g := &Grouper[string, int, string]{Max: 4, MaxBytes: 250, Size: func(v int) int { return v }, Commit: r.commit}
	ctx := context.Background()
	first := make(chan error, 1)
	go func() { _, err := g.Do(ctx, "hold", 1); first <- err }()
	waitGroups(t, r, 1) // the first group, of 1, is in flight
	if out, err := g.Do(ctx, "other", 5); err != nil || out != "other:5" {
		t.Fatalf("another key: Do = %q, %v", out, err)
	}
	var wg sync.WaitGroup
	outs := make([]string, 6)
	errs := make([]error, 6)
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = g.Do(ctx, "hold", 100+i)
		}()
	}
	// Wait until all six are queued behind the group in flight.
	waitQueued(t, g, "hold", 6)
	close(r.gate)
	wg.Wait()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		if want := fmt.Sprintf("hold:%d", 100+i); errs[i] != nil || outs[i] != want {
			t.Errorf("call %d: %q, %v; want %q", i, outs[i], errs[i], want)
		}
	}
	var sizes []int
	total := 0
	for _, grp := range r.seen()[2:] { // after [1] and the other key's [5]
		sizes = append(sizes, len(grp))
		sum := 0
		for _, v := range grp {
			sum += v
		}
		if len(grp) > 1 && sum > 250 {
			t.Errorf("group %v holds %d bytes, over MaxBytes 250", grp, sum)
		}
		total += len(grp)
	}
	// 100..105 weigh about 100 each: MaxBytes 250 makes groups of 2 (Max
	// 4 alone would make 4 + 2).
	if total != 6 || !slices.Equal(sizes, []int{2, 2, 2}) {
		t.Fatalf("group sizes after the first = %v, want [2 2 2]", sizes)
	}
}

// A caller whose context ends before its group is sent is left out of
// it; a group's Commit runs under its first caller's context without its
// cancellation.
func TestContextsOfCallersAndGroups(t *testing.T) {
	r := &recorder{gate: make(chan struct{})}
	g := &Grouper[string, int, string]{Max: 10, Commit: r.commit}
	type key struct{}
	first := make(chan error, 1)
	ctx1, cancel1 := context.WithCancel(context.WithValue(context.Background(), key{}, "first"))
	go func() { _, err := g.Do(ctx1, "hold", 1); first <- err }()
	waitGroups(t, r, 1)
	cancel1() // the first caller leaves while its group is in flight
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Fatalf("first caller after it left: %v, want context.Canceled", err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	left := make(chan error, 1)
	go func() { _, err := g.Do(ctx2, "hold", 2); left <- err }()
	stay := make(chan error, 1)
	go func() { _, err := g.Do(context.Background(), "hold", 3); stay <- err }()
	waitQueued(t, g, "hold", 2)
	cancel2() // left before its group is sent
	if err := <-left; !errors.Is(err, context.Canceled) {
		t.Fatalf("caller that left: %v", err)
	}
	close(r.gate)
	if err := <-stay; err != nil {
		t.Fatal(err)
	}
	got := r.seen()
	if len(got) != 2 || !slices.Equal(got[1], []int{3}) {
		t.Fatalf("groups = %v, want [[1] [3]]: the caller that left is not sent", got)
	}
	r.mu.Lock()
	c0 := r.ctxs[0]
	r.mu.Unlock()
	if c0.Err() != nil || c0.Value(key{}) != "first" {
		t.Fatalf("first group's context: err %v, value %v; want its caller's values without its cancellation", c0.Err(), c0.Value(key{}))
	}
}

var errLimit = errors.New("over the limit")

// One error for all; a group refused for a reason Split accepts is sent
// again one member at a time, each with its own outcome.
func TestErrorsAndSplit(t *testing.T) {
	r := &recorder{gate: make(chan struct{})}
	r.fail = func(in []int) error {
		switch {
		case len(in) > 1:
			return errLimit
		case in[0] == 13:
			return errors.New("unlucky")
		}
		return nil
	}
	g := &Grouper[string, int, string]{Max: 10, Commit: r.commit, Split: func(err error) bool { return errors.Is(err, errLimit) }}
	first := make(chan error, 1)
	go func() { _, err := g.Do(context.Background(), "hold", 1); first <- err }()
	waitGroups(t, r, 1)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	outs := make([]string, 3)
	for i, v := range []int{12, 13, 14} {
		wg.Add(1)
		go func() { defer wg.Done(); outs[i], errs[i] = g.Do(context.Background(), "hold", v) }()
	}
	waitQueued(t, g, "hold", 3)
	close(r.gate)
	wg.Wait()
	<-first
	for i, v := range []int{12, 13, 14} {
		if v == 13 {
			if errs[i] == nil || errs[i].Error() != "unlucky" {
				t.Errorf("13: %v, want its own error", errs[i])
			}
			continue
		}
		if errs[i] != nil || outs[i] != fmt.Sprintf("hold:%d", v) {
			t.Errorf("%d: %q, %v", v, outs[i], errs[i])
		}
	}
	if got := r.seen(); len(got) != 5 || len(got[1]) != 3 {
		t.Fatalf("groups = %v, want [1], the group of 3 refused, then each alone", got)
	}
	// Without Split, the group's error is every member's.
	g2 := &Grouper[string, int, string]{Max: 10, Commit: func(context.Context, string, []int) ([]string, error) { return nil, errLimit }}
	if _, err := g2.Do(context.Background(), "k", 1); !errors.Is(err, errLimit) {
		t.Fatalf("Do = %v, want the group's error", err)
	}
}

// All sends one caller's inputs in as few groups as the bounds allow,
// one at a time after a Split error, and returns the outputs of the
// groups sent before an error.
func TestAll(t *testing.T) {
	r := &recorder{}
	g := &Grouper[string, int, string]{Max: 3, MaxBytes: 25, Size: func(v int) int { return v }, Commit: r.commit,
		Split: func(err error) bool { return errors.Is(err, errLimit) }}
	out, err := g.All(context.Background(), "k", []int{1, 2, 3, 4, 20, 5})
	if err != nil || len(out) != 6 || out[4] != "k:20" {
		t.Fatalf("All = %v, %v", out, err)
	}
	if got := r.seen(); fmt.Sprint(got) != "[[1 2 3] [4 20] [5]]" {
		t.Fatalf("groups = %v, want [[1 2 3] [4 20] [5]]", got)
	}
	r2 := &recorder{fail: func(in []int) error {
		switch {
		case len(in) > 1 && in[0] == 3:
			return errLimit
		case len(in) == 1 && in[0] == 4:
			return errors.New("refused")
		}
		return nil
	}}
	g2 := &Grouper[string, int, string]{Max: 2, Commit: r2.commit, Split: g.Split}
	out, err = g2.All(context.Background(), "k", []int{1, 2, 3, 4, 5})
	if err == nil || err.Error() != "refused" || fmt.Sprint(out) != "[k:1 k:2 k:3]" {
		t.Fatalf("All = %v, %v; want the three sent before the refusal", out, err)
	}
	if got := r2.seen(); fmt.Sprint(got) != "[[1 2] [3 4] [3] [4]]" {
		t.Fatalf("groups = %v", got)
	}
}
