package keys_test

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/singletable/singletable/keys"
)

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// randomTime returns a time between 1970 and 2286 with nanoseconds.
func randomTime(r *rand.Rand) time.Time {
	return time.Unix(r.Int64N(9_999_999_999), r.Int64N(1e9))
}

func TestUnixMilli(t *testing.T) {
	t.Parallel()
	paris := time.FixedZone("CET", 3600)
	tests := []struct {
		in   time.Time
		want string
	}{
		{time.UnixMilli(1700000000000), "1700000000000"},
		{time.Unix(0, 0), "0000000000000"},
		{time.UnixMilli(1), "0000000000001"},
		{time.Unix(0, 999_999), "0000000000000"}, // sub-millisecond dropped
		{time.UnixMilli(1700000000000).In(paris), "1700000000000"},
		{time.UnixMilli(9_999_999_999_999), "9999999999999"},
	}
	for _, tt := range tests {
		got := keys.MustUnixMilli(tt.in)
		if got != tt.want {
			t.Errorf("UnixMilli(%v) = %q, want %q", tt.in, got, tt.want)
		}
		back, err := keys.ParseUnixMilli(got)
		if err != nil || !back.Equal(tt.in.Truncate(time.Millisecond)) || back.Location() != time.UTC {
			t.Errorf("ParseUnixMilli(%q) = %v, %v; want %v UTC", got, back, err, tt.in)
		}
	}
	for _, in := range []time.Time{{}, time.UnixMilli(-1), time.UnixMilli(10_000_000_000_000)} {
		if s, err := keys.UnixMilli(in); !errors.Is(err, keys.ErrInvalidKey) {
			t.Errorf("UnixMilli(%v) = %q, %v; want ErrInvalidKey", in, s, err)
		}
	}
	for _, in := range []string{"", "170000000000", "17000000000000", "170000000000x", "-000000000001"} {
		if tm, err := keys.ParseUnixMilli(in); !errors.Is(err, keys.ErrInvalidKey) {
			t.Errorf("ParseUnixMilli(%q) = %v, %v; want ErrInvalidKey", in, tm, err)
		}
	}
}

func TestDate(t *testing.T) {
	t.Parallel()
	tokyo := time.FixedZone("JST", 9*3600)
	tests := []struct {
		in   time.Time
		want string
	}{
		{mustTime("2024-01-31T12:00:00Z"), "2024-01-31"},
		{mustTime("2024-02-29T23:59:59.999999999Z"), "2024-02-29"},
		{time.Date(2024, 2, 1, 8, 0, 0, 0, tokyo), "2024-01-31"}, // UTC day, not local
		{time.Time{}, "0001-01-01"},
		{time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), "9999-12-31"},
	}
	for _, tt := range tests {
		got := keys.MustDate(tt.in)
		if got != tt.want {
			t.Errorf("Date(%v) = %q, want %q", tt.in, got, tt.want)
		}
		back, err := keys.ParseDate(got)
		y, m, d := tt.in.UTC().Date()
		if err != nil || !back.Equal(time.Date(y, m, d, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("ParseDate(%q) = %v, %v", got, back, err)
		}
	}
	if s, err := keys.Date(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)); !errors.Is(err, keys.ErrInvalidKey) {
		t.Errorf("Date(year 10000) = %q, %v; want ErrInvalidKey", s, err)
	}
	for _, in := range []string{"", "2024-1-5", "2024-01-5", "2024-02-30", "2023-02-29", "1900-02-29",
		"2024-13-01", "2024-00-10", "2024-04-31", "2024/01/31", "2024-01-31T00:00:00Z", "+024-01-31", "２０２４-01-31"} {
		if tm, err := keys.ParseDate(in); !errors.Is(err, keys.ErrInvalidKey) {
			t.Errorf("ParseDate(%q) = %v, %v; want ErrInvalidKey", in, tm, err)
		}
	}
	if _, err := keys.ParseDate("2000-02-29"); err != nil {
		t.Errorf("ParseDate(2000-02-29): %v", err)
	}
}

func TestTimestamp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   time.Time
		want string
	}{
		{mustTime("2024-01-31T09:30:00Z"), "2024-01-31T09:30:00.000000000Z"},
		{mustTime("2024-01-31T09:30:00.5Z"), "2024-01-31T09:30:00.500000000Z"},
		{mustTime("2024-01-31T10:30:00.000000001+01:00"), "2024-01-31T09:30:00.000000001Z"},
		{time.Time{}, "0001-01-01T00:00:00.000000000Z"},
	}
	for _, tt := range tests {
		got := keys.MustTimestamp(tt.in)
		if got != tt.want {
			t.Errorf("Timestamp(%v) = %q, want %q", tt.in, got, tt.want)
		}
		if got != tt.in.UTC().Format(keys.TimestampLayout) {
			t.Errorf("Timestamp(%v) = %q, differs from Format(TimestampLayout)", tt.in, got)
		}
		back, err := keys.ParseTimestamp(got)
		if err != nil || !back.Equal(tt.in) || back.Location() != time.UTC {
			t.Errorf("ParseTimestamp(%q) = %v, %v; want %v UTC", got, back, err, tt.in)
		}
	}
	if s, err := keys.Timestamp(time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)); !errors.Is(err, keys.ErrInvalidKey) {
		t.Errorf("Timestamp(year -1) = %q, %v; want ErrInvalidKey", s, err)
	}
	for _, in := range []string{
		"",
		"2024-01-31T09:30:00Z",
		"2024-01-31T09:30:00.5Z",
		"2024-01-31T09:30:00.000000000+00:00",
		"2024-01-31 09:30:00.000000000Z",
		"2024-01-31T24:00:00.000000000Z",
		"2024-01-31T09:60:00.000000000Z",
		"2024-01-31T09:30:60.000000000Z",
		"2024-02-30T09:30:00.000000000Z",
		"2024-01-31T09:30:00.00000000xZ",
		"2024-01-31T09:30:00.000000000z",
	} {
		if tm, err := keys.ParseTimestamp(in); !errors.Is(err, keys.ErrInvalidKey) {
			t.Errorf("ParseTimestamp(%q) = %v, %v; want ErrInvalidKey", in, tm, err)
		}
	}
}

func TestTimeOrder(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	base := mustTime("2024-01-31T09:30:00Z")
	values := []time.Time{time.Unix(0, 0), base, base.Add(time.Nanosecond), base.Add(500 * time.Millisecond),
		base.Add(time.Millisecond), base.Add(-time.Nanosecond), time.UnixMilli(9_999_999_999_999)}
	for range 2000 {
		values = append(values, randomTime(r))
	}
	// Close times, so that sub-second digits decide.
	for range 500 {
		values = append(values, base.Add(time.Duration(r.Int64N(int64(10*time.Second)))))
	}
	compare := func(a, b time.Time) int { return a.Compare(b) }
	t.Run("Timestamp", func(t *testing.T) {
		t.Parallel()
		checkOrder(t, append([]time.Time(nil), values...), compare, keys.MustTimestamp)
	})
	t.Run("UnixMilli", func(t *testing.T) {
		t.Parallel()
		ms := make([]time.Time, len(values))
		for i, v := range values {
			ms[i] = v.Truncate(time.Millisecond)
		}
		checkOrder(t, ms, compare, keys.MustUnixMilli)
	})
	t.Run("Date", func(t *testing.T) {
		t.Parallel()
		days := make([]time.Time, len(values))
		for i, v := range values {
			days[i] = v.UTC().Truncate(24 * time.Hour)
		}
		days = append(days, time.Time{}, time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC))
		checkOrder(t, days, compare, keys.MustDate)
	})
}
