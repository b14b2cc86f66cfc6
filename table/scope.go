package table

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/expr"
	"github.com/singletable/singletable/internal/keytmpl"
)

// Tenant scoping, enforced by signatures. An entity whose items belong to a
// tenant (an account, a user, an organization) names the attribute holding
// the tenant in Def.Scope; [Entity.In] returns a [Scoped] handle for one
// tenant, whose methods cannot reach another tenant's items:
//
//   - reads (Get, Query) return [ErrNotFound] / leave out items of another
//     tenant, as if they did not exist;
//   - writes (Create, Update, Patch, Add, Delete) carry the condition
//     "scope attribute = tenant" in the same request, so an item of another
//     tenant is never changed, even if its ID was guessed or leaked, and a
//     change can never move an item to another tenant;
//   - a list cursor is sealed to its partition and access pattern, so a
//     cursor minted for another tenant's partition is refused.
//
// A service that only hands its handlers a Scoped handle (obtained once the
// caller's tenant is authenticated) cannot forget the check: the unscoped
// by-ID methods are not in its hands.

// Items is what an [Entity] and its view of one tenant ([Entity.In]) both
// do: code written once against it serves a back-office job that crosses
// tenants (the Entity) and a request handler that must not (the Scoped).
type Items[T any] interface {
	Get(ctx context.Context, k Key, opts ...ReadOption) (T, error)
	GetByIndex(ctx context.Context, q Query) (T, error)
	Create(ctx context.Context, item *T) error
	Update(ctx context.Context, k Key, change func(*T) error) (T, error)
	Patch(ctx context.Context, k Key, p Patch) (T, error)
	Add(ctx context.Context, k Key, field string, delta int64) (int64, error)
	Delete(ctx context.Context, k Key) error
	List(ctx context.Context, q Query, opts ...ListOption) (Page[T], error)
	ListAll(ctx context.Context, q Query, opts ...ListOption) iter.Seq2[T, error]
}

// Scoped is an [Entity] restricted to the items of one tenant: see [Entity.In].
type Scoped[T any] struct {
	e     *Entity[T]
	scope string
}

// In returns the entity restricted to tenant scope (the value of the
// Def.Scope attribute). It panics if the entity has no Def.Scope (a
// programming error).
func (e *Entity[T]) In(scope string) *Scoped[T] {
	if e.def.Scope == "" {
		panic("table: Entity.In on " + e.def.Type + ", which has no Def.Scope")
	}
	return &Scoped[T]{e: e, scope: scope}
}

// Scope returns the tenant the handle is restricted to.
func (s *Scoped[T]) Scope() string { return s.scope }

func (s *Scoped[T]) check() error {
	if s.scope == "" {
		return &ValidationError{Entity: s.e.def.Type, Field: s.e.def.Scope, Reason: "empty scope"}
	}
	return nil
}

// scopeOf returns the tenant an item of T names (its Def.Scope attribute).
func (s *Scoped[T]) scopeOf(item *T) (string, error) {
	w, err := s.e.prepare(item, 0, false)
	if err != nil {
		return "", err
	}
	v, _ := w.item[s.e.def.Scope].(*types.AttributeValueMemberS)
	if v == nil {
		return "", nil
	}
	return v.Value, nil
}

// Get returns the tenant's item with key k; an item of another tenant is
// [ErrNotFound], like a missing one.
func (s *Scoped[T]) Get(ctx context.Context, k Key, opts ...ReadOption) (T, error) {
	var zero T
	if err := s.check(); err != nil {
		return zero, opErr("get", s.e.def.Type, k, err)
	}
	v, _, raw, err := s.e.getRaw(ctx, k, opts...)
	if err == nil && !s.scopeCond().Holds(raw) {
		err = ErrNotFound
	}
	if err != nil {
		return zero, opErr("get", s.e.def.Type, k, err)
	}
	return v, nil
}

// GetByIndex is [Entity.GetByIndex] for the tenant (the same two
// requests): an item of another tenant is [ErrNotFound], like a missing one.
func (s *Scoped[T]) GetByIndex(ctx context.Context, q Query) (T, error) {
	var zero T
	if err := s.check(); err != nil {
		return zero, opErr("get by index", s.e.def.Type, Key{}, err)
	}
	item, stored, err := s.e.getByIndex(ctx, q)
	if err == nil && !s.scopeCond().Holds(stored) {
		return zero, opErr("get by index", s.e.def.Type, s.e.t.c.KeyOf(stored), ErrNotFound)
	}
	return item, err
}

// Create creates item, which must name the handle's tenant.
func (s *Scoped[T]) Create(ctx context.Context, item *T) error {
	if err := s.check(); err != nil {
		return opErr("create", s.e.def.Type, Key{}, err)
	}
	got, err := s.scopeOf(item)
	if err != nil {
		return opErr("create", s.e.def.Type, Key{}, err)
	}
	if got != s.scope {
		return opErr("create", s.e.def.Type, Key{}, &ValidationError{Entity: s.e.def.Type, Field: s.e.def.Scope,
			Reason: fmt.Sprintf("%q is not the handle's tenant", got)})
	}
	return s.e.Create(ctx, item)
}

// Update is [Entity.Update] on the tenant's item with key k: another
// tenant's item is [ErrNotFound] and unchanged (the write is conditioned
// on the tenant), and change may not move the item to another tenant.
func (s *Scoped[T]) Update(ctx context.Context, k Key, change func(*T) error) (T, error) {
	var zero T
	if err := s.check(); err != nil {
		return zero, opErr("update", s.e.def.Type, k, err)
	}
	return s.e.updateScoped(ctx, k, s, nil, change)
}

