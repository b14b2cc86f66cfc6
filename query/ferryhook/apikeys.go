package ferryhook

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// APIKeys serves the API keys of the document's interface (FH-6, FH-10,
// FH-11).
type APIKeys struct {
	// ByUser lists a user's API keys in keyId order, ascending (FH-10;
	// FH-11 apiKeys.listByUser). Records carry the hash and prefix, never
	// the plaintext.
	//
	//	page, err := s.APIKeys.ByUser.List(ctx, fh.APIKey{UserID: u})
	ByUser *table.Pattern[fh.APIKey]
	// Delete deletes a user's API key and its hash guard (FH-11
	// apiKeys.delete); the key authenticates no more. Another user's key
	// counts as missing and is left as it is.
	Delete func(context.Context, APIKeyRef) error
	// UpdateLastUsed sets the key's lastUsedAt to now (FH-11
	// apiKeys.updateLastUsed). Another user's key counts as missing.
	UpdateLastUsed func(context.Context, APIKeyRef) (fh.APIKey, error)

	create, authenticate, getByHash table.Op
	s                               *Store
}

// APIKeyRef names a user's API key by its two key parts.
type APIKeyRef struct {
	User fh.UserID
	Key  fh.APIKeyID
}

// apiKey is the key fields of the API key r names.
func (r APIKeyRef) apiKey() fh.APIKey { return fh.APIKey{UserID: r.User, KeyID: r.Key} }

func newAPIKeys(s *Store) *APIKeys {
	return &APIKeys{s: s,
		ByUser: table.NewPattern(s.apiKey, table.PatternDef[fh.APIKey]{ID: "FH-10", Name: "ferryhook.APIKeys.ByUser",
			Doc: "A user's API keys (hash and prefix, never the plaintext).", Reads: table.ReadPage}),
		create:       table.NewOp(s.main, "FH-11", "ferryhook.APIKeys.Create"),
		authenticate: table.NewOp(s.main, "FH-6", "ferryhook.APIKeys.Authenticate"),
		getByHash:    table.NewOp(s.main, "FH-6", "ferryhook.APIKeys.GetByHash"),
		Delete: table.Delete(s.apiKey, table.WriteDef[fh.APIKey]{ID: "FH-11", Name: "ferryhook.APIKeys.Delete",
			Doc: "Deletes a user's API key and its hash guard: a consistent read of the key, then one transaction deleting both."}, APIKeyRef.apiKey),
		UpdateLastUsed: table.PatchWith(s.apiKey, table.WriteDef[fh.APIKey]{ID: "FH-11", Name: "ferryhook.APIKeys.UpdateLastUsed",
			Doc: "Sets an API key's lastUsedAt to now (one UpdateItem that never creates an item)."}, APIKeyRef.apiKey,
			func(APIKeyRef) table.Patch {
				return table.Patch{Set: map[string]any{"lastUsedAt": fh.ISO(s.now()).String()}}
			}),
	}
}

// CreateAPIKeyInput describes a new API key.
type CreateAPIKeyInput struct {
	// Name is required ("Production").
	Name string
	// Permissions defaults to read.
	Permissions fh.Permission
}

// NewAPIKey is a freshly created API key: Key is the plaintext, shown
// once and stored nowhere; APIKey is the stored record.
type NewAPIKey struct {
	Key    string
	APIKey fh.APIKey
}

