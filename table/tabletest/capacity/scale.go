package capacity

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/singletable/singletable/table"
)

// The scale target (docs/performance.md, "Targets"): at the modeled load, no partition
// key of a table or GSI above 80% of DynamoDB's per-partition limits, and
// no single item above 80% of the write limit (an item never spans
// partitions, and a collection written in sort-key order takes no split).
const (
	TargetWrite = 0.8 * PartitionWriteLimit // 800 WCU/s
	TargetRead  = 0.8 * PartitionReadLimit  // 2,400 RCU/s
)

// Scenario is a modeled load on an application: Calls calls of Call, run
// one after another through a [Meter], stand for a load of PerSecond calls
// per second. Rates are modeled, not timed: each key's units are divided by
// Calls and multiplied by PerSecond.
type Scenario struct {
	// Name names the scenario in a package's list of known gaps.
	Name string
	// Calls is how many calls to run (a representative sample).
	Calls int
	// PerSecond is the modeled rate of calls.
	PerSecond float64
	// Call makes call i (0 <= i < Calls).
	Call func(ctx context.Context, i int) error
	// Want is what the meter must measure while the scenario is a known
	// gap: the hottest key's shape (as [Meter.Shape] names it) and its
	// units per call, within Tolerance (a fraction: 0.25 is 25%). It
	// checks the meter against the model the gap is stated in.
	Want      Hot
	Tolerance float64
}

// Hot is a partition key shape and the units one call puts on it.
type Hot struct {
	Key string
	Usage
}

// ScaleResult is what a scenario measured.
type ScaleResult struct {
	// Hottest is the hottest partition (its key value), its shape and its
	// units per call.
	Hottest Partition
	Hot     Hot
	// PerSecond is what the modeled load puts on the hottest partition.
	PerSecond Usage
	// Item is the hottest item and its units per second.
	Item        ItemRef
	ItemPerSecd Usage
	// Over lists every partition and item past the target, hottest first,
	// as "SRC#src_1 40,000 WCU/s, limit 800".
	Over []string
}

