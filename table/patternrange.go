package table

import "slices"

// IncludeHidden makes a declared pattern's List, All, Between and
// AllBetween return the items its PatternDef.Hidden leaves out (the
// soft-deleted ones). Other reads ignore it.
func IncludeHidden() ListOption { return func(o *ListOptions) { o.hidden = true } }

// hide drops the items PatternDef.Hidden tells, unless opts include
// [IncludeHidden] (opts were checked by the read).
func (p *Pattern[T]) hide(items []T, opts []ListOption) []T {
	if o, _ := NewListOptions(opts...); o.hidden {
		return items
	}
	return slices.DeleteFunc(items, func(item T) bool { return p.def.Hidden(&item) })
}
