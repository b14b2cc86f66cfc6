package table_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

type credential struct {
	ID     string `dynamo:"id"`
	Token  string `dynamo:"token"`
	Public string `dynamo:"public"`
}

var credentialDef = table.Def[credential]{
	Type:    "Credential",
	Keys:    table.Template{PK: "CRED#{id}", SK: "CRED"},
	Secrets: []string{"token"},
}

func rawAttr(t *testing.T, tb *table.Table, k table.Key, attr string) string {
	t.Helper()
	switch v := rawValue(t, tb, k, attr).(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberB:
		return string(v.Value)
	}
	return ""
}

func rawValue(t *testing.T, tb *table.Table, k table.Key, attr string) types.AttributeValue {
	t.Helper()
	out, err := tb.Client().GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(tb.Name()), ConsistentRead: aws.Bool(true), Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}}})
	if err != nil {
		t.Fatal(err)
	}
	return out.Item[attr]
}

// sealed reports whether v is a binary envelope that does not hold plain.
func sealed(v types.AttributeValue, plain string) bool {
	b, ok := v.(*types.AttributeValueMemberB)
	return ok && bytes.HasPrefix(b.Value, []byte("STS1")) && !bytes.Contains(b.Value, []byte(plain))
}

// TestSecretsEncryptedAtRest: the contract of "Secrets at rest" line by
// line: binary envelopes, bound to the item, plaintext refused on read
// unless adopted, Patch refused.
func TestSecretsEncryptedAtRest(t *testing.T) {
	t.Parallel()
	cipher, err := table.NewAESGCM([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(o *table.Options) { o.Cipher = cipher })
	creds := table.NewEntity(f.t, credentialDef)
	c := ctx(t)
	in := credential{ID: "c1", Token: "s3cr3t-token", Public: "visible"}
	if err := creds.Create(c, &in); err != nil {
		t.Fatal(err)
	}
	if in.Token != "s3cr3t-token" {
		t.Errorf("caller's struct changed: %q", in.Token)
	}
	k := table.Key{PK: "CRED#c1", SK: "CRED"}
	stored := rawValue(t, f.t, k, "token")
	if !sealed(stored, "s3cr3t") {
		t.Errorf("stored token %#v is not a sealed binary envelope", stored)
	}
	got, err := creds.Get(c, k)
	if err != nil || got.Token != "s3cr3t-token" || got.Public != "visible" {
		t.Errorf("read back %+v %v", got, err)
	}
	// A ciphertext copied onto another item does not decrypt there.
	item := map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "CRED#c2"}, "SK": &types.AttributeValueMemberS{Value: "CRED"},
		"id": &types.AttributeValueMemberS{Value: "c2"}, "token": stored}
	if _, err := f.t.Client().PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(f.t.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	if _, err := creds.Get(c, table.Key{PK: "CRED#c2", SK: "CRED"}); err == nil {
		t.Error("a ciphertext moved to another item decrypted")
	}
	// Plaintext written by another service is refused on read...
	putRaw(t, f.t, map[string]string{"PK": "CRED#old", "SK": "CRED", "id": "old", "token": "legacy-plain"})
	ko := table.Key{PK: "CRED#old", SK: "CRED"}
	if _, err := creds.Get(c, ko); !errors.Is(err, table.ErrPlaintextSecret) {
		t.Fatalf("read of a plaintext secret: %v, want ErrPlaintextSecret", err)
	}
	// ...unless adoption accepts it: then the next write seals it.
	lenient := table.NewEntity(table.New(f.t.Client(), f.t.Schema(), func(o *table.Options) {
		o.Cipher, o.AcceptPlaintextSecrets = cipher, true
	}), credentialDef)
	if got, err := lenient.Update(c, ko, func(c *credential) error { c.Public = "x"; return nil }); err != nil || got.Token != "legacy-plain" {
		t.Fatalf("update of legacy item: %+v %v", got, err)
	}
	if v := rawValue(t, f.t, ko, "token"); !sealed(v, "legacy-plain") {
		t.Errorf("legacy token still plaintext after a write: %#v", v)
	}
	if got, err := creds.Get(c, ko); err != nil || got.Token != "legacy-plain" {
		t.Fatalf("strict read after sealing: %+v, %v", got, err)
	}
	if _, err := creds.Patch(c, k, table.Patch{Set: map[string]any{"token": "plain"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("patch of a secret field: %v", err)
	}
}

// vault nests its secret in a map attribute, like an OAuth token set.
type vault struct {
	ID     string `dynamo:"id"`
	Tokens struct {
		Access string `dynamo:"access"`
		Kind   string `dynamo:"kind"`
	} `dynamo:"tokens"`
}

var vaultDef = table.Def[vault]{
	Type:    "Vault",
	Keys:    table.Template{PK: "VAULT#{id}", SK: "V"},
	Secrets: []string{"tokens.access"},
}

// TestNestedSecretsAndPatch: a secret inside a map is sealed in place, and
// Patch refuses the attribute that contains it (a Set of the whole struct
// would write it in plaintext).
func TestNestedSecretsAndPatch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	vaults := table.NewEntity(f.t, vaultDef)
	v := vault{ID: "v1"}
	v.Tokens.Access, v.Tokens.Kind = "at-123", "bearer"
	if err := vaults.Create(c, &v); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "VAULT#v1", SK: "V"}
	m, ok := rawValue(t, f.t, k, "tokens").(*types.AttributeValueMemberM)
	if !ok || !sealed(m.Value["access"], "at-123") || m.Value["kind"].(*types.AttributeValueMemberS).Value != "bearer" {
		t.Fatalf("stored tokens %#v: want access sealed, kind as is", m)
	}
	got, err := vaults.Get(c, k)
	if err != nil || got.Tokens.Access != "at-123" {
		t.Fatalf("read back %+v, %v", got, err)
	}
	_, err = vaults.Patch(c, k, table.Patch{Set: map[string]any{"tokens": v.Tokens}})
	var ve *table.ValidationError
	if !errors.As(err, &ve) || ve.Field != "tokens" {
		t.Fatalf("patch of the map holding a secret: %v", err)
	}
	if got, _ := vaults.Get(c, k); got.Tokens.Access != "at-123" {
		t.Fatal("the refused patch changed the item")
	}
}

