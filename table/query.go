package table

import (
	"context"
	"maps"
	"slices"

	"github.com/singletable/singletable/internal/ddb"
)

// SKCond is a sort-key condition of a [Query]. The zero value matches the
// whole partition.
type SKCond = ddb.SKCond

// SKEquals matches sort key v.
func SKEquals(v string) SKCond { return ddb.SKEquals(v) }

// SKBeginsWith matches sort keys that start with prefix. Build prefixes with
// [Template.SortPrefix] so they end at a segment boundary.
func SKBeginsWith(prefix string) SKCond { return ddb.SKBeginsWith(prefix) }

// SKBetween matches sort keys from lo to hi, both inclusive.
func SKBetween(lo, hi string) SKCond { return ddb.SKBetween(lo, hi) }

// SKLess matches sort keys below v; SKLessEq, SKGreater and SKGreaterEq likewise.
func SKLess(v string) SKCond { return ddb.SKCompare("<", v) }

// SKLessEq matches sort keys at or below v.
func SKLessEq(v string) SKCond { return ddb.SKCompare("<=", v) }

// SKGreater matches sort keys above v.
func SKGreater(v string) SKCond { return ddb.SKCompare(">", v) }

// SKGreaterEq matches sort keys at or above v.
func SKGreaterEq(v string) SKCond { return ddb.SKCompare(">=", v) }

// Query is one key-condition query: a partition of the table or of a GSI,
// an optional sort-key condition, an order, a page size and a cursor.
type Query struct {
	// Index is the GSI to query; Primary (zero) for the table.
	Index Index
	// PK is the partition key value (required).
	PK string
	// SK narrows the sort key.
	SK SKCond
	// Desc returns items in descending sort-key order (newest first).
	Desc bool
	// Limit is the page size (items evaluated per request); 0 for
	// DynamoDB's 1 MB page.
	Limit int
	// Cursor continues after a previous page ("" for the first).
	Cursor string
	// Consistent asks for a strongly consistent read (table only).
	Consistent bool
	// OnlyType, when set, keeps only items of this entity type (a filter,
	// evaluated after the page is read).
	OnlyType string
	// Filter keeps only items whose attributes equal these values (a
	// FilterExpression: evaluated after the page is read, so a page may
	// hold fewer than Limit items; the cursor still continues correctly).
	Filter map[string]any
	// FilterContains keeps only items whose attribute (a list, set or
	// string) contains the value, like Filter a FilterExpression.
	FilterContains map[string]any
	// Shards, when above 1, reads a sharded partition: PK is the partition
	// without its shard segment, and the page merges the Queries of
	// PK#0 .. PK#{Shards-1} in sort-key order (see [Table.QueryItems]).
	// [Entity.List] sets it from the entity's declared template ("shardN"
	// modifier) when PK is the template's partition without the shard.
	Shards int
	// OnlyShards, with Shards, reads only these shards (a worker that owns
	// some of them); nil reads all.
	OnlyShards []int
	// ShardBase, with Shards, also reads the partition PK itself, merged
	// with the shards: a write-sharded collection that was unsharded in
	// an earlier epoch of its layout (see [Layout.Query]).
	ShardBase bool

	// err is why [Entity.Partition] could not build the query: every
	// method that takes it returns it, before any request.
	err error

	project *projection // see Projection.List
}

// Err returns why [Entity.Partition] could not build q (nil otherwise).
func (q Query) Err() error { return q.err }

// QueryItems runs one Query request and returns its raw items (expired
// items excluded) and the cursor for the next page; with q.Shards above 1,
// one Query per shard (sent at once) and a merged page (see [Query.Shards]).
func (t *Table) QueryItems(ctx context.Context, q Query) (Page[Item], error) {
	p, err := t.queryItems(ctx, q, "")
	if err != nil {
		return p, opErr("query", q.OnlyType, Key{}, err)
	}
	return p, nil
}

// queryItems serves q through the requests' layer ([ddb.Conn.Query]),
// its events naming entity.
func (t *Table) queryItems(ctx context.Context, q Query, entity string) (Page[Item], error) {
	if q.err != nil {
		return Page[Item]{}, q.err
	}
	w := ddb.Query{Index: q.Index, PK: q.PK, SK: q.SK, Desc: q.Desc, Limit: q.Limit, Cursor: q.Cursor,
		Consistent: q.Consistent, OnlyType: q.OnlyType, Filter: q.Filter, FilterContains: q.FilterContains,
		Shards: q.Shards, OnlyShards: q.OnlyShards, ShardBase: q.ShardBase, Entity: entity}
	if q.project != nil {
		w.Project = append([]string{}, q.project.attrs...)
	}
	items, cursor, err := t.c.Query(ctx, w)
	if err != nil {
		return Page[Item]{}, err
	}
	return Page[Item]{Items: items, Cursor: cursor}, nil
}

// query runs one Query request (one page) and decodes its items as T. An
// item of another entity type is an error (set q.OnlyType, or narrow the
// key condition, when a partition mixes types).
func (e *Entity[T]) query(ctx context.Context, q Query) (Page[T], error) {
	var page Page[T]
	q = e.withShards(q)
	proj, err := e.projectionFor(q.project, []Index{q.Index})
	if err != nil {
		return page, opErr("query", e.def.Type, Key{}, err)
	}
	q.project = proj
	for _, f := range slices.Sorted(maps.Keys(q.Filter)) {
		if err := e.checkAttr("Filter", f); err != nil {
			return page, opErr("query", e.def.Type, Key{}, err)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(q.FilterContains)) {
		if err := e.checkAttr("FilterContains", f); err != nil {
			return page, opErr("query", e.def.Type, Key{}, err)
		}
	}
	raw, err := e.t.queryItems(ctx, q, e.def.Type)
	if err != nil {
		return page, opErr("query", e.def.Type, Key{}, err)
	}
	page.Cursor = raw.Cursor
	page.Items = make([]T, 0, len(raw.Items))
	for _, it := range raw.Items {
		v, _, err := e.decode(it)
		if err != nil {
			return Page[T]{}, opErr("query", e.def.Type, e.t.c.KeyOf(it), err)
		}
		if q.project != nil {
			e.markPartial(&v)
		}
		page.Items = append(page.Items, v)
	}
	return page, nil
}
