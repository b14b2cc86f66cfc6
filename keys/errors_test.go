package keys_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/singletable/singletable/keys"
)

// TestErrorMessages: every message starts like ErrInvalidKey's and names the
// pattern and the culprit.
func TestErrorMessages(t *testing.T) {
	t.Parallel()
	errOf := func(_ any, err error) error { return err }
	tests := []struct {
		name string
		err  error
		want []string
	}{
		{"segment", errOf(userPK.Build("a#b")), []string{"USER#{userId}", "segment userId", `"a#b"`, "delimiter"}},
		{"long value shortened", errOf(userPK.Build(strings.Repeat("x", 100) + "\n")), []string{"segment userId", `"...`}},
		{"length", errOf(userPK.Build(strings.Repeat("é", 1500))), []string{"USER#{userId}", "3005 bytes", "2048"}},
		{"arity", errOf(orgPK.Build("o1")), []string{"ORG#{organizationId}#{date}", "got 1 values, want 2"}},
		{"foreign key", errOf(userPK.Parse("ORG#1")), []string{"USER#{userId}", `"ORG#1"`, `does not start with "USER"`}},
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
