package codec

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Reflection on an entity's fields by attribute path: filling a sample
// item, and setting a string field a tolerant read keeps.

// SampleTime is the time every sampled time field holds.
var SampleTime = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// FieldByName returns the top-level field of struct v stored as attribute
// name, or named name in Go.
func FieldByName(v reflect.Value, name string) (reflect.Value, bool) {
	if fi, ok := FieldsOf(v.Type())[name]; ok && !fi.ViaPointer {
		return v.FieldByIndex(fi.Index), true
	}
	if f, ok := v.Type().FieldByName(name); ok && f.IsExported() {
		return v.FieldByIndex(f.Index), true
	}
	return reflect.Value{}, false
}

// FieldByPath returns the string field at the attribute path
// ("credentials.accessToken": the accessToken attribute of the struct the
// credentials attribute holds), following pointers.
func FieldByPath(v reflect.Value, path string) (reflect.Value, bool) {
	for part := range strings.SplitSeq(path, ".") {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, false
		}
		f, ok := FieldByName(v, part)
		if !ok {
			return reflect.Value{}, false
		}
		v = f
	}
	return v, v.Kind() == reflect.String
}

// FillSample fills v with sample values; name is its attribute name.
func FillSample(v reflect.Value, name string, depth int) {
	if depth > 4 || !v.CanSet() {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(name + "1")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes: left empty
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		FillSample(s.Index(0), name, depth+1)
		v.Set(s)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(SampleTime))
			return
		}
		if v.Type() == reflect.TypeFor[types.AttributeValueMemberS]() {
			return
		}
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			n, _, _ := strings.Cut(f.Tag.Get("dynamo"), ",")
			if n == "" || n == "-" {
				n = f.Name
			}
			FillSample(v.Field(i), n, depth+1)
		}
	}
}

// SetStringPath sets the string field at attribute path (dotted, through
// struct fields only) of struct v to s; false when there is none.
func SetStringPath(v reflect.Value, path, s string) bool {
	for part := range strings.SplitSeq(path, ".") {
		if v.Kind() != reflect.Struct {
			return false
		}
		fi, ok := FieldsOf(v.Type())[part]
		if !ok || fi.ViaPointer {
			return false
		}
		f, err := v.FieldByIndexErr(fi.Index)
		if err != nil {
			return false
		}
		v = f
	}
	if v.Kind() != reflect.String || !v.CanSet() {
		return false
	}
	v.SetString(s)
	return true
}

// SortedNames returns the names of set in order (one name: no sort).
func SortedNames(set map[string]any) []string {
	if len(set) == 1 {
		for name := range set {
			return []string{name}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// FieldHolds reports (table.MustField) whether a field of type ft holds values of type v.
func FieldHolds(ft, v reflect.Type) bool {
	if ft.Kind() == reflect.Pointer && v.Kind() != reflect.Pointer {
		ft = ft.Elem()
	}
	if v == ft || (v.Kind() == reflect.Interface && ft.Implements(v)) {
		return true
	}
	return v.Kind() == ft.Kind() && v.ConvertibleTo(ft) && (v.Name() == "" || ft.Name() == "" || v.Kind() != reflect.Struct)
}
