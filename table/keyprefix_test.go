package table_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// event names its account only in the key (a key-only field) and its kind
// both in the key and as an attribute.
type event struct {
	Account string `dynamo:"-" key:"account"`
	Kind    string `dynamo:"kind" key:"kind"`
	ID      string `dynamo:"id"`
	Body    string `dynamo:"body"`
}

var eventDef = table.Def[event]{
	Type:      "Event",
	Keys:      table.Template{PK: "ACCT#{account}", SK: "EV#{kind}#{id}"},
	IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "KIND#{kind}", SK: "{account}#{id}"}},
}

// Entity.Prefix narrows a partition by the leading sort-key fields set,
// typed: "EV#x#" never matches kind "xy", every field set is one key, none
// set is Entity.Partition's query; each is a real Query on DynamoDB Local.
func TestEntityPrefix(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("core"))
	events := table.NewEntity(tb, eventDef)
	c := ctx(t)
	for _, e := range []event{{"a1", "x", "1", "one"}, {"a1", "x", "2", "two"}, {"a1", "xy", "3", "three"}, {"a2", "x", "4", "four"}} {
		if err := events.Create(c, &e); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		q    table.Query
		sk   table.SKCond
		want []string
	}{
		{"kind x", events.Prefix(table.Primary, event{Account: "a1", Kind: "x"}), table.SKBeginsWith("EV#x#"), []string{"1", "2"}},
		{"kind xy", events.Prefix(table.Primary, event{Account: "a1", Kind: "xy"}), table.SKBeginsWith("EV#xy#"), []string{"3"}},
		{"whole key", events.Prefix(table.Primary, event{Account: "a1", Kind: "x", ID: "2"}), table.SKEquals("EV#x#2"), []string{"2"}},
		{"no sort field: Partition", events.Prefix(table.Primary, event{Account: "a1"}), table.SKBeginsWith("EV#"), []string{"1", "2", "3"}},
		{"id without kind is not read", events.Prefix(table.Primary, event{Account: "a1", ID: "2"}), table.SKBeginsWith("EV#"), []string{"1", "2", "3"}},
		{"GSI1 by kind and account", events.Prefix(table.GSI1, event{Kind: "x", Account: "a1"}), table.SKBeginsWith("a1#"), []string{"1", "2"}},
		{"GSI1 by kind", events.Prefix(table.GSI1, event{Kind: "x"}), table.SKCond{}, []string{"1", "2", "4"}},
	} {
		if tc.q.Err() != nil {
			t.Fatalf("%s: %v", tc.name, tc.q.Err())
		}
		if tc.q.SK != tc.sk {
			t.Errorf("%s: sort key condition %+v, want %+v", tc.name, tc.q.SK, tc.sk)
		}
		p, err := events.List(c, tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var ids []string
		for _, e := range p.Items {
			ids = append(ids, e.ID)
			if e.Account == "" || e.Kind == "" {
				t.Errorf("%s: %+v read without its key fields", tc.name, e)
			}
		}
		if diff := cmp.Diff(tc.want, ids); diff != "" {
			t.Errorf("%s: ids (-want +got):\n%s", tc.name, diff)
		}
	}
	if q := events.Prefix(table.Primary, event{Kind: "x"}); !errors.Is(q.Err(), table.ErrInvalidInput) {
		t.Errorf("Prefix without the partition's field: %v, want ErrInvalidInput", q.Err())
	}
}

// A field tagged key:"name" reads from the primary key: a key-only field is
// filled, an item another writer stored without the attribute reads whole,
// and the key wins over a stored value; FromKey parses a key into typed
// fields and refuses another shape.
func TestKeyFieldsRead(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("core"))
	events := table.NewEntity(tb, eventDef)
	c := ctx(t)
	if err := events.Create(c, &event{Account: "a1", Kind: "x", ID: "1", Body: "mine"}); err != nil {
		t.Fatal(err)
	}
	putRaw(t, tb, map[string]string{"PK": "ACCT#a1", "SK": "EV#y#2", "_type": "Event", "id": "2", "body": "foreign, no kind"})
	putRaw(t, tb, map[string]string{"PK": "ACCT#a1", "SK": "EV#z#3", "_type": "Event", "id": "3", "kind": "stale", "body": "foreign, other kind"})
	for _, want := range []event{{"a1", "x", "1", "mine"}, {"a1", "y", "2", "foreign, no kind"}, {"a1", "z", "3", "foreign, other kind"}} {
		got, err := events.Get(c, events.Key(want))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Get (-want +got):\n%s", diff)
		}
	}
	got, err := events.FromKey(table.Key{PK: "ACCT#a9", SK: "EV#k#77"})
	if err != nil || got != (event{Account: "a9", Kind: "k", ID: "77"}) {
		t.Errorf("FromKey = %+v, %v", got, err)
	}
	var ve *table.ValidationError
	if _, err := events.FromKey(table.Key{PK: "USER#a9", SK: "EV#k#77"}); !errors.As(err, &ve) || !ve.Key {
		t.Errorf("FromKey of another shape = %v, want a key *ValidationError", err)
	}
}
