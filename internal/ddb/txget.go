package ddb

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/expr"
	"github.com/singletable/singletable/internal/keytmpl"
)

// GetRef is one read of a TransactGet: the key, and what the item is (an
// entity type, for errors and events).
type GetRef struct {
	Key  Key
	What string
}

// TransactGet reads gets as one serializable snapshot (TransactGetItems)
// and returns the items in their order, nil where an item is missing or
// expired. No reads, over MaxTxItems or the same key twice are refused
// before sending. Its errors are *OpError.
func (c *Conn) TransactGet(ctx context.Context, gets []GetRef) ([]Item, error) {
	if len(gets) == 0 {
		return nil, OpErr("transact get", "", Key{}, &codec.ValidationError{Field: "gets", Reason: "none given"})
	}
	if len(gets) > MaxTxItems {
		return nil, OpErr("transact get", "", Key{}, fmt.Errorf("%w: %d reads, the limit is %d", ErrTooManyItems, len(gets), MaxTxItems))
	}
	seen := make(map[Key]int, len(gets))
	items := make([]types.TransactGetItem, len(gets))
	for i, g := range gets {
		if err := keytmpl.CheckKey(g.Key); err != nil {
			return nil, OpErr("transact get", g.What, g.Key, err)
		}
		if j, ok := seen[g.Key]; ok {
			return nil, OpErr("transact get", g.What, g.Key, fmt.Errorf("%w: reads %d and %d", ErrDuplicateItem, j, i))
		}
		seen[g.Key] = i
		items[i] = types.TransactGetItem{Get: &types.Get{TableName: aws.String(c.Schema.Name), Key: c.KeyItem(g.Key)}}
	}
	start := time.Now()
	out, err := c.Client.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: items, ReturnConsumedCapacity: c.WantCapacity()})
	if err != nil {
		err = MapErr(err)
	}
	var cu float64
	if out != nil {
		cu = Capacity(out.ConsumedCapacity...)
	}
	c.Observe(ctx, Event{Op: "TransactGetItems", Duration: time.Since(start), Err: err, Capacity: cu})
	if err != nil {
		return nil, OpErr("transact get", "", Key{}, err)
	}
	found := make([]Item, len(gets))
	for i, r := range out.Responses {
		if i < len(gets) && r.Item != nil && !c.Expired(r.Item) {
			found[i] = r.Item
		}
	}
	return found, nil
}

// ConditionCheck returns an action that writes nothing but fails the
// transaction unless the item with key k exists and is live.
func (c *Conn) ConditionCheck(k Key) Op {
	x := expr.New()
	cond := c.Live(x, "")
	return Op{Check: &types.ConditionCheck{
		TableName:                 aws.String(c.Schema.Name),
		Key:                       c.KeyItem(k),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  x.Names,
		ExpressionAttributeValues: x.Vals(),
	}, Key: k, What: "check"}
}
