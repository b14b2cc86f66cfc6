package decl

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
)

// A field type checks its own value when it has one of these methods
// (a date) or is declared (table.NewEnum, table.NewIDs): the engine
// calls it with the attribute's name, so no read declares that check by
// hand.
type (
	fieldValidator interface{ Validate(field string) error }
	fieldChecker   interface{ Check(field string) error }
	selfValidator  interface{ Validate() error } // the field's name is the type's own
)

// SelfCheck is one key field whose type checks its own value, or that a
// pattern requires ([SelfChecks]).
type SelfCheck struct {
	Attr  string
	Index []int
	// Always: checked even when zero (a partition-key field with no
	// transform, which every read needs); otherwise only when set.
	Always bool
	// Required: zero is refused, reason "required" (the pattern's
	// Require), before its own check.
	Required bool
	own      fieldCheck // the type's own check ([ownCheck]); how noCheck when none
}

// SelfChecks returns the fields of t referenced by the templates pk and sk
// (by attribute, or by `key` tag: keyTagged, [Decl.KeyTagged]) whose
// types check themselves (Validate(field string) error,
// Check(field string) error or Validate() error) or that require names,
// in template order, each once. A partition-key reference is checked
// always (every read needs it), but under a shard transform (a read may
// go through every shard) or ":opt"; the others when set. A name of
// require that is no field of pk or sk is an error.
func SelfChecks(t reflect.Type, pk, sk keytmpl.Template, keyTagged map[string]int, require []string) ([]SelfCheck, error) {
	fields := codec.FieldsOf(t)
	var out []SelfCheck
	seen := map[string]bool{}
	for i, tp := range []keytmpl.Template{pk, sk} {
		for _, p := range tp {
			if p.Attr == "" || seen[p.Attr] {
				continue
			}
			seen[p.Attr] = true
			index, typ := keyTaggedField(t, keyTagged, p.Attr)
			if f, ok := fields[p.Attr]; ok && !f.ViaPointer {
				index, typ = f.Index, f.Typ
			}
			required := slices.Contains(require, p.Attr)
			var own fieldCheck
			if typ != nil {
				own, _ = ownCheck(typ, p.Attr)
			}
			if required && typ == nil {
				return nil, fmt.Errorf("%q: the key field is no field of the type outside an embedded pointer", p.Attr)
			}
			if own.how == noCheck && !required {
				continue
			}
			always := i == 0 && keytmpl.ShardCount(p.Mod) == 0 && p.Mod != "opt"
			out = append(out, SelfCheck{Attr: p.Attr, Index: index, Always: always, Required: required, own: own})
		}
	}
	for _, r := range require {
		if !seen[r] {
			return nil, fmt.Errorf("%q is no field of the key templates (%s; %s)", r,
				keytmpl.JoinAttrs(pk.Attrs()), keytmpl.JoinAttrs(sk.Attrs()))
		}
	}
	return out, nil
}

// KeyChecks returns the checks of the primary-key fields (templates pk
// and sk) whose types check themselves ([SelfChecks]), each checked even
// when zero: a key names one item, so it needs every field.
func KeyChecks(t reflect.Type, pk, sk keytmpl.Template, keyTagged map[string]int) []SelfCheck {
	cs, _ := SelfChecks(t, pk, sk, keyTagged, nil) // nothing required: no error
	for i := range cs {
		cs[i].Always = true
	}
	return cs
}

// keyTaggedField is the field tagged `key:"attr"` (stored only in the
// key, or stored too), if any.
func keyTaggedField(t reflect.Type, keyTagged map[string]int, attr string) ([]int, reflect.Type) {
	if i, ok := keyTagged[attr]; ok {
		return []int{i}, t.Field(i).Type
	}
	return nil, nil
}

// RunSelfChecks runs checks on the struct v (addressable, so each check
// is called on the field's address): the first error, in order, of a
// required field left zero (a *codec.ValidationError, reason "required")
// or of a field's own check, or nil.
func RunSelfChecks(v reflect.Value, checks []SelfCheck) error {
	for _, c := range checks {
		f := v.FieldByIndex(c.Index)
		if f.IsZero() && c.Required {
			return &codec.ValidationError{Field: c.Attr, Reason: "required", Key: true}
		}
		if c.own.how == noCheck || !c.Always && f.IsZero() {
			continue
		}
		if err := c.own.own(f); err != nil {
			return err
		}
	}
	return nil
}
