package table

import (
	"reflect"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// Encoding fixes on top of guregu's encoder, so that what is stored is
// what the caller gave:
//
//   - guregu drops map entries whose value is the empty string; a field of
//     type map[string]string (or a named string type) keeps them, since
//     DynamoDB stores empty strings outside keys;
//   - a Patch value for a `set` field is a set: a non-empty slice is sent
//     as SS or NS, an empty one removes the attribute (DynamoDB has no
//     empty set), never an empty list.

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

// patchValue encodes v, the value a Patch sets on attribute name of T:
// as a set for `set` fields (nil: remove the attribute), keeping empty
// strings in string maps.
func patchValue[T any](name string, v any) (types.AttributeValue, error) {
	fi := fieldsOf(reflect.TypeFor[T]())[name]
	rv := reflect.ValueOf(v)
	if fi.stringMap && rv.Kind() == reflect.Map && rv.Type().Elem().Kind() == reflect.String {
		if m := stringMapAV(rv); m != nil {
			return m, nil
		}
	}
	av, err := dynamo.Marshal(v)
	if err != nil || !fi.set {
		return av, err
	}
	switch l := av.(type) {
	case nil:
		return nil, nil
	case *types.AttributeValueMemberL:
		if len(l.Value) == 0 {
			return nil, nil
		}
		var ss, ns []string
		for _, e := range l.Value {
			switch e := e.(type) {
			case *types.AttributeValueMemberS:
				ss = append(ss, e.Value)
			case *types.AttributeValueMemberN:
				ns = append(ns, e.Value)
			default:
				return av, nil
			}
		}
		switch {
		case len(ss) == len(l.Value):
			return &types.AttributeValueMemberSS{Value: ss}, nil
		case len(ns) == len(l.Value):
			return &types.AttributeValueMemberNS{Value: ns}, nil
		}
	}
	return av, nil
}
