package codec

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Nested catch-alls. A struct an item holds as a map attribute (at any
// depth: through struct fields, pointers, slices and arrays of structs)
// may declare its own [Extra] field, tagged `dynamo:"-"`, exactly as the
// item's type does. The engine then keeps the members of that map no
// field of the struct models (a provider's token response stored whole:
// Stripe's stripe_user_id, OpenID's id_token, what a provider adds next):
//
//   - every read fills it with those members (after the secrets are
//     opened), as stored; nil when there are none;
//   - every write of the item puts them back into the map (a member a
//     field models wins; a nil value is skipped), so Create, Put, Update,
//     Replace, Upsert, transactions and Import write them, and Update and
//     Replace diff them with the rest of the attribute;
//   - it is part of its struct's value: a struct assigned whole (new
//     credentials, a zero value) writes the Extra it holds, nil for none.
//     Unlike the item's own Extra, a nil nested Extra does not keep the
//     stored members: replacing a connection's credentials drops the old
//     token response's members with them.
//
// A Def.Secrets path "m.*" (m a struct attribute whose type has an Extra
// field) declares the members that Extra keeps secret: each non-empty one
// is sealed like a named secret, under its own path ("m.id_token"), a
// string as a secret string is, any other value (a number, a map) as its
// typed encoding (the envelope marker "STV1"); reads open them, a
// plaintext one follows the plaintext-secret rule, and adoption and every
// write reseal it. The members the struct's fields model are not covered
// by "m.*": name the secret ones in Def.Secrets.

// WildSecret is a Def.Secrets path "prefix.*": the members of the map at
// prefix that no field of its struct (known) models are secrets.
type WildSecret struct {
	Prefix string
	Known  map[string]bool
}

// WildField reports whether the attribute path names a struct attribute
// of struct type t whose struct has an Extra field, with the attributes
// that struct models.
func WildField(t reflect.Type, path string) (map[string]bool, bool) {
	for part := range strings.SplitSeq(path, ".") {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return nil, false
		}
		fi, ok := FieldsOf(t)[part]
		if !ok {
			return nil, false
		}
		t = fi.Typ
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || ExtraIndex(t) == nil {
		return nil, false
	}
	known := map[string]bool{}
	for name := range FieldsOf(t) {
		known[name] = true
	}
	return known, true
}

// MapAt returns the map at attribute path parts of item (nil if none).
func MapAt(item Item, parts []string) map[string]types.AttributeValue {
	m := map[string]types.AttributeValue(item)
	for _, p := range parts {
		next, ok := m[p].(*types.AttributeValueMemberM)
		if !ok {
			return nil
		}
		m = next.Value
	}
	return m
}

// avJSON is the typed encoding of an attribute value (DynamoDB's JSON).
type avJSON struct {
	S    *string           `json:"S,omitempty"`
	N    *string           `json:"N,omitempty"`
	B    []byte            `json:"B,omitempty"`
	BOOL *bool             `json:"BOOL,omitempty"`
	NULL bool              `json:"NULL,omitempty"`
	M    map[string]avJSON `json:"M,omitempty"`
	L    []avJSON          `json:"L,omitempty"`
	SS   []string          `json:"SS,omitempty"`
	NS   []string          `json:"NS,omitempty"`
	BS   [][]byte          `json:"BS,omitempty"`
	// EM and EL mark an empty map and an empty list (omitempty drops them).
	EM bool `json:"EM,omitempty"`
	EL bool `json:"EL,omitempty"`
}

func toAVJSON(v types.AttributeValue) (avJSON, error) {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return avJSON{S: &v.Value}, nil
	case *types.AttributeValueMemberN:
		return avJSON{N: &v.Value}, nil
	case *types.AttributeValueMemberB:
		return avJSON{B: v.Value}, nil
	case *types.AttributeValueMemberBOOL:
		return avJSON{BOOL: &v.Value}, nil
	case *types.AttributeValueMemberNULL:
		return avJSON{NULL: true}, nil
	case *types.AttributeValueMemberSS:
		return avJSON{SS: v.Value}, nil
	case *types.AttributeValueMemberNS:
		return avJSON{NS: v.Value}, nil
	case *types.AttributeValueMemberBS:
		return avJSON{BS: v.Value}, nil
	case *types.AttributeValueMemberM:
		out := avJSON{M: map[string]avJSON{}, EM: len(v.Value) == 0}
		for k, e := range v.Value {
			j, err := toAVJSON(e)
			if err != nil {
				return avJSON{}, err
			}
			out.M[k] = j
		}
		return out, nil
	case *types.AttributeValueMemberL:
		out := avJSON{EL: len(v.Value) == 0}
		for _, e := range v.Value {
			j, err := toAVJSON(e)
			if err != nil {
				return avJSON{}, err
			}
			out.L = append(out.L, j)
		}
		return out, nil
	}
	return avJSON{}, fmt.Errorf("cannot seal a %T", v)
}

