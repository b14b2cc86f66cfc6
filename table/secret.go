package table

import (
	"maps"
	"slices"
	"strings"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/secret"
)

// ErrNoCipher: an entity with secret fields was written or read on a
// table that has no Options.Cipher. Plaintext secrets are never stored.
var ErrNoCipher = secret.ErrNoCipher

// Redacted is what a secret reads as on a table with
// Options.RedactSecrets.
const Redacted = secret.Redacted

// ErrPlaintextSecret: a secret attribute holds a string, not ciphertext
// (written by another service, or by hand). Set
// Options.AcceptPlaintextSecrets to read such data while adopting it.
var ErrPlaintextSecret = secret.ErrPlaintextSecret

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

// secrets is the table's sealing of secret fields.
func (t *Table) secrets() secret.Sealing {
	o := t.opts
	return secret.Sealing{Cipher: o.Cipher, Context: o.SecretContext, Redact: o.RedactSecrets, AcceptPlaintext: o.AcceptPlaintextSecrets}
}

// sealItem encrypts the secrets of a freshly encoded item in place (see
// [secret.Sealing.Seal]).
func (e *Entity[T]) sealItem(av Item, k Key) error {
	return e.t.secrets().Seal(e.def.Type, av, k.PK, k.SK, e.secretPaths(av))
}

// openItem returns raw with its secrets decrypted (see
// [secret.Sealing.Open]); lenient accepts plaintext (adoption).
func (e *Entity[T]) openItem(raw Item, k Key, lenient bool) (Item, error) {
	return e.t.secrets().Open(e.def.Type, raw, k.PK, k.SK, e.secretPaths(raw), lenient)
}

// needsSeal returns the top-level attributes of raw holding a secret that
// must be rewritten (see [secret.Sealing.NeedsSeal]).
func (e *Entity[T]) needsSeal(raw Item) []string {
	return e.t.secrets().NeedsSeal(raw, e.secretPaths(raw))
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
	for _, w := range e.decl.Wild {
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
