package query

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// Sealer seals and opens pagination cursors. A sealed cursor is encrypted
// and authenticated (AES-256-GCM) with a key derived from the store's
// cursor key, and bound to the access pattern and partition it came from:
// it reveals no key values, and a tampered, foreign or malformed cursor
// gives [ErrInvalidCursor].
type Sealer struct {
	aead cipher.AEAD
}

// NewSealer returns a Sealer keyed by secret (any length; 32 random bytes
// recommended).
func NewSealer(secret []byte) *Sealer {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("singletable cursor v1"))
	block, err := aes.NewCipher(m.Sum(nil))
	if err != nil {
		panic(err) // 32-byte key: cannot fail
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return &Sealer{aead: aead}
}

// Seal returns the opaque cursor for position (the last evaluated key),
// bound to binding (a string naming the access pattern and partition).
func (s *Sealer) Seal(binding string, position map[string]string) (string, error) {
	plain, err := json.Marshal(position)
	if err != nil {
		return "", err
	}
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := s.aead.Seal(nonce, nonce, plain, []byte(binding))
	return base64.RawURLEncoding.EncodeToString(out), nil
}

// Open returns the position sealed in cursor, if cursor was sealed by this
// Sealer's key for the same binding.
func (s *Sealer) Open(binding, cursor string) (map[string]string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return nil, fmt.Errorf("%w: not base64url", ErrInvalidCursor)
	}
	ns := s.aead.NonceSize()
	if len(raw) < ns+s.aead.Overhead() {
		return nil, fmt.Errorf("%w: too short", ErrInvalidCursor)
	}
	plain, err := s.aead.Open(nil, raw[:ns], raw[ns:], []byte(binding))
	if err != nil {
		return nil, fmt.Errorf("%w: not issued for this query", ErrInvalidCursor)
	}
	var pos map[string]string
	if err := json.Unmarshal(plain, &pos); err != nil || len(pos) == 0 {
		return nil, fmt.Errorf("%w: bad position", ErrInvalidCursor)
	}
	return pos, nil
}
