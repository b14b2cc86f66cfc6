package ferryhook_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// FH-6 (authenticate an API key by its hash via GSI2) and FH-11
// apiKeys.create / getByHash / updateLastUsed / delete, under both hash
// conventions: the document's (SHA-256, 8-char prefix) and the running
// service's (HMAC-SHA256 with an empty key, 16-char prefix).
func TestAPIKeysAuthenticate_FH6(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		opts      []func(*ferryhook.Options)
		hash      func(string) string
		prefixLen int
	}{
		{"document", nil, ferryhook.SHA256Hex, 8},
		{"service", []func(*ferryhook.Options){ferryhook.ServiceKeyHashing()}, ferryhook.HMACSHA256Hex(nil), 16},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, nil, c.opts...)
			s := f.store
			u := mustUser(t, s, "keys@example.com")
			created, err := s.APIKeys.Create(ctx(t), u.UserID, ferryhook.CreateAPIKeyInput{Name: "Production", Permissions: fh.PermissionWrite})
			if err != nil {
				t.Fatal(err)
			}
			k := created.APIKey
			if k.KeyHash != c.hash(created.Key) || k.KeyPrefix != created.Key[:c.prefixLen] {
				t.Fatalf("stored hash/prefix %q/%q do not match the %s convention", k.KeyHash, k.KeyPrefix, c.name)
			}
			if strings.Contains(k.KeyHash, created.Key) {
				t.Fatal("the plaintext key is stored")
			}
			rc := &tabletest.RequestCounter{}
			counted := ferryhook.New(table.New(tabletest.NewClient(t, rc.Option()), f.main.Schema()),
				table.New(tabletest.NewClient(t, rc.Option()), f.events.Schema()), c.opts...)
			got, err := counted.APIKeys.Authenticate(ctx(t), created.Key)
			if err != nil {
				t.Fatal(err)
			}
			if rc.Total() != 1 || rc.Of("GetItem") != 1 {
				t.Errorf("FH-6 authenticate took %d requests (%d GetItem), want 1 GetItem (the key its plaintext names: issue 26)", rc.Total(), rc.Of("GetItem"))
			}
			if diff := cmp.Diff(k, got); diff != "" {
				t.Errorf("Authenticate (-want +got):\n%s", diff)
			}
			if byHash, err := s.APIKeys.GetByHash(ctx(t), k.KeyHash); err != nil || byHash.KeyID != k.KeyID {
				t.Fatalf("GetByHash = %v, %v", byHash.KeyID, err)
			}
			used, err := s.APIKeys.UpdateLastUsed(ctx(t), ferryhook.APIKeyRef{User: u.UserID, Key: k.KeyID})
			if err != nil || used.LastUsedAt.IsZero() {
				t.Fatalf("UpdateLastUsed = %v, %v", used.LastUsedAt, err)
			}

			_, unknownErr := s.APIKeys.Authenticate(ctx(t), fh.NewSecretKey())
			wantIs(t, unknownErr, ferryhook.ErrInvalidAPIKey)
			wantIs(t, unknownErr, table.ErrNotFound)
			if err := s.APIKeys.Delete(ctx(t), ferryhook.APIKeyRef{User: u.UserID, Key: k.KeyID}); err != nil {
				t.Fatal(err)
			}
			_, deletedErr := s.APIKeys.Authenticate(ctx(t), created.Key)
			wantIs(t, deletedErr, ferryhook.ErrInvalidAPIKey)
			if unknownErr.Error() != deletedErr.Error() {
				t.Errorf("unknown key: %q; deleted key: %q; want the same error", unknownErr, deletedErr)
			}
		})
	}
}

