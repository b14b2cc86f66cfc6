// Package patterncost measures what each access pattern of an application
// store costs and holds the store to the record in
// docs/patterns/<app>.requests.json, which `singletable doc` renders. It
// is this repository's own bookkeeping (catalog IDs, the docs/patterns
// layout), so it lives here, internal, built on the public test kit
// (tabletest's RequestCounter, capacity's Meter) rather than the kit
// importing it.
package patterncost

import (
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/singletable/singletable/internal/patterndoc"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
	"github.com/singletable/singletable/table/tabletest/capacity"
)

// Costs measures what each access pattern of an application costs, and
// holds the store package to it. It is how the store packages prove that
// every catalog pattern takes the requests its document says:
//
//   - Measure runs one call of a method under a [tabletest.RequestCounter] (with
//     Capacity) and records its requests, operations and consumed capacity;
//   - Check, at the end of the test, fails when a method takes more (or
//     fewer, or other) requests than recorded in
//     docs/patterns/<app>.requests.json, when its capacity moved by more
//     than a unit and a quarter, when a catalog ID the package cites or
//     declares has no measured method, when a method that cites one or a
//     read of a declared pattern (Tables) is not measured, or
//     when the record names a method no longer measured. With
//     SINGLETABLE_UPDATE_DOCS=1 it rewrites the record instead; `singletable
//     doc` renders it in the access-pattern document.
//
// The counter must be installed (Counter.Option) on the client of the
// store's tables, with Capacity set, and the calls must not run in
// parallel with other requests on that client.
type Costs struct {
	// App names the application ("ferryhook"): the record's file name.
	App string
	// Root is the module root, relative to the test's directory ("../..").
	Root string
	// Counter is the store client's counter.
	Counter *tabletest.RequestCounter
	// Meter, when set, is the store client's meter: each measured call
	// also records its hottest partition key, the units it puts there and
	// on all keys, and the rate one key sustains (see [patterndoc.Cost]);
	// Check fails when a method's hottest-key units grow. Let it
	// [capacity.Meter.Learn] the store's tables, to name keys by their templates.
	Meter *capacity.Meter
	// Tables are the store's tables: the patterns declared on them
	// ([table.Table.Patterns]) are methods to measure, as the methods
	// whose doc comments cite a catalog ID are.
	Tables []*table.Table

	mu       sync.Mutex
	measured patterndoc.Costs
}

// Measure calls fn, a call of method ("Type.Method") as a user would make
// it, and records what it sent; note says what the call did when its cost
// depends on the data (a page of 3, two pages). fn must succeed.
func (c *Costs) Measure(t testing.TB, method, note string, fn func() error) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.measured == nil {
		c.measured = patterndoc.Costs{}
	}
	if _, dup := c.measured[method]; dup {
		t.Errorf("costs: %s measured twice", method)
		return
	}
	c.Counter.Reset()
	if c.Meter != nil {
		c.Meter.Reset()
	}
	if err := fn(); err != nil {
		t.Errorf("costs: %s: %v", method, err)
		return
	}
	r, w := c.Counter.Consumed()
	cost := patterndoc.Cost{
		Requests: c.Counter.Total(), Ops: c.Counter.Ops(),
		Read: math.Round(r*10) / 10, Write: math.Round(w*10) / 10, Note: note,
	}
	if c.Meter != nil {
		if p, u, ok := c.Meter.Hottest(); ok {
			total := c.Meter.Total()
			cost.HotKey, cost.HotRead, cost.HotWrite = c.Meter.Shape(p), u.Read, u.Write
			cost.MeteredRead, cost.MeteredWrite = total.Read, total.Write
			cost.Rate = capacity.SustainedRate(u)
		}
	}
	c.measured[method] = cost
}

