package table

import (
	"reflect"
	"slices"
)

// IncludeHidden makes a declared pattern's List, All, Between and
// AllBetween return the items its PatternDef.Hidden leaves out (the
// soft-deleted ones). Other reads ignore it.
func IncludeHidden() ListOption { return func(o *ListOptions) { o.hidden = true } }

// sortFrom narrows q's sort key as PatternDef.SortFrom says: from the
// prefix fields' leading sort-key fields build to the end of the
// template's keys.
func (p *Pattern[T]) sortFrom(q Query, fields T) Query {
	sk, err := p.e.decl.From(p.e.def.Type, p.def.Index, reflect.ValueOf(&fields).Elem())
	if err != nil {
		q.err = opErr("partition", p.e.def.Type, Key{}, err)
	}
	q.SK = sk
	return q
}

// hide drops the items PatternDef.Hidden tells, unless opts include
// [IncludeHidden].
func (p *Pattern[T]) hide(items []T, opts []ListOption) []T {
	var o ListOptions
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	if o.hidden {
		return items
	}
	return slices.DeleteFunc(items, func(item T) bool { return p.def.Hidden(&item) })
}
