package tn

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// RawJSON is application-defined JSON (Public, Private, Head, Content). It is
// stored as native DynamoDB values, as Tinode's tables held it: an object as
// M, an array as L, a string as S, a number as N, a boolean as BOOL and null
// (or a nil RawJSON) as NULL, never as an opaque binary. Values read back are
// in canonical form: compact, object keys sorted; use [RawJSON.Equal] to
// compare by meaning.
type RawJSON []byte

// JSON returns v encoded as canonical RawJSON; it panics if v cannot be
// encoded (use it for literals and tests).
func JSON(v any) RawJSON {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	r, err := canonical(b)
	if err != nil {
		panic(err)
	}
	return r
}

// IsNull reports whether r is empty or the JSON null.
func (r RawJSON) IsNull() bool {
	t := bytes.TrimSpace(r)
	return len(t) == 0 || string(t) == "null"
}

// String returns the JSON text ("null" for a nil RawJSON).
func (r RawJSON) String() string {
	if r.IsNull() {
		return "null"
	}
	return string(r)
}

// Valid reports whether r is null or valid JSON.
func (r RawJSON) Valid() bool { return r.IsNull() || json.Valid(r) }

// Equal reports whether r and o hold the same JSON value: same objects,
// arrays and strings, numbers equal as numbers (1.0 == 1), null == nil.
func (r RawJSON) Equal(o RawJSON) bool {
	a, err1 := decodeJSON(r)
	b, err2 := decodeJSON(o)
	if err1 != nil || err2 != nil {
		return bytes.Equal(r, o)
	}
	return jsonEqual(a, b)
}

// MarshalJSON writes r as is ("null" when nil).
func (r RawJSON) MarshalJSON() ([]byte, error) {
	if r.IsNull() {
		return []byte("null"), nil
	}
	if !json.Valid(r) {
		return nil, fmt.Errorf("tinode: invalid JSON in RawJSON")
	}
	return r, nil
}

// UnmarshalJSON stores the canonical form of b; null becomes nil.
func (r *RawJSON) UnmarshalJSON(b []byte) error {
	c, err := canonical(b)
	if err != nil {
		return err
	}
	*r = c
	return nil
}

// MarshalDynamo converts the JSON value to a native DynamoDB value.
func (r RawJSON) MarshalDynamo() (types.AttributeValue, error) {
	v, err := decodeJSON(r)
	if err != nil {
		return nil, fmt.Errorf("tinode: RawJSON: %w", err)
	}
	return toAV(v)
}

// UnmarshalDynamo converts a DynamoDB value back to canonical JSON.
func (r *RawJSON) UnmarshalDynamo(av types.AttributeValue) error {
	v, err := fromAV(av)
	if err != nil {
		return err
	}
	if v == nil {
		*r = nil
		return nil
	}
	b, err := encodeJSON(v)
	if err != nil {
		return err
	}
	*r = b
	return nil
}

func canonical(b []byte) (RawJSON, error) {
	v, err := decodeJSON(b)
	if err != nil {
		return nil, fmt.Errorf("tinode: RawJSON: %w", err)
	}
	if v == nil {
		return nil, nil
	}
	return encodeJSON(v)
}

func decodeJSON(b []byte) (any, error) {
	if RawJSON(b).IsNull() {
		return nil, nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("trailing data after JSON value")
	}
	return v, nil
}

func encodeJSON(v any) (RawJSON, error) {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return RawJSON(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

func toAV(v any) (types.AttributeValue, error) {
	switch v := v.(type) {
	case nil:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case bool:
		return &types.AttributeValueMemberBOOL{Value: v}, nil
	case string:
		return &types.AttributeValueMemberS{Value: v}, nil
	case json.Number:
		return &types.AttributeValueMemberN{Value: v.String()}, nil
	case []any:
		l := make([]types.AttributeValue, len(v))
		for i, e := range v {
			av, err := toAV(e)
			if err != nil {
				return nil, err
			}
			l[i] = av
		}
		return &types.AttributeValueMemberL{Value: l}, nil
	case map[string]any:
		m := make(map[string]types.AttributeValue, len(v))
		for k, e := range v {
			av, err := toAV(e)
			if err != nil {
				return nil, err
			}
			m[k] = av
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
	return nil, fmt.Errorf("tinode: RawJSON: unexpected %T", v)
}

func fromAV(av types.AttributeValue) (any, error) {
	switch v := av.(type) {
	case nil, *types.AttributeValueMemberNULL:
		return nil, nil
	case *types.AttributeValueMemberBOOL:
		return v.Value, nil
	case *types.AttributeValueMemberS:
		return v.Value, nil
	case *types.AttributeValueMemberN:
		return json.Number(v.Value), nil
	case *types.AttributeValueMemberB:
		return base64.StdEncoding.EncodeToString(v.Value), nil
	case *types.AttributeValueMemberSS:
		out := make([]any, len(v.Value))
		for i, s := range v.Value {
			out[i] = s
		}
		return out, nil
	case *types.AttributeValueMemberNS:
		out := make([]any, len(v.Value))
		for i, s := range v.Value {
			out[i] = json.Number(s)
		}
		return out, nil
	case *types.AttributeValueMemberBS:
		out := make([]any, len(v.Value))
		for i, b := range v.Value {
			out[i] = base64.StdEncoding.EncodeToString(b)
		}
		return out, nil
	case *types.AttributeValueMemberL:
		out := make([]any, len(v.Value))
		for i, e := range v.Value {
			x, err := fromAV(e)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case *types.AttributeValueMemberM:
		out := make(map[string]any, len(v.Value))
		for k, e := range v.Value {
			x, err := fromAV(e)
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	}
	return nil, fmt.Errorf("tinode: RawJSON: unexpected attribute %T", av)
}

func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool, string:
		return a == b
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		p, ok1 := new(big.Rat).SetString(x.String())
		q, ok2 := new(big.Rat).SetString(y.String())
		if !ok1 || !ok2 {
			return x == y
		}
		return p.Cmp(q) == 0
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		ks := make([]string, 0, len(x))
		for k := range x {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			e, ok := y[k]
			if !ok || !jsonEqual(x[k], e) {
				return false
			}
		}
		return true
	}
	return false
}
