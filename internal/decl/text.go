package decl

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
)

// TextFields decodes fields given as text (attribute name to value, as
// `singletable query` takes them) into v, each as a string or, where the
// field is one, a number; the fields stored only in the key are set too.
// Names "from.x" and "to.x" bound a range: then lo and hi get the plain
// fields with from's and to's, and ranged is true.
func (d *Decl) TextFields(text map[string]string, v, lo, hi reflect.Value) (ranged bool, err error) {
	plain, bound := map[string]string{}, [2]map[string]string{{}, {}}
	for k, s := range text {
		switch {
		case strings.HasPrefix(k, "from."):
			bound[0][strings.TrimPrefix(k, "from.")] = s
		case strings.HasPrefix(k, "to."):
			bound[1][strings.TrimPrefix(k, "to.")] = s
		default:
			plain[k] = s
		}
	}
	if err := d.textInto(plain, v); err != nil {
		return false, err
	}
	if len(bound[0]) == 0 && len(bound[1]) == 0 {
		return false, nil
	}
	for i, dst := range []reflect.Value{lo, hi} {
		m := maps.Clone(plain)
		maps.Copy(m, bound[i])
		if err := d.textInto(m, dst); err != nil {
			return false, err
		}
	}
	return true, nil
}

// textInto is TextFields of one set of fields.
func (d *Decl) textInto(text map[string]string, v reflect.Value) error {
	item := make(Item, len(text))
	for k, s := range text {
		item[k] = &types.AttributeValueMemberS{Value: s}
	}
	err := codec.DecodeItem(item, v.Addr().Interface())
	for _, k := range slices.Sorted(maps.Keys(text)) {
		if err == nil {
			break
		}
		if _, perr := strconv.ParseFloat(text[k], 64); perr == nil {
			item[k] = &types.AttributeValueMemberN{Value: text[k]}
			err = codec.DecodeItem(item, v.Addr().Interface())
		}
	}
	if err != nil {
		return &codec.ValidationError{Field: "fields", Reason: err.Error()}
	}
	d.FillFromKey(v, item) // the fields stored only in the key
	return nil
}

// Filters returns the equality filters of attributes eq and the contains
// filters of attributes has (a declared pattern's FilterOn and
// FilterContains), each from v's field at the index of the same position
// in eqIdx or hasIdx: a field at its zero value (an empty list) filters
// nothing; a list of more than one value is refused.
func Filters(entity string, v reflect.Value, eq []string, eqIdx [][]int, has []string, hasIdx [][]int) (equal, contains map[string]any, err error) {
	for i, a := range eq {
		if f, ferr := v.FieldByIndexErr(eqIdx[i]); ferr == nil && !f.IsZero() {
			if equal == nil {
				equal = map[string]any{}
			}
			equal[a] = f.Interface()
		}
	}
	for i, a := range has {
		f, ferr := v.FieldByIndexErr(hasIdx[i])
		switch {
		case ferr != nil || f.Len() == 0:
		case f.Len() > 1:
			return nil, nil, &codec.ValidationError{Entity: entity, Field: a, Reason: fmt.Sprintf("%d values: a filter contains one", f.Len())}
		default:
			if contains == nil {
				contains = map[string]any{}
			}
			contains[a] = f.Index(0).Interface()
		}
	}
	return equal, contains, nil
}

// Pick returns which of n declared patterns, each by at(i) its ID, its
// Name and whether it can run by text, the text pattern names (an ID or a
// Name; an ID two patterns share must be given by Name): table.RunPattern.
// Errors: a *codec.ValidationError naming "pattern" when none matches,
// several do, or the one cannot run.
func Pick(pattern string, n int, at func(i int) (id, name string, runs bool)) (int, error) {
	var found []int
	var names []string
	for i := range n {
		if id, name, _ := at(i); id == pattern || name == pattern {
			found, names = append(found, i), append(names, name)
		}
	}
	fail := func(reason string, a ...any) (int, error) {
		return -1, &codec.ValidationError{Field: "pattern", Reason: fmt.Sprintf(reason, a...)}
	}
	switch {
	case len(found) == 0:
		return fail("no declared pattern is %q", pattern)
	case len(found) > 1:
		return fail("%q names %d patterns: give one of %s", pattern, len(found), strings.Join(names, ", "))
	}
	if _, name, runs := at(found[0]); !runs {
		return fail("%s cannot be run by text", name)
	}
	return found[0], nil
}
