package table

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"
	"github.com/guregu/dynamo/v2"
	"github.com/singletable/singletable/internal/codec"
)

type inner struct {
	A string            `dynamo:"a"`
	B []int             `dynamo:"b"`
	M map[string]string `dynamo:"m"`
}

type wide struct {
	S     string            `dynamo:"s"`
	N     int64             `dynamo:"n"`
	F     float64           `dynamo:"f"`
	B     bool              `dynamo:"b"`
	T     time.Time         `dynamo:"t"`
	TP    *time.Time        `dynamo:"tp"`
	U     time.Time         `dynamo:"u,unixtime"`
	SS    []string          `dynamo:"ss,set"`
	L     []string          `dynamo:"l"`
	Bin   []byte            `dynamo:"bin"`
	In    inner             `dynamo:"in"`
	InP   *inner            `dynamo:"inp"`
	Nums  map[string]int    `dynamo:"nums"`
	Null  string            `dynamo:"null"`
	Skip  string            `dynamo:"-"`
	Plain string            // untagged: attribute "Plain"
	Named myString          `dynamo:"named"`
	Deep  []map[string]bool `dynamo:"deep"`
}

type myString string

// flatWide is wide without nested structs: the fast path's kinds.
type flatWide struct {
	S     string            `dynamo:"s"`
	N     int64             `dynamo:"n"`
	F     float64           `dynamo:"f"`
	B     bool              `dynamo:"b"`
	T     time.Time         `dynamo:"t"`
	TP    *time.Time        `dynamo:"tp"`
	U     time.Time         `dynamo:"u,unixtime"`
	SS    []string          `dynamo:"ss,set"`
	L     []string          `dynamo:"l"`
	Bin   []byte            `dynamo:"bin"`
	Nums  map[string]int    `dynamo:"nums"`
	Null  string            `dynamo:"null"`
	Plain string            // untagged: attribute "Plain"
	Named myString          `dynamo:"named"`
	Deep  []map[string]bool `dynamo:"deep"`
}

type custom struct{ V string }

func (c *custom) UnmarshalDynamo(av types.AttributeValue) error {
	c.V = "custom:" + av.(*types.AttributeValueMemberS).Value
	return nil
}

type withCustom struct {
	C custom          `dynamo:"c"`
	R json.RawMessage `dynamo:"r"`
}

// TestFastDecodeMatchesGuregu proves the attributevalue decode path gives
// guregu's result on every kind of field the library encodes.
func TestFastDecodeMatchesGuregu(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 10, 11, 12, 123456789, time.UTC)
	in := wide{S: "x", N: -5, F: 1.5, B: true, T: now, TP: &now, U: now.Truncate(time.Second), SS: []string{"a", "b"},
		L: []string{"c"}, Bin: []byte{1, 2}, In: inner{A: "a", B: []int{1}, M: map[string]string{"k": "v"}},
		InP: &inner{A: "p"}, Nums: map[string]int{"one": 1}, Skip: "never", Plain: "p", Named: "n",
		Deep: []map[string]bool{{"x": true}}}
	item, err := dynamo.MarshalItem(in)
	if err != nil {
		t.Fatal(err)
	}
	item["null"] = &types.AttributeValueMemberNULL{Value: true}
	if !codec.CanDecodeFast(reflect.TypeFor[wide]()) {
		t.Fatal("wide should take the fast path")
	}
	if !codec.CanDecodeFast(reflect.TypeFor[flatWide]()) {
		t.Fatal("flatWide should take the fast path")
	}
	{
		fw := flatWide{S: "x", N: -5, F: 1.5, B: true, T: now, TP: &now, U: now.Truncate(time.Second), SS: []string{"a", "b"},
			L: []string{"c"}, Bin: []byte{1, 2}, Nums: map[string]int{"one": 1}, Plain: "p", Named: "n", Deep: []map[string]bool{{"x": true}}}
		fitem, err := dynamo.MarshalItem(fw)
		if err != nil {
			t.Fatal(err)
		}
		fitem["null"] = &types.AttributeValueMemberNULL{Value: true}
		fitem["PK"] = &types.AttributeValueMemberS{Value: "skipped"}
		var slow, fast flatWide
		if err := dynamo.UnmarshalItem(fitem, &slow); err != nil {
			t.Fatal(err)
		}
		if err := codec.DecodeItem(fitem, &fast); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(slow, fast); diff != "" {
			t.Errorf("fast decode of flatWide differs from guregu (-guregu +fast):\n%s", diff)
		}
	}
	var slow, fast wide
	if err := dynamo.UnmarshalItem(item, &slow); err != nil {
		t.Fatal(err)
	}
	if err := codec.DecodeItem(item, &fast); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(slow, fast); diff != "" {
		t.Errorf("fast decode differs from guregu (-guregu +fast):\n%s", diff)
	}
	if codec.CanDecodeFast(reflect.TypeFor[withCustom]()) {
		t.Error("a type with a guregu Unmarshaler must not take the fast path")
	}
	var c withCustom
	if err := codec.DecodeItem(Item{"c": &types.AttributeValueMemberS{Value: "v"}}, &c); err != nil || c.C.V != "custom:v" {
		t.Errorf("custom decode: %+v %v", c, err)
	}
}