func fromAVJSON(j avJSON) (types.AttributeValue, error) {
	switch {
	case j.S != nil:
		return &types.AttributeValueMemberS{Value: *j.S}, nil
	case j.N != nil:
		return &types.AttributeValueMemberN{Value: *j.N}, nil
	case j.B != nil:
		return &types.AttributeValueMemberB{Value: j.B}, nil
	case j.BOOL != nil:
		return &types.AttributeValueMemberBOOL{Value: *j.BOOL}, nil
	case j.NULL:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case j.SS != nil:
		return &types.AttributeValueMemberSS{Value: j.SS}, nil
	case j.NS != nil:
		return &types.AttributeValueMemberNS{Value: j.NS}, nil
	case j.BS != nil:
		return &types.AttributeValueMemberBS{Value: j.BS}, nil
	case j.M != nil || j.EM:
		out := make(map[string]types.AttributeValue, len(j.M))
		for k, e := range j.M {
			v, err := fromAVJSON(e)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return &types.AttributeValueMemberM{Value: out}, nil
	case j.L != nil || j.EL:
		out := make([]types.AttributeValue, 0, len(j.L))
		for _, e := range j.L {
			v, err := fromAVJSON(e)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return &types.AttributeValueMemberL{Value: out}, nil
	}
	return nil, errors.New("empty typed value")
}

// EncodeAV and DecodeAV are the typed encoding of a sealed value.
func EncodeAV(v types.AttributeValue) ([]byte, error) {
	j, err := toAVJSON(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(j)
}

// DecodeAV is the inverse of EncodeAV.
func DecodeAV(b []byte) (types.AttributeValue, error) {
	var j avJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, err
	}
	return fromAVJSON(j)
}

// nestedField is a field of a struct type whose value holds (at some
// depth) a struct with an Extra field.
type nestedField struct {
	name  string
	index []int
}

var nestedFieldsCache sync.Map // reflect.Type -> []nestedField

// nestedFields returns the fields of struct type t that lead to a nested
// Extra: a struct (through pointers, slices and arrays) that has one or
// has such fields itself.
func nestedFields(t reflect.Type) []nestedField {
	if v, ok := nestedFieldsCache.Load(t); ok {
		return v.([]nestedField)
	}
	var out []nestedField
	tf := fieldsOfType(t)
	if !tf.shadowed {
		for _, name := range slices.Sorted(maps.Keys(tf.fields)) {
			fi := tf.fields[name]
			if leadsToExtra(fi.Typ, map[reflect.Type]bool{}) {
				out = append(out, nestedField{name: name, index: fi.Index})
			}
		}
	}
	nestedFieldsCache.Store(t, out)
	return out
}

// leadsToExtra reports whether a value of type t holds a struct with an
// Extra field, through pointers, slices, arrays and struct fields.
func leadsToExtra(t reflect.Type, seen map[reflect.Type]bool) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return false
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] || customEncoded(t) {
		return false
	}
	seen[t] = true
	if ExtraIndex(t) != nil {
		return true
	}
	for _, fi := range FieldsOf(t) {
		if leadsToExtra(fi.Typ, seen) {
			return true
		}
	}
	return false
}

