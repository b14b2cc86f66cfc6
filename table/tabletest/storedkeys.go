package tabletest

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/table"
)

// UpdateGoldenEnv, set to 1, makes [StoredKeys] rewrite its golden file
// instead of comparing with it.
const UpdateGoldenEnv = "SINGLETABLE_UPDATE_GOLDEN"

// StoredKeys pins what the entities bound to tbl store, so that a change
// of how they are declared cannot change a stored byte: for each entity
// ([table.Table.Entities]) it takes a sample item ([table.Entity.Sample],
// with the fields of set[type] overridden) and compares its primary key,
// index keys, entity type and TTL attribute, and its unique values, with
// the golden file (testdata/<name>.golden). The golden file is written
// when the environment sets [UpdateGoldenEnv]=1.
func StoredKeys(t testing.TB, name string, tbl *table.Table, set map[string]map[string]any) {
	t.Helper()
	s := tbl.Schema()
	keyAttrs := []string{s.PK, s.SK}
	for _, ix := range s.Indexes {
		keyAttrs = append(keyAttrs, ix.PK, ix.SK)
	}
	if s.TypeAttr != "" {
		keyAttrs = append(keyAttrs, s.TypeAttr)
	}
	if s.TTLAttr != "" {
		keyAttrs = append(keyAttrs, s.TTLAttr)
	}
	var b strings.Builder
	ents := tbl.Entities()
	sort.SliceStable(ents, func(i, j int) bool { return ents[i].Type() < ents[j].Type() })
	for _, e := range ents {
		smp, err := e.Sample(set[e.Type()])
		if err != nil {
			t.Errorf("%s: %v", e.Type(), err)
			continue
		}
		fmt.Fprintf(&b, "%s\n", e.Type())
		for _, a := range keyAttrs {
			if v, ok := smp.Item[a]; ok {
				fmt.Fprintf(&b, "\t%s = %s\n", a, typedAVString(v))
			}
		}
		us := slices.Clone(smp.Uniques)
		slices.SortFunc(us, func(a, b table.Unique) int { return strings.Compare(a.Name+"\x00"+a.Value, b.Name+"\x00"+b.Value) })
		for _, u := range us {
			fmt.Fprintf(&b, "\tunique %s = %q shared=%v\n", u.Name, u.Value, u.Shared)
		}
	}
	Golden(t, name, b.String())
}

func typedAVString(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return fmt.Sprintf("S:%q", v.Value)
	case *types.AttributeValueMemberN:
		return "N:" + v.Value
	}
	return fmt.Sprintf("%T", v)
}

// RawItem returns the item stored under key k of tbl as DynamoDB holds
// it, read with a strongly consistent GetItem of the plain SDK (not
// through the library: no decoding, no TTL filter), or nil when there is
// none. An error fails the test.
func RawItem(t testing.TB, tbl *table.Table, k table.Key) table.Item {
	t.Helper()
	s := tbl.Schema()
	out, err := tbl.Client().GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName:      aws.String(tbl.Name()),
		ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{
			s.PK: &types.AttributeValueMemberS{Value: k.PK},
			s.SK: &types.AttributeValueMemberS{Value: k.SK},
		},
	})
	if err != nil {
		t.Fatalf("tabletest: raw GetItem %v: %v", k, err)
	}
	return out.Item
}

// Unchanged reads the item stored under key k of tbl ([RawItem]) and
// returns a check that each of its attributes, but those named in skip, is
// still stored byte for byte: call it after each write under test with
// the step's name. An attribute changed or removed is a test error with a
// diff (-before +after); one added is not checked.
func Unchanged(t testing.TB, tbl *table.Table, k table.Key, skip ...string) func(step string) {
	t.Helper()
	stored := RawItem(t, tbl, k)
	return func(step string) {
		t.Helper()
		got := RawItem(t, tbl, k)
		want, have := table.Item{}, table.Item{}
		for n, v := range stored {
			if !slices.Contains(skip, n) {
				want[n], have[n] = v, got[n]
			}
		}
		if d := cmp.Diff(want, have, cmp.Exporter(func(reflect.Type) bool { return true })); d != "" {
			t.Errorf("%s: stored attributes changed (-before +after):\n%s", step, d)
		}
	}
}
