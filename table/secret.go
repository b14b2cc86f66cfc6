package table

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// ErrNoCipher: an entity with secret fields was written or read on a
// table that has no Options.Cipher. Plaintext secrets are never stored.
var ErrNoCipher = errors.New("singletable: no cipher configured for secret fields")

// Cipher encrypts secret fields before they reach DynamoDB (credentials,
// tokens, MFA secrets). aad binds a ciphertext to its table, item and
// attribute, so it cannot be moved to another item. [NewAESGCM] is the
// local-key implementation; wrap a KMS data key or Tink in the same
// interface to manage keys elsewhere.
type Cipher interface {
	Encrypt(plaintext, aad []byte) ([]byte, error)
	Decrypt(ciphertext, aad []byte) ([]byte, error)
}

// NewAESGCM returns a Cipher using AES-GCM with key (16, 24 or 32 bytes)
// and a random 96-bit nonce per value.
func NewAESGCM(key []byte) (Cipher, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("singletable: cipher key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return gcm{aead}, nil
}

type gcm struct{ aead cipher.AEAD }

func (g gcm) Encrypt(plaintext, aad []byte) ([]byte, error) {
	nonce := make([]byte, g.aead.NonceSize(), g.aead.NonceSize()+len(plaintext)+g.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return g.aead.Seal(nonce, nonce, plaintext, aad), nil
}

func (g gcm) Decrypt(ciphertext, aad []byte) ([]byte, error) {
	ns := g.aead.NonceSize()
	if len(ciphertext) < ns+g.aead.Overhead() {
		return nil, errors.New("ciphertext too short")
	}
	return g.aead.Open(nil, ciphertext[:ns], ciphertext[ns:], aad)
}

// secretPrefix marks an encrypted attribute value.
const secretPrefix = "enc:v1:"

func (t *Table) secretAAD(k Key, attr string) []byte {
	return []byte(t.schema.Name + "\x00" + k.PK + "\x00" + k.SK + "\x00" + attr)
}

// sealSecrets encrypts the secret fields of item in place (item is the
// caller's copy).
func (e *Entity[T]) sealSecrets(item *T, k Key) error {
	if len(e.def.Secrets) == 0 {
		return nil
	}
	for attr, field := range e.def.Secrets {
		p := field(item)
		// Every non-empty value is encrypted, whatever it looks like: a
		// plaintext that happens to start with the ciphertext marker is
		// still a plaintext (item is the caller's plaintext copy).
		if *p == "" {
			continue
		}
		if e.t.opts.Cipher == nil {
			return fmt.Errorf("%w: %s.%s", ErrNoCipher, e.def.Type, attr)
		}
		ct, err := e.t.opts.Cipher.Encrypt([]byte(*p), e.t.secretAAD(k, attr))
		if err != nil {
			return fmt.Errorf("encrypt %s.%s: %w", e.def.Type, attr, err)
		}
		*p = secretPrefix + base64.RawStdEncoding.EncodeToString(ct)
	}
	return nil
}

// openSecrets decrypts the secret fields of a decoded item in place. A
// value without the encryption marker was written in plaintext by another
// service: it is returned as is, and encrypted on the next write.
func (e *Entity[T]) openSecrets(item *T, k Key) error {
	for attr, field := range e.def.Secrets {
		p := field(item)
		if !strings.HasPrefix(*p, secretPrefix) {
			continue
		}
		if e.t.opts.Cipher == nil {
			return fmt.Errorf("%w: %s.%s", ErrNoCipher, e.def.Type, attr)
		}
		raw, err := base64.RawStdEncoding.DecodeString((*p)[len(secretPrefix):])
		if err != nil {
			return fmt.Errorf("decrypt %s.%s: %w", e.def.Type, attr, err)
		}
		pt, err := e.t.opts.Cipher.Decrypt(raw, e.t.secretAAD(k, attr))
		if err != nil {
			return fmt.Errorf("decrypt %s.%s: %w", e.def.Type, attr, err)
		}
		*p = string(pt)
	}
	return nil
}
