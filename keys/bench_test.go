package keys_test

import (
	"testing"
	"time"

	"github.com/singletable/singletable/keys"
)

var (
	sinkSK  keys.SK
	sinkStr string
	sinkVal []string
)

func BenchmarkBuild2Segments(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkSK, _ = eventSK.Build("1700000000000", "evt_abc")
	}
}

func BenchmarkPrefix(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkSK, _ = topicSK.Prefix("1")
	}
}

func BenchmarkParse(b *testing.B) {
	key := eventSK.MustBuild("1700000000000", "evt_abc")
	b.ReportAllocs()
	for b.Loop() {
		sinkVal, _ = eventSK.Parse(key)
	}
}

func BenchmarkSegment(b *testing.B) {
	key := eventSK.MustBuild("1700000000000", "evt_abc")
	b.ReportAllocs()
	for b.Loop() {
		sinkStr, _ = eventSK.Segment(key, 1)
	}
}

func BenchmarkMatches(b *testing.B) {
	key := eventSK.MustBuild("1700000000000", "evt_abc")
	b.ReportAllocs()
	for b.Loop() {
		if !eventSK.Matches(key) {
			b.Fatal("no match")
		}
	}
}

func BenchmarkUnixMilli(b *testing.B) {
	t := time.UnixMilli(1700000000000)
	b.ReportAllocs()
	for b.Loop() {
		sinkStr = keys.MustUnixMilli(t)
	}
}

func BenchmarkTimestamp(b *testing.B) {
	t := time.Unix(1700000000, 123456789)
	b.ReportAllocs()
	for b.Loop() {
		sinkStr = keys.MustTimestamp(t)
	}
}

func BenchmarkEscape(b *testing.B) {
	b.Run("clean", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkStr = keys.Escape("golang-tips")
		}
	})
	b.Run("delimiter", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkStr = keys.Escape("c#-tips")
		}
	})
}
