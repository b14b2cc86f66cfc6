package table

import "context"

// In returns the pattern's view of one tenant, as [Entity.In] gives the
// entity's: the same reads, each one call of the pattern's ID and name,
// sent through the entity's [Scoped] handle for tenant scope (the value of
// its Def.Scope attribute). Get returns [ErrNotFound] for another tenant's
// item, as for a missing one; List, All, Between and AllBetween carry a
// FilterExpression on the scope attribute, so another tenant's items
// never leave DynamoDB, and [Pattern.Query] carries it too. An empty
// scope is a *[ValidationError] at the read, before any request.
//
// The view is a cheap copy of the declaration: it registers nothing with
// the table ([Table.Patterns] lists the pattern once), so a store may
// declare its patterns once and give each request its tenant's view. It
// panics if the entity has no Def.Scope (a programming error), as
// [Entity.In] does.
func (p *Pattern[T]) In(scope string) *Pattern[T] {
	v := *p
	v.scope = *p.e.In(scope) // the entity's check: a Def.Scope
	return &v
}

// Scope returns the tenant of a view made by [Pattern.In], and false for
// the declared pattern itself.
func (p *Pattern[T]) Scope() (string, bool) {
	if p.scope.e == nil {
		return "", false
	}
	return p.scope.scope, true
}

// get reads the item with key k, through the tenant's handle on a scoped
// view.
func (p *Pattern[T]) get(ctx context.Context, k Key, opts []ReadOption) (T, error) {
	if p.scope.e == nil {
		return p.e.Get(ctx, k, opts...)
	}
	return p.scope.Get(ctx, k, opts...)
}

// page reads one page of q, through the tenant's handle on a scoped view.
func (p *Pattern[T]) page(ctx context.Context, q Query, opts []ListOption) (Page[T], error) {
	if p.scope.e == nil {
		return p.e.List(ctx, q, opts...)
	}
	return p.scope.List(ctx, q, opts...)
}

// scoped adds the tenant filter of a scoped view to q.
func (p *Pattern[T]) scoped(q Query) Query {
	if p.scope.e == nil || q.err != nil {
		return q
	}
	s := &p.scope
	if err := s.check(); err != nil {
		q.err = opErr("partition", p.e.def.Type, Key{}, err)
		return q
	}
	return s.filter(q)
}
