package table

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/secret"
)

// ErrNoCipher: an entity with secret fields was written or read on a
// table that has no Options.Cipher. Plaintext secrets are never stored.
var ErrNoCipher = errors.New("singletable: no cipher configured for secret fields")

// Redacted is what a secret reads as on a table with
// Options.RedactSecrets.
const Redacted = secret.Redacted

// ErrPlaintextSecret: a secret attribute holds a string, not ciphertext
// (written by another service, or by hand). Set
// Options.AcceptPlaintextSecrets to read such data while adopting it.
var ErrPlaintextSecret = errors.New("singletable: plaintext where a secret's ciphertext was expected")

// Cipher encrypts secret fields before they reach DynamoDB (credentials,
// tokens, MFA secrets). aad binds a ciphertext to its table identity,
// item and attribute, so it cannot be moved to another item.
// [NewAESGCM] is the local-key implementation, [Keyring] adds key ids and
// rotation, and package table/kmscipher wraps AWS KMS data keys
// (envelope encryption).
type Cipher = secret.Cipher

// StaleChecker is implemented by ciphers that rotate keys: Stale reports
// whether ciphertext was sealed under a key other than the current one,
// so that [AdoptJob] re-encrypts it.
type StaleChecker = secret.StaleChecker

// NewAESGCM returns a Cipher using AES-GCM with key (16, 24 or 32 bytes)
// and a random 96-bit nonce per value.
func NewAESGCM(key []byte) (Cipher, error) { return secret.NewAESGCM(key) }

// Keyring is a Cipher over several keys, each with an id: it encrypts
// with the current key and writes that key's id in front of the
// ciphertext (one length byte, the id), and decrypts with whichever key
// the id names, so values sealed before a rotation still read. Retire an
// old key once [AdoptJob] has re-encrypted everything (Stale reports the
// values it must rewrite; KeyID names the key of a ciphertext).
type Keyring = secret.Keyring

// NewKeyring returns a keyring that encrypts with keys[current]. Ids are
// 1 to 255 bytes.
func NewKeyring(current string, keys map[string]Cipher) (*Keyring, error) {
	return secret.NewKeyring(current, keys)
}

// secretAAD is what a secret at attr of the item with key k is bound to.
func (t *Table) secretAAD(k Key, attr string) []byte {
	return []byte("singletable secret v2\x00" + t.opts.SecretContext + "\x00" + k.PK + "\x00" + k.SK + "\x00" + attr)
}

// sealItem encrypts the secrets of a freshly encoded item in place: the
// named ones (strings) and the members of "m.*" catch-alls (any value
// but NULL and "").
func (e *Entity[T]) sealItem(av Item, k Key) error {
	for _, sp := range e.secretPaths(av) {
		path := sp.String()
		m, name := secret.Slot(av, sp.Parts)
		if m == nil || secret.Empty(m[name]) {
			continue
		}
		plain, marker := []byte(nil), secret.EnvelopeMarker
		switch v := m[name].(type) {
		case *types.AttributeValueMemberS:
			plain = []byte(v.Value)
		default:
			if !sp.Wild {
				continue
			}
			b, err := codec.EncodeAV(v)
			if err != nil {
				return fmt.Errorf("%w: encrypt %s.%s: %v", ErrInvalidInput, e.def.Type, path, err)
			}
			plain, marker = b, secret.ValueMarker
		}
		if e.t.opts.Cipher == nil {
			return fmt.Errorf("%w: %s.%s", ErrNoCipher, e.def.Type, path)
		}
		ct, err := e.t.opts.Cipher.Encrypt(plain, e.t.secretAAD(k, path))
		if err != nil {
			return fmt.Errorf("encrypt %s.%s: %w", e.def.Type, path, err)
		}
		m[name] = &types.AttributeValueMemberB{Value: append(append([]byte(nil), marker...), ct...)}
	}
	return nil
}

