package table_test

// Writes that take what the caller read, next to writers that never touch
// the version attribute (issue 26 §4): a raw PutItem or UpdateItem landing
// between the caller's read and its write is never overwritten.

import (
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// foreignWrite is one write by a service that does not know the library:
// it never reads or advances the version attribute.
type foreignWrite struct {
	name string
	// apply writes k; attrs is the item as the library stored it.
	apply func(t *testing.T, tb *table.Table, k table.Key)
	// check reports whether the foreign change is still stored.
	check func(stored map[string]types.AttributeValue) bool
}

func keyAV(k table.Key) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}}
}

func sAttr(item map[string]types.AttributeValue, a string) string {
	s, _ := item[a].(*types.AttributeValueMemberS)
	if s == nil {
		return ""
	}
	return s.Value
}

func nAttr(item map[string]types.AttributeValue, a string) string {
	n, _ := item[a].(*types.AttributeValueMemberN)
	if n == nil {
		return ""
	}
	return n.Value
}

// foreignWrites are the ways another service changes a member between the
// caller's read and its write: its own PutItem of the whole item (no _v,
// no _type: as a service writes it), an UpdateItem of another attribute,
// one of the attribute the caller changes, and one removing an index key
// (how Ferryhook's service revokes an API key).
func foreignWrites() []foreignWrite {
	return []foreignWrite{
		{"raw PutItem", func(t *testing.T, tb *table.Table, k table.Key) {
			item := tabletest.RawItem(t, tb, k)
			delete(item, "_v")
			delete(item, "_type")
			delete(item, "_wt")
			item["logins"] = &types.AttributeValueMemberN{Value: "41"}
			if _, err := tb.Client().PutItem(ctx(t), &dynamodb.PutItemInput{TableName: aws.String(tb.Name()), Item: item}); err != nil {
				t.Fatal(err)
			}
		}, func(s map[string]types.AttributeValue) bool { return nAttr(s, "logins") == "41" }},
		{"raw UpdateItem of another attribute", func(t *testing.T, tb *table.Table, k table.Key) {
			foreignSet(t, tb, k, "SET logins = :v", &types.AttributeValueMemberN{Value: "42"})
		}, func(s map[string]types.AttributeValue) bool { return nAttr(s, "logins") == "42" }},
		{"raw UpdateItem of the same attribute", func(t *testing.T, tb *table.Table, k table.Key) {
			foreignSet(t, tb, k, "SET note = :v", &types.AttributeValueMemberS{Value: "theirs"})
		}, func(s map[string]types.AttributeValue) bool { return sAttr(s, "note") == "theirs" }},
		{"raw UpdateItem removing an index key", func(t *testing.T, tb *table.Table, k table.Key) {
			foreignSet(t, tb, k, "REMOVE GSI1PK, GSI1SK", nil)
		}, func(s map[string]types.AttributeValue) bool { return s["GSI1PK"] == nil }},
	}
}

func foreignSet(t *testing.T, tb *table.Table, k table.Key, expr string, v types.AttributeValue) {
	t.Helper()
	in := &dynamodb.UpdateItemInput{TableName: aws.String(tb.Name()), Key: keyAV(k), UpdateExpression: aws.String(expr)}
	if v != nil {
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":v": v}
	}
	if _, err := tb.Client().UpdateItem(ctx(t), in); err != nil {
		t.Fatal(err)
	}
}

// Replace conditions its one UpdateItem on the whole image the caller
// read: each foreign write between the read and the replace fails it with
// ErrConflict and is kept; the caller's change is not written.
func TestReplaceRefusesForeignWrites(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	for i, fw := range foreignWrites() {
		t.Run(fw.name, func(t *testing.T) {
			k := table.Key{PK: "MEMBER#m" + strconv.Itoa(i), SK: "PROFILE"}
			f.create(t, member{ID: "m" + strconv.Itoa(i), Email: fmt.Sprintf("m%d@x.io", i), Status: "on", Note: "read"})
			m, err := f.members.Get(c, k)
			if err != nil {
				t.Fatal(err)
			}
			fw.apply(t, f.t, k)
			m.Note = "mine"
			if err := f.members.Replace(c, &m); !errors.Is(err, table.ErrConflict) {
				t.Fatalf("Replace after a %s = %v, want ErrConflict", fw.name, err)
			}
			stored := tabletest.RawItem(t, f.t, k)
			if !fw.check(stored) || sAttr(stored, "note") == "mine" {
				t.Fatalf("after the refused replace the store holds %v: the foreign change was overwritten", stored)
			}
			// Read again, replace again: it goes through and keeps the
			// foreign change (it is what the caller now read).
			m, err = f.members.Get(c, k)
			if err != nil {
				t.Fatal(err)
			}
			m.Team = "red"
			if err := f.members.Replace(c, &m); err != nil {
				t.Fatalf("Replace of a fresh read = %v", err)
			}
			stored = tabletest.RawItem(t, f.t, k)
			// (An index key the item derives but lacks is written back by any
			// write from a fresh read, as Update and the adoption job do.)
			if (!fw.check(stored) && fw.name != "raw UpdateItem removing an index key") || sAttr(stored, "team") != "red" {
				t.Fatalf("after the second replace: %v", stored)
			}
		})
	}
}

