package table_test

// The catch-all (table.Extra, issue 26 §6): attributes the Go type does not
// model are read into Extra as stored and written back untouched by every
// write of the whole item.

import (
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// exporter lets cmp compare raw attribute values (ENVIRONMENT.md gotcha 8).
var exporter = cmp.Exporter(func(reflect.Type) bool { return true })

type pref struct {
	UserID  string          `dynamo:"userId"`
	Theme   string          `dynamo:"theme"`
	Version int64           `dynamo:"-"`
	Extra   table.Extra     `dynamo:"-"`
	Read    table.ReadState `dynamo:"-"`
}

var prefDef = table.Def[pref]{
	Type:    "Pref",
	Keys:    table.Template{PK: "PREF#{userId}", SK: "P"},
	Version: func(p *pref) *int64 { return &p.Version },
}

func av(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

// unmodelled is one attribute of every kind, none of which pref models.
func unmodelled() table.Item {
	return table.Item{
		"empty":   av(""),
		"null":    &types.AttributeValueMemberNULL{Value: true},
		"emptyL":  &types.AttributeValueMemberL{Value: []types.AttributeValue{}},
		"emptyM":  &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}},
		"bin":     &types.AttributeValueMemberB{Value: []byte{0, 1, 2}},
		"emptyB":  &types.AttributeValueMemberB{Value: []byte{}},
		"ss":      &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"ns":      &types.AttributeValueMemberNS{Value: []string{"1.50", "2"}},
		"bs":      &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
		"num":     &types.AttributeValueMemberN{Value: "12345678901234567890123.50"},
		"bool":    &types.AttributeValueMemberBOOL{Value: false},
		"display": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"density": av("compact"), "logo": av(""), "deep": &types.AttributeValueMemberL{Value: []types.AttributeValue{av(""), &types.AttributeValueMemberNULL{Value: true}}}}},
	}
}

func putRawItem(t *testing.T, tb *table.Table, item table.Item) {
	t.Helper()
	if _, err := tb.Client().PutItem(ctx(t), &dynamodb.PutItemInput{TableName: aws.String(tb.Name()), Item: item}); err != nil {
		t.Fatal(err)
	}
}

// storedAttrs returns the attributes of the stored item k named in names.
func storedAttrs(t *testing.T, tb *table.Table, k table.Key, names table.Item) table.Item {
	t.Helper()
	raw := tabletest.RawItem(t, tb, k)
	out := table.Item{}
	for n := range names {
		out[n] = raw[n]
	}
	return out
}

// sameAttrs fails unless got holds every attribute of want, byte for byte.
func sameAttrs(t *testing.T, step string, want, got table.Item) {
	t.Helper()
	sub := table.Item{}
	for k := range want {
		if v, ok := got[k]; ok {
			sub[k] = v
		}
	}
	if d := cmp.Diff(want, sub, exporter); d != "" {
		t.Errorf("%s: stored attributes changed (-want +got):\n%s", step, d)
	}
}

// TestExtraKeepsUnmodelledAttributes: an item written raw with attributes of
// every kind the type does not model gives them back in Extra, and Get then
// Update, Replace, Upsert, Put, BatchGet then BatchPut keep them byte for byte.
func TestExtraKeepsUnmodelledAttributes(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("extra"))
	e := table.NewEntity(tb, prefDef)
	c := ctx(t)
	k := table.Key{PK: "PREF#u1", SK: "P"}
	item := table.Item{"PK": av(k.PK), "SK": av(k.SK), "userId": av("u1"), "theme": av("dark")}
	for n, v := range unmodelled() {
		item[n] = v
	}
	putRawItem(t, tb, item)
	want := storedAttrs(t, tb, k, unmodelled()) // as DynamoDB stores them ("1.50" is 1.5)

	got, err := e.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(table.Extra(want), got.Extra, exporter); d != "" {
		t.Fatalf("Get: Extra (-want +got):\n%s", d)
	}
	sameAttrs(t, "raw", want, tabletest.RawItem(t, tb, k))

	steps := []struct {
		name string
		do   func() error
	}{
		{"Update", func() error {
			_, err := e.Update(c, k, func(p *pref) error { p.Theme = "light"; return nil })
			return err
		}},
		{"Replace", func() error {
			p, err := e.Get(c, k)
			if err != nil {
				return err
			}
			p.Theme = "blue"
			return e.Replace(c, &p)
		}},
		{"Replace with a nil Extra", func() error {
			p, err := e.Get(c, k)
			if err != nil {
				return err
			}
			p.Theme, p.Extra = "green", nil
			return e.Replace(c, &p)
		}},
		{"Upsert", func() error { return e.Upsert(c, &pref{UserID: "u1", Theme: "red"}) }},
		{"Put", func() error {
			p, err := e.Get(c, k)
			if err != nil {
				return err
			}
			p.Theme = "grey"
			return e.Put(c, &p)
		}},
		{"BatchGet then BatchPut", func() error {
			ps, err := e.BatchGet(c, []table.Key{k})
			if err != nil {
				return err
			}
			ps[0].Theme = "black"
			return e.BatchPut(c, []*pref{&ps[0]})
		}},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		sameAttrs(t, s.name, want, tabletest.RawItem(t, tb, k))
	}
	if got, err := e.Get(c, k); err != nil || got.Theme != "black" {
		t.Fatalf("after the writes: %+v, %v", got, err)
	}
}

