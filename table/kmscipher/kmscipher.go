// Package kmscipher is a [table.Cipher] on AWS KMS envelope encryption:
// values are sealed with AES-256-GCM under data keys that KMS generates
// and wraps with a KMS key, so the key that protects the secrets never
// leaves KMS and access to it is governed, logged and rotated there.
//
// Contract:
//   - Encrypt seals with the current data key. A data key is generated
//     (one GenerateDataKey call) and reused for at most Options.Reuse
//     (default 5 minutes) and Options.MaxUses values (default 10,000),
//     so writes do not cost a KMS call each. Each value's output holds the
//     KMS key id, the wrapped data key and the AES-GCM nonce and
//     ciphertext; the table's associated data (table identity, item key,
//     attribute) is bound by AES-GCM.
//   - Decrypt unwraps the data key with one KMS Decrypt call, cached by
//     wrapped key (Options.CacheSize entries, default 1,000), so reading
//     a page of items sealed under one data key costs one KMS call.
//   - The KMS encryption context is {"singletable": Options.Context}
//     (default "secrets"): the wrapped keys decrypt only for this use.
//   - Stale reports values sealed under another KMS key than the current
//     one, so that table.AdoptJob re-encrypts them after a key change.
//   - KMS calls run under context.Background with Options.Timeout
//     (default 10 s): the table.Cipher interface has no context.
package kmscipher

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/kms/types"
)

// API is the part of the KMS client the cipher uses (*kms.Client has it).
type API interface {
	GenerateDataKey(ctx context.Context, in *kms.GenerateDataKeyInput, opts ...func(*kms.Options)) (*kms.GenerateDataKeyOutput, error)
	Decrypt(ctx context.Context, in *kms.DecryptInput, opts ...func(*kms.Options)) (*kms.DecryptOutput, error)
}

// Options configure a [Cipher].
type Options struct {
	// Context is the value of the KMS encryption context "singletable".
	Context string
	// Reuse and MaxUses bound how long and for how many values one data
	// key seals.
	Reuse   time.Duration
	MaxUses int
	// CacheSize bounds the unwrapped data keys kept for decryption.
	CacheSize int
	// Timeout bounds each KMS call.
	Timeout time.Duration
}

// Cipher is the KMS envelope cipher. It is safe for concurrent use.
type Cipher struct {
	api   API
	keyID string
	opts  Options

	mu    sync.Mutex
	cur   *dataKey
	cache map[[32]byte]cipher.AEAD
}

type dataKey struct {
	aead    cipher.AEAD
	wrapped []byte
	made    time.Time
	uses    int
}

// New returns a cipher that wraps its data keys with the KMS key keyID (a
// key id, ARN or alias).
func New(api API, keyID string, opts ...func(*Options)) (*Cipher, error) {
	if keyID == "" || len(keyID) > 2048 {
		return nil, errors.New("kmscipher: key id is empty or too long")
	}
	o := Options{Context: "secrets", Reuse: 5 * time.Minute, MaxUses: 10_000, CacheSize: 1_000, Timeout: 10 * time.Second}
	for _, f := range opts {
		f(&o)
	}
	return &Cipher{api: api, keyID: keyID, opts: o, cache: map[[32]byte]cipher.AEAD{}}, nil
}

const version = 1

// Encrypt seals plaintext: version byte, KMS key id and wrapped data key
// (each with a 2-byte length), then nonce and AES-GCM ciphertext.
func (c *Cipher) Encrypt(plaintext, aad []byte) ([]byte, error) {
	dk, err := c.dataKey()
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, 5+len(c.keyID)+len(dk.wrapped)+12+len(plaintext)+16)
	out = append(out, version)
	out = binary.BigEndian.AppendUint16(out, uint16(len(c.keyID)))
	out = append(out, c.keyID...)
	out = binary.BigEndian.AppendUint16(out, uint16(len(dk.wrapped)))
	out = append(out, dk.wrapped...)
	nonce := make([]byte, dk.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	out = append(out, nonce...)
	return dk.aead.Seal(out, nonce, plaintext, aad), nil
}

