package fh

import (
	"strings"

	"github.com/singletable/singletable/table"
)

// APIKey is an API key record (main table, USER#{userId} / KEY#{keyId};
// GSI2 KEYHASH#{keyHash} / KEY). The plaintext key is never stored: only
// its hash and its first characters.
type APIKey struct {
	// KeyID is key_ + nanoid(16).
	KeyID APIKeyID `dynamo:"keyId"`
	// UserID is the owner.
	UserID UserID `dynamo:"userId"`
	// Name is human readable ("Production").
	Name string `dynamo:"name"`
	// KeyHash is the hash of the plaintext key (hex); unique.
	KeyHash string `dynamo:"keyHash"`
	// KeyPrefix is the first characters of the plaintext key, to tell
	// keys apart in a list.
	KeyPrefix string `dynamo:"keyPrefix"`
	// Permissions is read, write or admin.
	Permissions Permission `dynamo:"permissions"`
	// LastUsedAt is when the key last authenticated a request.
	LastUsedAt ISOTime `dynamo:"lastUsedAt"`
	// CreatedAt is kept by the store.
	CreatedAt ISOTime `dynamo:"createdAt"`
}

// Validate checks the rules of k its fields\' types do not hold (its IDs and
// enumerations check themselves on every write: see the Def\'s Required).
func (k *APIKey) Validate() error {
	return first(
		checkName("name", k.Name),
		checkKeyHash(k.KeyHash),
		checkKeyPrefix(k.KeyPrefix),
	)
}

func checkKeyHash(h string) error {
	if h == "" {
		return table.Invalid("keyHash", "required")
	}
	if len(h) > 512 || strings.Trim(h, "0123456789abcdef") != "" {
		return table.Invalid("keyHash", "not lower-case hex")
	}
	return nil
}

func checkKeyPrefix(p string) error {
	if p == "" {
		return table.Invalid("keyPrefix", "required")
	}
	return checkText("keyPrefix", p, 64)
}