// openItem returns raw with its secrets decrypted (raw is not changed: the
// maps on each secret's path are copied): a named secret into a string, a
// catch-all member into the value it was sealed from. lenient accepts
// plaintext (adoption, Options.AcceptPlaintextSecrets).
func (e *Entity[T]) openItem(raw Item, k Key, lenient bool) (Item, error) {
	out := raw
	copied := false
	for _, sp := range e.secretPaths(raw) {
		path := sp.String()
		m, name := secret.Slot(raw, sp.Parts)
		if m == nil || m[name] == nil {
			continue
		}
		if e.t.opts.RedactSecrets {
			if !copied {
				out, copied = maps.Clone(raw), true
			}
			secret.SetPath(out, sp.Parts, secret.Redact(m[name], sp.Wild))
			continue
		}
		var plain types.AttributeValue
		switch v := m[name].(type) {
		case *types.AttributeValueMemberB:
			typed := sp.Wild && bytes.HasPrefix(v.Value, secret.ValueMarker)
			if !typed && !bytes.HasPrefix(v.Value, secret.EnvelopeMarker) {
				if sp.Wild && (lenient || e.t.opts.AcceptPlaintextSecrets) {
					continue // a binary value another writer stored: the next write seals it
				}
				return nil, fmt.Errorf("decrypt %s.%s: %w: binary value without the envelope marker", e.def.Type, path, ErrInvalidInput)
			}
			if e.t.opts.Cipher == nil {
				return nil, fmt.Errorf("%w: %s.%s", ErrNoCipher, e.def.Type, path)
			}
			pt, err := e.t.opts.Cipher.Decrypt(v.Value[len(secret.EnvelopeMarker):], e.t.secretAAD(k, path))
			if err != nil {
				return nil, fmt.Errorf("decrypt %s.%s: %w", e.def.Type, path, err)
			}
			plain = &types.AttributeValueMemberS{Value: string(pt)}
			if typed {
				if plain, err = codec.DecodeAV(pt); err != nil {
					return nil, fmt.Errorf("decrypt %s.%s: %w: %v", e.def.Type, path, ErrInvalidInput, err)
				}
			}
		case *types.AttributeValueMemberS:
			switch {
			case v.Value == "":
				continue
			case lenient || e.t.opts.AcceptPlaintextSecrets:
				continue // read as it is; the next write seals it
			default:
				return nil, fmt.Errorf("%s.%s of %s/%s: %w", e.def.Type, path, k.PK, k.SK, ErrPlaintextSecret)
			}
		case *types.AttributeValueMemberNULL:
			continue // no secret
		default:
			if !sp.Wild || lenient || e.t.opts.AcceptPlaintextSecrets {
				continue // a named secret is a string; a catch-all member in plaintext: the next write seals it
			}
			return nil, fmt.Errorf("%s.%s of %s/%s: %w", e.def.Type, path, k.PK, k.SK, ErrPlaintextSecret)
		}
		if !copied {
			out, copied = maps.Clone(raw), true
		}
		secret.SetPath(out, sp.Parts, plain)
	}
	return out, nil
}

// needsSeal reports whether a stored secret of raw must be rewritten:
// plaintext, the previous format, or sealed under a stale key. It returns
// the top-level attributes that hold one.
func (e *Entity[T]) needsSeal(raw Item) []string {
	var out []string
	for _, sp := range e.secretPaths(raw) {
		if e.t.needsSealAt(raw, sp) && !slices.Contains(out, sp.Parts[0]) {
			out = append(out, sp.Parts[0])
		}
	}
	return out
}

// needsSealAt reports whether the stored secret at sp must be rewritten.
func (t *Table) needsSealAt(raw Item, sp secret.Path) bool {
	m, name := secret.Slot(raw, sp.Parts)
	if m == nil {
		return false
	}
	switch v := m[name].(type) {
	case nil, *types.AttributeValueMemberNULL:
		return false
	case *types.AttributeValueMemberS:
		return v.Value != ""
	case *types.AttributeValueMemberB:
		if !secret.Sealed(v) {
			return sp.Wild
		}
		if sc, ok := t.opts.Cipher.(StaleChecker); ok {
			return sc.Stale(v.Value[len(secret.EnvelopeMarker):])
		}
		return false
	}
	return sp.Wild
}

// secretPaths returns the secrets of item: the named Def.Secrets paths and
// the catch-all members item holds, sorted within each catch-all.
func (e *Entity[T]) secretPaths(item Item) []secret.Path {
	out := make([]secret.Path, 0, len(e.def.Secrets))
	for _, path := range e.def.Secrets {
		if !strings.HasSuffix(path, ".*") {
			out = append(out, secret.Path{Parts: strings.Split(path, ".")})
		}
	}
	for _, w := range e.decl.wild {
		prefix := strings.Split(w.Prefix, ".")
		m := codec.MapAt(item, prefix)
		for _, name := range slices.Sorted(maps.Keys(m)) {
			if !w.Known[name] {
				out = append(out, secret.Path{Parts: append(slices.Clone(prefix), name), Wild: true})
			}
		}
	}
	return out
}
