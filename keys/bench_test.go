package keys_test

import (
	"testing"
	"time"

	"github.com/singletable/singletable/keys"
)

var (
	sinkStr string
)

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