// Check compares the measurements with the record (see [Costs]).
func (c *Costs) Check(t testing.TB) {
	t.Helper()
	if t.Failed() {
		return // a failed measurement is not a cost
	}
	_, methods, err := patterndoc.Patterns(".", c.Tables...)
	if err != nil {
		t.Fatalf("costs: %v", err)
	}
	known := map[string]bool{}
	covered := map[string]bool{}
	cited := map[string]bool{}
	for _, m := range methods {
		known[m.Name] = true
		for _, id := range m.IDs {
			cited[id] = true
			if _, ok := c.measured[m.Name]; ok {
				covered[id] = true
			}
		}
	}
	for name := range c.measured {
		if !known[name] {
			t.Errorf("costs: %s is not a method of the package that cites a catalog ID, nor a read of a pattern it declares", name)
		}
	}
	var missing []string
	for id := range cited {
		if !covered[id] {
			missing = append(missing, id)
		}
	}
	slices.SortFunc(missing, patterndoc.CompareIDs)
	if len(missing) > 0 {
		t.Errorf("costs: no measured method serves %s", strings.Join(missing, ", "))
	}
	var unmeasured []string
	for _, m := range methods {
		if _, ok := c.measured[m.Name]; !ok {
			unmeasured = append(unmeasured, m.Name)
		}
	}
	if len(unmeasured) > 0 {
		t.Errorf("costs: %d of %d methods cite catalog IDs but are not measured (the documents would say \"not measured\"): %s",
			len(unmeasured), len(methods), strings.Join(unmeasured, ", "))
	}
	path := patterndoc.File(c.Root, c.App)
	if os.Getenv("SINGLETABLE_UPDATE_DOCS") != "" {
		if err := patterndoc.WriteCosts(path, c.measured); err != nil {
			t.Fatal(err)
		}
		t.Logf("costs: wrote %s (%d methods)", path, len(c.measured))
		return
	}
	rec, err := patterndoc.ReadCosts(path)
	if err != nil {
		t.Fatal(err)
	}
	const update = "; run the test with SINGLETABLE_UPDATE_DOCS=1 to record it, then go test ./cmd/singletable with it too"
	for name, m := range c.measured {
		r, ok := rec[name]
		switch {
		case !ok:
			t.Errorf("costs: %s has no recorded cost (measured %d requests)%s", name, m.Requests, update)
		case m.Requests > r.Requests:
			t.Errorf("costs: %s takes %d requests (%s), its document says %d (%s)", name, m.Requests, m.OpsString(), r.Requests, r.OpsString())
		case m.Requests < r.Requests || m.OpsString() != r.OpsString():
			t.Errorf("costs: %s now takes %d requests (%s), recorded %d (%s)%s", name, m.Requests, m.OpsString(), r.Requests, r.OpsString(), update)
		case far(m.Read, r.Read) || far(m.Write, r.Write):
			t.Errorf("costs: %s consumed %.1f RCU / %.1f WCU, recorded %.1f / %.1f%s", name, m.Read, m.Write, r.Read, r.Write, update)
		case c.Meter != nil && (hotter(m.HotWrite, r.HotWrite) || hotter(m.HotRead, r.HotRead)):
			t.Errorf("costs: %s puts %s on its hottest key, its document says %s (%.0f calls/s on one key)", name, m.Hot(), r.Hot(), r.Rate)
		case c.Meter != nil && (m.HotKey != r.HotKey || far(m.HotRead, r.HotRead) || far(m.HotWrite, r.HotWrite)):
			t.Errorf("costs: %s now puts %s on its hottest key, recorded %s%s", name, m.Hot(), r.Hot(), update)
		}
	}
	for name := range rec {
		if _, ok := c.measured[name]; !ok {
			t.Errorf("costs: %s is recorded but no longer measured%s", name, update)
		}
	}
}

// hotter reports whether hottest-key units a grew past the recorded b by
// more than rounding (an item a few bytes larger may cross a 1 KB step:
// one unit, two in a transaction).
func hotter(a, b float64) bool { return a > b+2 }

// far reports whether capacity a moved from the recorded b by more than
// a unit and a quarter of b (item sizes vary by a few bytes between runs).
func far(a, b float64) bool {
	return math.Abs(a-b) > 1+b/4
}
