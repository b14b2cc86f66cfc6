package decl

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
)

// An item's fields check themselves on every write: a field whose type
// checks its own value (a typed ID, an enumeration: [ownCheck]) is
// checked with its attribute name when set, a primary-key field always,
// and a field Def.Required names refuses its zero value. The checks are
// computed once per type ([NewFieldChecks]) and run before the type's own
// Validate ([ItemCheck]), so that Validate keeps only the rules that are
// not one field's own.

// FieldChecks are the checks of one struct type's fields, in declaration
// order, walking nested structs, non-nil pointers to structs and slices
// of structs (dotted attribute names: "config.syncInterval",
// "members.role"). The zero FieldChecks checks nothing.
type FieldChecks struct{ list []fieldCheck }

// checkHow is how a field checks itself.
type checkHow uint8

const (
	noCheck       checkHow = iota
	withValidator          // Validate(field string) error
	withChecker            // Check(field string) error
	withSelf               // Validate() error: the field's name is the type's own
	withDeclared           // an enumeration or ID type (table.NewEnum, table.NewIDs)
)

// fieldCheck is the check of one field (reached by index from the struct
// holding it).
type fieldCheck struct {
	attr  string
	index []int
	how   checkHow
	// declared: the check of a type declared with table.NewEnum or
	// table.NewIDs (withDeclared).
	declared func(field, v string) error
	// always: checked even when zero (a primary-key field, or a
	// required field that checks itself: its own check judges zero).
	always bool
	// required: zero (for a string: blank) is refused, reason "required",
	// unless its own check refused it first.
	required bool
	// each: the field is a slice; the check applies to each element.
	each bool
	// sub: the field is a struct (or a pointer to one, or a slice of
	// them) whose fields are checked.
	sub []fieldCheck
}

// NewFieldChecks returns the checks of struct type t: every field whose
// type checks itself, when set; the fields of templates pk and sk (by
// attribute, or by `key` tag: keyTagged) always, but under ":opt"; and
// the attributes required names (dotted for a nested one), refused when
// zero. A field unchecked names is not checked by its type (the entity
// checks it by other rules: a wider vocabulary). A name of required or
// unchecked that is no attribute of t is an error.
func NewFieldChecks(t reflect.Type, pk, sk keytmpl.Template, keyTagged map[string]int, required, unchecked []string) (FieldChecks, error) {
	key := map[string]bool{}
	var keyAttrs []string
	for _, tp := range []keytmpl.Template{pk, sk} {
		for _, p := range tp {
			if p.Attr != "" && p.Mod != "opt" && !key[p.Attr] {
				key[p.Attr] = true
				keyAttrs = append(keyAttrs, p.Attr)
			}
		}
	}
	req := map[string]bool{}
	for _, r := range required {
		req[r] = true
	}
	skip := map[string]bool{}
	for _, u := range unchecked {
		skip[u] = true
	}
	list := walkChecks(t, "", key, req, skip, map[reflect.Type]bool{})
	for _, attr := range keyAttrs { // a field stored only in the key has no attribute of its own
		if i, ok := keyTagged[attr]; ok && !slices.ContainsFunc(list, func(c fieldCheck) bool { return c.attr == attr }) {
			if c, ok := ownCheck(t.Field(i).Type, attr); ok {
				c.index, c.always = []int{i}, true
				list = append(list, c)
			}
		}
	}
	if len(req) > 0 {
		return FieldChecks{}, fmt.Errorf("Def.Required %s: no attribute of the type", strings.Join(slices.Sorted(maps.Keys(req)), ", "))
	}
	if len(skip) > 0 {
		return FieldChecks{}, fmt.Errorf("Def.Unchecked %s: no attribute of the type that checks itself", strings.Join(slices.Sorted(maps.Keys(skip)), ", "))
	}
	return FieldChecks{list}, nil
}

// walkChecks returns the checks of the fields of struct type t, their
// attributes named under prefix; it deletes from req and skip the names it
// finds. key marks the top-level attributes checked always; skip the
// fields whose own checks are not run.
func walkChecks(t reflect.Type, prefix string, key, req, skip map[string]bool, seen map[reflect.Type]bool) []fieldCheck {
	if seen[t] {
		return nil
	}
	seen[t] = true
	defer delete(seen, t)
	fields := codec.FieldsOf(t)
	attrs := slices.SortedFunc(maps.Keys(fields), func(a, b string) int {
		return slices.Compare(fields[a].Index, fields[b].Index)
	})
	var out []fieldCheck
	for _, name := range attrs {
		f, attr := fields[name], prefix+name
		c, ok := ownCheck(f.Typ, attr)
		c.index = f.Index
		if !ok {
			et := f.Typ
			if et.Kind() == reflect.Slice {
				et, c.each = et.Elem(), true
			}
			if oc, own := ownCheck(et, attr); own && c.each {
				c.how, c.declared = oc.how, oc.declared
			} else if st := structOf(et); st != nil {
				c.sub = walkChecks(st, attr+".", nil, req, skip, seen)
			}
		}
		if skip[attr] && c.how != noCheck {
			delete(skip, attr)
			c.how, c.declared = noCheck, nil
		}
		c.always = prefix == "" && key[name]
		c.required = req[attr]
		delete(req, attr)
		if c.required && c.how != noCheck {
			c.always = true // its own check judges its zero value ("empty", an unknown value)
		}
		if c.how != noCheck || len(c.sub) > 0 || c.required {
			out = append(out, c)
		}
	}
	return out
}

