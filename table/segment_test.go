package table_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// Issue 42: one key-segment rule with a limit per kind of value, instead
// of a copy per application.
func TestSegmentReasons(t *testing.T) {
	t.Parallel()
	ids := table.Segment{MaxBytes: 8}
	tags := table.Segment{MaxBytes: 8, Escaped: true}
	for _, c := range []struct {
		v          string
		ids, tags  string
		defaultMax string
	}{
		{"u1", "", "", ""},
		{"", "empty", "empty", "empty"},
		{"123456789", "longer than 8 bytes", "longer than 8 bytes", ""},
		{"héllo", "", "", ""},
		{"\xff", "not valid UTF-8", "not valid UTF-8", "not valid UTF-8"},
		{"a#b", "contains the key delimiter '#'", "", "contains the key delimiter '#'"},
		{"a\nb", "contains a control character", "contains a control character", "contains a control character"},
		{"a\u0085b", "contains a control character", "contains a control character", "contains a control character"},
		{strings.Repeat("x", keys.MaxSKBytes+1), "longer than 8 bytes", "longer than 8 bytes", "longer than 1024 bytes"},
	} {
		if got := ids.Reason(c.v); got != c.ids {
			t.Errorf("ids.Reason(%q) = %q, want %q", c.v, got, c.ids)
		}
		if got := tags.Reason(c.v); got != c.tags {
			t.Errorf("tags.Reason(%q) = %q, want %q", c.v, got, c.tags)
		}
		if got := (table.Segment{}).Reason(c.v); got != c.defaultMax {
			t.Errorf("Segment{}.Reason(%q) = %q, want %q", c.v, got, c.defaultMax)
		}
	}
	var ve *table.ValidationError
	err := ids.Check("userId", "a#b")
	if !errors.As(err, &ve) || ve.Field != "userId" || !ve.Key || !errors.Is(err, keys.ErrInvalidKey) || !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("Check = %#v, want a key ValidationError on userId", err)
	}
	if err := ids.Check("userId", "u1"); err != nil {
		t.Errorf("Check(u1) = %v", err)
	}
}

// A value the rule accepts is a segment the engine builds and reads back
// (DynamoDB Local); one it refuses is stopped before any request.
func TestSegmentKeys(t *testing.T) {
	t.Parallel()
	m := newMemoPatterns(t)
	ids := table.Segment{MaxBytes: 16}
	create := func(x memo) error {
		if err := ids.Check("id", x.ID); err != nil {
			return err
		}
		return m.memos.Create(ctx(t), &x)
	}
	x := memo{Author: "ann", Day: "2026-01-01", ID: "mémo-1", Text: "one"}
	if err := create(x); err != nil {
		t.Fatal(err)
	}
	got, err := m.memos.Get(ctx(t), m.memos.Key(x))
	if err != nil || got != x {
		t.Fatalf("Get = %+v, %v; want %+v", got, err, x)
	}
	for _, id := range []string{"m#1", strings.Repeat("m", 17)} {
		if err := create(memo{Author: "ann", Day: "2026-01-01", ID: id}); !errors.Is(err, keys.ErrInvalidKey) {
			t.Errorf("create with id %q: %v, want a key ValidationError", id, err)
		}
	}
}