// TestSecretContextSurvivesRestore: ciphertext is bound to
// Options.SecretContext, not to the physical table name, so a restore into
// a table of another name reads; another context does not.
func TestSecretContextSurvivesRestore(t *testing.T) {
	t.Parallel()
	cipher := tabletest.Cipher()
	ctxOpt := func(name string) func(*table.Options) {
		return func(o *table.Options) { o.Cipher, o.SecretContext = cipher, name }
	}
	prod := tabletest.NewTable(t, table.NewSchema("prod"), ctxOpt("creds-prod"))
	restored := tabletest.NewTable(t, table.NewSchema("prod-restored"), ctxOpt("creds-prod"))
	other := table.New(restored.Client(), restored.Schema(), ctxOpt("creds-staging"))
	c := ctx(t)
	if err := table.NewEntity(prod, credentialDef).Create(c, &credential{ID: "r1", Token: "tok"}); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "CRED#r1", SK: "CRED"}
	out, err := prod.Client().GetItem(c, &dynamodb.GetItemInput{TableName: aws.String(prod.Name()), Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := restored.Client().PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(restored.Name()), Item: out.Item}); err != nil {
		t.Fatal(err)
	}
	if got, err := table.NewEntity(restored, credentialDef).Get(c, k); err != nil || got.Token != "tok" {
		t.Fatalf("restored item: %+v, %v", got, err)
	}
	if _, err := table.NewEntity(other, credentialDef).Get(c, k); err == nil {
		t.Fatal("another secret context decrypted the item")
	}
}

