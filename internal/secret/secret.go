// Package secret is the engine's sealing of secret attributes: the
// [Cipher] interface with its local AES-GCM implementation ([NewAESGCM])
// and key rotation ([Keyring]), and the envelope a sealed value is stored
// in (a marker, then the ciphertext: [EnvelopeMarker] for a string,
// [ValueMarker] for a typed catch-all member), found in an item by its
// attribute path ([Path], [Slot]). Which attributes are secret is the
// entity's declaration (table.Def.Secrets).
//
// It imports the codec layer, nothing of table.
package secret

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
)

// Cipher encrypts secret fields before they reach DynamoDB (credentials,
// tokens, MFA secrets). aad binds a ciphertext to its table identity,
// item and attribute, so it cannot be moved to another item.
// [NewAESGCM] is the local-key implementation and [Keyring] adds key ids
// and rotation (table.Cipher is this type).
type Cipher interface {
	Encrypt(plaintext, aad []byte) ([]byte, error)
	Decrypt(ciphertext, aad []byte) ([]byte, error)
}

// StaleChecker is implemented by ciphers that rotate keys: Stale reports
// whether ciphertext was sealed under a key other than the current one,
// so that adoption re-encrypts it.
type StaleChecker interface {
	Stale(ciphertext []byte) bool
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

// Encrypt seals plaintext under a fresh nonce, bound to aad.
func (g gcm) Encrypt(plaintext, aad []byte) ([]byte, error) {
	nonce := make([]byte, g.aead.NonceSize(), g.aead.NonceSize()+len(plaintext)+g.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return g.aead.Seal(nonce, nonce, plaintext, aad), nil
}

// Decrypt opens ciphertext sealed with Encrypt under aad.
func (g gcm) Decrypt(ciphertext, aad []byte) ([]byte, error) {
	ns := g.aead.NonceSize()
	if len(ciphertext) < ns+g.aead.Overhead() {
		return nil, errors.New("ciphertext too short")
	}
	return g.aead.Open(nil, ciphertext[:ns], ciphertext[ns:], aad)
}

// Keyring is a Cipher over several keys, each with an id: it encrypts
// with the current key and writes that key's id in front of the
// ciphertext (one length byte, the id), and decrypts with whichever key
// the id names, so values sealed before a rotation still read. Retire an
// old key once adoption has re-encrypted everything (Stale reports the
// values it must rewrite).
type Keyring struct {
	current string
	keys    map[string]Cipher
}

// NewKeyring returns a keyring that encrypts with keys[current]. Ids are
// 1 to 255 bytes.
func NewKeyring(current string, keys map[string]Cipher) (*Keyring, error) {
	if _, ok := keys[current]; !ok {
		return nil, fmt.Errorf("singletable: keyring: no key %q", current)
	}
	for id := range keys {
		if id == "" || len(id) > 255 {
			return nil, fmt.Errorf("singletable: keyring: key id %q is not 1 to 255 bytes", id)
		}
	}
	return &Keyring{current: current, keys: maps.Clone(keys)}, nil
}

// Encrypt seals with the current key.
func (k *Keyring) Encrypt(plaintext, aad []byte) ([]byte, error) {
	ct, err := k.keys[k.current].Encrypt(plaintext, aad)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 1+len(k.current)+len(ct))
	out = append(append(append(out, byte(len(k.current))), k.current...), ct...)
	return out, nil
}

// Decrypt opens with the key named in ciphertext.
func (k *Keyring) Decrypt(ciphertext, aad []byte) ([]byte, error) {
	id, ct, err := k.split(ciphertext)
	if err != nil {
		return nil, err
	}
	c, ok := k.keys[id]
	if !ok {
		return nil, fmt.Errorf("singletable: keyring: unknown key id %q (retired?)", id)
	}
	return c.Decrypt(ct, aad)
}

// Stale reports whether ciphertext was sealed under a key other than the
// current one.
func (k *Keyring) Stale(ciphertext []byte) bool {
	id, _, err := k.split(ciphertext)
	return err != nil || id != k.current
}

// KeyID returns the id of the key that sealed ciphertext.
func (k *Keyring) KeyID(ciphertext []byte) (string, error) {
	id, _, err := k.split(ciphertext)
	return id, err
}

func (k *Keyring) split(ciphertext []byte) (string, []byte, error) {
	if len(ciphertext) < 1 || len(ciphertext) < 1+int(ciphertext[0]) || ciphertext[0] == 0 {
		return "", nil, errors.New("singletable: keyring: no key id")
	}
	n := int(ciphertext[0])
	return string(ciphertext[1 : 1+n]), ciphertext[1+n:], nil
}

// EnvelopeMarker starts every sealed binary attribute.
var EnvelopeMarker = []byte("STS1")

// Slot finds the value at an attribute path (split) of item: the map
// that holds it and its name there (nil if a map on the path is missing).
func Slot(item map[string]types.AttributeValue, parts []string) (map[string]types.AttributeValue, string) {
	m := codec.MapAt(item, parts[:len(parts)-1])
	if m == nil {
		return nil, ""
	}
	return m, parts[len(parts)-1]
}

// SetPath sets the value at an attribute path (split) of item, copying the
// maps on the way (item's own top level is already a copy).
func SetPath(item map[string]types.AttributeValue, parts []string, v types.AttributeValue) {
	m := item
	for _, p := range parts[:len(parts)-1] {
		next := m[p].(*types.AttributeValueMemberM)
		cp := &types.AttributeValueMemberM{Value: maps.Clone(next.Value)}
		m[p] = cp
		m = cp.Value
	}
	m[parts[len(parts)-1]] = v
}

// Top returns the top-level attribute a secret path lives in.
func Top(path string) string {
	top, _, _ := strings.Cut(path, ".")
	return top
}

// Path is one secret of an item: the attribute path, split, and
// whether it is a member of a "m.*" catch-all (any type) or a named
// string secret.
type Path struct {
	Parts []string
	Wild  bool
}

// String returns the path, dotted.
func (p Path) String() string { return strings.Join(p.Parts, ".") }

// ValueMarker starts a sealed catch-all member that is not a string: its
// plaintext is the value's typed encoding (codec.EncodeAV).
var ValueMarker = []byte("STV1")

// Empty reports whether v holds nothing to seal (NULL, "").
func Empty(v types.AttributeValue) bool {
	switch v := v.(type) {
	case nil, *types.AttributeValueMemberNULL:
		return true
	case *types.AttributeValueMemberS:
		return v.Value == ""
	}
	return false
}

// Sealed reports whether v is a sealed envelope (a string's or a value's).
func Sealed(v types.AttributeValue) bool {
	b, ok := v.(*types.AttributeValueMemberB)
	return ok && (bytes.HasPrefix(b.Value, EnvelopeMarker) || bytes.HasPrefix(b.Value, ValueMarker))
}

// Redacted is what a redacted secret reads as (table.Redacted).
const Redacted = "[redacted]"

// Redact returns what a stored secret v reads as when secrets are
// redacted: the string [Redacted], or NULL for a catch-all member (wild),
// whose type is not known without opening it; a NULL or empty string
// stays (no secret).
func Redact(v types.AttributeValue, wild bool) types.AttributeValue {
	switch v := v.(type) {
	case *types.AttributeValueMemberNULL:
		return v
	case *types.AttributeValueMemberS:
		if v.Value == "" {
			return v
		}
	}
	if wild {
		return &types.AttributeValueMemberNULL{Value: true}
	}
	return &types.AttributeValueMemberS{Value: Redacted}
}
