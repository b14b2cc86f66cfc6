package kmscipher_test

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/kmscipher"
	"github.com/singletable/singletable/table/tabletest"
)

func TestMain(m *testing.M) { tabletest.Main(m) }

// fakeKMS answers GenerateDataKey and Decrypt in KMS's JSON protocol. It
// wraps data keys with a master key per KMS key id and checks the
// encryption context, as KMS does. No AWS account is reachable here.
type fakeKMS struct {
	master             map[string]cipher.AEAD
	generates, decrypt atomic.Int64
}

func newFakeKMS(keyIDs ...string) *fakeKMS {
	f := &fakeKMS{master: map[string]cipher.AEAD{}}
	for _, id := range keyIDs {
		k := make([]byte, 32)
		_, _ = rand.Read(k)
		b, _ := aes.NewCipher(k)
		f.master[id], _ = cipher.NewGCM(b)
	}
	return f
}

func (f *fakeKMS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var in struct {
		KeyId             string
		CiphertextBlob    []byte
		EncryptionContext map[string]string
	}
	if err := json.Unmarshal(body, &in); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	ctxJSON, _ := json.Marshal(in.EncryptionContext)
	fail := func(typ string) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.WriteHeader(400)
		fmt.Fprintf(w, `{"__type":"%s","message":"fake kms"}`, typ)
	}
	m, ok := f.master[in.KeyId]
	if !ok {
		fail("NotFoundException")
		return
	}
	var out any
	switch target := r.Header.Get("X-Amz-Target"); target {
	case "TrentService.GenerateDataKey":
		f.generates.Add(1)
		dk := make([]byte, 32)
		_, _ = rand.Read(dk)
		nonce := make([]byte, 12)
		_, _ = rand.Read(nonce)
		blob := m.Seal(nonce, nonce, dk, ctxJSON)
		out = map[string]any{"KeyId": in.KeyId, "Plaintext": dk, "CiphertextBlob": blob}
	case "TrentService.Decrypt":
		f.decrypt.Add(1)
		if len(in.CiphertextBlob) < 12 {
			fail("InvalidCiphertextException")
			return
		}
		dk, err := m.Open(nil, in.CiphertextBlob[:12], in.CiphertextBlob[12:], ctxJSON)
		if err != nil {
			fail("InvalidCiphertextException")
			return
		}
		out = map[string]any{"KeyId": in.KeyId, "Plaintext": dk}
	default:
		fail("UnknownOperationException")
		return
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	_ = json.NewEncoder(w).Encode(out)
}

func kmsClient(t *testing.T, f *fakeKMS) *kms.Client {
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return kms.New(kms.Options{Region: "us-east-1", BaseEndpoint: aws.String(srv.URL),
		Credentials: credentials.NewStaticCredentialsProvider("local", "local", "")})
}

type secretThing struct {
	ID    string `dynamo:"id"`
	Token string `dynamo:"token"`
}

var thingDef = table.Def[secretThing]{
	Type:    "Thing",
	Keys:    table.Template{PK: "THING#{id}", SK: "T"},
	Secrets: []string{"token"},
}

// TestKMSEnvelope: secrets sealed with KMS data keys reach DynamoDB Local
// without their plaintext, read back through a fresh cipher with one KMS
// Decrypt per data key, and a key change makes them stale for the
// adoption job, which re-encrypts them under the new key.
func TestKMSEnvelope(t *testing.T) {
	fake := newFakeKMS("alias/old", "alias/new")
	client := kmsClient(t, fake)
	c1, err := kmscipher.New(client, "alias/old")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tb := tabletest.NewTable(t, table.NewSchema("kms"), func(o *table.Options) { o.Cipher = c1 })
	things := table.NewEntity(tb, thingDef)
	for i := range 20 {
		if err := things.Create(ctx, &secretThing{ID: fmt.Sprint(i), Token: fmt.Sprintf("secret-%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if n := fake.generates.Load(); n != 1 {
		t.Fatalf("20 writes generated %d data keys, want 1 (reused)", n)
	}
	p, err := tb.QueryItems(ctx, table.Query{PK: "THING#3"})
	if err != nil || len(p.Items) != 1 {
		t.Fatal(err)
	}
	if s := fmt.Sprint(p.Items[0]["token"]); strings.Contains(s, "secret-3") {
		t.Fatalf("plaintext stored: %s", s)
	}
	// a fresh process: one KMS Decrypt for the 20 values of one data key
	c2, _ := kmscipher.New(client, "alias/new")
	tb2 := table.New(tb.Client(), tb.Schema(), func(o *table.Options) { o.Cipher = c2 })
	things2 := table.NewEntity(tb2, thingDef)
	for i := range 20 {
		got, err := things2.Get(ctx, table.Key{PK: fmt.Sprint("THING#", i), SK: "T"})
		if err != nil || got.Token != fmt.Sprintf("secret-%d", i) {
			t.Fatalf("read %d: %+v, %v", i, got, err)
		}
	}
	if n := fake.decrypt.Load(); n != 1 {
		t.Fatalf("20 reads made %d KMS Decrypt calls, want 1 (cached)", n)
	}
	// the key changed to alias/new: the job re-encrypts everything
	rep, err := tb2.RunJob(ctx, table.AdoptJob("kms-rotate", things2))
	if err != nil || rep.Changed != 20 {
		t.Fatalf("rotation job: %+v, %v", rep, err)
	}
	if rep, err := tb2.RunJob(ctx, table.AdoptJob("kms-rotate-2", things2)); err != nil || rep.Changed != 0 {
		t.Fatalf("second run: %+v, %v", rep, err)
	}
	// another encryption context cannot unwrap the data keys
	c3, _ := kmscipher.New(client, "alias/new", func(o *kmscipher.Options) { o.Context = "other" })
	other := table.NewEntity(table.New(tb.Client(), tb.Schema(), func(o *table.Options) { o.Cipher = c3 }), thingDef)
	if _, err := other.Get(ctx, table.Key{PK: "THING#1", SK: "T"}); err == nil {
		t.Fatal("a cipher with another encryption context decrypted")
	}
	var ve *table.ValidationError
	if _, err := kmscipher.New(client, ""); err == nil || errors.As(err, &ve) {
		t.Fatalf("empty key id: %v", err)
	}
}
