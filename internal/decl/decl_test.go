package decl

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"
	"github.com/singletable/singletable/internal/ddb"
)

type note struct {
	ID      string    `dynamo:"id"`
	Author  string    `dynamo:"author"`
	Email   string    `dynamo:"email"`
	Active  bool      `dynamo:"active"`
	Expires time.Time `dynamo:"expires"`
	Tenant  string    `dynamo:"-" key:"tenant"`
}

func spec() Spec {
	return Spec{Type: "note", PK: "T#{tenant}#NOTE#{id}", SK: "NOTE",
		Indexes:  map[ddb.Index]IndexSpec{1: {PK: "AUTHOR#{author}#{id:shard4}", SK: "NOTE#{id}", When: []string{"active"}}},
		UniqueOn: []string{"email"}, UniqueFold: map[string]func(string) string{"email": strings.ToLower},
		TTLFrom: "expires", TTLAfter: time.Hour}
}

func TestParseDerives(t *testing.T) {
	t.Parallel()
	d := Parse(reflect.TypeFor[note](), ddb.NewSchema("t"), spec())
	n := note{ID: "n1", Author: "ann", Email: "Ann@X", Active: true, Expires: time.Unix(1000, 0), Tenant: "t1"}
	av, err := d.Encode(&n)
	if err != nil {
		t.Fatal(err)
	}
	k, err := d.Primary(av)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Key{PK: "T#t1#NOTE#n1", SK: "NOTE"}); k != want || !d.Match(k) {
		t.Errorf("Primary = %v (match %v), want %v", k, d.Match(k), want)
	}
	if _, stored := av["tenant"]; !stored {
		t.Error("Encode left out the key-only field")
	}
	ix, err := d.IndexKeys(av)
	if err != nil || ix[1].PK == "" || !strings.HasPrefix(ix[1].PK, "AUTHOR#ann#") || ix[1].SK != "NOTE#n1" {
		t.Errorf("IndexKeys = %v, %v", ix, err)
	}
	if diff := cmp.Diff([]ddb.Unique{{Name: "email", Value: "ann@x"}}, d.Uniques(av)); diff != "" {
		t.Errorf("Uniques (-want +got):\n%s", diff)
	}
	if got, want := d.Expiry(av), time.Unix(1000, 0).Add(time.Hour); !got.Equal(want) {
		t.Errorf("Expiry = %v, want %v", got, want)
	}
	if d.UniqueRaw != true || !strings.Contains(strings.Join(d.Indexed, ","), "expires") {
		t.Errorf("UniqueRaw %v, Indexed %v", d.UniqueRaw, d.Indexed)
	}
	n.Active = false // When: out of the sparse index
	av, _ = d.Encode(&n)
	if ix, _ := d.IndexKeys(av); len(ix) != 0 {
		t.Errorf("inactive IndexKeys = %v, want none", ix)
	}
	if d.Partition(1).Shards() != 4 || d.Partition(ddb.Primary).Shards() != 0 {
		t.Errorf("Partition shards: %d, %d", d.Partition(1).Shards(), d.Partition(ddb.Primary).Shards())
	}
}

func TestMovableIndexes(t *testing.T) {
	t.Parallel()
	d := Parse(reflect.TypeFor[note](), ddb.NewSchema("t"), spec())
	k := Key{PK: "T#t1#NOTE#n1", SK: "NOTE"}
	set := map[string]any{"author": "bob", "active": true}
	enc := Item{"author": &types.AttributeValueMemberS{Value: "bob"}, "active": &types.AttributeValueMemberBOOL{Value: true}}
	moves, allowed, err := d.MovableIndexes(set, enc, k)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(moves[1].PK, "AUTHOR#bob#") || moves[1].SK != "NOTE#n1" || !allowed["author"] || !allowed["active"] {
		t.Errorf("moves %v, allowed %v", moves, allowed)
	}
	if moves, _, _ := d.MovableIndexes(map[string]any{"author": "bob"}, enc, k); len(moves) != 0 {
		t.Errorf("a patch setting part of an index moved it: %v", moves)
	}
}

func TestRelayout(t *testing.T) {
	t.Parallel()
	sc := ddb.NewSchema("t")
	d := Parse(reflect.TypeFor[note](), sc, spec())
	is, _ := sc.GSI(1)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	derived := Item{is.PK: s("AUTHOR#ann#" + "3")}
	for _, c := range []struct {
		stored string
		want   bool
	}{{"AUTHOR#ann", true}, {"AUTHOR#ann#1", true}, {"AUTHOR#ann#3", false}, {"AUTHOR#annie", false}} {
		if got := d.Relayout(sc, Item{is.PK: s(c.stored)}, derived)[is.PK]; got != c.want {
			t.Errorf("Relayout(%q) = %v, want %v", c.stored, got, c.want)
		}
	}
	if (*Decl)(nil).Relayout(sc, nil, derived) != nil || (*Decl)(nil).Match(Key{}) {
		t.Error("a nil Decl derives something")
	}
}

func TestParseRefuses(t *testing.T) {
	t.Parallel()
	for name, mutate := range map[string]func(*Spec){
		"missing SK":        func(s *Spec) { s.SK = "" },
		"unknown attribute": func(s *Spec) { s.PK = "NOTE#{nope}" },
		"unknown When":      func(s *Spec) { s.Indexes[1] = IndexSpec{PK: "A#{author}", SK: "N", When: []string{"!nope"}} },
		"unknown UniqueOn":  func(s *Spec) { s.UniqueOn = []string{"nope"} },
		"fold not unique":   func(s *Spec) { s.UniqueFold = map[string]func(string) string{"x": strings.ToLower} },
		"custom no From":    func(s *Spec) { s.Custom = true },
		"TTL.After alone":   func(s *Spec) { s.TTLFrom = "" },
		"secret not string": func(s *Spec) { s.Secrets = []string{"active"} },
		"ValidWhileIndexed": func(s *Spec) { s.ValidWhileIndexed = []ddb.Index{2} },
	} {
		t.Run(name, func(t *testing.T) {
			s := spec()
			s.Indexes = map[ddb.Index]IndexSpec{1: s.Indexes[1]}
			mutate(&s)
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "table.NewEntity(note)") {
					t.Errorf("recovered %v, want a table.NewEntity panic", r)
				}
			}()
			Parse(reflect.TypeFor[note](), ddb.NewSchema("t"), s)
		})
	}
}