// Create creates an API key for user (FH-11 apiKeys.create): a plaintext
// key returned once, {APIKeyPrefix}{keyId}.{userId}.{secret} with a secret
// of 32 characters from crypto/rand (192 bits), so that [APIKeys.Authenticate]
// finds its item in one GetItem; only its hash (the store's KeyHash over
// the whole plaintext, a unique value with its guard item) and its first
// KeyPrefixLen characters are stored, in one transaction that also checks
// the user exists. The running service authenticates these keys too (it
// hashes the whole token and queries GSI2). A missing user gives table.ErrNotFound, bad input a
// *table.ValidationError.
func (a *APIKeys) Create(ctx context.Context, user fh.UserID, in CreateAPIKeyInput) (NewAPIKey, error) {
	return table.Run(ctx, a.create, func(ctx context.Context) (NewAPIKey, error) {
		uk, err := a.s.user.CheckedKey(fh.User{UserID: user})
		if err != nil {
			return NewAPIKey{}, err
		}
		if in.Permissions == "" {
			in.Permissions = fh.PermissionRead
		}
		id := fh.APIKeyIDs.New()
		plain := mintKey(a.s.opts.APIKeyPrefix, id, user)
		k := fh.APIKey{
			KeyID:       id,
			UserID:      user,
			Name:        in.Name,
			KeyHash:     a.s.opts.KeyHash(plain),
			KeyPrefix:   plain[:min(a.s.opts.KeyPrefixLen, len(plain))],
			Permissions: in.Permissions,
		}
		if err := a.s.apiKey.Validate(&k); err != nil {
			return NewAPIKey{}, err
		}
		ops, err := a.s.apiKey.CreateOp(&k)
		if err != nil {
			return NewAPIKey{}, err
		}
		if err := a.s.main.Transact(ctx, append([]table.TxOp{a.s.main.ConditionOp(uk).OnFail(notFound("user", string(user)))}, ops...)...); err != nil {
			return NewAPIKey{}, err
		}
		return NewAPIKey{Key: plain, APIKey: k}, nil
	})
}

// Authenticate returns the API key whose plaintext is key (FH-6), as
// stored: every attribute, lastUsedAt included. A key is live by the
// running service's own rule, in every profile: its item exists, holds the
// key's hash and is stored under GSI2 as KEYHASH#{keyHash} / KEY, where
// the service's apiKeys.getByHash finds it (the service's apiKeys.delete
// revokes a key by removing gsi2pk and gsi2sk and leaving the item).
//
// Cost, for a key the library minted ({prefix}{keyId}.{userId}.{secret},
// [APIKeys.Create]): one strongly consistent GetItem of the key's item,
// named by the plaintext, in the default profile and under
// [ServiceProfile] alike. The item answers: its stored keyHash must equal
// the hash of the whole plaintext (a forged key naming a real item fails)
// and its stored GSI2 attributes must be the ones its hash derives, so a
// key revoked by the service (REMOVE of gsi2pk/gsi2sk), deleted outright
// by anyone, or revoked by the library ([APIKeys.Delete]) is refused at
// once; no copy the service cannot update is read.
//
// A key in the service's format (fh_live_ and 43 base64url characters,
// minted by the running service), or minted by the library before keys
// named their item, does not name its item: its hash's guard
// UNIQUE#keyhash#{hash} does, then the item answers as above (two strongly
// consistent GetItems; an orphan guard is reported to the table's Observer
// and removed, table.OrphanGuardError). Without a guard (written by the
// running service and not adopted yet) it is found through GSI2 as
// [APIKeys.GetByHash] does (a Query and a GetItem after the guard's miss:
// three requests).
//
// No path answers from a guard or an index entry alone, and nothing is
// cached: every path ends in a strongly consistent read of the key's item,
// which must hold the hash of the whole plaintext and be live (stored
// under GSI2 with the key its hash derives, the Def's ValidWhileIndexed).
// A key the service revoked before the library's adoption job ran stays
// revoked: the job neither puts it back in GSI2 nor claims its guard.
//
// An unknown, forged, deleted or revoked key gives [ErrInvalidAPIKey]
// (which matches table.ErrNotFound).
func (a *APIKeys) Authenticate(ctx context.Context, key string) (fh.APIKey, error) {
	return table.Run(ctx, a.authenticate, func(ctx context.Context) (fh.APIKey, error) {
		if key == "" {
			return fh.APIKey{}, fmt.Errorf("authenticate: %w", ErrInvalidAPIKey)
		}
		hash := a.s.opts.KeyHash(key)
		if a.byHash(hash).Err() != nil {
			return fh.APIKey{}, fmt.Errorf("authenticate: %w", ErrInvalidAPIKey)
		}
		var k fh.APIKey
		var err error
		if ik, ok := a.mintedItem(key); ok {
			// The item the key names, read itself: consistent, and valid
			// (apiKeyDef.ValidWhileIndexed: stored under GSI2).
			k, err = a.s.apiKey.Get(ctx, ik, table.Consistent(), table.Valid())
		} else {
			// The guard names the item, which answers (GetByUnique reads it
			// consistently and applies the same validity); no guard: GSI2
			// names it, and GetByIndex re-reads it the same way.
			k, err = a.s.apiKey.GetByUnique(ctx, table.Unique{Name: uniqueKeyHash, Value: hash})
			if errors.Is(err, table.ErrNotFound) {
				k, err = a.GetByHash(ctx, hash)
			}
		}
		if errors.Is(err, table.ErrNotFound) {
			return fh.APIKey{}, fmt.Errorf("authenticate: %w", ErrInvalidAPIKey)
		}
		if err != nil {
			return fh.APIKey{}, err
		}
		// Whatever path found it, the item read holds this key's hash.
		if subtle.ConstantTimeCompare([]byte(k.KeyHash), []byte(hash)) != 1 {
			return fh.APIKey{}, fmt.Errorf("authenticate: %w", ErrInvalidAPIKey)
		}
		return k, nil
	})
}

