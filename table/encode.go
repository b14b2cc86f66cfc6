package table

import (
	"reflect"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Encoding fixes on top of guregu's encoder, so that what is stored is
// what the caller gave:
//
//   - guregu drops map entries whose value is the empty string; a field of
//     type map[string]string (or a named string type) keeps them, since
//     DynamoDB stores empty strings outside keys;
//   - a Patch value is encoded by the same encoder, in a T (fieldenc.go):
//     a `set` field's non-empty slice is SS or NS, an empty one removes the
//     attribute (DynamoDB has no empty set), never an empty list.

// keepEmptyMapStrings re-encodes av's string-map fields of v (a struct
// value) that hold empty strings, keeping those entries.
func keepEmptyMapStrings(av Item, v reflect.Value) {
	for name, fi := range fieldsOf(v.Type()) {
		if !fi.stringMap {
			continue
		}
		f, err := v.FieldByIndexErr(fi.index)
		if err != nil || f.Len() == 0 {
			continue
		}
		if m := stringMapAV(f); m != nil {
			av[name] = m
		}
	}
}

// stringMapAV encodes a map with string values, empty ones included; nil
// when it holds no empty string (guregu's encoding is then the same).
func stringMapAV(f reflect.Value) types.AttributeValue {
	hasEmpty := false
	iter := f.MapRange()
	for iter.Next() {
		if iter.Value().String() == "" {
			hasEmpty = true
			break
		}
	}
	if !hasEmpty {
		return nil
	}
	m := make(map[string]types.AttributeValue, f.Len())
	iter = f.MapRange()
	for iter.Next() {
		m[iter.Key().String()] = &types.AttributeValueMemberS{Value: iter.Value().String()}
	}
	return &types.AttributeValueMemberM{Value: m}
}
