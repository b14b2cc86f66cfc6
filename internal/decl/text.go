package decl

import (
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
