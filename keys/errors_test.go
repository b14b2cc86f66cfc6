package keys_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/singletable/singletable/keys"
)

// TestErrorMessages: every message starts like ErrInvalidKey's and names the
// encoding and the culprit.
func TestErrorMessages(t *testing.T) {
	t.Parallel()
	errOf := func(_ any, err error) error { return err }
	tests := []struct {
		name string
		err  error
		want []string
	}{
		{"long value shortened", errOf(keys.ParseDate(strings.Repeat("x", 100))), []string{"date", `"...`}},
		{"escape", errOf(keys.Unescape("a%2")), []string{"escape", `"a%2"`}},
		{"encoding", errOf(keys.ParseDate("2024-02-30")), []string{"date", `"2024-02-30"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if !errors.Is(tt.err, keys.ErrInvalidKey) {
				t.Fatalf("errors.Is(%v, ErrInvalidKey) = false", tt.err)
			}
			msg := tt.err.Error()
			if !strings.HasPrefix(msg, keys.ErrInvalidKey.Error()) {
				t.Errorf("message %q does not start with %q", msg, keys.ErrInvalidKey)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not contain %q", msg, w)
				}
			}
		})
	}
}

func TestTimeEncodersPanic(t *testing.T) {
	t.Parallel()
	far := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := map[string]func(){
		"UnixMilli zero time":  func() { keys.MustUnixMilli(time.Time{}) },
		"Date year 10000":      func() { keys.MustDate(far) },
		"Timestamp year 10000": func() { keys.MustTimestamp(far) },
	}
	for name, f := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			defer func() {
				if err, _ := recover().(error); !errors.Is(err, keys.ErrInvalidKey) {
					t.Errorf("panic value %v, want an ErrInvalidKey error", err)
				}
			}()
			f()
		})
	}
}
