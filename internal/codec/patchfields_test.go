package codec

import (
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"
	"github.com/guregu/dynamo/v2"
)

type stamp string

func (s stamp) MarshalDynamo() (types.AttributeValue, error) {
	return &types.AttributeValueMemberS{Value: "at " + string(s)}, nil
}

type selfEncoded struct {
	Name string `dynamo:"name"`
}

func (selfEncoded) MarshalDynamoItem() (map[string]types.AttributeValue, error) { return nil, nil }

type encInner struct{ A string }

type encEmbedded struct {
	Deep string `dynamo:"deep"`
}

type encFields struct {
	encEmbedded
	Name     string            `dynamo:"name"`
	Empty    string            `dynamo:"empty,allowempty"`
	N        int64             `dynamo:"n"`
	U        uint8             `dynamo:"u"`
	F        float64           `dynamo:"f"`
	B        bool              `dynamo:"b"`
	At       time.Time         `dynamo:"at"`
	Unix     time.Time         `dynamo:"unix,unixtime"`
	Tags     []string          `dynamo:"tags,set"`
	List     []string          `dynamo:"list"`
	Bytes    []byte            `dynamo:"bytes"`
	Ptr      *string           `dynamo:"ptr"`
	GoName   int               // no tag: the Go name
	Inner    encInner          `dynamo:"inner"`
	M        map[string]string `dynamo:"m"`
	Any      any               `dynamo:"any"`
	Override string            `dynamo:"override,omitempty"`
	Stamp    stamp             `dynamo:"stamp"`
}

// TestEncodeFieldsIsWholeEncoding: a patch's set fields encoded alone are
// what guregu's encoding of a whole struct holding them holds under
// their names; fields whose encoding could differ are left to it.
func TestEncodeFieldsIsWholeEncoding(t *testing.T) {
	rt := reflect.TypeFor[encFields]()
	s := "p"
	at := time.Date(2026, 11, 28, 21, 0, 0, 5, time.UTC)
	for _, set := range []map[string]any{
		{"name": "x"}, {"name": ""}, {"name": nil}, {"empty": ""}, {"empty": "e"},
		{"n": int64(-7)}, {"n": 3}, {"u": uint8(9)}, {"f": 1.5}, {"b": true}, {"b": false},
		{"at": at}, {"unix": at}, {"unix": time.Time{}},
		{"tags": []string{"b", "a"}}, {"tags": []string{}}, {"list": []string{"a", ""}}, {"bytes": []byte{1}},
		{"ptr": &s}, {"ptr": s}, {"GoName": 4}, {"override": "o"}, {"stamp": "s"}, {"stamp": stamp("")},
		{"name": "x", "n": int64(1), "unix": at, "tags": []string{"t"}},
	} {
		got, ok := EncodeFields(rt, set)
		if !ok {
			t.Fatalf("%v: not encoded alone", set)
		}
		var whole encFields
		rv := reflect.ValueOf(&whole).Elem()
		for name, v := range set {
			if err := AssignField(rv, FieldsOf(rt)[name], v); err != nil {
				t.Fatal(err)
			}
		}
		av, err := dynamo.MarshalItem(&whole)
		if err != nil {
			t.Fatal(err)
		}
		want := Item{}
		for name := range set {
			if a, ok := av[name]; ok {
				want[name] = a
			}
		}
		if d := cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })); d != "" {
			t.Errorf("%v: (-whole +alone):\n%s", set, d)
		}
	}
	for _, set := range []map[string]any{
		{"deep": "x"}, {"inner": encInner{A: "a"}}, {"m": map[string]string{"a": ""}}, {"any": "x"},
		{"unknown": "x"}, {"name": "x", "m": map[string]string{}}, {"n": "not a number"}, {},
	} {
		if got, ok := EncodeFields(rt, set); ok {
			t.Errorf("%v: encoded alone (%v), want left to the whole encoding", set, got)
		}
	}
	if _, ok := EncodeFields(rt, map[string]any{"name": "x"}, []string{"other"}, []string{"name"}); ok {
		t.Error("an always-written attribute: encoded alone")
	}
	if _, ok := EncodeFields(reflect.TypeFor[selfEncoded](), map[string]any{"name": "y"}); ok {
		t.Error("a type that encodes itself: encoded alone")
	}
}
