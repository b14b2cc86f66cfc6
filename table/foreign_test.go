package table_test

// Updates next to writers that do not know the library (issue 10 §1): the
// write sets only what changed, conditioned on the values read for those
// attributes, and keeps everything else byte for byte.

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// foreignIncrement is another service's `SET logins = logins + :n`.
func foreignIncrement(t *testing.T, tb *table.Table, k table.Key, attr string) {
	t.Helper()
	_, err := tb.Client().UpdateItem(ctx(t), &dynamodb.UpdateItemInput{
		TableName:                 aws.String(tb.Name()),
		Key:                       map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}},
		UpdateExpression:          aws.String("SET #a = if_not_exists(#a, :z) + :one"),
		ExpressionAttributeNames:  map[string]string{"#a": attr},
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}, ":z": &types.AttributeValueMemberN{Value: "0"}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A raw SDK UpdateItem of another attribute, landing between the library's
// read and its write, is kept: nothing is lost.
func TestUpdateKeepsForeignChangeToOtherAttribute(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := table.Key{PK: "MEMBER#a", SK: "PROFILE"}
	putRaw(t, f.t, map[string]string{"PK": k.PK, "SK": k.SK, "id": "a", "email": "a@x.io", "status": "on"})
	var calls atomic.Int32
	got, err := f.members.Update(c, k, func(m *member) error {
		if calls.Add(1) == 1 {
			foreignIncrement(t, f.t, k, "logins") // the other service, racing
		}
		m.Note = "library"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := f.members.Get(c, k)
	if err != nil || stored.Logins != 1 || stored.Note != "library" {
		t.Fatalf("stored logins %d note %q (%v); want 1 and library: the foreign increment was lost", stored.Logins, stored.Note, err)
	}
	if calls.Load() != 1 || got.Note != "library" {
		t.Fatalf("change ran %d times, want 1 (no conflict on another attribute)", calls.Load())
	}
}

// A foreign change to the same attribute is a conflict: Update re-reads and
// re-applies, so both effects are kept.
func TestUpdateRetriesForeignChangeToSameAttribute(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := table.Key{PK: "MEMBER#a", SK: "PROFILE"}
	putRaw(t, f.t, map[string]string{"PK": k.PK, "SK": k.SK, "id": "a", "email": "a@x.io", "status": "on"})
	var calls atomic.Int32
	if _, err := f.members.Update(c, k, func(m *member) error {
		if calls.Add(1) == 1 {
			foreignIncrement(t, f.t, k, "logins")
		}
		m.Logins += 10
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	stored, _ := f.members.Get(c, k)
	if stored.Logins != 11 || calls.Load() != 2 {
		t.Fatalf("logins %d after %d runs of change; want 11 after 2", stored.Logins, calls.Load())
	}
}

// A rewrite keeps what it did not change, byte for byte: unknown
// attributes, NULLs, and the stored form of unchanged fields.
func TestUpdateKeepsUnchangedBytes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := table.Key{PK: "MEMBER#a", SK: "PROFILE"}
	item := map[string]types.AttributeValue{
		"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK},
		"id": &types.AttributeValueMemberS{Value: "a"}, "email": &types.AttributeValueMemberS{Value: "a@x.io"},
		"status":    &types.AttributeValueMemberS{Value: "on"},
		"note":      &types.AttributeValueMemberNULL{Value: true},                           // a NULL the Go type reads as ""
		"createdAt": &types.AttributeValueMemberS{Value: "2026-11-22T10:00:00.000Z"},        // JavaScript's toISOString
		"GSI1PK":    &types.AttributeValueMemberS{Value: "STATUS#on"},                       // as the other service wrote it
		"GSI1SK":    &types.AttributeValueMemberS{Value: "member#a"},                        // (not the library's form)
		"extra":     &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}, // unknown to the Go type
	}
	if _, err := f.t.Client().PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(f.t.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.members.Update(c, k, func(m *member) error { m.Team = "red"; return nil }); err != nil {
		t.Fatal(err)
	}
	after := tabletest.RawItem(t, f.t, k)
	for _, attr := range []string{"note", "createdAt", "extra", "GSI1PK", "GSI1SK", "email"} {
		if !equalAV(item[attr], after[attr]) {
			t.Errorf("%s changed from %#v to %#v though the update did not change it", attr, item[attr], after[attr])
		}
	}
	if s, ok := after["team"].(*types.AttributeValueMemberS); !ok || s.Value != "red" {
		t.Errorf("team = %#v, want red", after["team"])
	}
	if s, ok := after["GSI2PK"].(*types.AttributeValueMemberS); !ok || s.Value != "TEAM#red" {
		t.Errorf("GSI2PK = %#v, want TEAM#red: the index of the changed field moves", after["GSI2PK"])
	}
	// A status change moves GSI1 (its source changed).
	if _, err := f.members.Update(c, k, func(m *member) error { m.Status = "off"; return nil }); err != nil {
		t.Fatal(err)
	}
	after = tabletest.RawItem(t, f.t, k)
	if s := after["GSI1PK"].(*types.AttributeValueMemberS).Value; s != "STATUS#off" {
		t.Errorf("GSI1PK = %q after a status change, want STATUS#off", s)
	}
}

func equalAV(a, b types.AttributeValue) bool {
	switch a := a.(type) {
	case *types.AttributeValueMemberS:
		b, ok := b.(*types.AttributeValueMemberS)
		return ok && a.Value == b.Value
	case *types.AttributeValueMemberNULL:
		_, ok := b.(*types.AttributeValueMemberNULL)
		return ok
	case *types.AttributeValueMemberM:
		b, ok := b.(*types.AttributeValueMemberM)
		return ok && len(a.Value) == len(b.Value)
	}
	return false
}

// A legacy duplicate (another item already holds an unchanged unique
// value) never blocks a write of other fields; a value the write sets is
// still checked.
func TestUpdateNotBlockedByLegacyDuplicate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	f.create(t, member{ID: "first", Email: "dup@x.io", Status: "on"})
	k := table.Key{PK: "MEMBER#second", SK: "PROFILE"}
	putRaw(t, f.t, map[string]string{"PK": k.PK, "SK": k.SK, "id": "second", "email": "dup@x.io", "status": "on"})
	if _, err := f.members.Update(c, k, func(m *member) error { m.Note = "still writable"; return nil }); err != nil {
		t.Fatalf("update of a legacy duplicate's other field = %v, want success", err)
	}
	if err := f.members.EnsureGuards(c, k); !errors.Is(err, table.ErrUniqueViolation) {
		t.Fatalf("EnsureGuards on the duplicate = %v, want ErrUniqueViolation (it reports it)", err)
	}
	if _, err := f.members.Update(c, k, func(m *member) error { m.Email = "dup@x.io"; m.Status = "x"; return nil }); err != nil {
		t.Fatalf("unchanged email: %v", err)
	}
}

// Strict writes, tolerant reads: Validate judges what a write changes; a
// legacy value carried through never refuses it.
func TestUpdateValidatesOnlyWhatChanges(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := table.Key{PK: "MEMBER#old", SK: "PROFILE"}
	putRaw(t, f.t, map[string]string{"PK": k.PK, "SK": k.SK, "id": "old", "email": "no-at-sign", "status": "on"})
	if _, err := f.members.Update(c, k, func(m *member) error { m.Note = "fine"; return nil }); err != nil {
		t.Fatalf("update of another field of an item with a legacy invalid email = %v, want success", err)
	}
	var ve *table.ValidationError
	_, err := f.members.Update(c, k, func(m *member) error { m.Email = "still-no-at"; return nil })
	if !errors.As(err, &ve) || ve.Field != "email" {
		t.Fatalf("update setting an invalid email = %v, want a ValidationError on email", err)
	}
	got, _ := f.members.Get(c, k)
	if got.Email != "no-at-sign" || got.Note != "fine" {
		t.Fatalf("stored %+v", got)
	}
}