// FH-10 (list a user's API keys) and FH-11 apiKeys.listByUser; scoping of
// delete and updateLastUsed.
func TestAPIKeysListByUser_FH10(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "list@example.com")
	mallory := mustUser(t, s, "m@example.com")
	mustSource(t, s, u.UserID, "shares the partition")
	var want []fh.APIKey
	for _, n := range []string{"ci", "prod", "staging"} {
		k, err := s.APIKeys.Create(ctx(t), u.UserID, ferryhook.CreateAPIKeyInput{Name: n})
		if err != nil {
			t.Fatal(err)
		}
		if k.APIKey.Permissions != fh.PermissionRead {
			t.Fatalf("default permissions = %q, want read", k.APIKey.Permissions)
		}
		want = append(want, k.APIKey)
	}
	got, err := table.Collect(s.APIKeys.ByUser.All(ctx(t), fh.APIKey{UserID: u.UserID}, table.Limit(2)))
	if err != nil {
		t.Fatal(err)
	}
	sortKeys := func(ks []fh.APIKey) map[fh.APIKeyID]fh.APIKey {
		m := map[fh.APIKeyID]fh.APIKey{}
		for _, k := range ks {
			m[k.KeyID] = k
		}
		return m
	}
	if diff := cmp.Diff(sortKeys(want), sortKeys(got)); diff != "" {
		t.Errorf("AllByUser (-want +got):\n%s", diff)
	}
	p, err := s.APIKeys.ByUser.List(ctx(t), fh.APIKey{UserID: u.UserID}, table.Limit(2))
	if err != nil || len(p.Items) != 2 || p.Cursor == "" {
		t.Fatalf("first page: %d items, cursor %q, %v", len(p.Items), p.Cursor, err)
	}
	wantIs(t, s.APIKeys.Delete(ctx(t), ferryhook.APIKeyRef{User: mallory.UserID, Key: want[0].KeyID}), table.ErrNotFound)
	_, err = s.APIKeys.UpdateLastUsed(ctx(t), ferryhook.APIKeyRef{User: mallory.UserID, Key: want[0].KeyID})
	wantIs(t, err, table.ErrNotFound)
	mp, err := s.APIKeys.ByUser.List(ctx(t), fh.APIKey{UserID: mallory.UserID})
	if err != nil || len(mp.Items) != 0 {
		t.Fatalf("another user's list: %d items, %v", len(mp.Items), err)
	}
}

// FH-11 apiKeys.*: bad input.
func TestAPIKeysBadInput_FH11(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	u := mustUser(t, s, "kbad@example.com")
	_, err := s.APIKeys.Create(ctx(t), u.UserID, ferryhook.CreateAPIKeyInput{})
	wantInvalid(t, err, "name")
	_, err = s.APIKeys.Create(ctx(t), u.UserID, ferryhook.CreateAPIKeyInput{Name: "x", Permissions: "root"})
	wantInvalid(t, err, "permissions")
	_, err = s.APIKeys.Create(ctx(t), "nope", ferryhook.CreateAPIKeyInput{Name: "x"})
	wantInvalid(t, err, "userId")
	_, err = s.APIKeys.Create(ctx(t), fh.UserIDs.New(), ferryhook.CreateAPIKeyInput{Name: "x"})
	wantIs(t, err, table.ErrNotFound)
	wantInvalid(t, s.APIKeys.Delete(ctx(t), ferryhook.APIKeyRef{User: u.UserID, Key: "key_1"}), "keyId")
	_, err = s.APIKeys.UpdateLastUsed(ctx(t), ferryhook.APIKeyRef{User: "usr_1", Key: fh.APIKeyIDs.New()})
	wantInvalid(t, err, "userId")
	_, err = s.APIKeys.Authenticate(ctx(t), "")
	wantIs(t, err, ferryhook.ErrInvalidAPIKey)
	_, err = s.APIKeys.GetByHash(ctx(t), "has#delimiter")
	if !errors.Is(err, ferryhook.ErrInvalidAPIKey) {
		t.Fatalf("GetByHash(bad) = %v, want ErrInvalidAPIKey", err)
	}
	p, err := s.APIKeys.ByUser.List(ctx(t), fh.APIKey{UserID: u.UserID})
	if err != nil || len(p.Items) != 0 {
		t.Fatalf("keys written by bad input: %d, %v", len(p.Items), err)
	}
}
