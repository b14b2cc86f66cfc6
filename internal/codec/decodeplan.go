package codec

import (
	"reflect"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// A decoder plan per Go type, built once and cached: a map from exact
// attribute name to the field it fills and a setter for the field's kind.
// Attributes the type does not have (keys, index keys, the table's own
// attributes, another service's) cost one map miss and are skipped. Field
// kinds without a setter here (nested structs, maps, sets of numbers...)
// are decoded by guregu, field by field, so names match exactly at every
// depth and the result is guregu's.

type fieldPlan struct {
	index []int
	set   func(av types.AttributeValue, f reflect.Value) bool // false: let guregu decode it
}

type decodePlan struct {
	fields map[string]fieldPlan
}

var decodePlans sync.Map // reflect.Type -> *decodePlan (nil: no plan)

// planFor returns the decoder plan of struct type t, or nil when t cannot
// be planned (not a struct, an embedded pointer).
func planFor(t reflect.Type) *decodePlan {
	if v, ok := decodePlans.Load(t); ok {
		return v.(*decodePlan)
	}
	p := buildPlan(t)
	decodePlans.Store(t, p)
	return p
}

func buildPlan(t reflect.Type) *decodePlan {
	if t.Kind() != reflect.Struct {
		return nil
	}
	tf := fieldsOfType(t)
	if tf.shadowed {
		return nil // guregu's rules for shadowed names: leave it to guregu
	}
	p := &decodePlan{fields: make(map[string]fieldPlan, len(tf.fields))}
	for name, fi := range tf.fields {
		if fi.ViaPointer {
			return nil // an embedded pointer may be nil: leave it to guregu
		}
		p.fields[name] = fieldPlan{index: fi.Index, set: setterFor(fi.Typ, fi.unixtime)}
	}
	return p
}

// TimeType is time.Time, which the plan decodes itself.
var TimeType = reflect.TypeFor[time.Time]()

// setterFor returns the setter of a field of type t.
func setterFor(t reflect.Type, unixtime bool) func(types.AttributeValue, reflect.Value) bool {
	if t.Kind() == reflect.Pointer {
		elem := setterFor(t.Elem(), unixtime)
		return func(av types.AttributeValue, f reflect.Value) bool {
			v := reflect.New(t.Elem())
			if !elem(av, v.Elem()) {
				return false
			}
			f.Set(v)
			return true
		}
	}
	if t == TimeType {
		if unixtime {
			return func(av types.AttributeValue, f reflect.Value) bool {
				n, ok := av.(*types.AttributeValueMemberN)
				if !ok {
					return false
				}
				sec, err := strconv.ParseInt(n.Value, 10, 64)
				if err != nil {
					return false
				}
				f.Set(reflect.ValueOf(time.Unix(sec, 0).UTC()))
				return true
			}
		}
		return func(av types.AttributeValue, f reflect.Value) bool {
			s, ok := av.(*types.AttributeValueMemberS)
			if !ok {
				return false
			}
			tm, err := time.Parse(time.RFC3339, s.Value)
			if err != nil {
				return false
			}
			f.Set(reflect.ValueOf(tm))
			return true
		}
	}
	switch t.Kind() {
	case reflect.String:
		return func(av types.AttributeValue, f reflect.Value) bool {
			s, ok := av.(*types.AttributeValueMemberS)
			if ok {
				f.SetString(s.Value)
			}
			return ok
		}
	case reflect.Bool:
		return func(av types.AttributeValue, f reflect.Value) bool {
			b, ok := av.(*types.AttributeValueMemberBOOL)
			if ok {
				f.SetBool(b.Value)
			}
			return ok
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(av types.AttributeValue, f reflect.Value) bool {
			n, ok := av.(*types.AttributeValueMemberN)
			if !ok {
				return false
			}
			v, err := strconv.ParseInt(n.Value, 10, 64)
			if err != nil || f.OverflowInt(v) {
				return false
			}
			f.SetInt(v)
			return true
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return func(av types.AttributeValue, f reflect.Value) bool {
			n, ok := av.(*types.AttributeValueMemberN)
			if !ok {
				return false
			}
			v, err := strconv.ParseUint(n.Value, 10, 64)
			if err != nil || f.OverflowUint(v) {
				return false
			}
			f.SetUint(v)
			return true
		}
	case reflect.Float32, reflect.Float64:
		return func(av types.AttributeValue, f reflect.Value) bool {
			n, ok := av.(*types.AttributeValueMemberN)
			if !ok {
				return false
			}
			v, err := strconv.ParseFloat(n.Value, 64)
			if err != nil {
				return false
			}
			f.SetFloat(v)
			return true
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return func(av types.AttributeValue, f reflect.Value) bool {
				b, ok := av.(*types.AttributeValueMemberB)
				if ok && t.Elem() == reflect.TypeFor[byte]() {
					f.SetBytes(append([]byte(nil), b.Value...))
				}
				return ok && t.Elem() == reflect.TypeFor[byte]()
			}
		}
		if t.Elem().Kind() == reflect.String {
			return func(av types.AttributeValue, f reflect.Value) bool {
				var ss []string
				switch v := av.(type) {
				case *types.AttributeValueMemberSS:
					ss = v.Value
				case *types.AttributeValueMemberL:
					ss = make([]string, len(v.Value))
					for i, e := range v.Value {
						s, ok := e.(*types.AttributeValueMemberS)
						if !ok {
							return false
						}
						ss[i] = s.Value
					}
				default:
					return false
				}
				out := reflect.MakeSlice(t, len(ss), len(ss))
				for i, s := range ss {
					out.Index(i).SetString(s)
				}
				f.Set(out)
				return true
			}
		}
	}
	return func(types.AttributeValue, reflect.Value) bool { return false }
}

// decode fills out (a pointer to the plan's struct) from raw. A NULL
// attribute leaves the field at its zero value.
func (p *decodePlan) decode(raw Item, out reflect.Value) error {
	for name, av := range raw {
		fp, ok := p.fields[name]
		if !ok {
			continue
		}
		if _, null := av.(*types.AttributeValueMemberNULL); null {
			continue
		}
		f := out.FieldByIndex(fp.index)
		if fp.set(av, f) {
			continue
		}
		if err := dynamo.Unmarshal(av, f.Addr().Interface()); err != nil {
			return &decodeError{attr: name, err: err}
		}
	}
	return nil
}

// decodeError names the attribute that could not be decoded.
type decodeError struct {
	attr string
	err  error
}

// Error names the attribute and the cause.
func (e *decodeError) Error() string { return "attribute " + e.attr + ": " + e.err.Error() }

// Unwrap returns the cause.
func (e *decodeError) Unwrap() error { return e.err }
