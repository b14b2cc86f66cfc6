package table

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
	"github.com/singletable/singletable/internal/keytmpl"
)

// SKCond is a sort-key condition of a [Query]. The zero value matches the
// whole partition.
type SKCond struct {
	op   string
	a, b string
}

// SKEquals matches sort key v.
func SKEquals(v string) SKCond { return SKCond{op: "=", a: v} }

// SKBeginsWith matches sort keys that start with prefix. Build prefixes with
// [Template.SortPrefix] so they end at a segment boundary.
func SKBeginsWith(prefix string) SKCond { return SKCond{op: "begins_with", a: prefix} }

// SKBetween matches sort keys from lo to hi, both inclusive.
func SKBetween(lo, hi string) SKCond { return SKCond{op: "between", a: lo, b: hi} }

// SKLess matches sort keys below v; SKLessEq, SKGreater and SKGreaterEq likewise.
func SKLess(v string) SKCond { return SKCond{op: "<", a: v} }

// SKLessEq matches sort keys at or below v.
func SKLessEq(v string) SKCond { return SKCond{op: "<=", a: v} }

// SKGreater matches sort keys above v.
func SKGreater(v string) SKCond { return SKCond{op: ">", a: v} }

// SKGreaterEq matches sort keys at or above v.
func SKGreaterEq(v string) SKCond { return SKCond{op: ">=", a: v} }

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

// binding names the query's access pattern and partition for its cursor.
func (q Query) binding(table string) string {
	parts := []string{table, strconv.Itoa(int(q.Index)), q.PK, q.SK.op, q.SK.a, q.SK.b,
		strconv.FormatBool(q.Desc), q.OnlyType}
	for _, f := range sortedKeys(q.Filter) {
		parts = append(parts, f, fmt.Sprint(q.Filter[f]))
	}
	for _, f := range sortedKeys(q.FilterContains) {
		parts = append(parts, "contains", f, fmt.Sprint(q.FilterContains[f]))
	}
	if q.Shards > 1 {
		parts = append(parts, "shards", strconv.Itoa(q.Shards), fmt.Sprint(q.OnlyShards))
		if q.ShardBase {
			parts = append(parts, "base")
		}
	}
	return strings.Join(parts, "\x00")
}

func (t *Table) validateQuery(q Query) error {
	if q.err != nil {
		return q.err
	}
	if q.PK == "" {
		return &ValidationError{Field: "PK", Reason: "empty partition key", Key: true}
	}
	if err := keytmpl.CheckKeyValue("PK", q.PK, 2048); err != nil {
		return err
	}
	if q.Limit < 0 {
		return &ValidationError{Field: "Limit", Reason: "negative"}
	}
	if q.SK.op != "" && q.SK.a == "" && q.SK.op != "between" {
		return &ValidationError{Field: "SK", Reason: "empty sort-key value", Key: true}
	}
	if q.SK.op == "between" && q.SK.a > q.SK.b {
		return &ValidationError{Field: "SK", Reason: fmt.Sprintf("range reversed: %q > %q", q.SK.a, q.SK.b), Key: true}
	}
	if err := checkShards(q); err != nil {
		return err
	}
	if q.Consistent && q.Index != Primary {
		return &ValidationError{Field: "Consistent", Reason: "GSIs support only eventually consistent reads"}
	}
	return nil
}

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

func (t *Table) queryItems(ctx context.Context, q Query, entity string) (Page[Item], error) {
	var page Page[Item]
	if err := t.validateQuery(q); err != nil {
		return page, err
	}
	if q.Shards > 1 {
		return t.queryShards(ctx, q, entity)
	}
	pkName, _, _, err := t.schema.KeyAttrs(q.Index)
	if err != nil {
		return page, err
	}
	binding := q.binding(t.schema.Name)
	var start Item
	if q.Cursor != "" {
		pos, err := t.sealer().Open(binding, q.Cursor)
		if err != nil {
			return page, err
		}
		if pos[pkName] != q.PK {
			return page, fmt.Errorf("%w: cursor is for another partition", ErrInvalidCursor)
		}
		start = make(Item, len(pos))
		for k, v := range pos {
			start[k] = &types.AttributeValueMemberS{Value: v}
		}
	}
	items, last, err := t.queryRaw(ctx, q, entity, start)
	if err != nil {
		return page, err
	}
	page.Items = items
	if len(last) > 0 {
		pos, err := keyPosition(last)
		if err != nil {
			return page, err
		}
		if page.Cursor, err = t.sealer().Seal(binding, pos); err != nil {
			return page, err
		}
	}
	return page, nil
}

// keyPosition turns a LastEvaluatedKey into a cursor position.
func keyPosition(last Item) (map[string]string, error) {
	pos := make(map[string]string, len(last))
	for k, v := range last {
		s, ok := v.(*types.AttributeValueMemberS)
		if !ok {
			return nil, fmt.Errorf("query: non-string key attribute %s", k)
		}
		pos[k] = s.Value
	}
	return pos, nil
}

