package ddb

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/keytmpl"
)

// SKCond is a sort-key condition of a query (table.SKCond). The zero
// value matches the whole partition.
type SKCond struct {
	op   string
	a, b string
}

// SKEquals matches sort key v.
func SKEquals(v string) SKCond { return SKCond{op: "=", a: v} }

// SKBeginsWith matches sort keys that start with prefix.
func SKBeginsWith(prefix string) SKCond { return SKCond{op: "begins_with", a: prefix} }

// SKBetween matches sort keys from lo to hi, both inclusive.
func SKBetween(lo, hi string) SKCond { return SKCond{op: "between", a: lo, b: hi} }

// SKCompare matches sort keys that compare with v by op (<, <=, >, >=).
func SKCompare(op, v string) SKCond { return SKCond{op: op, a: v} }

// Query is one key-condition query as it is sent: table.Query's fields,
// with the attributes a projection fetches and the entity type its events
// name.
type Query struct {
	Index          Index
	PK             string
	SK             SKCond
	Desc           bool
	Limit          int
	Cursor         string
	Consistent     bool
	OnlyType       string
	Filter         map[string]any
	FilterContains map[string]any
	Shards         int
	OnlyShards     []int
	ShardBase      bool
	// Project, if not nil, fetches only these attributes (with the
	// table's own, see [Conn.ProjectionExpr]).
	Project []string
	// Entity names the entity type in the query's events.
	Entity string
}

