package tabletest

import (
	"testing"
	"time"
)

// Paired measures a library call against its hand-written aws-sdk-go-v2
// equivalent in one benchmark: every iteration runs both back to back,
// alternating which goes first, so both see the same server state and
// warm-up (DynamoDB Local's JIT keeps speeding up for minutes, which makes
// sequential sub-benchmarks favor whichever runs later). It reports
// lib-ns/op, raw-ns/op and lib/raw-throughput (raw time over library
// time: 1.0 means the library is as fast as the raw SDK).
func Paired(b *testing.B, lib, raw func() error) {
	b.Helper()
	var tl, tr time.Duration
	n := 0
	for b.Loop() {
		first, second, t1, t2 := lib, raw, &tl, &tr
		if n%2 == 1 {
			first, second, t1, t2 = raw, lib, &tr, &tl
		}
		n++
		start := time.Now()
		if err := first(); err != nil {
			b.Fatal(err)
		}
		mid := time.Now()
		if err := second(); err != nil {
			b.Fatal(err)
		}
		*t1 += mid.Sub(start)
		*t2 += time.Since(mid)
	}
	if n == 0 || tl == 0 {
		return
	}
	b.ReportMetric(float64(tl.Nanoseconds())/float64(n), "lib-ns/op")
	b.ReportMetric(float64(tr.Nanoseconds())/float64(n), "raw-ns/op")
	b.ReportMetric(float64(tr)/float64(tl), "lib/raw-throughput")
}

// Compare is the whole library-versus-raw benchmark of one operation:
// warmup rounds of both (DynamoDB Local's JIT), then sub-benchmarks
// "library" and "raw" (each alone, in random order, with allocations
// reported) and "paired" ([Paired]).
func Compare(b *testing.B, warmup int, lib, raw func() error) {
	b.Helper()
	for range warmup {
		if err := lib(); err != nil {
			b.Fatal(err)
		}
		if err := raw(); err != nil {
			b.Fatal(err)
		}
	}
	for name, f := range map[string]func() error{"library": lib, "raw": raw} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("paired", func(b *testing.B) { Paired(b, lib, raw) })
}
