package table

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
)

// ErrNoCipher: an entity with secret fields was written or read on a
// table that has no Options.Cipher. Plaintext secrets are never stored.
var ErrNoCipher = errors.New("singletable: no cipher configured for secret fields")

// Redacted is what a secret reads as on a table with
// Options.RedactSecrets.
const Redacted = "[redacted]"

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
type Cipher interface {
	Encrypt(plaintext, aad []byte) ([]byte, error)
	Decrypt(ciphertext, aad []byte) ([]byte, error)
}

// StaleChecker is implemented by ciphers that rotate keys: Stale reports
// whether ciphertext was sealed under a key other than the current one,
// so that [AdoptJob] re-encrypts it.
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

// Keyring is a Cipher over several keys, each with an id: it encrypts
// with the current key and writes that key's id in front of the
// ciphertext (one length byte, the id), and decrypts with whichever key
// the id names, so values sealed before a rotation still read. Retire an
// old key once [AdoptJob] has re-encrypted everything (Stale reports the
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

// envelopeMarker starts every sealed binary attribute.
var envelopeMarker = []byte("STS1")

func (t *Table) secretAAD(k Key, attr string) []byte {
	return []byte("singletable secret v2\x00" + t.opts.SecretContext + "\x00" + k.PK + "\x00" + k.SK + "\x00" + attr)
}

// secretSlot finds the value at an attribute path (split) of item: the map
// that holds it and its name there (nil if a map on the path is missing).
func secretSlot(item Item, parts []string) (map[string]types.AttributeValue, string) {
	m := codec.MapAt(item, parts[:len(parts)-1])
	if m == nil {
		return nil, ""
	}
	return m, parts[len(parts)-1]
}

