package keys_test

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/singletable/singletable/keys"
)

func TestUint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n     uint64
		width int
		want  string
	}{
		{7, 10, "0000000007"},
		{0, 1, "0"},
		{9, 1, "9"},
		{42, 2, "42"},
		{math.MaxUint64, 20, "18446744073709551615"},
		{0, 20, "00000000000000000000"},
	}
	for _, tt := range tests {
		got := keys.MustUint(tt.n, tt.width)
		if got != tt.want {
			t.Errorf("Uint(%d, %d) = %q, want %q", tt.n, tt.width, got, tt.want)
		}
		back, err := keys.ParseUint(got)
		if err != nil || back != tt.n {
			t.Errorf("ParseUint(%q) = %d, %v; want %d", got, back, err, tt.n)
		}
	}
}

func TestUintError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n     uint64
		width int
	}{
		{10, 1}, {100, 2}, {1, 0}, {1, 21}, {1, -1},
	}
	for _, tt := range tests {
		got, err := keys.Uint(tt.n, tt.width)
		if !errors.Is(err, keys.ErrInvalidKey) {
			t.Errorf("Uint(%d, %d) = %q, %v; want ErrInvalidKey", tt.n, tt.width, got, err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Uint(%d, %d) did not panic", tt.n, tt.width)
				}
			}()
			keys.MustUint(tt.n, tt.width)
		}()
	}
}

func TestParseUintInvalid(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "-1", "+1", " 1", "1a", "0x10", "1_000",
		"18446744073709551616", strings.Repeat("0", 21), "１"} {
		if n, err := keys.ParseUint(in); !errors.Is(err, keys.ErrInvalidKey) {
			t.Errorf("ParseUint(%q) = %d, %v; want ErrInvalidKey", in, n, err)
		}
	}
}

func TestInt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int64
		want string
	}{
		{math.MinInt64, "00000000000000000000"},
		{-1, "09223372036854775807"},
		{0, "09223372036854775808"},
		{1, "09223372036854775809"},
		{math.MaxInt64, "18446744073709551615"},
	}
	for _, tt := range tests {
		got := keys.Int(tt.n)
		if got != tt.want {
			t.Errorf("Int(%d) = %q, want %q", tt.n, got, tt.want)
		}
		back, err := keys.ParseInt(got)
		if err != nil || back != tt.n {
			t.Errorf("ParseInt(%q) = %d, %v; want %d", got, back, err, tt.n)
		}
	}
	for _, in := range []string{"", "0", "-9223372036854775808", "0922337203685477580x", "18446744073709551616"} {
		if n, err := keys.ParseInt(in); !errors.Is(err, keys.ErrInvalidKey) {
			t.Errorf("ParseInt(%q) = %d, %v; want ErrInvalidKey", in, n, err)
		}
	}
}

// checkOrder sorts values, sorts their encodings, and checks both orders
// agree: byte order of the encoding is value order.
func checkOrder[T any](t *testing.T, values []T, compare func(a, b T) int, enc func(T) string) {
	t.Helper()
	slices.SortFunc(values, compare)
	encoded := make([]string, len(values))
	for i, v := range values {
		encoded[i] = enc(v)
	}
	if !slices.IsSorted(encoded) {
		for i := 1; i < len(encoded); i++ {
			if encoded[i-1] > encoded[i] {
				t.Fatalf("%v < %v but %q > %q", values[i-1], values[i], encoded[i-1], encoded[i])
			}
		}
	}
	for i := 1; i < len(values); i++ {
		if compare(values[i-1], values[i]) == 0 && encoded[i-1] != encoded[i] {
			t.Fatalf("equal values %v, %v encode differently: %q, %q", values[i-1], values[i], encoded[i-1], encoded[i])
		}
	}
}

func TestUintOrder(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	values := []uint64{0, 1, 9, 10, 99, 100, math.MaxUint64}
	for range 2000 {
		values = append(values, r.Uint64()>>r.UintN(64))
	}
	checkOrder(t, values, cmp.Compare[uint64], func(n uint64) string { return keys.MustUint(n, 20) })
	small := []uint64{}
	for range 500 {
		small = append(small, r.Uint64N(10000))
	}
	checkOrder(t, small, cmp.Compare[uint64], func(n uint64) string { return keys.MustUint(n, 4) })
}

func TestIntOrder(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	values := []int64{math.MinInt64, -1, 0, 1, math.MaxInt64}
	for range 2000 {
		values = append(values, int64(r.Uint64())>>r.UintN(64))
	}
	checkOrder(t, values, cmp.Compare[int64], keys.Int)
}
