package table_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

type credential struct {
	ID     string `dynamo:"id"`
	Token  string `dynamo:"token"`
	Public string `dynamo:"public"`
}

var credentialDef = table.Def[credential]{
	Type: "Credential",
	Key: func(c *credential) (table.Key, error) {
		return table.Key{PK: "CRED#" + c.ID, SK: "CRED"}, nil
	},
	Secrets: map[string]func(*credential) *string{"token": func(c *credential) *string { return &c.Token }},
}

func rawAttr(t *testing.T, tb *table.Table, k table.Key, attr string) string {
	t.Helper()
	out, err := tb.Client().GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(tb.Name()), Key: map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}}})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := out.Item[attr].(*types.AttributeValueMemberS)
	if s == nil {
		return ""
	}
	return s.Value
}

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
	stored := rawAttr(t, f.t, k, "token")
	if !strings.HasPrefix(stored, "enc:v1:") || strings.Contains(stored, "s3cr3t") {
		t.Errorf("stored token %q is not encrypted", stored)
	}
	got, err := creds.Get(c, k)
	if err != nil || got.Token != "s3cr3t-token" || got.Public != "visible" {
		t.Errorf("read back %+v %v", got, err)
	}
	// A ciphertext copied onto another item does not decrypt there.
	putRaw(t, f.t, map[string]string{"PK": "CRED#c2", "SK": "CRED", "id": "c2", "token": stored})
	if _, err := creds.Get(c, table.Key{PK: "CRED#c2", SK: "CRED"}); err == nil {
		t.Error("a ciphertext moved to another item decrypted")
	}
	// Legacy plaintext (written by another service) reads, and is
	// encrypted by the next write.
	putRaw(t, f.t, map[string]string{"PK": "CRED#old", "SK": "CRED", "id": "old", "token": "legacy-plain"})
	ko := table.Key{PK: "CRED#old", SK: "CRED"}
	if got, err := creds.Update(c, ko, func(c *credential) error { c.Public = "x"; return nil }); err != nil || got.Token != "legacy-plain" {
		t.Fatalf("update of legacy item: %+v %v", got, err)
	}
	if s := rawAttr(t, f.t, ko, "token"); !strings.HasPrefix(s, "enc:v1:") {
		t.Errorf("legacy token still plaintext after a write: %q", s)
	}
	if _, err := creds.Patch(c, k, table.Patch{Set: map[string]any{"token": "plain"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("patch of a secret field: %v", err)
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
	if stored := rawAttr(t, f.t, k, "token"); stored == plain || strings.Contains(stored, "not-really") {
		t.Fatalf("stored %q: the plaintext reached DynamoDB", stored)
	}
	got, err := creds.Get(c, k)
	if err != nil || got.Token != plain {
		t.Fatalf("read back %q, %v; want the plaintext as written", got.Token, err)
	}
}