// mintKey returns a plaintext key that names its item:
// {prefix}{keyId}.{userId}.{secret}. Neither IDs nor the secret (the URL
// alphabet) hold a '.', and the service's keys (base64url) hold none.
func mintKey(prefix string, id fh.APIKeyID, user fh.UserID) string {
	return prefix + string(id) + "." + string(user) + "." + fh.NewSecretKey()[len(fh.SecretKeyPrefix):]
}

// mintedItem returns the item key a plaintext minted by [mintKey] names.
func (a *APIKeys) mintedItem(key string) (table.Key, bool) {
	rest, ok := strings.CutPrefix(key, a.s.opts.APIKeyPrefix)
	if !ok {
		return table.Key{}, false
	}
	id, rest, ok := strings.Cut(rest, ".")
	if !ok {
		return table.Key{}, false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 || i == len(rest)-1 {
		return table.Key{}, false
	}
	k, err := a.s.apiKey.CheckedKey(fh.APIKey{UserID: fh.UserID(rest[:i]), KeyID: fh.APIKeyID(id)})
	return k, err == nil
}

// GetByHash returns the API key with this hash (FH-6; FH-11
// apiKeys.getByHash): Query GSI2 GSI2PK = KEYHASH#{keyHash}, GSI2SK = KEY,
// confirmed by a consistent GetItem of the key (table.Entity.GetByIndex),
// which must still hold the hash and its stored GSI2 key: GSI lag never
// authenticates a deleted key, nor one the running service revoked by
// removing its GSI2 attributes. An unknown, deleted or revoked key gives
// [ErrInvalidAPIKey].
func (a *APIKeys) GetByHash(ctx context.Context, hash string) (fh.APIKey, error) {
	return table.Run(ctx, a.getByHash, func(ctx context.Context) (fh.APIKey, error) {
		q := a.byHash(hash)
		if q.Err() != nil {
			return fh.APIKey{}, fmt.Errorf("authenticate: %w", ErrInvalidAPIKey)
		}
		k, err := a.s.apiKey.GetByIndex(ctx, q)
		if errors.Is(err, table.ErrNotFound) {
			return fh.APIKey{}, fmt.Errorf("authenticate: %w", ErrInvalidAPIKey)
		}
		return k, err
	})
}

// byHash is the GSI2 query of the key holding hash: GSI2PK =
// KEYHASH#{keyHash}, GSI2SK = KEY.
func (a *APIKeys) byHash(hash string) table.Query {
	return a.s.apiKey.Partition(table.GSI2, fh.APIKey{KeyHash: hash})
}
