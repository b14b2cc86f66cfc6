package fh_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

func TestNewIDs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		prefix string
		id     func() string
		parse  func(string) error
	}{
		{"usr_", func() string { return string(fh.UserIDs.New()) }, func(s string) error { _, err := fh.UserIDs.Parse(s); return err }},
		{"src_", func() string { return string(fh.SourceIDs.New()) }, func(s string) error { _, err := fh.SourceIDs.Parse(s); return err }},
		{"conn_", func() string { return string(fh.ConnectionIDs.New()) }, func(s string) error { _, err := fh.ConnectionIDs.Parse(s); return err }},
		{"key_", func() string { return string(fh.APIKeyIDs.New()) }, func(s string) error { _, err := fh.APIKeyIDs.Parse(s); return err }},
		{"evt_", func() string { return string(fh.NewEventID()) }, func(s string) error { _, err := fh.ParseEventID(s); return err }},
	}
	for _, c := range cases {
		seen := map[string]bool{}
		for range 1000 {
			id := c.id()
			if !strings.HasPrefix(id, c.prefix) || len(id) != len(c.prefix)+16 {
				t.Fatalf("%q is not %s + 16 characters", id, c.prefix)
			}
			if err := c.parse(id); err != nil {
				t.Fatalf("parse(%q): %v", id, err)
			}
			if seen[id] {
				t.Fatalf("duplicate ID %q", id)
			}
			seen[id] = true
		}
		for _, bad := range []string{"", c.prefix, c.prefix + "short", c.prefix + "abcdefghijklmno!", "xxx_abcdefghijklmnop", c.prefix + "abcdefghijklmnopq"} {
			err := c.parse(bad)
			var ve *table.ValidationError
			if !errors.As(err, &ve) {
				t.Errorf("parse(%q) = %v, want a *table.ValidationError", bad, err)
			}
		}
	}
}

// Every character of the alphabet appears with about the same frequency:
// 64 characters, 16 per ID, 20000 IDs: 5000 expected each.
func TestNanoidUniform(t *testing.T) {
	t.Parallel()
	counts := map[rune]int{}
	for range 20000 {
		for _, r := range string(fh.NewEventID())[4:] {
			counts[r]++
		}
	}
	if len(counts) != 64 {
		t.Fatalf("%d distinct characters, want 64", len(counts))
	}
	for r, n := range counts {
		if n < 4400 || n > 5600 {
			t.Errorf("character %q drawn %d times, want about 5000", r, n)
		}
		if !strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", r) {
			t.Errorf("character %q outside A-Za-z0-9_-", r)
		}
	}
}

func TestNewSecretKey(t *testing.T) {
	t.Parallel()
	k := fh.NewSecretKey()
	if !strings.HasPrefix(k, fh.SecretKeyPrefix) || len(k) != len(fh.SecretKeyPrefix)+32 || k == fh.NewSecretKey() {
		t.Fatalf("secret key %q: want fh_ + 32 random characters", k)
	}
}