// The read state travels with the item: a replaced item can be replaced
// again, a copy of a stale read conflicts, an item built by hand or moved
// to another key is refused before any request, and an attribute another
// writer added (which the caller neither read nor sets) is kept.
func TestReplaceReadStateTravelsWithItem(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := table.Key{PK: "MEMBER#a", SK: "PROFILE"}
	created := member{ID: "a", Email: "a@x.io", Status: "on"}
	if err := f.members.Create(c, &created); err != nil {
		t.Fatal(err)
	}
	created.Note = "straight after create" // Create records what it wrote
	if err := f.members.Replace(c, &created); err != nil {
		t.Fatalf("Replace of the created item = %v", err)
	}
	m, err := f.members.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	stale := m
	m.Note = "one"
	if err := f.members.Replace(c, &m); err != nil {
		t.Fatal(err)
	}
	m.Note = "two" // the same item again: its read state advanced with the write
	if err := f.members.Replace(c, &m); err != nil {
		t.Fatalf("second Replace of the same item = %v", err)
	}
	stale.Note = "stale"
	if err := f.members.Replace(c, &stale); !errors.Is(err, table.ErrConflict) {
		t.Fatalf("Replace of a stale copy = %v, want ErrConflict", err)
	}
	// Update returns the item as written, ready for a replace.
	u, err := f.members.Update(c, k, func(m *member) error { m.Logins = 7; return nil })
	if err != nil {
		t.Fatal(err)
	}
	foreignSet(t, f.t, k, "SET addedElsewhere = :v", &types.AttributeValueMemberS{Value: "kept"})
	u.Note = "three"
	if err := f.members.Replace(c, &u); err != nil {
		t.Fatalf("Replace next to an attribute added elsewhere = %v, want success", err)
	}
	stored := tabletest.RawItem(t, f.t, k)
	if sAttr(stored, "addedElsewhere") != "kept" || sAttr(stored, "note") != "three" || nAttr(stored, "logins") != "7" {
		t.Fatalf("stored %v", stored)
	}
	rc := faultyRC(t, f)
	hand := member{ID: "a", Email: "a@x.io", Status: "on", Version: u.Version}
	if err := rc.members.Replace(c, &hand); !errors.Is(err, table.ErrInvalidInput) {
		t.Fatalf("Replace of an item built by hand = %v, want ErrInvalidInput", err)
	}
	moved := u
	moved.ID = "b"
	if err := rc.members.Replace(c, &moved); !errors.Is(err, table.ErrInvalidKey) {
		t.Fatalf("Replace of an item moved to another key = %v, want ErrInvalidKey", err)
	}
	if n := rc.rc.Total(); n != 0 {
		t.Fatalf("refused replaces sent %d requests, want 0", n)
	}
	// A Replace is one request.
	got, err := rc.members.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	rc.rc.Reset()
	got.Note = "four"
	if err := rc.members.Replace(c, &got); err != nil {
		t.Fatal(err)
	}
	if ops := rc.rc.Ops(); rc.rc.Total() != 1 || ops["UpdateItem"] != 1 {
		t.Fatalf("Replace sent %v, want one UpdateItem", ops)
	}
}

type countedFixture struct {
	fixture
	rc interface {
		Total() int
		Reset()
		Ops() map[string]int
	}
}

func faultyRC(t *testing.T, f fixture) countedFixture {
	ff, rc := faultyFixture(t, f, nil)
	return countedFixture{ff, rc}
}

// An item with more attributes than one expression can condition on
// (DynamoDB's 4 KB limit) is compared by a consistent GetItem instead:
// still refused after a foreign write, still writable otherwise.
func TestReplaceWideItemComparesByRead(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	k := table.Key{PK: "MEMBER#wide", SK: "PROFILE"}
	attrs := map[string]string{"PK": k.PK, "SK": k.SK, "id": "wide", "email": "w@x.io", "status": "on"}
	for i := range 200 {
		attrs[fmt.Sprintf("legacy%03d", i)] = "v"
	}
	putRaw(t, f.t, attrs)
	m, err := f.members.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	second := m
	m.Note = "wide"
	if err := f.members.Replace(c, &m); err != nil {
		t.Fatalf("Replace of a wide item = %v", err)
	}
	foreignSet(t, f.t, k, "SET legacy007 = :v", &types.AttributeValueMemberS{Value: "theirs"})
	m.Note = "again"
	if err := f.members.Replace(c, &m); !errors.Is(err, table.ErrConflict) {
		t.Fatalf("Replace of a wide item after a foreign write = %v, want ErrConflict", err)
	}
	second.Note = "stale"
	if err := f.members.Replace(c, &second); !errors.Is(err, table.ErrConflict) {
		t.Fatalf("stale Replace of a wide item = %v, want ErrConflict", err)
	}
	stored := tabletest.RawItem(t, f.t, k)
	if sAttr(stored, "legacy007") != "theirs" || sAttr(stored, "note") != "wide" || sAttr(stored, "legacy100") != "v" {
		t.Fatalf("stored note %q legacy007 %q", sAttr(stored, "note"), sAttr(stored, "legacy007"))
	}
}