// queryRaw sends one Query request for q's partition (q.PK as given,
// q.Cursor ignored) starting after start, and returns its items (expired
// items excluded) and its LastEvaluatedKey.
func (t *Table) queryRaw(ctx context.Context, q Query, entity string, start Item) ([]Item, Item, error) {
	pkName, skName, indexName, err := t.schema.KeyAttrs(q.Index)
	if err != nil {
		return nil, nil, err
	}
	names := map[string]string{"#pk": pkName}
	values := map[string]types.AttributeValue{":pk": &types.AttributeValueMemberS{Value: q.PK}}
	cond := "#pk = :pk"
	switch q.SK.op {
	case "":
	case "begins_with":
		cond += " AND begins_with(#sk, :a)"
	case "between":
		cond += " AND #sk BETWEEN :a AND :b"
	default:
		cond += " AND #sk " + q.SK.op + " :a"
	}
	if q.SK.op != "" {
		names["#sk"] = skName
		values[":a"] = &types.AttributeValueMemberS{Value: q.SK.a}
		if q.SK.op == "between" {
			values[":b"] = &types.AttributeValueMemberS{Value: q.SK.b}
		}
	}
	var filters []string
	if q.OnlyType != "" {
		names["#type"] = t.schema.TypeAttr
		values[":type"] = &types.AttributeValueMemberS{Value: q.OnlyType}
		filters = append(filters, "#type = :type")
	}
	for i, f := range sortedKeys(q.Filter) {
		av, err := dynamo.Marshal(q.Filter[f])
		if err != nil || av == nil {
			return nil, nil, &ValidationError{Field: "Filter " + f, Reason: fmt.Sprintf("cannot compare with %v", q.Filter[f])}
		}
		if r := codec.Check(av); r != "" {
			return nil, nil, &ValidationError{Field: "Filter " + f, Reason: r}
		}
		n, v := "#f"+strconv.Itoa(i), ":f"+strconv.Itoa(i)
		names[n], values[v] = f, av
		filters = append(filters, n+" = "+v)
	}
	for i, f := range sortedKeys(q.FilterContains) {
		av, err := dynamo.Marshal(q.FilterContains[f])
		if err != nil || av == nil {
			return nil, nil, &ValidationError{Field: "FilterContains " + f, Reason: fmt.Sprintf("cannot look for %v", q.FilterContains[f])}
		}
		if r := codec.Check(av); r != "" {
			return nil, nil, &ValidationError{Field: "FilterContains " + f, Reason: r}
		}
		n, v := "#fc"+strconv.Itoa(i), ":fc"+strconv.Itoa(i)
		names[n], values[v] = f, av
		filters = append(filters, "contains("+n+", "+v+")")
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(t.schema.Name),
		IndexName:                 indexName,
		KeyConditionExpression:    aws.String(cond),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ScanIndexForward:          aws.Bool(!q.Desc),
		ConsistentRead:            aws.Bool(q.Consistent),
		ReturnConsumedCapacity:    t.c.WantCapacity(),
	}
	if len(filters) > 0 {
		in.FilterExpression = aws.String(strings.Join(filters, " AND "))
	}
	if q.project != nil {
		in.ProjectionExpression = aws.String(t.projectionExpr(q.project, []Index{q.Index}, names))
	}
	if q.Limit > 0 {
		in.Limit = aws.Int32(int32(q.Limit))
	}
	if len(start) > 0 {
		in.ExclusiveStartKey = start
	}
	began := time.Now()
	out, err := t.client.Query(ctx, in)
	if err != nil {
		err = ddb.MapErr(err)
	}
	ev := Event{Op: "Query", Entity: entity, Duration: time.Since(began), Err: err}
	if indexName != nil {
		ev.Index = *indexName
	}
	if out != nil {
		ev.Capacity = ddb.CapacityOf(out.ConsumedCapacity)
	}
	t.c.Observe(ctx, ev)
	if err != nil {
		return nil, nil, err
	}
	// Items past their TTL that DynamoDB has not deleted yet are dropped
	// here rather than by a FilterExpression: they were read (and paid
	// for) either way, and the check costs nothing client-side.
	items := out.Items[:0:0]
	for _, it := range out.Items {
		if !t.c.Expired(it) {
			items = append(items, it)
		}
	}
	return items, out.LastEvaluatedKey, nil
}

func (t *Table) sealer() *ddb.Sealer {
	t.sealOnce.Do(func() {
		keys := map[string][]byte{}
		for id, k := range t.opts.OldCursorKeys {
			keys[id] = k
		}
		keys[t.opts.CursorKeyID] = t.opts.CursorKey
		s, err := ddb.NewKeyedSealer(t.opts.CursorKeyID, keys, t.opts.CursorMaxAge, t.opts.Now)
		if err != nil { // a key id over 255 bytes: seal with the key alone
			s = ddb.NewSealer(t.opts.CursorKey)
		}
		t.seal = s
	})
	return t.seal
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
	for _, f := range sortedKeys(q.Filter) {
		if err := e.checkAttr("Filter", f); err != nil {
			return page, opErr("query", e.def.Type, Key{}, err)
		}
	}
	for _, f := range sortedKeys(q.FilterContains) {
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
