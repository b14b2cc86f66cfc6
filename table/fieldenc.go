package table

import (
	"fmt"
	"reflect"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
)

// One encoder. Every write stores a field exactly as Create stores it:
// Create, Update, Replace, Upsert and Put encode the whole item with
// encodeItem; Patch and Change put each value they set into a T (the
// field, so its tags apply: `unixtime`, `set`, `omitempty`...) and encode
// that T with the same encodeItem, taking the attributes they set from it.
// A GSI key a patch moves is derived from those same encoded attributes.
// No write path marshals a field's value on its own, without its tags.

// encodeItem encodes item as every write stores it: guregu's encoding by
// the struct's tags, then finishItem's fixes.
func (e *Entity[T]) encodeItem(item *T) (Item, error) {
	av, err := dynamo.MarshalItem(item)
	if err != nil {
		return nil, fmt.Errorf("%w: encode %s: %v", ErrInvalidInput, e.def.Type, err)
	}
	e.finishItem(av, item)
	return av, nil
}

// finishItem applies the encoding fixes on top of guregu's to av, the
// encoding of item: the empty entries of maps kept, the attributes of the
// Extra catch-all added, Def.AlwaysWrite attributes written empty and
// Def.AlwaysWriteNull ones NULL.
func (e *Entity[T]) finishItem(av Item, item *T) {
	v := reflect.ValueOf(item).Elem()
	keepEmptyMapStrings(av, v)
	e.addExtra(av, item)
	for _, a := range e.def.AlwaysWriteNull {
		if _, ok := av[a]; !ok {
			av[a] = &types.AttributeValueMemberNULL{Value: true}
		}
	}
	for _, a := range e.def.AlwaysWrite {
		if _, ok := av[a]; !ok {
			av[a] = emptyValue(v, a)
		}
	}
}

// patchAttrs encodes the values a patch sets (attribute name -> value) as
// Create would store them: in a T, through encodeItem. A name left out of
// the result is one the encoding stores nothing for (an empty value, an
// empty set): the patch removes it, as an update to that value would. The
// table's TTL attribute, not a field, is stored as epoch seconds.
func (e *Entity[T]) patchAttrs(set map[string]any) (Item, error) {
	if len(set) == 0 {
		return Item{}, nil
	}
	var item T
	rv := reflect.ValueOf(&item).Elem()
	fields := fieldsOf(rv.Type())
	out := Item{}
	var names []string
	for _, name := range sortedKeys(set) {
		v := set[name]
		fi, ok := fields[name]
		if !ok {
			av, err := looseValue(v)
			if err != nil {
				return nil, &ValidationError{Entity: e.def.Type, Field: name, Reason: "cannot set: " + err.Error()}
			}
			if av != nil {
				out[name] = av
			}
			continue
		}
		if err := assignField(rv, fi, v); err != nil {
			return nil, &ValidationError{Entity: e.def.Type, Field: name, Reason: "cannot set: " + err.Error()}
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return out, nil
	}
	av, err := e.encodeItem(&item)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if a, ok := av[name]; ok {
			out[name] = a
		}
	}
	return out, nil
}

// looseValue encodes a value set on an attribute that is not a field (the
// TTL attribute): a time as epoch seconds, anything else as guregu does.
func looseValue(v any) (types.AttributeValue, error) {
	switch t := v.(type) {
	case time.Time:
		if t.IsZero() {
			return nil, nil
		}
		return numAV(t.Unix()), nil
	case *time.Time:
		if t == nil || t.IsZero() {
			return nil, nil
		}
		return numAV(t.Unix()), nil
	}
	return dynamo.Marshal(v)
}

// assignField stores v in the field fi of the struct rv, allocating
// embedded pointers on the way: a value of the field's type, or one that
// converts to it without changing kind or losing a digit (an int for an
// int64, a string for a named string type), or the value a pointer field
// points to, is stored as is; any other is read into the field as a read
// decodes its encoding (refused if it does not decode). nil leaves the
// field zero.
func assignField(rv reflect.Value, fi fieldInfo, v any) error {
	f := rv
	for i, x := range fi.index {
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

func intKind(k reflect.Kind) bool  { return k >= reflect.Int && k <= reflect.Int64 }
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