// TestExtraChangesAreWritten: an entry changed, added or deleted in Extra
// is written by Update (SET, REMOVE); the others stay as stored.
func TestExtraChangesAreWritten(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("extrachg"))
	e := table.NewEntity(tb, prefDef)
	c := ctx(t)
	k := table.Key{PK: "PREF#u2", SK: "P"}
	item := table.Item{"PK": av(k.PK), "SK": av(k.SK), "userId": av("u2")}
	for n, v := range unmodelled() {
		item[n] = v
	}
	putRawItem(t, tb, item)
	before := storedAttrs(t, tb, k, unmodelled())
	if _, err := e.Update(c, k, func(p *pref) error {
		p.Extra["added"] = &types.AttributeValueMemberNS{Value: []string{"7"}}
		p.Extra["empty"] = av("now set")
		delete(p.Extra, "ss")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := before
	want["added"] = &types.AttributeValueMemberNS{Value: []string{"7"}}
	want["empty"] = av("now set")
	delete(want, "ss")
	raw := tabletest.RawItem(t, tb, k)
	sameAttrs(t, "Update of Extra", want, raw)
	if _, ok := raw["ss"]; ok {
		t.Errorf("ss deleted from Extra is still stored: %v", raw["ss"])
	}
}

// TestExtraOwnAttributes: Extra never holds the table's own attributes
// (keys, type, version, write tokens), and an entry named like one of
// them, or like a modelled field, is not written.
func TestExtraOwnAttributes(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, table.NewSchema("extraown"))
	e := table.NewEntity(tb, prefDef)
	c := ctx(t)
	p := pref{UserID: "u3", Theme: "dark", Extra: table.Extra{"PK": av("EVIL"), "theme": av("shadow"), "kept": av("yes")}}
	if err := e.Create(c, &p); err != nil {
		t.Fatal(err)
	}
	k := table.Key{PK: "PREF#u3", SK: "P"}
	raw := tabletest.RawItem(t, tb, k)
	if d := cmp.Diff(table.Item{"PK": av(k.PK), "theme": av("dark"), "kept": av("yes")},
		table.Item{"PK": raw["PK"], "theme": raw["theme"], "kept": raw["kept"]}, exporter); d != "" {
		t.Errorf("stored (-want +got):\n%s", d)
	}
	got, err := e.Get(c, k)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(table.Extra{"kept": av("yes")}, got.Extra, exporter); d != "" {
		t.Errorf("Extra holds more than the unmodelled attribute (-want +got):\n%s", d)
	}
}

// TestExtraMustBeUntagged: a table.Extra field without `dynamo:"-"` is a
// programming error found by NewEntity.
func TestExtraMustBeUntagged(t *testing.T) {
	t.Parallel()
	type bad struct {
		ID    string      `dynamo:"id"`
		Extra table.Extra `dynamo:"extra"`
	}
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, `tag it `+"`"+`dynamo:"-"`) {
			t.Errorf("NewEntity did not refuse the tagged Extra: %v", r)
		}
	}()
	tb := tabletest.NewTable(t, table.NewSchema("extrabad"))
	table.NewEntity(tb, table.Def[bad]{Type: "Bad", Keys: table.Template{PK: "BAD#{id}", SK: "B"}})
}
