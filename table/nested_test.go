package table_test

// Nested catch-alls (issue 35): the members of a map attribute that its
// struct does not model (a provider's token response kept whole) are kept
// on read and written back on write, and those of a "m.*" secret path are
// sealed at rest.

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

type tokenSet struct {
	AccessToken string      `dynamo:"accessToken,omitempty"`
	TokenType   string      `dynamo:"tokenType,omitempty"`
	Extra       table.Extra `dynamo:"-"`
}

type linkMeta struct {
	Name  string      `dynamo:"name,omitempty"`
	Extra table.Extra `dynamo:"-"`
}

type link struct {
	ID     string      `dynamo:"id"`
	Status string      `dynamo:"status"`
	Creds  tokenSet    `dynamo:"creds,omitempty"`
	Meta   *linkMeta   `dynamo:"meta,omitempty"`
	Hops   []linkMeta  `dynamo:"hops,omitempty"`
	Extra  table.Extra `dynamo:"-"`
}

var linkDef = table.Def[link]{
	Type:    "Link",
	Keys:    table.Template{PK: "LINK#{id}", SK: "L"},
	Secrets: []string{"creds.accessToken", "creds.*"},
}

// providerCreds is a token response as another writer stored it whole:
// known members, and members no field models (a string, a number, a
// boolean, a map, a NULL).
func providerCreds() map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"accessToken":    av("AT-plaintext"),
		"tokenType":      av("bearer"),
		"id_token":       av("eyJ-plaintext-id-token"),
		"stripe_user_id": av("acct_plaintext"),
		"expires_in":     &types.AttributeValueMemberN{Value: "3599"},
		"livemode":       &types.AttributeValueMemberBOOL{Value: false},
		"team":           &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"id": av("T-plaintext"), "tags": &types.AttributeValueMemberL{Value: []types.AttributeValue{}}}},
		"gone":           &types.AttributeValueMemberNULL{Value: true},
	}
}

