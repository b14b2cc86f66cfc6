package table

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/singletable/singletable/internal/ddb"
)

func TestSealerRoundTripAndRefusals(t *testing.T) {
	t.Parallel()
	s := ddb.NewSealer([]byte("key one"))
	pos := map[string]string{"PK": "USER#42", "SK": "SRC#abc"}
	c, err := s.Seal("pattern\x00USER#42", pos)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(c, "USER") || strings.Contains(c, "SRC") {
		t.Errorf("cursor %q reveals its position", c)
	}
	got, err := s.Open("pattern\x00USER#42", c)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(pos, got); diff != "" {
		t.Errorf("position (-want +got):\n%s", diff)
	}
	flipped := []byte(c)
	flipped[5] ^= 1
	for name, open := range map[string]func() error{
		"other binding": func() error { _, err := s.Open("pattern\x00USER#43", c); return err },
		"other key":     func() error { _, err := ddb.NewSealer([]byte("key two")).Open("pattern\x00USER#42", c); return err },
		"tampered":      func() error { _, err := s.Open("pattern\x00USER#42", string(flipped)); return err },
		"not base64":    func() error { _, err := s.Open("pattern\x00USER#42", "***"); return err },
		"too short":     func() error { _, err := s.Open("pattern\x00USER#42", "abcd"); return err },
		"empty":         func() error { _, err := s.Open("pattern\x00USER#42", ""); return err },
	} {
		if err := open(); !errors.Is(err, ErrInvalidCursor) {
			t.Errorf("%s: got %v, want ErrInvalidCursor", name, err)
		}
	}
}

// pages serves n items in pages of size, counting fetches.
func pages(n, size int, fetches *int, failAt int) fetch[int] {
	return func(_ context.Context, cursor string) (Page[int], error) {
		*fetches++
		if *fetches == failAt {
			return Page[int]{}, fmt.Errorf("boom")
		}
		start := 0
		if cursor != "" {
			fmt.Sscan(cursor, &start)
		}
		var p Page[int]
		for i := start; i < min(start+size, n); i++ {
			p.Items = append(p.Items, i)
		}
		if start+size < n {
			p.Cursor = fmt.Sprint(start + size)
		}
		return p, nil
	}
}

func TestAllStopsAndYieldsErrorOnce(t *testing.T) {
	t.Parallel()
	var fetches int
	got, err := Collect(allPages(context.Background(), pages(7, 3, &fetches, 0)))
	if err != nil || len(got) != 7 || fetches != 3 {
		t.Errorf("collect: %v %v after %d fetches", got, err, fetches)
	}
	fetches = 0
	for v := range allPages(context.Background(), pages(100, 3, &fetches, 0)) {
		if v == 4 {
			break
		}
	}
	if fetches != 2 {
		t.Errorf("breaking at item 4 of 3-item pages fetched %d pages, want 2", fetches)
	}
	fetches = 0
	var errs, items int
	for _, err := range allPages(context.Background(), pages(100, 3, &fetches, 2)) {
		if err != nil {
			errs++
			continue
		}
		items++
	}
	if errs != 1 || items != 3 || fetches != 2 {
		t.Errorf("error case: %d errors, %d items, %d fetches; want 1, 3, 2", errs, items, fetches)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fetches = 0
	for _, err := range allPages(ctx, pages(10, 3, &fetches, 0)) {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("canceled context yielded %v", err)
		}
	}
	if fetches != 0 {
		t.Errorf("canceled context still fetched %d pages", fetches)
	}
}
