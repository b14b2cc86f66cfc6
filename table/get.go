package table

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/singletable/singletable/internal/keytmpl"
)

// ReadOption changes a read.
type ReadOption func(*readOpts)

type readOpts struct {
	consistent bool
	indexed    []Index     // see Indexed
	valid      bool        // see Valid
	project    *projection // see Projection.Read
}

// Consistent asks for a strongly consistent read (table reads only).
func Consistent() ReadOption { return func(o *readOpts) { o.consistent = true } }

// Get returns the item with key k. A missing item, or one past its TTL,
// gives [ErrNotFound]. Options: [Consistent]; [Indexed] also requires the
// item to be stored under the named GSIs (its stored index attributes, as
// its fields derive them), else [ErrNotFound]; [Valid] requires it to be
// valid by Def.ValidWhileIndexed (a revoked item is [ErrNotFound]).
func (e *Entity[T]) Get(ctx context.Context, k Key, opts ...ReadOption) (T, error) {
	var zero T
	var ro readOpts
	for _, o := range opts {
		o(&ro)
	}
	item, _, raw, err := e.getRaw(ctx, k, opts...)
	if err != nil {
		return zero, opErr("get", e.def.Type, k, err)
	}
	if ixs := e.checkIndexes(ro, false); len(ixs) > 0 {
		ok, err := e.storedUnder(raw, &item, ixs)
		if err == nil && !ok {
			err = ErrNotFound
		}
		if err != nil {
			return zero, opErr("get", e.def.Type, k, err)
		}
	}
	return item, nil
}

func (e *Entity[T]) get(ctx context.Context, k Key, opts ...ReadOption) (T, int64, error) {
	v, ver, _, err := e.getRaw(ctx, k, opts...)
	return v, ver, err
}

// getRaw is get that also returns the stored item.
func (e *Entity[T]) getRaw(ctx context.Context, k Key, opts ...ReadOption) (T, int64, Item, error) {
	var zero T
	var ro readOpts
	for _, o := range opts {
		o(&ro)
	}
	if err := keytmpl.CheckKey(k); err != nil {
		return zero, 0, nil, err
	}
	if ro.project != nil {
		return e.getProjected(ctx, k, ro)
	}
	raw, err := e.t.getItem(ctx, e.def.Type, k, ro.consistent)
	if err != nil {
		return zero, 0, nil, err
	}
	if raw == nil || e.t.c.Expired(raw) {
		return zero, 0, nil, ErrNotFound
	}
	v, ver, err := e.decode(raw)
	return v, ver, raw, err
}

// getItem is one GetItem; a missing item is nil, not an error.
func (t *Table) getItem(ctx context.Context, entity string, k Key, consistent bool) (Item, error) {
	return t.getItemAttrs(ctx, entity, k, consistent, nil)
}

// getItemAttrs is getItem fetching only attrs (with what the table reads
// itself: see [ddb.Conn.ProjectionExpr]) when attrs is not empty.
func (t *Table) getItemAttrs(ctx context.Context, entity string, k Key, consistent bool, attrs []string) (Item, error) {
	var p *projection
	if len(attrs) > 0 {
		p = &projection{attrs: attrs}
	}
	return t.getItemProjected(ctx, entity, k, consistent, p, nil)
}

// getItemProjected is the one GetItem of the table's reads: the whole
// item, or with p only p's attributes, the engine's own and those of the
// indexes ixs ([ddb.Conn.ProjectionExpr]).
func (t *Table) getItemProjected(ctx context.Context, entity string, k Key, consistent bool, p *projection, ixs []Index) (Item, error) {
	if p == nil {
		return t.c.GetItem(ctx, entity, k, consistent, nil, nil)
	}
	names := map[string]string{}
	proj := aws.String(t.c.ProjectionExpr(p.attrs, ixs, names))
	return t.c.GetItem(ctx, entity, k, consistent, proj, names)
}
