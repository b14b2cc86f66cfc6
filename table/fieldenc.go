package table

import (
	"fmt"
	"reflect"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
	"github.com/singletable/singletable/internal/codec"
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
	codec.KeepEmptyMapStrings(av, v)
	e.addExtra(av, item)
	for _, a := range e.def.AlwaysWriteNull {
		if _, ok := av[a]; !ok {
			av[a] = &types.AttributeValueMemberNULL{Value: true}
		}
	}
	for _, a := range e.def.AlwaysWrite {
		if _, ok := av[a]; !ok {
			av[a] = codec.EmptyValue(v, a)
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
	fields := codec.FieldsOf(rv.Type())
	out := Item{}
	var names []string
	for _, name := range codec.SortedNames(set) {
		v := set[name]
		fi, ok := fields[name]
		if !ok {
			av, err := codec.LooseValue(v)
			if err != nil {
				return nil, &ValidationError{Entity: e.def.Type, Field: name, Reason: "cannot set: " + err.Error()}
			}
			if av != nil {
				out[name] = av
			}
			continue
		}
		if err := codec.AssignField(rv, fi, v); err != nil {
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
