package keys_test

import (
	"testing"
	"time"

	"github.com/singletable/singletable/keys"
)

// TestAllocs holds the allocation budget of the hot paths.
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	tm := time.UnixMilli(1700000000000)
	tests := []struct {
		name string
		max  float64
		f    func()
	}{
		{"Escape clean", 0, func() { sinkStr = keys.Escape("golang") }},
		{"UnixMilli", 1, func() { sinkStr = keys.MustUnixMilli(tm) }},
		{"ParseUnixMilli", 0, func() { _, _ = keys.ParseUnixMilli("1700000000000") }},
		{"Timestamp", 1, func() { sinkStr = keys.MustTimestamp(tm) }},
		{"ParseTimestamp", 0, func() { _, _ = keys.ParseTimestamp("2024-01-31T09:30:00.000000000Z") }},
	}
	for _, tt := range tests {
		if got := testing.AllocsPerRun(100, tt.f); got > tt.max {
			t.Errorf("%s: %v allocs, want at most %v", tt.name, got, tt.max)
		}
	}
}
