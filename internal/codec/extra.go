package codec

import (
	"fmt"
	"maps"
	"reflect"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Extra holds the attributes of an item that its Go type does not model,
// exactly as DynamoDB stores them (table.Extra, where its contract is
// told).
type Extra map[string]types.AttributeValue

var extraType = reflect.TypeFor[Extra]()

var extraFields sync.Map // reflect.Type -> []int (nil: none)

// ExtraIndex returns the index of the Extra field of struct type t, or
// nil. It panics when the field is not tagged `dynamo:"-"` (guregu would
// otherwise encode it as an attribute named after the field) or when t
// has two (a programming error, found when the entity is created).
func ExtraIndex(t reflect.Type) []int {
	if v, ok := extraFields.Load(t); ok {
		return v.([]int)
	}
	var idx []int
	if t.Kind() == reflect.Struct {
		for _, f := range reflect.VisibleFields(t) {
			if f.Type != extraType || !f.IsExported() {
				continue
			}
			if name, _, _ := strings.Cut(f.Tag.Get("dynamo"), ","); name != "-" {
				panic(fmt.Sprintf("table: %s.%s is a table.Extra: tag it `dynamo:\"-\"`", t, f.Name))
			}
			if idx != nil {
				panic(fmt.Sprintf("table: %s has two table.Extra fields", t))
			}
			idx = f.Index
		}
	}
	extraFields.Store(t, idx)
	return idx
}

// ExtraOf returns the Extra field of item (a pointer to T), or an invalid
// value when T has none.
func ExtraOf(item any) reflect.Value {
	v := reflect.ValueOf(item).Elem()
	idx := ExtraIndex(v.Type())
	if idx == nil {
		return reflect.Value{}
	}
	f, err := v.FieldByIndexErr(idx)
	if err != nil {
		return reflect.Value{}
	}
	return f
}

// KeepExtra gives cur (about to be written over orig) orig's Extra when
// cur's is nil: an item built in code leaves unmodelled attributes alone.
func KeepExtra[T any](orig, cur *T) {
	f := ExtraOf(cur)
	if !f.IsValid() || !f.IsNil() {
		return
	}
	if o := ExtraOf(orig); o.IsValid() && !o.IsNil() {
		f.Set(reflect.ValueOf(maps.Clone(o.Interface().(Extra))))
	}
}

// UnstoredField returns the index of t's field of type ft (t, or what it
// points to; nil if it has none), a field the engine fills and never
// stores (a [table.ReadState], named what). It panics when that field
// would be encoded as an attribute: unexported, or not tagged
// `dynamo:"-"`.
func UnstoredField(t, ft reflect.Type, what string) []int {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type != ft {
			continue
		}
		if name, _, _ := strings.Cut(f.Tag.Get("dynamo"), ","); name != "-" || !f.IsExported() {
			panic("table.NewEntity: " + t.String() + "." + f.Name + ": a " + what + " field must be exported and tagged `dynamo:\"-\"`")
		}
		return f.Index
	}
	return nil
}
