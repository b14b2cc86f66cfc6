package codec

import (
	"fmt"
	"reflect"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// LooseValue encodes a value set on an attribute that is not a field (the
// TTL attribute): a time as epoch seconds, anything else as guregu does.
func LooseValue(v any) (types.AttributeValue, error) {
	switch t := v.(type) {
	case time.Time:
		if t.IsZero() {
			return nil, nil
		}
		return Num(t.Unix()), nil
	case *time.Time:
		if t == nil || t.IsZero() {
			return nil, nil
		}
		return Num(t.Unix()), nil
	}
	return dynamo.Marshal(v)
}

// AssignField stores v in the field fi of the struct rv, allocating
// embedded pointers on the way: a value of the field's type, or one that
// converts to it without changing kind or losing a digit (an int for an
// int64, a string for a named string type), or the value a pointer field
// points to, is stored as is; any other is read into the field as a read
// decodes its encoding (refused if it does not decode). nil leaves the
// field zero.
func AssignField(rv reflect.Value, fi fieldInfo, v any) error {
	f := rv
	for i, x := range fi.Index {
		if i > 0 && f.Kind() == reflect.Pointer {
			if f.IsNil() {
				f.Set(reflect.New(f.Type().Elem()))
			}
			f = f.Elem()
		}
		f = f.Field(x)
	}
	if v == nil {
		return nil
	}
	val := reflect.ValueOf(v)
	ft := f.Type()
	if fits(val, ft) {
		f.Set(convert(val, ft))
		return nil
	}
	if ft.Kind() == reflect.Pointer && fits(val, ft.Elem()) {
		p := reflect.New(ft.Elem())
		p.Elem().Set(convert(val, ft.Elem()))
		f.Set(p)
		return nil
	}
	if val.Kind() == reflect.Pointer && !val.IsNil() && fits(val.Elem(), ft) {
		f.Set(convert(val.Elem(), ft))
		return nil
	}
	if val.Kind() == reflect.Slice && ft.Kind() == reflect.Slice && val.Len() > 0 && fits(val.Index(0), ft.Elem()) {
		out := reflect.MakeSlice(ft, val.Len(), val.Len()) // []string for a []Tag: element by element
		for i := range val.Len() {
			if !fits(val.Index(i), ft.Elem()) {
				return fmt.Errorf("a %T does not fit the field's type %s", v, ft)
			}
			out.Index(i).Set(convert(val.Index(i), ft.Elem()))
		}
		f.Set(out)
		return nil
	}
	// Another type (a value the caller encoded itself, a string for a
	// time type with its own encoding, []any for a []string): read it into
	// the field as a read would, so the one encoder writes it.
	av, err := dynamo.Marshal(v)
	if err != nil {
		return err
	}
	if av == nil {
		return nil
	}
	if err := dynamo.Unmarshal(av, f.Addr().Interface()); err != nil {
		return fmt.Errorf("a %T does not fit the field's type %s: %v", v, ft, err)
	}
	return nil
}

func fits(val reflect.Value, t reflect.Type) bool {
	if val.Type().AssignableTo(t) {
		return true
	}
	if n, ok := numberFits(val, t); ok {
		return n
	}
	if val.Kind() != t.Kind() || !val.Type().ConvertibleTo(t) {
		return false
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Array:
		return val.Type().Elem().Kind() == t.Elem().Kind()
	}
	return true
}

func convert(val reflect.Value, t reflect.Type) reflect.Value {
	if val.Type().AssignableTo(t) {
		return val
	}
	return val.Convert(t)
}

func intKind(k reflect.Kind) bool { return k >= reflect.Int && k <= reflect.Int64 }

func uintKind(k reflect.Kind) bool { return k >= reflect.Uint && k <= reflect.Uintptr }

// numberFits decides for a number stored in a numeric field of another
// kind (an int constant for an int64 field): it fits when the field holds
// its value exactly. ok is false when val or t is not a number.
func numberFits(val reflect.Value, t reflect.Type) (fit, ok bool) {
	vk, tk := val.Kind(), t.Kind()
	num := func(k reflect.Kind) bool {
		return intKind(k) || uintKind(k) || k == reflect.Float32 || k == reflect.Float64
	}
	if !num(vk) || !num(tk) {
		return false, false
	}
	switch {
	case intKind(vk) && intKind(tk):
		return !reflect.Zero(t).OverflowInt(val.Int()), true
	case intKind(vk) && uintKind(tk):
		return val.Int() >= 0 && !reflect.Zero(t).OverflowUint(uint64(val.Int())), true
	case uintKind(vk) && uintKind(tk):
		return !reflect.Zero(t).OverflowUint(val.Uint()), true
	case uintKind(vk) && intKind(tk):
		return val.Uint() <= 1<<63-1 && !reflect.Zero(t).OverflowInt(int64(val.Uint())), true
	case tk == reflect.Float32 || tk == reflect.Float64:
		return true, true // any number in a float field, as guregu would store it
	}
	return false, true // a float for an integer field
}