// TestKeyRotation: a Keyring writes its current key's id, reads values of
// older keys, and the adoption job re-encrypts them under the current key.
func TestKeyRotation(t *testing.T) {
	t.Parallel()
	k1, _ := table.NewAESGCM(bytes.Repeat([]byte{1}, 32))
	k2, _ := table.NewAESGCM(bytes.Repeat([]byte{2}, 32))
	ring1, err := table.NewKeyring("k1", map[string]table.Cipher{"k1": k1})
	if err != nil {
		t.Fatal(err)
	}
	ring2, err := table.NewKeyring("k2", map[string]table.Cipher{"k1": k1, "k2": k2})
	if err != nil {
		t.Fatal(err)
	}
	old := tabletest.NewTable(t, table.NewSchema("rotate"), func(o *table.Options) { o.Cipher = ring1 })
	c := ctx(t)
	for _, id := range []string{"a", "b", "c"} {
		if err := table.NewEntity(old, credentialDef).Create(c, &credential{ID: id, Token: "tok-" + id}); err != nil {
			t.Fatal(err)
		}
	}
	keyOf := func(id string) string {
		b := rawValue(t, old, table.Key{PK: "CRED#" + id, SK: "CRED"}, "token").(*types.AttributeValueMemberB).Value
		kid, err := ring2.KeyID(b[4:])
		if err != nil {
			t.Fatal(err)
		}
		return kid
	}
	if keyOf("a") != "k1" {
		t.Fatalf("sealed under %q, want k1", keyOf("a"))
	}
	// after the rotation: old values read, and the job re-encrypts them
	rotated := table.New(old.Client(), old.Schema(), func(o *table.Options) { o.Cipher = ring2 })
	creds := table.NewEntity(rotated, credentialDef)
	if got, err := creds.Get(c, table.Key{PK: "CRED#b", SK: "CRED"}); err != nil || got.Token != "tok-b" {
		t.Fatalf("read a k1 value with the rotated ring: %+v, %v", got, err)
	}
	rep, err := rotated.RunJob(c, table.AdoptJob("reseal", creds))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Changed != 3 {
		t.Fatalf("reseal changed %d items, want 3 (%+v)", rep.Changed, rep)
	}
	for _, id := range []string{"a", "b", "c"} {
		if keyOf(id) != "k2" {
			t.Errorf("%s still under %s", id, keyOf(id))
		}
	}
	// k1 can now be retired
	only2, _ := table.NewKeyring("k2", map[string]table.Cipher{"k2": k2})
	retired := table.NewEntity(table.New(old.Client(), old.Schema(), func(o *table.Options) { o.Cipher = only2 }), credentialDef)
	if got, err := retired.Get(c, table.Key{PK: "CRED#c", SK: "CRED"}); err != nil || got.Token != "tok-c" {
		t.Fatalf("after retiring k1: %+v, %v", got, err)
	}
	if rep, err := rotated.RunJob(c, table.AdoptJob("reseal-2", creds)); err != nil || rep.Changed != 0 {
		t.Fatalf("second run changed %d, %v; want nothing", rep.Changed, err)
	}
}

// TestPreReleaseFormatIsPlaintext: a string in the pre-release format
// ("enc:v1:...", which no deployment ever stored) is not decrypted: it is a
// string like any other, so a read refuses it as a plaintext secret.
func TestPreReleaseFormatIsPlaintext(t *testing.T) {
	t.Parallel()
	cipher := tabletest.Cipher()
	tb := tabletest.NewTable(t, table.NewSchema("prev"), func(o *table.Options) { o.Cipher = cipher })
	c := ctx(t)
	k := table.Key{PK: "CRED#p", SK: "CRED"}
	ct, err := cipher.Encrypt([]byte("old-secret"), []byte(tb.Name()+"\x00"+k.PK+"\x00"+k.SK+"\x00token"))
	if err != nil {
		t.Fatal(err)
	}
	putRaw(t, tb, map[string]string{"PK": k.PK, "SK": k.SK, "_type": "Credential", "id": "p", "token": "enc:v1:" + base64.RawStdEncoding.EncodeToString(ct)})
	creds := table.NewEntity(tb, credentialDef)
	if got, err := creds.Get(c, k); !errors.Is(err, table.ErrPlaintextSecret) {
		t.Fatalf("pre-release format: %+v, %v; want ErrPlaintextSecret", got, err)
	}
}

func TestSecretsNeedACipher(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *table.Options) { o.Cipher = nil }) // tabletest sets one by default
	creds := table.NewEntity(f.t, credentialDef)
	err := creds.Create(ctx(t), &credential{ID: "c1", Token: "s3cr3t"})
	if !errors.Is(err, table.ErrNoCipher) {
		t.Fatalf("got %v, want ErrNoCipher", err)
	}
	if rawAttr(t, f.t, table.Key{PK: "CRED#c1", SK: "CRED"}, "id") != "" {
		t.Error("item written without its cipher")
	}
}

// A secret is encrypted whatever its plaintext looks like: one that starts
// with the ciphertext marker is not stored verbatim (issue 11 §3, first
// point), and reads back as written.
func TestSecretLookingLikeCiphertextIsEncrypted(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	creds := table.NewEntity(f.t, credentialDef)
	plain := "enc:v1:not-really-a-ciphertext"
	if err := creds.Create(c, &credential{ID: "sneaky", Token: plain}); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "CRED#sneaky", SK: "CRED"}
	if v := rawValue(t, f.t, k, "token"); !sealed(v, "not-really") {
		t.Fatalf("stored %#v: the plaintext reached DynamoDB", v)
	}
	got, err := creds.Get(c, k)
	if err != nil || got.Token != plain {
		t.Fatalf("read back %q, %v; want the plaintext as written", got.Token, err)
	}
}
