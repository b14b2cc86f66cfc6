package ddb

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"
)

// Sealer seals and opens pagination cursors. A sealed cursor is encrypted
// and authenticated (AES-256-GCM) with a key derived from the store's
// cursor key, and bound to the access pattern and partition it came from:
// it reveals no key values, and a tampered, foreign or malformed cursor
// gives [ErrInvalidCursor].
//
// Cursors carry the id of the key that sealed them and the time they were
// issued (both authenticated): [NewKeyedSealer] opens cursors of every
// key it holds and refuses those of a retired key cleanly, and with a
// maximum age refuses cursors older than it.
type Sealer struct {
	current string
	aeads   map[string]cipher.AEAD
	maxAge  time.Duration
	now     func() time.Time
}

// NewSealer returns a Sealer keyed by secret (any length; 32 random bytes
// recommended), with key id "" and no maximum age.
func NewSealer(secret []byte) *Sealer {
	s, _ := NewKeyedSealer("", map[string][]byte{"": secret}, 0, nil)
	return s
}

// NewKeyedSealer returns a Sealer that seals with keys[current] and opens
// cursors sealed with any key of keys (rotation: add the new key, make it
// current, drop the old one once its cursors no longer matter). maxAge,
// if positive, refuses cursors issued longer ago than it, by now (default
// time.Now). Key ids are at most 255 bytes.
func NewKeyedSealer(current string, keys map[string][]byte, maxAge time.Duration, now func() time.Time) (*Sealer, error) {
	if _, ok := keys[current]; !ok {
		return nil, fmt.Errorf("table: cursor keys: no key %q", current)
	}
	if now == nil {
		now = time.Now
	}
	s := &Sealer{current: current, aeads: map[string]cipher.AEAD{}, maxAge: maxAge, now: now}
	for id, secret := range keys {
		if len(id) > 255 {
			return nil, fmt.Errorf("table: cursor key id %q is longer than 255 bytes", id)
		}
		m := hmac.New(sha256.New, secret)
		m.Write([]byte("singletable cursor v1"))
		block, err := aes.NewCipher(m.Sum(nil))
		if err != nil {
			return nil, err
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, err
		}
		s.aeads[id] = aead
	}
	return s, nil
}

// cursorV2 starts a cursor that names its key and issue time.
const cursorV2 = 0x02

// Seal returns the opaque cursor for position (the last evaluated key),
// bound to binding (a string naming the access pattern and partition).
func (s *Sealer) Seal(binding string, position map[string]string) (string, error) {
	pos, err := json.Marshal(position)
	if err != nil {
		return "", err
	}
	aead := s.aeads[s.current]
	plain := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(pos)), uint64(s.now().Unix()))
	plain = append(plain, pos...)
	out := make([]byte, 0, 2+len(s.current)+aead.NonceSize()+len(plain)+aead.Overhead())
	out = append(out, cursorV2, byte(len(s.current)))
	out = append(out, s.current...)
	head := len(out)
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out = append(out, nonce...)
	// the header (version, key id) is authenticated with the binding
	out = aead.Seal(out, nonce, plain, append([]byte(binding+"\x00"), out[:head]...))
	return base64.RawURLEncoding.EncodeToString(out), nil
}

// Open returns the position sealed in cursor, if cursor was sealed for the
// same binding by one of this Sealer's keys, and is not older than its
// maximum age.
func (s *Sealer) Open(binding, cursor string) (map[string]string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return nil, fmt.Errorf("%w: not base64url", ErrInvalidCursor)
	}
	if len(raw) < 2 || raw[0] != cursorV2 || len(raw) < 2+int(raw[1]) {
		return nil, fmt.Errorf("%w: malformed", ErrInvalidCursor)
	}
	aead, ok := s.aeads[string(raw[2:2+int(raw[1])])]
	if !ok {
		return nil, fmt.Errorf("%w: sealed with a retired or unknown key", ErrInvalidCursor)
	}
	head := 2 + int(raw[1])
	ns := aead.NonceSize()
	if len(raw) < head+ns+aead.Overhead() {
		return nil, fmt.Errorf("%w: too short", ErrInvalidCursor)
	}
	plain, err := aead.Open(nil, raw[head:head+ns], raw[head+ns:], append([]byte(binding+"\x00"), raw[:head]...))
	if err != nil || len(plain) < 8 {
		return nil, fmt.Errorf("%w: not issued for this query", ErrInvalidCursor)
	}
	issued := time.Unix(int64(binary.BigEndian.Uint64(plain[:8])), 0)
	if s.maxAge > 0 && s.now().Sub(issued) > s.maxAge {
		return nil, fmt.Errorf("%w: expired (issued %s, older than %s)", ErrInvalidCursor, issued.UTC().Format(time.RFC3339), s.maxAge)
	}
	var pos map[string]string
	if err := json.Unmarshal(plain[8:], &pos); err != nil || len(pos) == 0 {
		return nil, fmt.Errorf("%w: bad position", ErrInvalidCursor)
	}
	return pos, nil
}

// CursorSealer returns the Sealer of a table's cursor keys (table.Options):
// key, current under id, and the retired keys old; maxAge and now as
// [NewKeyedSealer]'s. An id over 255 bytes seals with key alone.
func CursorSealer(id string, key []byte, old map[string][]byte, maxAge time.Duration, now func() time.Time) *Sealer {
	keys := map[string][]byte{}
	for oid, k := range old {
		keys[oid] = k
	}
	keys[id] = key
	s, err := NewKeyedSealer(id, keys, maxAge, now)
	if err != nil {
		s = NewSealer(key)
	}
	return s
}

// RandomKey returns 32 random bytes: the cursor key of a table whose
// options name none.
func RandomKey() []byte {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return b
}