// Read tolerant, write whole: an item whose nested maps hold members the
// struct does not model reads them into the nested Extra, every write
// (Import, Update of another field, Put of the value read) keeps them,
// the secret catch-all's members are sealed at rest (no plaintext in the
// stored item) and read back unsealed, a struct assigned whole drops the
// old members, and a strict read refuses a plaintext catch-all member.
func TestNestedExtraKeptAndSealed(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("nested"))
	links := table.NewEntity(tb, linkDef)
	k := table.Key{PK: "LINK#a", SK: "L"}
	legacy := table.Item{
		"id": av("a"), "status": av("active"),
		"creds": &types.AttributeValueMemberM{Value: providerCreds()},
		"meta":  &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"name": av("n"), "region": av("eu")}},
		"hops": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"name": av("h1"), "via": av("relay")}},
		}},
	}
	if o, err := links.Import(ctx(t), legacy, false); err != nil || o != table.Changed {
		t.Fatalf("import: %v %v", o, err)
	}
	wantCreds := table.Extra{}
	for name, v := range providerCreds() {
		if name != "accessToken" && name != "tokenType" {
			wantCreds[name] = v
		}
	}
	check := func(step string) link {
		t.Helper()
		got, err := links.Get(ctx(t), k)
		if err != nil {
			t.Fatalf("%s: get: %v", step, err)
		}
		if got.Creds.AccessToken != "AT-plaintext" || got.Creds.TokenType != "bearer" {
			t.Errorf("%s: known members %+v", step, got.Creds)
		}
		if d := cmp.Diff(wantCreds, got.Creds.Extra, exporter); d != "" {
			t.Errorf("%s: creds catch-all (-want +got):\n%s", step, d)
		}
		if got.Meta == nil || got.Meta.Name != "n" || !cmp.Equal(got.Meta.Extra, table.Extra{"region": av("eu")}, exporter) {
			t.Errorf("%s: meta %+v", step, got.Meta)
		}
		if len(got.Hops) != 1 || !cmp.Equal(got.Hops[0].Extra, table.Extra{"via": av("relay")}, exporter) {
			t.Errorf("%s: hops %+v", step, got.Hops)
		}
		raw := tabletest.RawItem(t, tb, k)
		stored := raw["creds"].(*types.AttributeValueMemberM).Value
		for name, v := range stored {
			switch name {
			case "tokenType":
				continue // not a secret
			case "gone":
				if _, ok := v.(*types.AttributeValueMemberNULL); !ok {
					t.Errorf("%s: creds.gone stored as %T, want NULL kept", step, v)
				}
				continue
			}
			if b, ok := v.(*types.AttributeValueMemberB); !ok || !(bytes.HasPrefix(b.Value, []byte("STS1")) || bytes.HasPrefix(b.Value, []byte("STV1"))) {
				t.Errorf("%s: creds.%s stored as %T, want a sealed envelope", step, name, v)
			}
		}
		if s := fmt.Sprint(raw); strings.Contains(s, "plaintext") {
			t.Errorf("%s: plaintext in the stored item: %v", step, raw["creds"])
		}
		m := raw["meta"].(*types.AttributeValueMemberM).Value
		if s, ok := m["region"].(*types.AttributeValueMemberS); !ok || s.Value != "eu" {
			t.Errorf("%s: meta.region stored as %v, want kept as it is", step, m["region"])
		}
		return got
	}
	got := check("import")

	// Update of another field: the catch-alls are carried through.
	if _, err := links.Update(ctx(t), k, func(l *link) error { l.Status = "paused"; return nil }); err != nil {
		t.Fatal(err)
	}
	check("update of status")
	// A change of a catch-all member is written (and sealed).
	if _, err := links.Update(ctx(t), k, func(l *link) error {
		l.Creds.Extra["stripe_user_id"] = av("acct_plaintext_2")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	wantCreds["stripe_user_id"] = av("acct_plaintext_2")
	got = check("update of a member")
	// Put of the value read writes them back.
	got.Status = "active"
	if err := links.Put(ctx(t), &got); err != nil {
		t.Fatal(err)
	}
	check("put")

	// A struct assigned whole writes what it holds: new credentials drop
	// the old token response's members.
	got, err := links.Update(ctx(t), k, func(l *link) error { l.Creds = tokenSet{AccessToken: "AT-2"}; return nil })
	if err != nil || got.Creds.Extra != nil {
		t.Fatalf("new credentials: %+v, %v", got.Creds, err)
	}
	raw := tabletest.RawItem(t, tb, k)
	if n := len(raw["creds"].(*types.AttributeValueMemberM).Value); n != 1 {
		t.Errorf("new credentials: %d members stored, want 1: %v", n, raw["creds"])
	}

	// A plaintext catch-all member (another writer's) fails a strict read
	// and is sealed by the adoption of the item.
	if _, err := tb.Client().PutItem(ctx(t), &dynamodb.PutItemInput{TableName: aws.String(tb.Name()), Item: table.Item{
		"PK": av("LINK#b"), "SK": av("L"), "_type": av("Link"), "id": av("b"), "status": av("active"),
		"creds": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"id_token": av("eyJ-plain")}},
	}}); err != nil {
		t.Fatal(err)
	}
	kb := table.Key{PK: "LINK#b", SK: "L"}
	if _, err := links.Get(ctx(t), kb); !errors.Is(err, table.ErrPlaintextSecret) {
		t.Errorf("strict read of a plaintext catch-all member: %v, want ErrPlaintextSecret", err)
	}
	raw = tabletest.RawItem(t, tb, kb)
	if o, err := links.Adopt(ctx(t), raw, false); err != nil || o != table.Changed {
		t.Fatalf("adopt: %v %v", o, err)
	}
	b, err := links.Get(ctx(t), kb)
	if err != nil || !cmp.Equal(b.Creds.Extra, table.Extra{"id_token": av("eyJ-plain")}, exporter) {
		t.Errorf("adopted: %+v, %v", b.Creds, err)
	}
	if raw := tabletest.RawItem(t, tb, kb); strings.Contains(fmt.Sprint(raw), "eyJ-plain") {
		t.Errorf("adopted item still holds the plaintext: %v", raw["creds"])
	}
}

// A "m.*" secret path must name a struct attribute with a catch-all.
func TestNestedExtraSecretPathChecked(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("nestedbad"))
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `"status.*"`) {
			t.Errorf("NewEntity with Secrets status.*: %v, want a panic naming the path", r)
		}
	}()
	table.NewEntity(tb, table.Def[link]{Type: "Link", Keys: table.Template{PK: "LINK#{id}", SK: "L"}, Secrets: []string{"status.*"}})
}
