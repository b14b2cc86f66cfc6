package ferryhook_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
)

// TestSigningSecretsEncryptedAtRest: sources' and connections' signing
// secrets (credentials) reach DynamoDB only encrypted, and read back in
// plaintext through the store (FH-3, FH-5).
func TestSigningSecretsEncryptedAtRest(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	s := f.store
	u := mustUser(t, s, "enc@example.com")
	src := mustSource(t, s, u.UserID, "Stripe")
	conn, err := s.Connections.Create(ctx(t), u.UserID, src.SourceID, ferryhook.CreateConnectionInput{Name: "hook", DestinationURL: "https://example.com/hook"})
	if err != nil {
		t.Fatal(err)
	}
	raw := func(k table.Key) string {
		out, err := f.main.Client().GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(f.main.Name()), Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}}})
		if err != nil {
			t.Fatal(err)
		}
		v, _ := out.Item["signingSecret"].(*types.AttributeValueMemberB)
		if v == nil {
			t.Fatalf("%v has no sealed (binary) signingSecret: %#v", k, out.Item["signingSecret"])
		}
		return string(v.Value)
	}
	sk, _ := ferryhook.SourceKey(u.UserID, src.SourceID)
	ck, _ := ferryhook.ConnectionKey(src.SourceID, conn.ConnectionID)
	for _, c := range []struct {
		key   table.Key
		plain string
	}{{sk, "whsec_test"}, {ck, conn.SigningSecret}} {
		if got := raw(c.key); !strings.HasPrefix(got, "STS1") || strings.Contains(got, c.plain) {
			t.Errorf("%v stored signingSecret %q: not encrypted", c.key, got)
		}
	}
	list, err := s.Sources.ByUser.List(ctx(t), fh.Source{UserID: u.UserID})
	if err != nil || len(list.Items) != 1 || list.Items[0].SigningSecret != "whsec_test" {
		t.Errorf("FH-3 read back: %+v %v", list.Items, err)
	}
	conns, err := s.Connections.BySource.List(ctx(t), fh.Connection{UserID: u.UserID, SourceID: src.SourceID})
	if err != nil || len(conns.Items) != 1 || conns.Items[0].SigningSecret != conn.SigningSecret {
		t.Errorf("FH-5 read back: %+v %v", conns.Items, err)
	}
}