// binding names the query's access pattern and partition for its cursor.
func (q Query) binding(table string) string {
	parts := []string{table, strconv.Itoa(int(q.Index)), q.PK, q.SK.op, q.SK.a, q.SK.b,
		strconv.FormatBool(q.Desc), q.OnlyType}
	for _, f := range slices.Sorted(maps.Keys(q.Filter)) {
		parts = append(parts, f, fmt.Sprint(q.Filter[f]))
	}
	for _, f := range slices.Sorted(maps.Keys(q.FilterContains)) {
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

func (q Query) validate() error {
	if q.PK == "" {
		return &codec.ValidationError{Field: "PK", Reason: "empty partition key", Key: true}
	}
	if err := keytmpl.CheckKeyValue("PK", q.PK, 2048); err != nil {
		return err
	}
	if q.Limit < 0 {
		return &codec.ValidationError{Field: "Limit", Reason: "negative"}
	}
	if q.SK.op != "" && q.SK.a == "" && q.SK.op != "between" {
		return &codec.ValidationError{Field: "SK", Reason: "empty sort-key value", Key: true}
	}
	if q.SK.op == "between" && q.SK.a > q.SK.b {
		return &codec.ValidationError{Field: "SK", Reason: fmt.Sprintf("range reversed: %q > %q", q.SK.a, q.SK.b), Key: true}
	}
	if err := q.checkShards(); err != nil {
		return err
	}
	if q.Consistent && q.Index != Primary {
		return &codec.ValidationError{Field: "Consistent", Reason: "GSIs support only eventually consistent reads"}
	}
	return nil
}

// Query validates q and serves one page of it: one Query request, or with
// q.Shards above 1 one per shard, sent at once, merged ([Conn.queryShards]).
// It returns the items (expired items excluded) and the sealed cursor of
// the next page ("" when there is none); q.Cursor must be one it returned
// for the same query and partition, else [ErrInvalidCursor].
func (c *Conn) Query(ctx context.Context, q Query) ([]Item, string, error) {
	if err := q.validate(); err != nil {
		return nil, "", err
	}
	if q.Shards > 1 {
		return c.queryShards(ctx, q)
	}
	pkName, _, _, err := c.Schema.KeyAttrs(q.Index)
	if err != nil {
		return nil, "", err
	}
	binding := q.binding(c.Schema.Name)
	var start Item
	if q.Cursor != "" {
		pos, err := c.Sealer.Open(binding, q.Cursor)
		if err != nil {
			return nil, "", err
		}
		if pos[pkName] != q.PK {
			return nil, "", fmt.Errorf("%w: cursor is for another partition", ErrInvalidCursor)
		}
		start = make(Item, len(pos))
		for k, v := range pos {
			start[k] = &types.AttributeValueMemberS{Value: v}
		}
	}
	items, last, err := c.queryRaw(ctx, q, start)
	if err != nil {
		return nil, "", err
	}
	var cursor string
	if len(last) > 0 {
		pos, err := keyPosition(last)
		if err != nil {
			return nil, "", err
		}
		if cursor, err = c.Sealer.Seal(binding, pos); err != nil {
			return nil, "", err
		}
	}
	return items, cursor, nil
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
func (c *Conn) queryRaw(ctx context.Context, q Query, start Item) ([]Item, Item, error) {
	pkName, skName, indexName, err := c.Schema.KeyAttrs(q.Index)
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
		names["#type"] = c.Schema.TypeAttr
		values[":type"] = &types.AttributeValueMemberS{Value: q.OnlyType}
		filters = append(filters, "#type = :type")
	}
	for i, f := range slices.Sorted(maps.Keys(q.Filter)) {
		av, err := dynamo.Marshal(q.Filter[f])
		if err != nil || av == nil {
			return nil, nil, &codec.ValidationError{Field: "Filter " + f, Reason: fmt.Sprintf("cannot compare with %v", q.Filter[f])}
		}
		if r := codec.Check(av); r != "" {
			return nil, nil, &codec.ValidationError{Field: "Filter " + f, Reason: r}
		}
		n, v := "#f"+strconv.Itoa(i), ":f"+strconv.Itoa(i)
		names[n], values[v] = f, av
		filters = append(filters, n+" = "+v)
	}
	for i, f := range slices.Sorted(maps.Keys(q.FilterContains)) {
		av, err := dynamo.Marshal(q.FilterContains[f])
		if err != nil || av == nil {
			return nil, nil, &codec.ValidationError{Field: "FilterContains " + f, Reason: fmt.Sprintf("cannot look for %v", q.FilterContains[f])}
		}
		if r := codec.Check(av); r != "" {
			return nil, nil, &codec.ValidationError{Field: "FilterContains " + f, Reason: r}
		}
		n, v := "#fc"+strconv.Itoa(i), ":fc"+strconv.Itoa(i)
		names[n], values[v] = f, av
		filters = append(filters, "contains("+n+", "+v+")")
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(c.Schema.Name),
		IndexName:                 indexName,
		KeyConditionExpression:    aws.String(cond),
		ExpressionAttributeNames:  names,
		ExpressionAttributeValues: values,
		ScanIndexForward:          aws.Bool(!q.Desc),
		ConsistentRead:            aws.Bool(q.Consistent),
		ReturnConsumedCapacity:    c.WantCapacity(),
	}
	if len(filters) > 0 {
		in.FilterExpression = aws.String(strings.Join(filters, " AND "))
	}
	if q.Project != nil {
		in.ProjectionExpression = aws.String(c.ProjectionExpr(q.Project, []Index{q.Index}, names))
	}
	if q.Limit > 0 {
		in.Limit = aws.Int32(int32(q.Limit))
	}
	if len(start) > 0 {
		in.ExclusiveStartKey = start
	}
	began := time.Now()
	out, err := c.Client.Query(ctx, in)
	if err != nil {
		err = MapErr(err)
	}
	ev := Event{Op: "Query", Entity: q.Entity, Duration: time.Since(began), Err: err}
	if indexName != nil {
		ev.Index = *indexName
	}
	if out != nil {
		ev.Capacity = CapacityOf(out.ConsumedCapacity)
	}
	c.Observe(ctx, ev)
	if err != nil {
		return nil, nil, err
	}
	// Items past their TTL that DynamoDB has not deleted yet are dropped
	// here rather than by a FilterExpression: they were read (and paid
	// for) either way, and the check costs nothing client-side.
	items := out.Items[:0:0]
	for _, it := range out.Items {
		if !c.Expired(it) {
			items = append(items, it)
		}
	}
	return items, out.LastEvaluatedKey, nil
}

// ProjectionExpr returns the ProjectionExpression of attrs plus the
// engine's own attributes (the keys, type, version and TTL attributes, and
// the keys of the indexes ixs), its names added to names.
func (c *Conn) ProjectionExpr(attrs []string, ixs []Index, names map[string]string) string {
	s := c.Schema
	all := []string{s.PK, s.SK, s.TypeAttr, s.VersionAttr, s.TTLAttr}
	for _, ix := range ixs {
		if d, err := s.GSI(ix); err == nil && ix != Primary {
			all = append(all, d.PK, d.SK)
		}
	}
	all = append(all, attrs...)
	seen := map[string]bool{}
	var b strings.Builder
	for _, a := range all {
		if a == "" || seen[a] {
			continue
		}
		seen[a] = true
		n := "#p" + strconv.Itoa(len(seen))
		names[n] = a
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n)
	}
	return b.String()
}
