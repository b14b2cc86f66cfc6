package tabletest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ServerPID returns the process ID of the binary's DynamoDB Local when it
// is a JVM on this machine, starting it on first use; 0 when it runs
// elsewhere (DYNAMODB_ENDPOINT, a container), where its CPU cannot be
// read.
func ServerPID(t testing.TB) int {
	t.Helper()
	return start(t).PID()
}

// SelfCPU returns the user and system CPU time this process has used
// (getrusage on Unix, microsecond resolution; 0 on other systems), GC
// and every goroutine included: around a loop of pure client work, the
// client's CPU.
func SelfCPU() time.Duration { return selfCPU() }

// ProcessCPU returns the CPU time process pid has used: the sum of its
// threads' run time as the scheduler counts it
// (/proc/<pid>/task/*/schedstat, in nanoseconds, so that short intervals
// are measured exactly rather than in clock ticks). Threads that have
// exited are no longer counted. ok is false when it cannot be read (pid
// 0, another OS, the process gone).
func ProcessCPU(pid int) (cpu time.Duration, ok bool) {
	if pid <= 0 {
		return 0, false
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, false
	}
	var sum int64
	for _, task := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, task.Name(), "schedstat"))
		if err != nil {
			continue // the thread exited meanwhile
		}
		f, _, _ := strings.Cut(string(b), " ")
		ns, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return 0, false
		}
		sum += ns
	}
	return time.Duration(sum), len(tasks) > 0
}

// Variant is one implementation of a scenario's operation: the library
// call, or hand-written code doing the same work.
type Variant struct {
	// Name labels the variant in results ("library", "same", "minimal").
	Name string
	// Op performs one operation; an error fails the benchmark.
	Op func() error
}

// Interleaved configures [Interleave].
type Interleaved struct {
	// Rounds is how many rounds run; each round runs one block of every
	// variant, the variant that starts rotating from round to round.
	Rounds int
	// Block is how many operations one block runs.
	Block int
	// Callers is how many goroutines share a block's operations (0 or 1:
	// one caller, sequential).
	Callers int
	// Warmup is how many operations of each variant run, interleaved,
	// before the first round (DynamoDB Local's JIT).
	Warmup int
	// ServerPID is the process whose CPU is measured as the server's (see
	// [ServerPID]); 0: unknown.
	ServerPID int
}

// VariantStats is what [Interleave] measured of one variant: medians over
// the rounds.
type VariantStats struct {
	// Name is the variant's.
	Name string
	// OpsPerSec is its throughput.
	OpsPerSec float64
	// ClientCPU is this process's CPU per operation (getrusage on Unix, 0 elsewhere: user +
	// system, every goroutine, the garbage collector included).
	ClientCPU time.Duration
	// ServerCPU is the server process's CPU per operation; negative when
	// unknown (no server PID, or it could not be read).
	ServerCPU time.Duration
	// Ratio is the first variant's throughput over this one's, the median
	// of the rounds' ratios (1 for the first variant itself); RatioMin and
	// RatioMax are their range.
	Ratio, RatioMin, RatioMax float64
}

// ServerKnown reports whether ServerCPU was measured.
func (s VariantStats) ServerKnown() bool { return s.ServerCPU >= 0 }

// blockResult is one block of one variant.
type blockResult struct {
	wall, client, server time.Duration
	serverOK             bool
}