// Scale runs scenario s through meter m and holds it to the target
// (TargetWrite, TargetRead per partition key, TargetWrite per item):
//
//   - a scenario not in gaps fails for every key or item past the target;
//   - a scenario in gaps (a package's one list of the scenarios still short
//     of the target, with why) must measure s.Want, within s.Tolerance,
//     and logs its gap ("table SRC#src_1 40,000 WCU/s, limit 800"); it
//     fails once it meets the target, so that the list is emptied as the
//     work that lifts it lands.
//
// Every call must succeed. The meter's charges are reset first.
//
// The scaling treats the sample as the population: a key or item that
// only some calls touch (one user's item, one shard of a sharded key) is
// charged as if it took that share of every second's calls. That is exact
// for the keys every call shares, and errs high for the rest (an item each
// call writes once looks hotter the fewer the Calls): keep Calls large
// enough, and spread hashed IDs over their shards ([SpreadID]).
func Scale(t testing.TB, m *Meter, s Scenario, gaps map[string]string) ScaleResult {
	t.Helper()
	if s.Calls <= 0 || s.PerSecond <= 0 {
		t.Fatalf("scale %s: Calls and PerSecond must be positive", s.Name)
	}
	ctx := context.Background()
	m.Reset()
	for i := range s.Calls {
		if err := s.Call(ctx, i); err != nil {
			t.Fatalf("scale %s: call %d: %v", s.Name, i, err)
		}
	}
	f := s.PerSecond / float64(s.Calls)
	var res ScaleResult
	type over struct {
		line string
		load float64
	}
	var overs []over
	keys := m.Keys()
	for p, u := range keys {
		r := u.Scaled(f)
		if r.Write > TargetWrite || r.Read > TargetRead {
			overs = append(overs, over{fmt.Sprintf("%s %s, limit %s", p, perSecond(r), limits(r)), r.Load()})
		}
	}
	for it, u := range m.Items() {
		r := u.Scaled(f)
		if r.Write > TargetWrite {
			overs = append(overs, over{fmt.Sprintf("item %s %s WCU/s, limit %s", it, thousands(r.Write), thousands(TargetWrite)), r.Load()})
		}
	}
	slices.SortFunc(overs, func(a, b over) int {
		if a.load != b.load {
			if a.load > b.load {
				return -1
			}
			return 1
		}
		return strings.Compare(a.line, b.line)
	})
	for _, o := range overs {
		res.Over = append(res.Over, o.line)
	}
	if p, u, ok := m.Hottest(); ok {
		res.Hottest = p
		res.Hot = Hot{Key: m.Shape(p), Usage: u.Scaled(1 / float64(s.Calls))}
		res.PerSecond = u.Scaled(f)
	}
	if it, u, ok := m.HottestItem(); ok {
		res.Item, res.ItemPerSecd = it, u.Scaled(f)
	}
	t.Logf("scale %s: %d calls as %s/s: hottest %s, %s per call, %s; hottest item %s, %s",
		s.Name, s.Calls, thousands(s.PerSecond), res.Hot.Key, res.Hot.Usage, perSecond(res.PerSecond), res.Item, perSecond(res.ItemPerSecd))
	why, gap := gaps[s.Name]
	switch {
	case gap && len(res.Over) == 0:
		t.Errorf("scale %s: meets the target now: remove it from the known gaps (%s)", s.Name, why)
	case gap:
		tol := s.Tolerance
		if tol == 0 {
			tol = 0.25
		}
		if res.Hot.Key != s.Want.Key || !near(res.Hot.Write, s.Want.Write, tol) || !near(res.Hot.Read, s.Want.Read, tol) {
			t.Errorf("scale %s: measured hottest %s %s per call, the model says %s %s (within %.0f%%)",
				s.Name, res.Hot.Key, res.Hot.Usage, s.Want.Key, s.Want.Usage, tol*100)
		}
		for i, o := range res.Over {
			if i == 6 {
				t.Logf("scale %s: GAP ... and %d more", s.Name, len(res.Over)-i)
				break
			}
			t.Logf("scale %s: GAP %s (%s)", s.Name, o, why)
		}
	default:
		for _, o := range res.Over {
			t.Errorf("scale %s: %s", s.Name, o)
		}
	}
	return res
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol*want+1e-9 }

// perSecond renders units per second: "40,000 WCU/s", "1,200 RCU/s".
func perSecond(u Usage) string {
	switch {
	case u.Read == 0:
		return thousands(u.Write) + " WCU/s"
	case u.Write == 0:
		return thousands(u.Read) + " RCU/s"
	}
	return thousands(u.Write) + " WCU/s + " + thousands(u.Read) + " RCU/s"
}

func limits(u Usage) string {
	switch {
	case u.Write > TargetWrite && u.Read > TargetRead:
		return thousands(TargetWrite) + " WCU/s, " + thousands(TargetRead) + " RCU/s"
	case u.Read > TargetRead:
		return thousands(TargetRead)
	}
	return thousands(TargetWrite)
}

// thousands renders f rounded, with thousands separators.
func thousands(f float64) string {
	s := fmt.Sprintf("%.0f", f)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// SpreadID returns an ID made of prefix and i that falls in shard i mod n
// of [table.Shard]: a sample of IDs SpreadID(p, 0, n) .. SpreadID(p, k-1, n)
// fills n shards evenly, as a large population of random IDs does, so a
// small scenario measures a sharded key at its real share of the load.
func SpreadID(prefix string, i, n int) string {
	for k := 0; ; k++ {
		id := fmt.Sprintf("%s%03d-%d", prefix, i, k)
		if table.Shard(id, n) == i%max(n, 1) {
			return id
		}
	}
}

// SustainedRate returns how many calls per second one partition key takes
// when each call puts u on it: PartitionWriteLimit / u.Write or
// PartitionReadLimit / u.Read, the lower (rounded down).
func SustainedRate(u Usage) float64 {
	r := math.Inf(1)
	if u.Write > 0 {
		r = PartitionWriteLimit / u.Write
	}
	if u.Read > 0 {
		r = min(r, PartitionReadLimit/u.Read)
	}
	return math.Floor(r)
}