// structOf returns t, or what t points to, when that is a struct; else
// nil.
func structOf(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		return t
	}
	return nil
}

// ownCheck returns the check of a field of type t named attr, if t
// checks itself: Validate(field string) error, Check(field string) error,
// Validate() error, or a declared enumeration or ID type (table.NewEnum,
// table.NewIDs). The one rule of a
// self-checking field, for writes ([FieldChecks]) and reads
// ([SelfChecks]).
func ownCheck(t reflect.Type, attr string) (fieldCheck, bool) {
	p := reflect.PointerTo(t) // value and pointer methods: the check is called on the field's address
	c := fieldCheck{attr: attr}
	switch {
	case p.Implements(reflect.TypeFor[fieldValidator]()):
		c.how = withValidator
	case p.Implements(reflect.TypeFor[fieldChecker]()):
		c.how = withChecker
	case p.Implements(reflect.TypeFor[selfValidator]()):
		c.how = withSelf
	default:
		if c.declared = codec.DeclaredCheck(t); c.declared != nil {
			c.how = withDeclared
		}
	}
	return c, c.how != noCheck
}

// Run checks the struct v (addressable) and returns every failure,
// appended to errs in declaration order. It allocates nothing when every
// check passes.
func (fc FieldChecks) Run(v reflect.Value, errs []error) []error {
	return runChecks(v, fc.list, errs)
}

// Empty reports whether fc checks nothing.
func (fc FieldChecks) Empty() bool { return len(fc.list) == 0 }

func runChecks(v reflect.Value, cs []fieldCheck, errs []error) []error {
	for i := range cs {
		c := &cs[i]
		f, ok := fieldOf(v, c.index)
		if !ok {
			continue // through a nil embedded pointer: nothing set
		}
		if !c.each {
			errs = c.run(f, errs)
			continue
		}
		if c.required && f.Len() == 0 {
			errs = append(errs, &codec.ValidationError{Field: c.attr, Reason: "required"})
		}
		for j := range f.Len() {
			errs = c.run(f.Index(j), errs)
		}
	}
	return errs
}

// fieldOf is v.FieldByIndex(index), false through a nil embedded pointer
// (with no error built: a passing check allocates nothing).
func fieldOf(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// run checks one value f of c's field (or one element of it).
func (c *fieldCheck) run(f reflect.Value, errs []error) []error {
	if c.sub != nil {
		if f.Kind() == reflect.Pointer {
			if f.IsNil() {
				return c.requiredErr(f, errs)
			}
			f = f.Elem()
		}
		return runChecks(f, c.sub, errs)
	}
	if c.how != noCheck && (c.always || !f.IsZero()) {
		if err := c.own(f); err != nil {
			return append(errs, err)
		}
	}
	return c.requiredErr(f, errs)
}

// requiredErr appends the "required" failure of f to errs when c is
// required and f zero (a string: blank; a slice or map: empty).
func (c *fieldCheck) requiredErr(f reflect.Value, errs []error) []error {
	if !c.required || c.each { // a slice's emptiness is judged once (runChecks)
		return errs
	}
	var zero bool
	switch f.Kind() {
	case reflect.String:
		zero = strings.TrimSpace(f.String()) == ""
	case reflect.Slice, reflect.Map:
		zero = f.Len() == 0
	default:
		zero = f.IsZero()
	}
	if zero {
		errs = append(errs, &codec.ValidationError{Field: c.attr, Reason: "required"})
	}
	return errs
}

// own calls f's own check.
func (c *fieldCheck) own(f reflect.Value) error {
	if c.how == withDeclared {
		return c.declared(c.attr, f.String())
	}
	if !f.CanInterface() {
		return nil // reached through an unexported embedded field: not the item's to check
	}
	var x any
	if f.CanAddr() {
		x = f.Addr().Interface() // a pointer: the value is not copied into an interface
	} else {
		x = f.Interface()
	}
	switch c.how {
	case withValidator:
		return x.(fieldValidator).Validate(c.attr)
	case withChecker:
		return x.(fieldChecker).Check(c.attr)
	default:
		return x.(selfValidator).Validate()
	}
}

// ItemCheck returns the check every write of a T runs: the checks of its
// fields (fc), then own (the type's or the declaration's Validate, if
// any); every failure, joined (one alone as it is), or nil. It is never
// nil.
func ItemCheck[T any](fc FieldChecks, own func(*T) error) func(*T) error {
	if fc.Empty() && own != nil {
		return own
	}
	return func(item *T) error {
		errs := fc.Run(reflect.ValueOf(item).Elem(), nil)
		if own != nil {
			if err := own(item); err != nil {
				errs = append(errs, err)
			}
		}
		switch len(errs) {
		case 0:
			return nil
		case 1:
			return errs[0]
		}
		return errors.Join(errs...)
	}
}
