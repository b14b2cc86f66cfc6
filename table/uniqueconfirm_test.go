package table_test

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

type badge struct {
	ID    string `dynamo:"id"`
	Email string `dynamo:"email"`
}

// badgeDef shares the "email" unique namespace with loginDef: a value has
// one holder, of either entity.
var badgeDef = table.Def[badge]{
	Type:     "Badge",
	Keys:     table.Template{PK: "BADGE#{id}", SK: "B"},
	UniqueOn: []string{"email"},
}

// TestLookupUniqueAsksTheOwner (issue 26 §1, the untyped lookups): the
// engine confirms Table.LookupUnique and Table.LookupUniques by the owner
// the guard names, decoded by the entity bound to the table that owns it.
// An owner deleted or changed behind its guard by a raw write is not
// found, its orphan guard is reported and removed; an owner of no bound
// entity is refused with ErrUnconfirmedGuard; a typed lookup of a value an
// item of another entity holds is ErrNotFound and keeps that guard.
func TestLookupUniqueAsksTheOwner(t *testing.T) {
	t.Parallel()
	var log orphanLog
	tb := tabletest.NewTable(t, table.NewSchema("confirm"), log.option())
	logins := table.NewEntity(tb, loginDef)
	badges := table.NewEntity(tb, badgeDef)
	c := ctx(t)
	u := func(email string) table.Unique { return table.Unique{Name: "email", Value: email} }
	guardStored := func(email string) bool {
		t.Helper()
		return len(tabletest.RawItem(t, tb, table.GuardKey(u(email)))) > 0
	}
	for _, id := range []string{"a", "b", "c", "d"} {
		if err := logins.Create(c, &login{ID: id, Email: id + "@x.io", Name: id}); err != nil {
			t.Fatal(err)
		}
	}
	if err := badges.Create(c, &badge{ID: "e", Email: "e@x.io"}); err != nil {
		t.Fatal(err)
	}
	if k, err := tb.LookupUnique(c, u("a@x.io")); err != nil || k.PK != "LOGIN#a" {
		t.Fatalf("live LookupUnique: %v %v", k, err)
	}
	if gs, err := tb.LookupUniques(c, []table.Unique{u("a@x.io"), u("b@x.io"), u("e@x.io"), u("free@x.io")}); err != nil || len(gs) != 3 || gs[2].Owner.PK != "BADGE#e" {
		t.Fatalf("live LookupUniques: %+v %v", gs, err)
	}

	// Behind the guards: a deleted, c changed by a raw UpdateItem.
	if _, err := tb.Client().DeleteItem(c, &dynamodb.DeleteItemInput{TableName: aws.String(tb.Name()), Key: rawKey(table.Key{PK: "LOGIN#a", SK: "L"})}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"b", "c"} {
		if _, err := tb.Client().UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String(tb.Name()), Key: rawKey(table.Key{PK: "LOGIN#" + id, SK: "L"}),
			UpdateExpression:          aws.String("SET email = :e"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":e": &types.AttributeValueMemberS{Value: id + "@new.io"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if k, err := tb.LookupUnique(c, u("a@x.io")); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("LookupUnique of a deleted owner: %v, %v", k, err)
	}
	if k, err := tb.LookupUnique(c, u("b@x.io")); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("LookupUnique of a value its owner gave up: %v, %v", k, err)
	}
	gs, err := tb.LookupUniques(c, []table.Unique{u("c@x.io"), u("d@x.io"), u("e@x.io")})
	if err != nil || len(gs) != 2 || gs[0].Owner.PK != "LOGIN#d" || gs[1].Owner.PK != "BADGE#e" {
		t.Fatalf("LookupUniques after c gave its value up: %+v %v", gs, err)
	}
	r := log.reports()
	if len(r) != 3 || !r[0].OwnerMissing || r[1].OwnerMissing || r[2].OwnerMissing || !r[0].Removed || !r[1].Removed || !r[2].Removed {
		t.Fatalf("orphan reports %+v: want a (missing), b and c (changed), all removed", r)
	}
	for _, e := range []string{"a@x.io", "b@x.io", "c@x.io"} {
		if guardStored(e) {
			t.Errorf("orphan guard of %s kept", e)
		}
	}

	// A value of another entity: the typed lookup does not answer, and the
	// guard is no orphan.
	if got, err := logins.GetByUnique(c, u("e@x.io")); !errors.Is(err, table.ErrNotFound) {
		t.Fatalf("a login by a badge's value: %+v, %v", got, err)
	}
	if !guardStored("e@x.io") || len(log.reports()) != 3 {
		t.Fatal("a guard held by another entity's item was treated as an orphan")
	}

	// A handle that binds no entity cannot confirm: it does not answer.
	bare := table.New(tb.Client(), tb.Schema())
	if k, err := bare.LookupUnique(c, u("d@x.io")); !errors.Is(err, table.ErrUnconfirmedGuard) {
		t.Fatalf("LookupUnique on a handle without entities: %v, %v", k, err)
	}
	if gs, err := bare.LookupUniques(c, []table.Unique{u("d@x.io")}); !errors.Is(err, table.ErrUnconfirmedGuard) {
		t.Fatalf("LookupUniques on a handle without entities: %+v, %v", gs, err)
	}
}