// Patch is [Entity.Patch] on the tenant's item, conditioned on the tenant
// in the same UpdateItem; the scope attribute cannot be patched.
func (s *Scoped[T]) Patch(ctx context.Context, k Key, p Patch) (T, error) {
	var zero T
	if err := s.check(); err != nil {
		return zero, opErr("patch", s.e.def.Type, k, err)
	}
	p, err := s.patch(p)
	if err != nil {
		return zero, opErr("patch", s.e.def.Type, k, err)
	}
	return s.e.patch(ctx, "patch", k, p, s.scopeCond())
}

// Add is [Entity.Add] on the tenant's item, conditioned on the tenant.
func (s *Scoped[T]) Add(ctx context.Context, k Key, field string, delta int64) (int64, error) {
	if err := s.check(); err != nil {
		return 0, opErr("add", s.e.def.Type, k, err)
	}
	p, err := s.patch(Patch{Add: map[string]int64{field: delta}})
	if err != nil {
		return 0, opErr("add", s.e.def.Type, k, err)
	}
	raw, err := s.e.update(ctx, k, p, types.ReturnValueUpdatedNew, s.scopeCond())
	if err != nil {
		return 0, opErr("add", s.e.def.Type, k, err)
	}
	return ddb.AddResult(raw, field, s.e.def.Type, k)
}

// patch adds the tenant condition to p and refuses a change of the scope.
func (s *Scoped[T]) patch(p Patch) (Patch, error) {
	sc := s.e.def.Scope
	_, set := p.Set[sc]
	_, add := p.Add[sc]
	if set || add || slices.Contains(p.Remove, sc) {
		return p, &ValidationError{Entity: s.e.def.Type, Field: sc, Reason: "the tenant of an item cannot change"}
	}
	p.IfEqual = codec.WithEntry(p.IfEqual, sc, s.scope)
	return p, nil
}

// Delete deletes the tenant's item with key k (and its guards), with the
// tenant in the request's condition; another tenant's item is
// [ErrNotFound] and stays.
func (s *Scoped[T]) Delete(ctx context.Context, k Key) error {
	if err := s.check(); err != nil {
		return opErr("delete", s.e.def.Type, k, err)
	}
	if err := keytmpl.CheckKey(k); err != nil {
		return opErr("delete", s.e.def.Type, k, err)
	}
	if !s.e.hasUniques() {
		x := expr.New()
		c := s.e.t.c.Live(x, s.e.def.Type) + " AND " + s.scopeCond().Cond(x)
		return opErr("delete", s.e.def.Type, k, s.e.t.c.DeleteItemCond(ctx, s.e.def.Type, k, c, x))
	}
	for attempt := 0; ; attempt++ {
		ops, err := s.e.DeleteOps(ctx, k)
		if err != nil {
			return opErr("delete", s.e.def.Type, k, err)
		}
		ops[0] = ops[0].and(s.scopeCond().Cond)
		err = s.e.t.Transact(ctx, ops...)
		var te *TxError
		if errors.As(err, &te) && len(te.Reasons) > 0 && te.Reasons[0].Code == "ConditionalCheckFailed" {
			if it := te.Reasons[0].Item; it == nil || s.e.t.c.Expired(it) || !s.scopeCond().Holds(it) {
				err = ErrNotFound
			} else if attempt < s.e.t.opts.ConflictRetries {
				continue
			}
		}
		return opErr("delete", s.e.def.Type, k, err)
	}
}

// scopeCond is the tenant a write is conditioned on.
func (s *Scoped[T]) scopeCond() *ddb.Scope { return &ddb.Scope{Attr: s.e.def.Scope, Value: s.scope} }

// query runs one page of q and keeps only the tenant's items (a
// FilterExpression on the scope attribute, so another tenant's items never
// leave DynamoDB). Design keys so the tenant is in the partition key where
// you can: then the filter never drops anything.
func (s *Scoped[T]) query(ctx context.Context, q Query) (Page[T], error) {
	if err := s.check(); err != nil {
		return Page[T]{}, opErr("query", s.e.def.Type, Key{}, err)
	}
	return s.e.query(ctx, s.filter(q))
}

// filter returns q keeping only the tenant's items: its Filter, on a
// copy, with the scope attribute equal to the tenant.
func (s *Scoped[T]) filter(q Query) Query {
	q.Filter = codec.WithEntry(q.Filter, s.e.def.Scope, s.scope)
	return q
}

// List is [Entity.List] restricted to the tenant: a FilterExpression on
// the scope attribute keeps another tenant's items in DynamoDB.
func (s *Scoped[T]) List(ctx context.Context, q Query, opts ...ListOption) (Page[T], error) {
	o, err := NewListOptions(opts...)
	if err != nil {
		return Page[T]{}, opErr("list", s.e.def.Type, Key{}, err)
	}
	return s.query(ctx, o.Apply(q))
}

// ListAll iterates over the tenant's items of q, page by page.
func (s *Scoped[T]) ListAll(ctx context.Context, q Query, opts ...ListOption) iter.Seq2[T, error] {
	return Pages(ctx, func(ctx context.Context, opts ...ListOption) (Page[T], error) {
		return s.List(ctx, q, opts...)
	}, opts...)
}