// FillNested fills the nested Extra fields of struct value v (settable)
// from m, the attributes v was decoded from.
func FillNested(v reflect.Value, m map[string]types.AttributeValue) {
	for _, nf := range nestedFields(v.Type()) {
		f, err := v.FieldByIndexErr(nf.index)
		if err != nil {
			continue
		}
		fillValue(f, m[nf.name])
	}
}

// fillValue fills the nested Extra fields of f from av, its stored value.
func fillValue(f reflect.Value, av types.AttributeValue) {
	for f.Kind() == reflect.Pointer {
		if f.IsNil() {
			return
		}
		f = f.Elem()
	}
	switch f.Kind() {
	case reflect.Slice, reflect.Array:
		l, ok := av.(*types.AttributeValueMemberL)
		if !ok || len(l.Value) != f.Len() {
			return
		}
		for i := range f.Len() {
			fillValue(f.Index(i), l.Value[i])
		}
	case reflect.Struct:
		mv, ok := av.(*types.AttributeValueMemberM)
		if !ok {
			return
		}
		if idx := ExtraIndex(f.Type()); idx != nil {
			fields := FieldsOf(f.Type())
			var ex Extra
			for name, v := range mv.Value {
				if _, modelled := fields[name]; modelled {
					continue
				}
				if ex == nil {
					ex = Extra{}
				}
				ex[name] = v
			}
			f.FieldByIndex(idx).Set(reflect.ValueOf(ex))
		}
		FillNested(f, mv.Value)
	}
}

// AddNested puts the nested Extra members of struct value v back into
// av, its encoding (the maps on the way are copied, never changed).
func AddNested(av map[string]types.AttributeValue, v reflect.Value) {
	for _, nf := range nestedFields(v.Type()) {
		f, err := v.FieldByIndexErr(nf.index)
		if err != nil {
			continue
		}
		if nv, ok := addValue(f, av[nf.name]); ok {
			av[nf.name] = nv
		}
	}
}

// addValue returns cur, the encoding of f, with f's nested Extra members
// added; ok is false when nothing changed.
func addValue(f reflect.Value, cur types.AttributeValue) (types.AttributeValue, bool) {
	for f.Kind() == reflect.Pointer {
		if f.IsNil() {
			return nil, false
		}
		f = f.Elem()
	}
	switch f.Kind() {
	case reflect.Slice, reflect.Array:
		l, ok := cur.(*types.AttributeValueMemberL)
		if !ok || len(l.Value) != f.Len() {
			return nil, false
		}
		var out []types.AttributeValue
		for i := range f.Len() {
			if nv, ok := addValue(f.Index(i), l.Value[i]); ok {
				if out == nil {
					out = slices.Clone(l.Value)
				}
				out[i] = nv
			}
		}
		if out == nil {
			return nil, false
		}
		return &types.AttributeValueMemberL{Value: out}, true
	case reflect.Struct:
		var m map[string]types.AttributeValue
		switch c := cur.(type) {
		case nil:
			m = map[string]types.AttributeValue{}
		case *types.AttributeValueMemberM:
			m = maps.Clone(c.Value)
		default:
			return nil, false
		}
		changed := false
		if idx := ExtraIndex(f.Type()); idx != nil {
			fields := FieldsOf(f.Type())
			for name, v := range f.FieldByIndex(idx).Interface().(Extra) {
				if _, modelled := fields[name]; modelled || v == nil {
					continue
				}
				if _, has := m[name]; !has {
					m[name], changed = v, true
				}
			}
		}
		for _, nf := range nestedFields(f.Type()) {
			sub, err := f.FieldByIndexErr(nf.index)
			if err != nil {
				continue
			}
			if nv, ok := addValue(sub, m[nf.name]); ok {
				m[nf.name], changed = nv, true
			}
		}
		if !changed {
			return nil, false
		}
		return &types.AttributeValueMemberM{Value: m}, true
	}
	return nil, false
}
