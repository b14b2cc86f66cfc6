package ddb

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/expr"
	"github.com/singletable/singletable/internal/keytmpl"
)

// The requests of write-sharded collections (table.Layout): the switch of
// an owner's layout, and the cursor of a page read over its partitions.

// SwitchLayout returns the UpdateItem that sets the owner item's layout
// (attribute attr) to next ("" removes it), on condition that the owner
// is live and, for each attribute of ifEqual, holds its value (nil: is
// absent); it advances the owner's version like every write of it. The
// caller adds the condition on the layout it replaces.
func (c *Conn) SwitchLayout(owner Key, attr, next string, ifEqual map[string]types.AttributeValue) Op {
	x := expr.New()
	cond := c.Live(x, "")
	for i, a := range slices.Sorted(maps.Keys(ifEqual)) {
		n, v := "#wse"+strconv.Itoa(i), ":wse"+strconv.Itoa(i)
		x.Names[n] = a
		if ifEqual[a] == nil {
			cond += " AND attribute_not_exists(" + n + ")"
			continue
		}
		x.Values[v] = ifEqual[a]
		cond += " AND " + n + " = " + v
	}
	x.Names["#wsn"] = attr
	update := "REMOVE #wsn"
	if next != "" {
		x.Values[":wsn"] = &types.AttributeValueMemberS{Value: next}
		update = "SET #wsn = :wsn"
	}
	if va := c.Schema.VersionAttr; va != "" {
		// Like every write of the owner, the switch advances its version,
		// so a whole-item write of the owner read before it fails.
		x.Names["#wsv"], x.Values[":wsone"] = va, codec.Num(1)
		update += " ADD #wsv :wsone"
	}
	return Op{Update: &types.Update{
		TableName:                 aws.String(c.Schema.Name),
		Key:                       c.KeyItem(owner),
		UpdateExpression:          aws.String(update),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Vals(),
	}, Key: owner}
}

// SpanCursor wraps inner, the engine's cursor of a page read over n
// partitions (and the owner's own with base), with those partitions:
// "L8b:" then inner. A page of one partition keeps inner as it is.
func SpanCursor(n int, base bool, inner string) string {
	if inner == "" || n < 2 {
		return inner
	}
	b := ""
	if base {
		b = "b"
	}
	return "L" + strconv.Itoa(n) + b + ":" + inner
}

// ResumeSpan reads a cursor SpanCursor made: the partitions it names and
// the engine's cursor (n is 0 for a cursor without partitions: the query
// reads its own partition).
//
// The prefix is authenticated by the sealed part it comes with: the
// partitions it names (count and base) are part of the binding the engine
// sealed that cursor under, so a prefix changed, inflated, swapped or
// removed makes the sealed part fail to open ([ErrInvalidCursor], before
// any Query). A prefix without a sealed part is refused here: it would
// otherwise start a first page of whatever partitions it names, unread
// layout and all.
func ResumeSpan(cursor string) (n int, base bool, inner string, err error) {
	span, inner, ok := strings.Cut(cursor, ":")
	if !ok || !strings.HasPrefix(span, "L") {
		return 0, false, cursor, nil
	}
	if inner == "" {
		return 0, false, "", fmt.Errorf("list: %w: a layout prefix without its sealed part", ErrInvalidCursor)
	}
	span = span[1:]
	base = strings.HasSuffix(span, "b")
	n, err = strconv.Atoi(strings.TrimSuffix(span, "b"))
	if err != nil || n < 2 || n > keytmpl.MaxShards || strconv.Itoa(n) != strings.TrimSuffix(span, "b") {
		return 0, false, "", fmt.Errorf("list: %w", ErrInvalidCursor)
	}
	return n, base, inner, nil
}

// IfLayout returns o also conditioned on attribute attr holding layout
// text l (absent for "", the zero layout), binding #wsl and :wsl.
func (o Op) IfLayout(attr, l string) Op {
	return o.And(func(x expr.Exprs) string {
		x.Names["#wsl"] = attr
		if l == "" {
			return "attribute_not_exists(#wsl)"
		}
		x.Values[":wsl"] = &types.AttributeValueMemberS{Value: l}
		return "#wsl = :wsl"
	})
}

// InPartition returns o moved to partition key pk (attribute pkAttr),
// the same sort key.
func (o Op) InPartition(pkAttr, pk string) Op {
	av := &types.AttributeValueMemberS{Value: pk}
	o = o.Edit(func(a ActionRef) {
		k := maps.Clone(*a.Key)
		k[pkAttr] = av
		*a.Key = k
	})
	o.Key.PK = pk
	return o
}