// Decrypt opens a value sealed by Encrypt, with any KMS key the caller may
// use.
func (c *Cipher) Decrypt(ciphertext, aad []byte) ([]byte, error) {
	keyID, wrapped, rest, err := split(ciphertext)
	if err != nil {
		return nil, err
	}
	aead, err := c.unwrap(keyID, wrapped)
	if err != nil {
		return nil, err
	}
	ns := aead.NonceSize()
	if len(rest) < ns+aead.Overhead() {
		return nil, errors.New("kmscipher: ciphertext too short")
	}
	return aead.Open(nil, rest[:ns], rest[ns:], aad)
}

// Stale reports whether ciphertext was sealed under another KMS key than
// the current one.
func (c *Cipher) Stale(ciphertext []byte) bool {
	keyID, _, _, err := split(ciphertext)
	return err != nil || keyID != c.keyID
}

func split(ct []byte) (keyID string, wrapped, rest []byte, err error) {
	bad := errors.New("kmscipher: malformed ciphertext")
	if len(ct) < 3 || ct[0] != version {
		return "", nil, nil, bad
	}
	n := int(binary.BigEndian.Uint16(ct[1:3]))
	if len(ct) < 3+n+2 {
		return "", nil, nil, bad
	}
	keyID = string(ct[3 : 3+n])
	ct = ct[3+n:]
	m := int(binary.BigEndian.Uint16(ct[:2]))
	if len(ct) < 2+m {
		return "", nil, nil, bad
	}
	return keyID, ct[2 : 2+m], ct[2+m:], nil
}

func (c *Cipher) encryptionContext() map[string]string {
	return map[string]string{"singletable": c.opts.Context}
}

// dataKey returns the data key to seal with, generating one when the
// current one is used up.
func (c *Cipher) dataKey() (*dataKey, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if dk := c.cur; dk != nil && time.Since(dk.made) < c.opts.Reuse && dk.uses < c.opts.MaxUses {
		dk.uses++
		return dk, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.opts.Timeout)
	defer cancel()
	out, err := c.api.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{
		KeyId: aws.String(c.keyID), KeySpec: types.DataKeySpecAes256, EncryptionContext: c.encryptionContext(),
	})
	if err != nil {
		return nil, fmt.Errorf("kmscipher: generate data key: %w", err)
	}
	aead, err := newAEAD(out.Plaintext)
	clear(out.Plaintext)
	if err != nil {
		return nil, err
	}
	if len(out.CiphertextBlob) > 0xFFFF {
		return nil, errors.New("kmscipher: wrapped data key too long")
	}
	c.cur = &dataKey{aead: aead, wrapped: out.CiphertextBlob, made: time.Now(), uses: 1}
	c.cache[sha256.Sum256(out.CiphertextBlob)] = aead
	return c.cur, nil
}

// unwrap returns the AEAD of a wrapped data key, from the cache or KMS.
func (c *Cipher) unwrap(keyID string, wrapped []byte) (cipher.AEAD, error) {
	h := sha256.Sum256(wrapped)
	c.mu.Lock()
	aead, ok := c.cache[h]
	c.mu.Unlock()
	if ok {
		return aead, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.opts.Timeout)
	defer cancel()
	out, err := c.api.Decrypt(ctx, &kms.DecryptInput{
		CiphertextBlob: wrapped, KeyId: aws.String(keyID), EncryptionContext: c.encryptionContext(),
	})
	if err != nil {
		return nil, fmt.Errorf("kmscipher: decrypt data key: %w", err)
	}
	aead, err = newAEAD(out.Plaintext)
	clear(out.Plaintext)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.cache) >= c.opts.CacheSize {
		for k := range c.cache { // evict one, any
			delete(c.cache, k)
			break
		}
	}
	c.cache[h] = aead
	c.mu.Unlock()
	return aead, nil
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("kmscipher: data key of %d bytes, want 32", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}
