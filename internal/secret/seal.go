package secret

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
)

// Item is a raw DynamoDB item.
type Item = map[string]types.AttributeValue

// ErrNoCipher: an entity with secret fields was written or read on a
// table that has no cipher (table.ErrNoCipher is this value).
var ErrNoCipher = errors.New("singletable: no cipher configured for secret fields")

// ErrPlaintextSecret: a secret attribute holds a string, not ciphertext
// (table.ErrPlaintextSecret is this value).
var ErrPlaintextSecret = errors.New("singletable: plaintext where a secret's ciphertext was expected")

// Sealing is a table's sealing of secret fields: its cipher, the logical
// table identity ciphertexts are bound to, and whether reads redact
// secrets or accept plaintext.
type Sealing struct {
	Cipher          Cipher
	Context         string
	Redact          bool
	AcceptPlaintext bool
}

// aad is what a secret at attr of the item with key (pk, sk) is bound to.
func (s Sealing) aad(pk, sk, attr string) []byte {
	return []byte("singletable secret v2\x00" + s.Context + "\x00" + pk + "\x00" + sk + "\x00" + attr)
}

// Seal encrypts the secrets of a freshly encoded item in place: the
// named ones (strings) and the members of "m.*" catch-alls (any value
// but NULL and "").
func (s Sealing) Seal(entity string, av Item, pk, sk string, paths []Path) error {
	for _, sp := range paths {
		path := sp.String()
		m, name := Slot(av, sp.Parts)
		if m == nil || Empty(m[name]) {
			continue
		}
		plain, marker := []byte(nil), EnvelopeMarker
		switch v := m[name].(type) {
		case *types.AttributeValueMemberS:
			plain = []byte(v.Value)
		default:
			if !sp.Wild {
				continue
			}
			b, err := codec.EncodeAV(v)
			if err != nil {
				return fmt.Errorf("%w: encrypt %s.%s: %v", codec.ErrInvalidInput, entity, path, err)
			}
			plain, marker = b, ValueMarker
		}
		if s.Cipher == nil {
			return fmt.Errorf("%w: %s.%s", ErrNoCipher, entity, path)
		}
		ct, err := s.Cipher.Encrypt(plain, s.aad(pk, sk, path))
		if err != nil {
			return fmt.Errorf("encrypt %s.%s: %w", entity, path, err)
		}
		m[name] = &types.AttributeValueMemberB{Value: append(append([]byte(nil), marker...), ct...)}
	}
	return nil
}

// Open returns raw with its secrets decrypted (raw is not changed: the
// maps on each secret's path are copied): a named secret into a string, a
// catch-all member into the value it was sealed from. lenient accepts
// plaintext (adoption, Options.AcceptPlaintextSecrets).
func (s Sealing) Open(entity string, raw Item, pk, sk string, paths []Path, lenient bool) (Item, error) {
	out := raw
	copied := false
	for _, sp := range paths {
		path := sp.String()
		m, name := Slot(raw, sp.Parts)
		if m == nil || m[name] == nil {
			continue
		}
		if s.Redact {
			if !copied {
				out, copied = maps.Clone(raw), true
			}
			SetPath(out, sp.Parts, Redact(m[name], sp.Wild))
			continue
		}
		var plain types.AttributeValue
		switch v := m[name].(type) {
		case *types.AttributeValueMemberB:
			typed := sp.Wild && bytes.HasPrefix(v.Value, ValueMarker)
			if !typed && !bytes.HasPrefix(v.Value, EnvelopeMarker) {
				if sp.Wild && (lenient || s.AcceptPlaintext) {
					continue // a binary value another writer stored: the next write seals it
				}
				return nil, fmt.Errorf("decrypt %s.%s: %w: binary value without the envelope marker", entity, path, codec.ErrInvalidInput)
			}
			if s.Cipher == nil {
				return nil, fmt.Errorf("%w: %s.%s", ErrNoCipher, entity, path)
			}
			pt, err := s.Cipher.Decrypt(v.Value[len(EnvelopeMarker):], s.aad(pk, sk, path))
			if err != nil {
				return nil, fmt.Errorf("decrypt %s.%s: %w", entity, path, err)
			}
			plain = &types.AttributeValueMemberS{Value: string(pt)}
			if typed {
				if plain, err = codec.DecodeAV(pt); err != nil {
					return nil, fmt.Errorf("decrypt %s.%s: %w: %v", entity, path, codec.ErrInvalidInput, err)
				}
			}
		case *types.AttributeValueMemberS:
			switch {
			case v.Value == "":
				continue
			case lenient || s.AcceptPlaintext:
				continue // read as it is; the next write seals it
			default:
				return nil, fmt.Errorf("%s.%s of %s/%s: %w", entity, path, pk, sk, ErrPlaintextSecret)
			}
		case *types.AttributeValueMemberNULL:
			continue // no secret
		default:
			if !sp.Wild || lenient || s.AcceptPlaintext {
				continue // a named secret is a string; a catch-all member in plaintext: the next write seals it
			}
			return nil, fmt.Errorf("%s.%s of %s/%s: %w", entity, path, pk, sk, ErrPlaintextSecret)
		}
		if !copied {
			out, copied = maps.Clone(raw), true
		}
		SetPath(out, sp.Parts, plain)
	}
	return out, nil
}

// NeedsSeal reports whether a stored secret of raw must be rewritten:
// plaintext, the previous format, or sealed under a stale key. It returns
// the top-level attributes that hold one.
func (s Sealing) NeedsSeal(raw Item, paths []Path) []string {
	var out []string
	for _, sp := range paths {
		if s.needsSealAt(raw, sp) && !slices.Contains(out, sp.Parts[0]) {
			out = append(out, sp.Parts[0])
		}
	}
	return out
}

// needsSealAt reports whether the stored secret at sp must be rewritten.
func (s Sealing) needsSealAt(raw Item, sp Path) bool {
	m, name := Slot(raw, sp.Parts)
	if m == nil {
		return false
	}
	switch v := m[name].(type) {
	case nil, *types.AttributeValueMemberNULL:
		return false
	case *types.AttributeValueMemberS:
		return v.Value != ""
	case *types.AttributeValueMemberB:
		if !Sealed(v) {
			return sp.Wild
		}
		if sc, ok := s.Cipher.(StaleChecker); ok {
			return sc.Stale(v.Value[len(EnvelopeMarker):])
		}
		return false
	}
	return sp.Wild
}