// Update is read-modify-write: a raw PutItem or UpdateItem landing between
// its read and its write is a lost race when it touches what the update
// writes (Update re-reads and re-applies change, so the result includes
// the foreign change), and is kept as is when it does not.
func TestUpdateIncludesForeignWrites(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	for i, fw := range foreignWrites() {
		t.Run(fw.name, func(t *testing.T) {
			id := "u" + strconv.Itoa(i)
			k := table.Key{PK: "MEMBER#" + id, SK: "PROFILE"}
			f.create(t, member{ID: id, Email: id + "@x.io", Status: "on", Note: "read"})
			var calls atomic.Int32
			got, err := f.members.Update(c, k, func(m *member) error {
				if calls.Add(1) == 1 {
					fw.apply(t, f.t, k) // the other service, between our read and our write
				}
				m.Note += "+mine"
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			stored := tabletest.RawItem(t, f.t, k)
			want := "read+mine"
			if fw.name == "raw UpdateItem of the same attribute" {
				want = "theirs+mine" // re-applied to what the other service wrote
			}
			if want == "read+mine" && !fw.check(stored) {
				t.Fatalf("the foreign change was lost: %v", stored)
			}
			if sAttr(stored, "note") != want || got.Note != want {
				t.Fatalf("note stored %q returned %q, want %q (change ran %d times)", sAttr(stored, "note"), got.Note, want, calls.Load())
			}
			// A write that changed the version (the PutItem dropped it) or the
			// attribute the update writes fails its condition: change runs
			// again on what is stored. Other attributes are not a conflict.
			runs := int32(1)
			if fw.name == "raw PutItem" || fw.name == "raw UpdateItem of the same attribute" {
				runs = 2
			}
			if calls.Load() != runs {
				t.Fatalf("change ran %d times, want %d", calls.Load(), runs)
			}
		})
	}
}

// The writes that take no read item (Upsert, Patch, Change, Add) write
// only their own attributes: a foreign PutItem or UpdateItem of other
// attributes just before them is kept, and a counter adds to a foreign
// value instead of overwriting it.
func TestBlindWritesKeepForeignAttributes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t)
	note := table.MustField[member, string]("note")
	writes := map[string]func(t *testing.T, k table.Key, id string) error{
		"Upsert": func(t *testing.T, k table.Key, id string) error {
			m, err := f.members.Get(c, k)
			if err != nil {
				return err
			}
			foreignSet(t, f.t, k, "SET addedElsewhere = :v", &types.AttributeValueMemberS{Value: "kept"})
			m.Note = "mine"
			return f.members.Upsert(c, &m)
		},
		"Patch": func(t *testing.T, k table.Key, _ string) error {
			foreignSet(t, f.t, k, "SET addedElsewhere = :v", &types.AttributeValueMemberS{Value: "kept"})
			_, err := f.members.Patch(c, k, table.Patch{Set: map[string]any{"note": "mine"}})
			return err
		},
		"Change": func(t *testing.T, k table.Key, _ string) error {
			item := tabletest.RawItem(t, f.t, k) // the other service's own PutItem
			delete(item, "_v")
			item["addedElsewhere"] = &types.AttributeValueMemberS{Value: "kept"}
			if _, err := f.t.Client().PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(f.t.Name()), Item: item}); err != nil {
				return err
			}
			_, err := f.members.Change(c, k, table.Set(note, "mine"))
			return err
		},
		"Add": func(t *testing.T, k table.Key, _ string) error {
			foreignSet(t, f.t, k, "SET logins = :v", &types.AttributeValueMemberN{Value: "40"})
			foreignSet(t, f.t, k, "SET addedElsewhere = :v", &types.AttributeValueMemberS{Value: "kept"})
			if _, err := f.members.Add(c, k, "logins", 2); err != nil {
				return err
			}
			_, err := f.members.Patch(c, k, table.Patch{Set: map[string]any{"note": "mine"}})
			return err
		},
	}
	for name, write := range writes {
		t.Run(name, func(t *testing.T) {
			id := "blind-" + name
			k := table.Key{PK: "MEMBER#" + id, SK: "PROFILE"}
			f.create(t, member{ID: id, Email: id + "@x.io", Status: "on"})
			if err := write(t, k, id); err != nil {
				t.Fatal(err)
			}
			stored := tabletest.RawItem(t, f.t, k)
			if sAttr(stored, "addedElsewhere") != "kept" || sAttr(stored, "note") != "mine" {
				t.Fatalf("stored addedElsewhere %q note %q", sAttr(stored, "addedElsewhere"), sAttr(stored, "note"))
			}
			if name == "Add" && nAttr(stored, "logins") != "42" {
				t.Fatalf("logins %s, want 42: the foreign value plus ours", nAttr(stored, "logins"))
			}
		})
	}
}
