package table

import (
	"context"

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

func readOptsOf(opts []ReadOption) (ro readOpts) {
	for _, o := range opts {
		o(&ro)
	}
	return ro
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
	ro := readOptsOf(opts)
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

// getRaw reads the item with key k: the item, its version and the stored
// attributes.
func (e *Entity[T]) getRaw(ctx context.Context, k Key, opts ...ReadOption) (T, int64, Item, error) {
	var zero T
	ro := readOptsOf(opts)
	if err := keytmpl.CheckKey(k); err != nil {
		return zero, 0, nil, err
	}
	if ro.project != nil {
		return e.getProjected(ctx, k, ro)
	}
	raw, err := e.t.c.GetItem(ctx, e.def.Type, k, ro.consistent, nil, nil)
	if err != nil {
		return zero, 0, nil, err
	}
	if raw == nil || e.t.c.Expired(raw) {
		return zero, 0, nil, ErrNotFound
	}
	v, ver, err := e.decode(raw)
	return v, ver, raw, err
}
