package tinode_test

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/query/tinode"
	"github.com/singletable/singletable/table"
)

// TestUserByCredAsksTheCredential_TN30: a credential's guard is an index,
// never the truth (issue 26). When the validated credential is deleted by
// a raw DeleteItem that leaves its guard (another writer, a restore, a
// bug), UserByCred finds no user, and the orphan guard is removed so the
// value can be validated again by someone else.
func TestUserByCredAsksTheCredential_TN30(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	c := ctx(t)
	if _, err := s.Creds.Upsert(c, &tn.Credential{User: "bob", Method: "email", Value: "b@example.com", Resp: "1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Creds.Confirm(c, "bob", "email"); err != nil {
		t.Fatal(err)
	}
	if id, err := s.Creds.UserByCred(c, "email", "b@example.com"); err != nil || id != "bob" {
		t.Fatalf("TN-30 user by credential: %q, %v", id, err)
	}
	k, err := tinode.CredKey(s, "bob", "email", "b@example.com")
	if err != nil {
		t.Fatal(err)
	}
	tb := s.Table()
	if _, err := tb.Client().DeleteItem(c, &dynamodb.DeleteItemInput{
		TableName: aws.String(tb.Name()),
		Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: k.PK},
			"SK": &types.AttributeValueMemberS{Value: k.SK},
		},
	}); err != nil {
		t.Fatal(err)
	}
	if id, err := s.Creds.UserByCred(c, "email", "b@example.com"); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("a credential deleted behind its guard still finds user %q (%v)", id, err)
	}
	if _, err := tb.LookupUnique(c, tn.CredUnique("email", "b@example.com")); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("the orphan guard was not removed: %v", err)
	}
	if _, err := s.Creds.Upsert(c, &tn.Credential{User: "carol", Method: "email", Value: "b@example.com", Resp: "2"}); err != nil {
		t.Fatalf("the freed value cannot be claimed again: %v", err)
	}
	if _, err := s.Creds.Confirm(c, "carol", "email"); err != nil {
		t.Fatal(err)
	}
	if id, err := s.Creds.UserByCred(c, "email", "b@example.com"); err != nil || id != "carol" {
		t.Fatalf("after carol confirmed: %q, %v", id, err)
	}
}
