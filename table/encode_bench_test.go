package table

import (
	"reflect"
	"testing"
	"time"

	"github.com/guregu/dynamo/v2"
	"github.com/singletable/singletable/internal/codec"
)

// BenchmarkEncodeFixes measures what the encoding fixes (empty entries in
// maps at any depth, keepEmptyMapStrings) add to guregu's MarshalItem, on
// a struct with maps and nested structs (wide) and one without (flat).
func BenchmarkEncodeFixes(b *testing.B) {
	now := time.Date(2026, 11, 22, 10, 11, 12, 0, time.UTC)
	w := wide{S: "x", N: 5, T: now, SS: []string{"a"}, L: []string{"c", ""}, In: inner{A: "a", M: map[string]string{"k": "", "v": "w"}},
		Nums: map[string]int{"a": 1}, Deep: []map[string]bool{{"t": true}}}
	type flat struct {
		A, B, C, D, E string
		N, M, O       int64
		T, U          time.Time
		L             []string
	}
	f := flat{A: "a", B: "b", C: "c", N: 1, M: 2, T: now, U: now, L: []string{"x", "y"}}
	for _, c := range []struct {
		name string
		v    any
	}{{"wide", &w}, {"flat", &f}} {
		b.Run(c.name+"/guregu", func(b *testing.B) {
			for b.Loop() {
				if _, err := dynamo.MarshalItem(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/fixed", func(b *testing.B) {
			for b.Loop() {
				av, err := dynamo.MarshalItem(c.v)
				if err != nil {
					b.Fatal(err)
				}
				codec.KeepEmptyMapStrings(av, reflect.ValueOf(c.v).Elem())
			}
		})
	}
}