// sealItem encrypts the secrets of a freshly encoded item in place: the
// named ones (strings) and the members of "m.*" catch-alls (any value
// but NULL and "").
func (e *Entity[T]) sealItem(av Item, k Key) error {
	for _, sp := range e.secretPaths(av) {
		path := sp.String()
		m, name := secretSlot(av, sp.parts)
		if m == nil || noSecret(m[name]) {
			continue
		}
		plain, marker := []byte(nil), envelopeMarker
		switch v := m[name].(type) {
		case *types.AttributeValueMemberS:
			plain = []byte(v.Value)
		default:
			if !sp.wild {
				continue
			}
			b, err := codec.EncodeAV(v)
			if err != nil {
				return fmt.Errorf("%w: encrypt %s.%s: %v", ErrInvalidInput, e.def.Type, path, err)
			}
			plain, marker = b, valueMarker
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
		m, name := secretSlot(raw, sp.parts)
		if m == nil || m[name] == nil {
			continue
		}
		if e.t.opts.RedactSecrets {
			if !copied {
				out, copied = maps.Clone(raw), true
			}
			setPath(out, sp.parts, redact(m[name], sp.wild))
			continue
		}
		var plain types.AttributeValue
		switch v := m[name].(type) {
		case *types.AttributeValueMemberB:
			typed := sp.wild && bytes.HasPrefix(v.Value, valueMarker)
			if !typed && !bytes.HasPrefix(v.Value, envelopeMarker) {
				if sp.wild && (lenient || e.t.opts.AcceptPlaintextSecrets) {
					continue // a binary value another writer stored: the next write seals it
				}
				return nil, fmt.Errorf("decrypt %s.%s: %w: binary value without the envelope marker", e.def.Type, path, ErrInvalidInput)
			}
			if e.t.opts.Cipher == nil {
				return nil, fmt.Errorf("%w: %s.%s", ErrNoCipher, e.def.Type, path)
			}
			pt, err := e.t.opts.Cipher.Decrypt(v.Value[len(envelopeMarker):], e.t.secretAAD(k, path))
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
			if !sp.wild || lenient || e.t.opts.AcceptPlaintextSecrets {
				continue // a named secret is a string; a catch-all member in plaintext: the next write seals it
			}
			return nil, fmt.Errorf("%s.%s of %s/%s: %w", e.def.Type, path, k.PK, k.SK, ErrPlaintextSecret)
		}
		if !copied {
			out, copied = maps.Clone(raw), true
		}
		setPath(out, sp.parts, plain)
	}
	return out, nil
}

// redact returns what a stored secret v reads as with
// Options.RedactSecrets: the string [Redacted], or NULL for a catch-all
// member, whose type is not known without opening it; a NULL or empty
// string stays (no secret).
func redact(v types.AttributeValue, wild bool) types.AttributeValue {
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

// setPath sets the value at an attribute path (split) of item, copying the
// maps on the way (item's own top level is already a copy).
func setPath(item Item, parts []string, v types.AttributeValue) {
	m := map[string]types.AttributeValue(item)
	for _, p := range parts[:len(parts)-1] {
		next := m[p].(*types.AttributeValueMemberM)
		cp := &types.AttributeValueMemberM{Value: maps.Clone(next.Value)}
		m[p] = cp
		m = cp.Value
	}
	m[parts[len(parts)-1]] = v
}

// needsSeal reports whether a stored secret of raw must be rewritten:
// plaintext, the previous format, or sealed under a stale key. It returns
// the top-level attributes that hold one.
func (e *Entity[T]) needsSeal(raw Item) []string {
	var out []string
	for _, sp := range e.secretPaths(raw) {
		if e.t.needsSealAt(raw, sp) && !slices.Contains(out, sp.parts[0]) {
			out = append(out, sp.parts[0])
		}
	}
	return out
}

// needsSealAt reports whether the stored secret at sp must be rewritten.
func (t *Table) needsSealAt(raw Item, sp secretPath) bool {
	m, name := secretSlot(raw, sp.parts)
	if m == nil {
		return false
	}
	switch v := m[name].(type) {
	case nil, *types.AttributeValueMemberNULL:
		return false
	case *types.AttributeValueMemberS:
		return v.Value != ""
	case *types.AttributeValueMemberB:
		if !sealed(v) {
			return sp.wild
		}
		if sc, ok := t.opts.Cipher.(StaleChecker); ok {
			return sc.Stale(v.Value[len(envelopeMarker):])
		}
		return false
	}
	return sp.wild
}

// secretTop returns the top-level attribute a secret path lives in.
func secretTop(path string) string {
	top, _, _ := strings.Cut(path, ".")
	return top
}

// secretPath is one secret of an item: the attribute path, split, and
// whether it is a member of a "m.*" catch-all (any type) or a named
// string secret.
type secretPath struct {
	parts []string
	wild  bool
}

func (p secretPath) String() string { return strings.Join(p.parts, ".") }

// secretPaths returns the secrets of item: the named Def.Secrets paths and
// the catch-all members item holds, sorted within each catch-all.
func (e *Entity[T]) secretPaths(item Item) []secretPath {
	out := make([]secretPath, 0, len(e.def.Secrets))
	for _, path := range e.def.Secrets {
		if !strings.HasSuffix(path, ".*") {
			out = append(out, secretPath{parts: strings.Split(path, ".")})
		}
	}
	for _, w := range e.decl.wild {
		prefix := strings.Split(w.Prefix, ".")
		m := codec.MapAt(item, prefix)
		for _, name := range slices.Sorted(maps.Keys(m)) {
			if !w.Known[name] {
				out = append(out, secretPath{parts: append(slices.Clone(prefix), name), wild: true})
			}
		}
	}
	return out
}

// valueMarker starts a sealed catch-all member that is not a string: its
// plaintext is the value's typed encoding (encodeAV).
var valueMarker = []byte("STV1")

// noSecret reports whether v holds nothing to seal (NULL, "").
func noSecret(v types.AttributeValue) bool {
	switch v := v.(type) {
	case nil, *types.AttributeValueMemberNULL:
		return true
	case *types.AttributeValueMemberS:
		return v.Value == ""
	}
	return false
}

// sealed reports whether v is a sealed envelope (a string's or a value's).
func sealed(v types.AttributeValue) bool {
	b, ok := v.(*types.AttributeValueMemberB)
	return ok && (bytes.HasPrefix(b.Value, envelopeMarker) || bytes.HasPrefix(b.Value, valueMarker))
}
