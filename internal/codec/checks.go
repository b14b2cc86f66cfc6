package codec

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// CheckFieldValue holds a value v a patch sets on field name of struct
// type rt to what the field's type accepts: an enumeration or ID type
// declared with table.NewEnum or table.NewIDs (or a type's own Valid()
// bool or Validate(field) error). A patch writes without Def.Validate,
// so this is where a value the type refuses (and an index key would be
// built from) is stopped.
func CheckFieldValue(rt reflect.Type, entity, name string, v any) error {
	fi, ok := FieldsOf(rt)[name]
	if !ok || fi.Typ == nil || v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != fi.Typ.Kind() || !rv.Type().ConvertibleTo(fi.Typ) {
		return nil
	}
	cv := rv.Convert(fi.Typ).Interface()
	if check := DeclaredCheck(fi.Typ); check != nil {
		return check(name, rv.Convert(fi.Typ).String())
	}
	if x, ok := cv.(interface{ Valid() bool }); ok && !x.Valid() {
		return &ValidationError{Entity: entity, Field: name, Reason: fmt.Sprintf("%v is not a valid %s", v, fi.Typ.Name())}
	}
	if x, ok := cv.(interface{ Validate(string) error }); ok {
		if err := x.Validate(name); err != nil {
			var ve *ValidationError
			if errors.As(err, &ve) {
				return err
			}
			return &ValidationError{Entity: entity, Field: name, Reason: err.Error()}
		}
	}
	return nil
}

// ChangeError is the error of a validation (Def.Validate, which may join
// several with errors.Join) of an item a write changes from old to new
// (plaintext encodings): err, or its first leaf about what the write
// changes, unless every leaf is a *ValidationError naming a field whose
// value the write does not change (nil then): a legacy value carried
// through never refuses a write, an invalid value the write sets always
// does.
func ChangeError(err error, old, new Item) error {
	if err == nil {
		return nil
	}
	for _, leaf := range LeafErrors(err) {
		var ve *ValidationError
		if !errors.As(leaf, &ve) {
			return err
		}
		field, _, _ := strings.Cut(ve.Field, ".")
		if field == "" || ve.Key || !Equal(old[field], new[field]) {
			return leaf // about what this write changes
		}
	}
	return nil
}

// LeafErrors flattens the errors.Join tree of err (err alone when it
// joins nothing).
func LeafErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, LeafErrors(e)...)
		}
		return out
	}
	return []error{err}
}