// Interleave measures the variants of one scenario against each other:
// after cfg.Warmup operations of each, cfg.Rounds rounds each run one
// block of cfg.Block operations of every variant in turn, so that the
// server's warm-up and the machine's load reach all of them alike. For
// every block it measures the wall time, this process's CPU (getrusage)
// and the server's CPU ([ProcessCPU] of cfg.ServerPID), read outside the
// client's measured interval. It returns one [VariantStats] per variant,
// in order, with ratios against the first. An operation's error fails b.
func Interleave(b testing.TB, cfg Interleaved, variants ...Variant) []VariantStats {
	b.Helper()
	if len(variants) == 0 || cfg.Rounds <= 0 || cfg.Block <= 0 {
		b.Fatalf("tabletest.Interleave: need variants, rounds and a block size (got %d, %d, %d)", len(variants), cfg.Rounds, cfg.Block)
	}
	callers := max(cfg.Callers, 1)
	for range cfg.Warmup {
		for _, v := range variants {
			if err := v.Op(); err != nil {
				b.Fatalf("%s (warm-up): %v", v.Name, err)
			}
		}
	}
	res := make([][]blockResult, len(variants))
	for r := range cfg.Rounds {
		for k := range variants {
			i := (r + k) % len(variants)
			br, err := runBlock(cfg, callers, variants[i].Op)
			if err != nil {
				b.Fatalf("%s: %v", variants[i].Name, err)
			}
			res[i] = append(res[i], br)
		}
	}
	n := float64(cfg.Block)
	stats := make([]VariantStats, len(variants))
	for i, v := range variants {
		var ops, client, server, ratio []float64
		known := true
		for r, br := range res[i] {
			ops = append(ops, n/br.wall.Seconds())
			client = append(client, float64(br.client)/n)
			if br.serverOK {
				server = append(server, float64(br.server)/n)
			}
			ratio = append(ratio, float64(br.wall)/float64(res[0][r].wall))
		}
		if len(server) < len(res[i])/2+1 {
			known = false
		}
		st := VariantStats{Name: v.Name, OpsPerSec: median(ops), ClientCPU: time.Duration(median(client)), ServerCPU: -1,
			Ratio: median(ratio), RatioMin: slices.Min(ratio), RatioMax: slices.Max(ratio)}
		if known {
			st.ServerCPU = time.Duration(median(server))
		}
		stats[i] = st
	}
	return stats
}

// runBlock runs one block of op with callers goroutines.
func runBlock(cfg Interleaved, callers int, op func() error) (blockResult, error) {
	s0, ok0 := ProcessCPU(cfg.ServerPID)
	c0 := selfCPU()
	t0 := time.Now()
	var err error
	if callers == 1 {
		for range cfg.Block {
			if err = op(); err != nil {
				break
			}
		}
	} else {
		var next atomic.Int64
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range callers {
			wg.Go(func() {
				for next.Add(1) <= int64(cfg.Block) {
					if e := op(); e != nil {
						mu.Lock()
						err = errors.Join(err, e)
						mu.Unlock()
						return
					}
				}
			})
		}
		wg.Wait()
	}
	wall := time.Since(t0)
	c1 := selfCPU()
	s1, ok1 := ProcessCPU(cfg.ServerPID)
	br := blockResult{wall: wall, client: c1 - c0, server: s1 - s0, serverOK: ok0 && ok1 && s1 >= s0}
	return br, err
}

// median returns the median of xs (0 for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// WorkloadRow is one scenario of a workload table ([WorkloadTable]): the
// library first, then its baselines.
type WorkloadRow struct {
	// Scenario names the row.
	Scenario string
	// Stats are [Interleave]'s results, the library's first.
	Stats []VariantStats
}

// WorkloadTable formats rows as a markdown table: per scenario the
// library's throughput ratio over each baseline (median [range]), and the
// client and server CPU per operation of every variant, in microseconds
// ("?" for a server not measured). Rows must have the same variants.
func WorkloadTable(rows []WorkloadRow) string {
	if len(rows) == 0 {
		return ""
	}
	var sb strings.Builder
	names := make([]string, len(rows[0].Stats))
	for i, s := range rows[0].Stats {
		names[i] = s.Name
	}
	sb.WriteString("| scenario | lib ops/s |")
	for _, n := range names[1:] {
		fmt.Fprintf(&sb, " lib/%s |", n)
	}
	fmt.Fprintf(&sb, " client CPU us/op (%s) | server CPU us/op (%s) |\n|---|---|", strings.Join(names, " / "), strings.Join(names, " / "))
	sb.WriteString(strings.Repeat("---|", len(names)-1+2) + "\n")
	for _, r := range rows {
		fmt.Fprintf(&sb, "| %s | %.0f |", r.Scenario, r.Stats[0].OpsPerSec)
		for _, s := range r.Stats[1:] {
			fmt.Fprintf(&sb, " %.2f [%.2f-%.2f] |", s.Ratio, s.RatioMin, s.RatioMax)
		}
		var cl, sv []string
		for _, s := range r.Stats {
			cl = append(cl, us(s.ClientCPU))
			if s.ServerKnown() {
				sv = append(sv, us(s.ServerCPU))
			} else {
				sv = append(sv, "?")
			}
		}
		fmt.Fprintf(&sb, " %s | %s |\n", strings.Join(cl, " / "), strings.Join(sv, " / "))
	}
	return sb.String()
}

// us formats d in whole microseconds.
func us(d time.Duration) string {
	return strconv.FormatInt(d.Round(time.Microsecond).Microseconds(), 10)
}
